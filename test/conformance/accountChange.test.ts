/**
 * A change of account is never silent: a resource never follows its connection to another account in place (that
 * would update, with the old id, an object of the new account). On both providers: a rotation of credentials alone
 * changes nothing; an explicit connection that moves to another partner replaces (created there, deleted here). The
 * stack's own account: the plugin replaces the provider and its resources (the old provider deletes in the old
 * account); the dynamic providers refuse with a message that says what to do (their delete would run in the new one).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcClient } from "../../sdk";
import { changes, PROVIDER_KINDS, platformStack, values, type PlatformStack } from "../support/platformStack";

describe.each(PROVIDER_KINDS)("account changes: %s provider", (provider) => {
  let p: PlatformStack;
  let second: { partnerId: number; adminSecret: string };
  let other: SvcClient;
  let tokenId: string;

  beforeAll(async () => {
    p = await platformStack({ provider, stackName: `account-${provider}` });
    second = (await p.control("/partners", {})) as { partnerId: number; adminSecret: string };
    other = new SvcClient({ baseUrl: p.emulator.baseUrl, partnerId: second.partnerId, auth: { adminSecret: second.adminSecret } });
    await p.stack.setConfig("secondAdminSecret", { value: second.adminSecret, secret: true });
  }, 120_000);
  afterAll(async () => {
    await other?.close();
    await p?.close();
  });

  it("a rotation of credentials alone (admin secret -> an app token of the same account) changes nothing", async () => {
    await p.setScenario({ tokens: { ci: { description: "CI" } } });
    tokenId = values((await p.stack.up()).outputs).ciId as string;
    const pipeline = await p.client.appTokens.add({ hashType: "SHA256", sessionType: 2, description: "the stack's own credential" });
    await p.stack.removeConfig("svc:adminSecret");
    await p.stack.setAllConfig({ "svc:appTokenId": { value: pipeline.id }, "svc:appToken": { value: pipeline.token!, secret: true } });
    const preview = await p.stack.preview();
    expect(changes(preview.changeSummary)).toEqual({});
    await p.stack.preview({ refresh: true, expectNoChanges: true });
  }, 120_000);

  it("an explicit connection that moves to another partner replaces: created there, deleted here", async () => {
    const connection = { baseUrl: p.emulator.baseUrl, partnerId: second.partnerId, adminSecret: "$secret:secondAdminSecret" };
    await p.setScenario({ tokens: { ci: { description: "CI", connection } } });
    const preview = await p.stack.preview({ diff: true });
    expect(changes(preview.changeSummary)).toEqual({ replace: 1 });
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toEqual({ replace: 1 });
    const moved = values(up.outputs).ciId as string;
    expect((await other.appTokens.get(moved)).description).toBe("CI");
    await expect(p.client.appTokens.get(tokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    // Back to the stack's account, for the next case.
    await p.setScenario({ tokens: { ci: { description: "CI" } } });
    tokenId = values((await p.stack.up()).outputs).ciId as string;
    await expect(other.appTokens.get(moved)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  }, 180_000);

  it("the stack's account moving to another partner is never an update in place", async () => {
    await p.stack.removeConfig("svc:appTokenId");
    await p.stack.removeConfig("svc:appToken");
    await p.stack.setAllConfig({ "svc:partnerId": { value: String(second.partnerId) }, "svc:adminSecret": { value: second.adminSecret, secret: true } });
    if (provider === "dynamic") {
      await expect(p.stack.preview()).rejects.toThrow(
        /the account changed under this resource: it lives in partner \d+, but the connection now reaches partner \d+/,
      );
      expect((await p.client.appTokens.get(tokenId)).status).toBe(2);
      return;
    }
    const up = await p.stack.up();
    expect(changes(up.summary.resourceChanges ?? {})).toMatchObject({ replace: 1 });
    const moved = values(up.outputs).ciId as string;
    expect((await other.appTokens.get(moved)).description).toBe("CI");
    await expect(p.client.appTokens.get(tokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  }, 180_000);
});
