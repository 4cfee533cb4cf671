/**
 * examples/python through the engine and the native plugin (found by `plugins: providers: path`), against an
 * emulator in this process, on the Python language host (sdk/v3 v3.68.0) with the venv's `pulumi` from PyPI and
 * the generated SDK (sdk-gen/python) pip-installed into a folder of this test (`--target`: the cached venv is not
 * changed; PYTHONPATH names it, as an activated venv with `pip install ./sdk-gen/python` would): up, a clean
 * preview, an in-place update, a replacement on hashType, `pulumi import` (the old host writes no code: the test
 * adds the resource to __main__.py, and the preview is clean), destroy; no secret in plain text in the state.
 */
import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { languageTools, repoRoot } from "../../scripts/engineEnv";
import { expectEnumTypoRefused, expectFunctionOutputs } from "./functionChecks";
import { makeOutsideToken, OUTSIDE_TOKEN, type PluginProject, pluginProject, SIGN_SECRET } from "./pluginProject";

describe("examples/python on the plugin", () => {
  let p: PluginProject;
  beforeAll(async () => {
    p = await pluginProject("python");
    // A copy: pip's build writes build/ and *.egg-info beside the sources.
    const sdk = join(p.tmp, "sdk-python");
    cpSync(join(repoRoot, "sdk-gen", "python"), sdk, { recursive: true });
    const site = join(p.tmp, "site");
    await p.exec(
      languageTools().python,
      ["-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q", "--no-build-isolation", "--no-deps", "--target", site, sdk],
      p.tmp,
    );
    p.env.PYTHONPATH = site;
  }, 180_000);
  afterAll(async () => p?.close());

  it("goes up, previews clean, updates in place, replaces, imports and is destroyed", async () => {
    // 1. up: two tokens and a webhook; the token's value is a secret output
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ create: 4 });
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    await expectFunctionOutputs(p, outputs);
    expect(JSON.parse(await p.pulumi("stack", "output", "--json")).pipelineToken).toBe("[secret]");
    expect(await p.client.appTokens.get(outputs.pipelineTokenId)).toMatchObject({
      description: "Deployment pipeline",
      hashType: "SHA256",
      sessionPrivileges: "list:*",
      token: outputs.pipelineToken,
    });
    expect(await p.client.appTokens.get(outputs.backendTokenId)).toMatchObject({ sessionType: 0, sessionDuration: 3600 });
    expect(await p.client.templates.get(outputs.templateId)).toMatchObject({
      url: "https://publishing.example.com/hooks/entry-ready",
      signSecret: SIGN_SECRET,
    });

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

    // 5. pulumi import of a token made outside Pulumi; the Python host (v3.68) cannot write code, so the program
    // gets the declaration by hand, from the inputs the import recorded
    const outside = await makeOutsideToken(p.client);
    const imported = await p.pulumi("import", "svc:index:AppToken", "outside", outside.id, "--generate-code=false", "--protect=false", "--yes");
    expect(imported).toMatch(/1 imported/);
    expect(imported).not.toContain(outside.token);
    expect((await p.resources()).outside?.inputs).toMatchObject(OUTSIDE_TOKEN);
    appendFileSync(
      join(p.dir, "__main__.py"),
      [
        "",
        "# Imported with `pulumi import svc:index:AppToken outside <id>`: declared as it was read.",
        "outside = svc.AppToken(",
        '    "outside",',
        `    description="${OUTSIDE_TOKEN.description}",`,
        `    hash_type="${OUTSIDE_TOKEN.hashType}",`,
        `    session_type="${OUTSIDE_TOKEN.sessionType}",`,
        `    session_duration=${OUTSIDE_TOKEN.sessionDuration},`,
        `    session_privileges="${OUTSIDE_TOKEN.sessionPrivileges}",`,
        ")",
        'pulumi.export("outsideToken", outside.token)',
        "",
      ].join("\n"),
    );
    expect(await p.preview()).toEqual({ same: 5 });
    await p.pulumi("up", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ same: 5 });
    expect(JSON.parse(await p.pulumi("stack", "output", "--json")).outsideToken).toBe("[secret]");
    expect(JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets")).outsideToken).toBe(outside.token);

    // no secret in plain text in the state: the tokens, the signing secret, the admin secret
    const state = p.backendText();
    for (const secret of [outputs.pipelineToken, outside.token, SIGN_SECRET, p.emulator.adminSecret]) expect(state).not.toContain(secret);

    // 6. destroy
    await p.pulumi("destroy", "--yes", "--skip-preview");
    expect(await p.lastChanges()).toEqual({ delete: 5 });
    for (const id of [replacedId, outputs.backendTokenId, outside.id])
      await expect(p.client.appTokens.get(id)).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  }, 480_000);
});
