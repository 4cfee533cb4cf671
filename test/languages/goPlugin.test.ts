/**
 * examples/go through the engine and the native plugin (found by `plugins: providers: path`), against an emulator
 * in this process. No Go language host is served here, so the example is an Automation API program (main.go runs
 * program.Run inline, with its folder as the workspace) built against the generated SDK (sdk-gen/go, by a `replace`
 * in its go.mod); the test builds it and runs it as a user does (`up`, `preview`, `destroy`), with the stack's
 * config set by the CLI: up, a clean preview, an in-place update, a replacement on hashType; `pulumi import` of a
 * token made outside Pulumi (see step 5 for the language host it wants), then test/languages/goplugin previews and
 * goes up with the example's program plus the token's declaration, expecting no change; destroy; no secret in plain
 * text in the state.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engineEnv";
import { expectEnumTypoRefused, expectFunctionOutputs } from "./functionChecks";
import { makeOutsideToken, OUTSIDE_TOKEN, type PluginProject, pluginProject, SIGN_SECRET } from "./pluginProject";

describe("examples/go on the plugin (Automation API)", () => {
  let p: PluginProject;
  let example: string;
  let importer: string;
  beforeAll(async () => {
    p = await pluginProject("go");
    example = join(p.tmp, "svc-go");
    importer = join(p.tmp, "goplugin");
    // Both are compiled by scripts/ensure-languages.sh already, so these only link. Go is needed: it fails without.
    await p.exec("go", ["build", "-o", example, "."], join(repoRoot, "examples", "go"));
    await p.exec("go", ["build", "-o", importer, "."], join(repoRoot, "test", "languages", "goplugin"));
  }, 600_000);
  afterAll(async () => p?.close());

  it("goes up, previews clean, updates in place, replaces, imports and is destroyed", async () => {
    // 1. up: two tokens and a webhook; the token's value is a secret output (main.go prints it masked)
    const up = await p.exec(example, ["up"]);
    expect(up).toMatch(/^pipelineToken: \[secret\]$/m);
    expect(await p.lastChanges()).toEqual({ create: 4 });
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    await expectFunctionOutputs(p, outputs);
    expect(up).not.toContain(outputs.pipelineToken);
    expect(await p.client.appTokens.get(outputs.pipelineTokenId)).toMatchObject({
      description: "Deployment pipeline",
      hashType: "SHA256",
      token: outputs.pipelineToken,
    });
    expect(await p.client.appTokens.get(outputs.backendTokenId)).toMatchObject({ sessionType: 0, sessionDuration: 3600 });
    expect(await p.client.templates.get(outputs.templateId)).toMatchObject({
      url: "https://publishing.example.com/hooks/entry-ready",
      signSecret: SIGN_SECRET,
    });

    // 2. a preview with no change
    const preview = await p.exec(example, ["preview"]);
    expect(preview).toMatch(/Resources:\s*\n\s*4 unchanged/);
    expect(preview).not.toMatch(/to (create|update|replace|delete)/);

    // 3. an in-place update
    await p.pulumi("config", "set", "pipelineDescription", "Deployment pipeline (updated)");
    await p.exec(example, ["up"]);
    expect(await p.lastChanges()).toEqual({ update: 1, same: 3 });
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline (updated)");

    // 4. a replacement: hashType cannot change in place
    await p.pulumi("config", "set", "hashType", "SHA512");
    await p.exec(example, ["up"]);
    expect(await p.lastChanges()).toEqual({ replace: 1, same: 3 });
    const replacedId = JSON.parse(await p.pulumi("stack", "output", "pipelineTokenId", "--json"));
    expect(replacedId).not.toBe(outputs.pipelineTokenId);
    expect((await p.client.appTokens.get(replacedId)).hashType).toBe("SHA512");
    await expect(p.client.appTokens.get(outputs.pipelineTokenId)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
    await expectEnumTypoRefused(p, "SHA512", () => p.exec(example, ["preview"]));
    // In the program itself, the generated enum constants make a typo a compile error (the valid ones, such as
    // svc.HashTypeSHA1 in goplugin/main.go, compile in the builds above).
    await expect(p.exec("go", ["build", "-tags", "enumtypo", "-o", join(p.tmp, "typo"), "."], join(repoRoot, "test", "languages", "goplugin"))).rejects.toThrow(
      /undefined: svc\.HashTypeSHA265/,
    );

    // 5. pulumi import of a token made outside Pulumi. The CLI loads the project's language host even with
    // --generate-code=false (and the Automation API's ImportResources runs the CLI), and no pulumi-language-go is
    // served here: for this one command the project says `runtime: yaml` (the import runs no program; Pulumi's own
    // CLI distribution ships pulumi-language-go, with which the command runs as is). Then the program declares the
    // token (test/languages/goplugin: program.Run plus the declaration), and previews and goes up with no change.
    const outside = await makeOutsideToken(p.client);
    const projectFile = join(p.dir, "Pulumi.yaml");
    const project = readFileSync(projectFile, "utf8");
    await expect(p.pulumi("import", "svc:index:AppToken", "outside", outside.id, "--generate-code=false", "--yes")).rejects.toThrow(
      /no language plugin 'pulumi-language-go' found/,
    );
    writeFileSync(projectFile, project.replace(/^runtime: go$/m, "runtime: yaml"));
    const imported = await p.pulumi("import", "svc:index:AppToken", "outside", outside.id, "--generate-code=false", "--protect=false", "--yes");
    writeFileSync(projectFile, project);
    expect(imported).toMatch(/1 imported/);
    expect(imported).not.toContain(outside.token);
    const report = JSON.parse(await p.exec(importer, ["test"]));
    expect(report).toEqual({ preview: { same: 5 }, up: { same: 5 }, outsideSecret: true, outsideTokenNonEmpty: true });
    expect((await p.resources()).outside?.inputs).toMatchObject(OUTSIDE_TOKEN);
    const state = p.backendText();
    for (const secret of [outputs.pipelineToken, outside.token, SIGN_SECRET, p.emulator.adminSecret]) expect(state).not.toContain(secret);

    // 6. destroy (the example's program alone: the imported token goes too)
    await p.exec(example, ["destroy"]);
    expect(await p.lastChanges()).toEqual({ delete: 5 });
    for (const id of [replacedId, outputs.backendTokenId, outside.id])
      await expect(p.client.appTokens.get(id)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  }, 480_000);
});
