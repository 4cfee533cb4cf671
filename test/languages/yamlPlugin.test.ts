/**
 * examples/yaml through the engine and the native plugin (found by `plugins: providers: path`), against an emulator
 * in this process, on the YAML language host (pulumi-yaml v1.25.0): up, a clean preview, an in-place update, a
 * replacement on hashType, `pulumi import` (the YAML host writes the program's code, which goes into Pulumi.yaml),
 * a second account through an explicit provider, destroy; no secret in plain text in the backend's files.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { SvcClient } from "../../sdk";
import { expectEnumTypoRefused, expectFunctionOutputs } from "./functionChecks";
import { makeOutsideToken, OUTSIDE_TOKEN, type PluginProject, pluginProject, SIGN_SECRET } from "./pluginProject";

/** A Pulumi YAML reference, `${expr}`. */
const ref = (expr: string) => `$\{${expr}}`;

describe("examples/yaml on the plugin", () => {
  let p: PluginProject;
  beforeAll(async () => {
    p = await pluginProject("yaml");
  }, 120_000);
  afterAll(async () => p?.close());

  it("goes up, previews clean, updates in place, replaces, imports, reaches a second account and is destroyed", async () => {
    // 1. up: two tokens and a webhook; the token's value is a secret output
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ create: 4 });
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    await expectFunctionOutputs(p, outputs);
    expect(JSON.parse(await p.pulumi("stack", "output", "--json")).pipelineToken).toBe("[secret]");
    const pipeline = await p.client.appTokens.get(outputs.pipelineTokenId);
    expect(pipeline).toMatchObject({ description: "Deployment pipeline", hashType: "SHA256", token: outputs.pipelineToken });
    expect((await p.client.appTokens.get(outputs.backendTokenId)).sessionType).toBe(0);
    const template = await p.client.templates.get(outputs.templateId);
    expect(template).toMatchObject({ url: "https://publishing.example.com/hooks/entry-ready", signSecret: SIGN_SECRET });

    // 2. a preview with no change
    expect(await p.preview()).toEqual({ same: 4 });

    // 3. an in-place update
    await p.pulumi("config", "set", "pipelineDescription", "Deployment pipeline (updated)");
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ update: 1, same: 3 });
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline (updated)");

    // 4. a replacement: hashType cannot change in place
    await p.pulumi("config", "set", "hashType", "SHA512");
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ replace: 1, same: 3 });
    const replacedId = JSON.parse(await p.pulumi("stack", "output", "pipelineTokenId", "--json"));
    expect(replacedId).not.toBe(outputs.pipelineTokenId);
    expect((await p.client.appTokens.get(replacedId)).hashType).toBe("SHA512");
    await expect(p.client.appTokens.get(outputs.pipelineTokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    await expectEnumTypoRefused(p, "SHA512");

    // 5. pulumi import of a token made outside Pulumi: the YAML host writes the code, which goes into Pulumi.yaml
    const outside = await makeOutsideToken(p.client);
    const codeFile = join(p.tmp, "imported.yaml");
    const imported = await p.pulumi("import", "svc:index:AppToken", "outside", outside.id, "--protect=false", "--yes", "--out", codeFile);
    expect(imported).toMatch(/1 imported/);
    expect(imported).not.toContain(outside.token);
    const code = parse(readFileSync(codeFile, "utf8")) as { resources: Record<string, { type: string; properties: Record<string, unknown> }> };
    // the host writes the short form of the type token (svc:AppToken for svc:index:AppToken)
    expect(code.resources.outside?.type).toMatch(/^svc:(index:)?AppToken$/);
    expect(code.resources.outside?.properties).toMatchObject(OUTSIDE_TOKEN);
    const projectFile = join(p.dir, "Pulumi.yaml");
    const project = parse(readFileSync(projectFile, "utf8"));
    project.resources = { ...project.resources, ...code.resources };
    writeFileSync(projectFile, stringify(project));
    expect(await p.preview()).toEqual({ same: 5 });

    // 6. a second account through an explicit provider (`pulumi:providers:svc`)
    const second = (await (await fetch(`${p.emulator.controlUrl}/partners`, { method: "POST", body: "{}" })).json()) as {
      partnerId: number;
      adminSecret: string;
    };
    await p.pulumi("config", "set", "secondPartnerId", String(second.partnerId));
    await p.pulumi("config", "set", "--secret", "secondAdminSecret", second.adminSecret);
    project.config = { ...project.config, secondPartnerId: { type: "integer" }, secondAdminSecret: { type: "string", secret: true } };
    project.resources["second-account"] = {
      type: "pulumi:providers:svc",
      properties: { baseUrl: p.emulator.baseUrl, partnerId: ref("secondPartnerId"), adminSecret: ref("secondAdminSecret") },
    };
    project.resources["second-pipeline"] = {
      type: "svc:index:AppToken",
      properties: { description: "Pipeline of the second account" },
      options: { provider: ref("second-account") },
    };
    project.outputs = { ...project.outputs, secondTokenId: ref("second-pipeline.tokenId"), secondPartner: ref("second-pipeline.partnerId") };
    writeFileSync(projectFile, stringify(project));
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ create: 2, same: 5 });
    const secondOutputs = JSON.parse(await p.pulumi("stack", "output", "--json"));
    expect(secondOutputs.secondPartner).toBe(second.partnerId);
    const other = new SvcClient({ baseUrl: p.emulator.baseUrl, partnerId: second.partnerId, auth: { adminSecret: second.adminSecret } });
    try {
      expect((await other.appTokens.get(secondOutputs.secondTokenId)).description).toBe("Pipeline of the second account");
      // no secret in plain text in the state: tokens, signing secret, both accounts' admin secrets
      const state = p.backendText();
      for (const secret of [outputs.pipelineToken, outside.token, SIGN_SECRET, p.emulator.adminSecret, second.adminSecret]) expect(state).not.toContain(secret);

      // 7. destroy: everything, each from its own account
      await p.pulumi("destroy", "--yes", "--skip-preview");
      expect(await p.lastChanges()).toEqual({ delete: 7 });
      await expect(p.client.appTokens.get(replacedId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
      await expect(p.client.appTokens.get(outside.id)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
      await expect(other.appTokens.get(secondOutputs.secondTokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    } finally {
      await other.close();
    }
  }, 480_000);
});
