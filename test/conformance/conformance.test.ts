/**
 * One conformance suite, two providers: the same program (test/e2e/fixtures/platform) and the same cases through the
 * real engine against the emulator, once on the dynamic providers and once on the native plugin. Create, no-change
 * preview, drift shown by refresh, update in place, replacement, out-of-band delete, adoption, no secret at rest,
 * destroy. (Faults at 40%: test/conformance/faults.plugin.test.ts and test/e2e/faultMatrix.*; import: test/plugin.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backendFilesText } from "../support/pulumi";
import { changes, PROVIDER_KINDS, platformStack, SIGN_SECRET, values, type PlatformStack, type Scenario } from "../support/platformStack";

const template = (version: string) => ({
  event: "entry.ready",
  name: "Conformance hook",
  systemName: "CONFORMANCE_HOOK",
  description: version,
  url: "https://hooks.example/c",
  signSecret: "$signSecret",
});
const program = (description: string, hashType = "SHA256", extra: Scenario["tokens"] = {}): Scenario => ({
  tokens: { ci: { description, hashType, sessionPrivileges: "list:*" }, ...extra },
  templates: { hook: template("v1") },
});

describe.each(PROVIDER_KINDS)("conformance: %s provider", (provider) => {
  let p: PlatformStack;
  let tokenId: string;
  let tokenValue: string;
  let hookId: string;

  beforeAll(async () => {
    p = await platformStack({ provider, stackName: `conformance-${provider}` });
  }, 120_000);
  afterAll(async () => p?.close());

  it("up creates a token (its value a secret) and an active webhook template", async () => {
    await p.setScenario(program("CI pipeline"));
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 3 });
    expect(up.outputs.ciToken?.secret).toBe(true);
    const out = values(up.outputs);
    tokenId = out.ciId as string;
    tokenValue = out.ciToken as string;
    hookId = out.hookId as string;
    expect(tokenValue).toMatch(/^[0-9a-f]{64}$/);
    expect(await p.client.appTokens.get(tokenId)).toMatchObject({ description: "CI pipeline", hashType: "SHA256", status: 2 });
    expect(await p.client.templates.get(hookId)).toMatchObject({ systemName: "CONFORMANCE_HOOK", status: 2 });
  }, 120_000);

  it("preview of the unchanged program shows no change", async () => {
    const preview = await p.stack.preview();
    expect(preview.changeSummary).toEqual({ same: 3 });
  }, 60_000);

  it("refresh shows a change made outside Pulumi, and up restores the declared value", async () => {
    await p.client.appTokens.update(tokenId, { description: "edited by hand" });
    // The refresh's own summary shows the drift (a `preview --refresh` would make the same Reads).
    const refresh = await p.stack.refresh();
    expect(changes(refresh.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ update: 1 });
    expect((await p.client.appTokens.get(tokenId)).description).toBe("CI pipeline");
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  }, 120_000);

  it("an updatable field updates in place: same id, same token value", async () => {
    await p.setScenario({ ...program("CI pipeline v2"), templates: { hook: template("v2") } });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ update: 2 });
    expect(values(up.outputs)).toMatchObject({ ciId: tokenId, ciToken: tokenValue, hookId });
    expect((await p.client.templates.get(hookId)).description).toBe("v2");
  }, 120_000);

  it("a hashType change replaces the token: a new one is created, the old one deleted", async () => {
    await p.setScenario({ ...program("CI pipeline v2", "SHA512"), templates: { hook: template("v2") } });
    // The up's summary is the plan it carried out (a preview first would plan the same diff).
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ replace: 1 });
    const out = values(up.outputs);
    expect(out.ciId).not.toBe(tokenId);
    expect(out.ciToken).toMatch(/^[0-9a-f]{128}$/);
    await expect(p.client.appTokens.get(tokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    tokenId = out.ciId as string;
    tokenValue = out.ciToken as string;
  }, 120_000);

  it("an object deleted outside Pulumi: refresh drops it, up creates it again", async () => {
    await p.client.appTokens.delete(tokenId);
    const refresh = await p.stack.refresh();
    expect(changes(refresh.summary.resourceChanges ?? {})).toEqual({ delete: 1 });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 1 });
    tokenId = values(up.outputs).ciId as string;
    tokenValue = values(up.outputs).ciToken as string;
    expect((await p.client.appTokens.get(tokenId)).status).toBe(2);
  }, 120_000);

  it("adoptId takes over a token made outside Pulumi: no second token, its fields converge", async () => {
    const external = await p.client.appTokens.add({ hashType: "SHA256", description: "made by hand", sessionPrivileges: "list:*" });
    const before = (await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()).length;
    await p.setScenario({
      ...program("CI pipeline v2", "SHA512", { adopted: { adoptId: external.id, hashType: "SHA256", description: "adopted" } }),
      templates: { hook: template("v2") },
    });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ create: 1 });
    expect(values(up.outputs).adoptedId).toBe(external.id);
    expect((await p.client.appTokens.iterate({ statusEqual: 2 }).toArray()).length).toBe(before);
    expect((await p.client.appTokens.get(external.id)).description).toBe("adopted");
  }, 120_000);

  it("no secret is at rest in plain text: token values, the signing secret, the admin secret", async () => {
    const text = backendFilesText(p.backendDir);
    expect(text).toContain(tokenId);
    for (const secret of [tokenValue, SIGN_SECRET, p.emulator.adminSecret]) expect(text).not.toContain(secret);
  }, 60_000);

  it("destroy deletes every managed object", async () => {
    const destroy = await p.stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    await expect(p.client.appTokens.get(tokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    expect((await p.client.templates.get(hookId).catch((e: { code: string }) => e)).code ?? "").toMatch(/NOT_FOUND|^$/);
  }, 120_000);
});
