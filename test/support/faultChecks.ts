/**
 * Checks of a stack against the emulator after an operation under faults: the platform holds exactly the objects the
 * state records (no orphan, no duplicate, nothing deleted that the state still holds) and nothing is left pending.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { SvcClient } from "../../sdk";

export interface ServerAndState {
  server: { tokens: string[]; templates: string[] };
  state: { tokens: string[]; templates: string[]; pending: number };
}

export async function serverAndState(stack: Stack, client: SvcClient): Promise<ServerAndState> {
  const deployment = (await stack.exportStack()).deployment as {
    resources?: Array<{ type: string; id?: string; delete?: boolean }>;
    pending_operations?: unknown[];
  };
  const resources = deployment.resources ?? [];
  const idsOf = (suffix: string) =>
    resources
      .filter((r) => r.type.endsWith(suffix) && r.id)
      .map((r) => r.id as string)
      .sort();
  const tokens = (await client.appTokens.iterate({ statusEqual: 2 }).toArray()).map((t) => t.id).sort();
  const templates = (await client.templates.iterate().toArray())
    .filter((t) => t.status !== 3)
    .map((t) => t.id)
    .sort();
  return {
    server: { tokens, templates },
    state: {
      tokens: idsOf("AppToken"),
      templates: idsOf("HttpNotificationTemplate"),
      pending: (deployment.pending_operations?.length ?? 0) + resources.filter((r) => r.delete).length,
    },
  };
}
