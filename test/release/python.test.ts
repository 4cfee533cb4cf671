/**
 * The release from Python as a user with no clone and no Node.js gets it: `pulumi new ./templates/svc-python`
 * makes the project's virtualenv and pip-installs only the release's wheel (PIP_FIND_LINKS names the release
 * folder) and `pulumi` from PyPI; `pulumi up` on a fresh PULUMI_HOME, where the engine downloads the plugin from the
 * release server (the wheel's pulumi-plugin.json and its resources name version and URL); preview clean; destroy.
 * Then every resource's Python example (plugin/examples.ts, the schema's descriptions) runs under Pulumi's mocks.
 * The commands' PATH holds the engine, the Python language host and a python3, and no `node`.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { examplesOf } from "../../plugin/examples";
import { DEFINITIONS } from "../../provider/definitions";
import { languageTools } from "../../scripts/engineEnv";
import { engineBinDir } from "../support/pulumi";
import { HOST_ARCHIVE, hostRelease, newFromTemplate, type ReleaseProject, releaseProject, VERSION } from "./releaseFixture";

const EXAMPLES = examplesOf(DEFINITIONS);

describe("the release from Python (the wheel, no Node.js)", () => {
  let p: ReleaseProject;
  beforeAll(async () => {
    const tools = languageTools();
    // The interpreter the cached venv was made from, alone in a bin folder: python3 without the rest of /usr/bin.
    const interpreter = execFileSync(tools.python, ["-c", "import sys, os; print(os.path.realpath(sys.executable))"], { encoding: "utf8" }).trim();
    const python = await releaseProject({ env: { PIP_FIND_LINKS: hostRelease(), PIP_DISABLE_PIP_VERSION_CHECK: "1" } });
    const bin = join(python.tmp, "bin");
    mkdirSync(bin);
    for (const name of ["python3", "python"]) symlinkSync(interpreter, join(bin, name));
    python.env.PATH = [engineBinDir(), ...tools.bins, bin].join(":");
    p = python;
  }, 300_000);
  afterAll(async () => p?.close());

  it("pulumi new installs the wheel, up downloads the plugin, preview is clean, destroy", async () => {
    await expect(p.exec("sh", ["-c", "command -v node"])).rejects.toThrow();
    const started = Date.now();
    await newFromTemplate(p, "svc-python");
    const newMs = Date.now() - started;
    // `pulumi new` made the virtualenv and pip-installed requirements.txt into it. The Python host served here
    // (v3.68) makes it in the project folder itself rather than in Pulumi.yaml's `venv` (a current host uses
    // `venv`), and runs the program with the one VIRTUAL_ENV names.
    const venv = existsSync(join(p.dir, "venv", "bin", "python")) ? join(p.dir, "venv") : p.dir;
    p.env.VIRTUAL_ENV = venv;
    p.env.PULUMI_PYTHON_CMD = join(venv, "bin", "python");
    await p.pulumi("up", "--yes");
    const ms = Date.now() - started;
    const installed = await p.exec(p.env.PULUMI_PYTHON_CMD!, ["-m", "pip", "list", "--format=json"]);
    expect(JSON.parse(installed)).toContainEqual({ name: "pulumi_svc", version: VERSION });
    expect(p.server.requests).toContain(`/${HOST_ARCHIVE}`);
    expect(await p.installedPlugins()).toContainEqual(expect.objectContaining({ name: "svc", version: VERSION }));
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets"));
    expect((await p.client.appTokens.get(outputs.pipelineTokenId)).description).toBe("Deployment pipeline");
    expect(JSON.parse(await p.pulumi("stack", "output", "--json")).pipelineToken).toBe("[secret]");
    expect(p.backendText()).not.toContain(outputs.pipelineToken);
    expect(readFileSync(join(p.dir, "Pulumi.test.yaml"), "utf8")).not.toContain(p.emulator.adminSecret);
    const preview = JSON.parse(await p.pulumi("preview", "--json")) as { changeSummary?: Record<string, number> };
    expect(preview.changeSummary).toEqual({ same: 2 });
    await p.pulumi("destroy", "--yes");
    console.log(`python: empty PULUMI_HOME to a finished pulumi up (pulumi new with its venv and pip install ${newMs} ms) in ${ms} ms`);
  }, 400_000);

  it("every resource's Python example in the schema runs against the installed wheel (Pulumi's mocks)", async () => {
    const dir = join(p.tmp, "examples");
    mkdirSync(dir);
    for (const [type, example] of Object.entries(EXAMPLES)) writeFileSync(join(dir, `${type}.py`), `${example.python}\n`);
    // Each example as a program under Pulumi's mocks, in its own interpreter: a wrong argument name or type fails at
    // the constructor; the registrations are awaited and listed.
    const runner = [
      "import asyncio, runpy, sys",
      "import pulumi",
      "from pulumi.runtime.stack import wait_for_rpcs",
      "registered = []",
      "class Mocks(pulumi.runtime.Mocks):",
      "    def new_resource(self, args):",
      "        registered.append(args.typ)",
      "        return [args.name + '-id', args.inputs]",
      "    def call(self, args):",
      "        return {}",
      "pulumi.runtime.set_mocks(Mocks(), project='examples', stack='test', preview=False)",
      "pulumi.runtime.set_all_config({'examples:webhookSigningSecret': 'examples-signing-secret-0123456789'})",
      "runpy.run_path(sys.argv[1])",
      "asyncio.get_event_loop().run_until_complete(wait_for_rpcs())",
      "print(' '.join(registered))",
    ].join("\n");
    writeFileSync(join(p.tmp, "run_example.py"), runner);
    const registered: string[] = [];
    for (const type of Object.keys(EXAMPLES)) {
      registered.push(...(await p.exec(p.env.PULUMI_PYTHON_CMD!, [join(p.tmp, "run_example.py"), join(dir, `${type}.py`)])).trim().split(" "));
    }
    expect(registered).toEqual(Object.keys(EXAMPLES).map((type) => `svc:index:${type}`));
  }, 120_000);
});
