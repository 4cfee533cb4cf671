/**
 * Checks of a stack against the emulator after an operation under faults: the platform holds exactly the objects the
 * state records (no orphan, no duplicate, nothing deleted that the state still holds) and nothing is left pending.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { TemplateType } from "../../contract/platform";
import type { SvcClient } from "../../sdk";

export interface ServerAndState {
  /** Active app tokens, and the account's HTTP and email templates that are not deleted. */
  server: { tokens: string[]; templates: string[]; emailTemplates: string[] };
  state: { tokens: string[]; templates: string[]; emailTemplates: string[]; pending: number };
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
  const live = (list: { id: string; status: number }[]) =>
    list
      .filter((t) => t.status !== 3)
      .map((t) => t.id)
      .sort();
  const templates = live(await client.templates.iterate({ typeEqual: TemplateType.HTTP }).toArray());
  const emailTemplates = live(await client.emailTemplates.iterate().toArray());
  return {
    server: { tokens, templates, emailTemplates },
    state: {
      tokens: idsOf("AppToken"),
      templates: idsOf("HttpNotificationTemplate"),
      emailTemplates: idsOf("EmailNotificationTemplate"),
      pending: (deployment.pending_operations?.length ?? 0) + resources.filter((r) => r.delete).length,
    },
  };
}
