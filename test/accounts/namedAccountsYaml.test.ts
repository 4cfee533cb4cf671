/**
 * Named accounts in a YAML program, through the engine and the native plugin, against one emulator with five
 * partner accounts: a reseller's stack made with one explicit provider per account (`pulumi:providers:svc`) moves
 * to examples/reseller (one provider, `svc:accounts` set with `pulumi config set --path`, each resource naming its
 * account) with nothing created, deleted or replaced and every id the same; each account then holds exactly its
 * objects; a function takes `account`; an unknown name is refused in preview with the names known; no credential is
 * in the state or any output (the secret scan at close).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type PluginProject, pluginProject } from "../languages/pluginProject";

const CUSTOMERS = ["acme", "globex", "initech", "umbrella", "hooli"] as const;
const ref = (expr: string) => `$\{${expr}}`;

describe("named accounts in a YAML program (examples/reseller)", () => {
  let p: PluginProject;
  let partners: Record<string, { partnerId: number; adminSecret: string }>;
  let named: string;

  beforeAll(async () => {
    p = await pluginProject("reseller");
    partners = Object.fromEntries(
      CUSTOMERS.map((c) => {
        const row = p.emulator.ctx.createPartner();
        return [c, { partnerId: row.id, adminSecret: row.adminSecret }];
      }),
    );
    for (const { adminSecret } of Object.values(partners)) p.scan.register("a customer's admin secret", adminSecret);
    named = readFileSync(join(p.dir, "Pulumi.yaml"), "utf8");
  }, 120_000);
  afterAll(async () => p?.close());

  /** Each customer's active tokens on the platform, by description. */
  const tokensByCustomer = () =>
    Object.fromEntries(
      CUSTOMERS.map((c) => [
        c,
        p.emulator.ctx.store
          .listDocs<{ id: string; status: number; description: string }>("appToken", partners[c]!.partnerId)
          .filter((d) => d.status === 2)
          .map((d) => d.id),
      ]),
    );

  it("moves a stack of explicit providers to named accounts without replacement; isolation, a function, an unknown name", async () => {
    // 1. Before: one explicit provider per customer, the tokens of examples/reseller under it.
    const project = parse(named) as {
      config?: Record<string, unknown>;
      resources: Record<string, Record<string, unknown>>;
      variables?: unknown;
      outputs: Record<string, unknown>;
    };
    const before = structuredClone(project);
    delete before.variables;
    delete (before.outputs as Record<string, unknown>).acmeTokenIds;
    before.config = {};
    for (const c of CUSTOMERS) {
      before.config[`${c}PartnerId`] = { type: "integer" };
      before.config[`${c}AdminSecret`] = { type: "string", secret: true };
      before.resources[`${c}-account`] = {
        type: "pulumi:providers:svc",
        properties: { baseUrl: p.emulator.baseUrl, partnerId: ref(`${c}PartnerId`), adminSecret: ref(`${c}AdminSecret`) },
      };
      const token = before.resources[`${c}-pipeline`] as { properties: Record<string, unknown>; options?: unknown };
      delete token.properties.account;
      token.options = { provider: ref(`${c}-account`) };
      await p.pulumi("config", "set", `${c}PartnerId`, String(partners[c]!.partnerId));
      await p.pulumi("config", "set", "--secret", `${c}AdminSecret`, partners[c]!.adminSecret);
    }
    writeFileSync(join(p.dir, "Pulumi.yaml"), stringify(before));
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ create: 11 });
    const made = tokensByCustomer();
    const idsBefore = JSON.parse(await p.pulumi("stack", "output", "tokenIds", "--json")) as Record<string, string>;
    for (const c of CUSTOMERS) expect(made[c]).toEqual([idsBefore[c]]);

    // 2. After: examples/reseller as it is, the accounts in stack config by path (credentials as secrets).
    for (const c of CUSTOMERS) {
      await p.pulumi("config", "set", "--path", `svc:accounts.${c}.baseUrl`, p.emulator.baseUrl);
      await p.pulumi("config", "set", "--path", `svc:accounts.${c}.partnerId`, String(partners[c]!.partnerId));
      await p.pulumi("config", "set", "--path", "--secret", `svc:accounts.${c}.adminSecret`, partners[c]!.adminSecret);
    }
    writeFileSync(join(p.dir, "Pulumi.yaml"), named);
    // The preview: each token's `account` recorded (an update that calls nothing), the five providers gone; no create, no replace.
    expect(await p.preview()).toEqual({ update: 5, delete: 5, same: 1 });
    p.emulator.ctx.stats.reset();
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ update: 5, delete: 5, same: 1 });
    // Nothing written to the platform: the same tokens, each in its own account, ids unchanged.
    const calls = p.emulator.ctx.stats.snapshot();
    expect(Object.keys(calls).filter((call) => /\.(add|update|delete)$/.test(call))).toEqual([]);
    expect(tokensByCustomer()).toEqual(made);
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json")) as {
      tokenIds: Record<string, string>;
      partners: Record<string, number>;
      acmeTokenIds: string[];
    };
    expect(outputs.tokenIds).toEqual(idsBefore);
    for (const c of CUSTOMERS) expect(outputs.partners[c]).toBe(partners[c]!.partnerId);
    // The function searched acme's account only.
    expect(outputs.acmeTokenIds).toEqual([idsBefore.acme]);
    // The own account (svc:partnerId) holds none of them.
    expect(p.emulator.ctx.store.listDocs<{ status: number; description: string }>("appToken", p.emulator.partnerId).filter((d) => d.status === 2)).toEqual([]);
    expect(await p.preview()).toEqual({ same: 6 });
    // The state records each token's account by name; `accounts` is kept secret (the scan at close checks every credential).
    const state = await p.resources();
    expect(state["acme-pipeline"]?.outputs?.account).toBe("acme");

    // 3. An unknown name: refused in preview, naming it and the names known.
    writeFileSync(join(p.dir, "Pulumi.yaml"), named.replace("account: hooli", "account: hoolii"));
    // (`pulumi preview --json` prints the message inside JSON: its quotes come escaped.)
    await expect(p.preview()).rejects.toThrow(
      /account \\*"hoolii\\*" is unknown: this provider knows \\*"acme\\*", \\*"globex\\*", \\*"hooli\\*", \\*"initech\\*", \\*"umbrella\\*"/,
    );
    writeFileSync(join(p.dir, "Pulumi.yaml"), named);
  }, 420_000);
});
