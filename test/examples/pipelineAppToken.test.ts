/**
 * examples/pipeline-app-token for real: the example's own bootstrap code makes the pipeline token with the admin
 * secret, then the example's program runs with only `svc:appTokenId` + secret `svc:appToken` (no admin secret
 * in config or environment) and creates its resources; bumping `tokenRotation` rotates the backend token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcApiError } from "pulumi-svc/sdk";
import { createPipelineToken } from "../../examples/pipeline-app-token/createPipelineToken";
import { backendFilesText } from "../support/pulumi";
import { values } from "../support/platformStack";
import { exampleStack, type ExampleStack } from "./exampleStack";

const SIGN_SECRET = "pipeline-example-signing-secret-0123";

describe("examples/pipeline-app-token", () => {
  let p: ExampleStack;
  let pipelineToken: { id: string; token: string };

  beforeAll(async () => {
    p = await exampleStack("pipeline-app-token", () => ({}));
    // The bootstrap, as bootstrap.ts runs it: an admin client, once.
    pipelineToken = await createPipelineToken(p.admin, { description: "e2e pipeline" });
    await p.stack.setAllConfig({
      "svc:baseUrl": { value: p.emulator.baseUrl },
      "svc:partnerId": { value: String(p.emulator.partnerId) },
      "svc:appTokenId": { value: pipelineToken.id },
      "svc:appToken": { value: pipelineToken.token, secret: true },
      webhookUrl: { value: "https://hooks.example.com/entry-ready" },
      webhookSigningSecret: { value: SIGN_SECRET, secret: true },
    });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it("bootstrap makes an ADMIN SHA256 token with disableentitlement", async () => {
    expect(pipelineToken.token).toMatch(/^[0-9a-f]{64}$/);
    expect(await p.admin.appTokens.get(pipelineToken.id)).toMatchObject({
      sessionType: 2,
      sessionPrivileges: "disableentitlement",
      hashType: "SHA256",
      status: 2,
      description: "e2e pipeline",
    });
  });

  it("the program runs on the app token alone and creates its token and webhook", async () => {
    const config = await p.stack.getAllConfig();
    expect(Object.keys(config).sort()).not.toContain("svc:adminSecret");
    await p.control("/stats/reset", {});

    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    const out = values(up.outputs);

    // Every call went out on a session minted from the pipeline token: no session.start (which needs the admin secret).
    const stats = (await p.control("/stats")) as Record<string, number>;
    expect(stats["appToken.startSession"]).toBeGreaterThanOrEqual(1);
    expect(stats["session.start"]).toBeUndefined();

    const backend = await p.admin.appTokens.get(out.backendTokenId as string);
    expect(backend).toMatchObject({ sessionType: 0, sessionDuration: 3600, status: 2, description: "backend service (managed by the pipeline)" });
    expect(out.backendTokenValue).toBe(backend.token);
    expect(up.outputs.backendTokenValue?.secret).toBe(true);
    const template = await p.admin.templates.get(out.entryReadyTemplateId as string);
    expect(template).toMatchObject({ status: 2, systemName: "PIPELINE_ENTRY_READY", url: "https://hooks.example.com/entry-ready" });

    // Neither the pipeline token nor the managed one sits in the state in plain text.
    const atRest = backendFilesText(p.backendDir);
    expect(atRest).not.toContain(pipelineToken.token);
    expect(atRest).not.toContain(backend.token);
    expect(atRest).not.toContain(SIGN_SECRET);
  }, 120_000);

  it("bumping tokenRotation replaces the backend token (new one first) and revokes the old one", async () => {
    const before = values(await p.stack.outputs());
    await p.stack.setConfig("tokenRotation", { value: "2" });
    const up = await p.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 2 });
    const after = values(up.outputs);
    expect(after.backendTokenId).not.toBe(before.backendTokenId);
    expect(after.backendTokenValue).not.toBe(before.backendTokenValue);
    expect((await p.admin.appTokens.get(after.backendTokenId as string)).status).toBe(2);
    const old = await p.admin.appTokens.get(before.backendTokenId as string).catch((error: unknown) => error);
    expect(old).toBeInstanceOf(SvcApiError);
    expect((old as SvcApiError).code).toBe("APP_TOKEN_ID_NOT_FOUND");
    expect(after.entryReadyTemplateId).toBe(before.entryReadyTemplateId);
  }, 120_000);
});
