/**
 * examples/gitops's GitHub workflow, run for real: its jobs' own `run:` steps, extracted from the files in order,
 * against the emulator, for the dev stack, in the order a repository sees them: a pull request's preview (the
 * diff written for the PR comment), the merge's `pulumi up`, and a scheduled drift check that fails and reports
 * after a change made outside Pulumi. (That the same command passes on a clean stack is test/e2e/appToken.test.ts's
 * drift check: one job less keeps this file cheap, each job being a fresh `npm ci`.) Each job starts from a fresh
 * copy of the checkout (the example with a lock file pointing at the packed tarball, as a user's repo would point
 * at the registry) and authenticates with an app token only: the admin secret is not in any job's environment.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcClient } from "pulumi-svc/sdk";
import { createPipelineToken } from "../../examples/pipeline-app-token/createPipelineToken";
import { enginePinnedVersion } from "../../scripts/engineEnv";
import { repoRoot } from "../support/pulumi";
import { cleanEnv, runOk, scratchDir } from "./processes";
import { packRepo, repoToolVersion } from "./packedPackage";
import { readWorkflow, runJobSteps, type ExpressionContext, type StepResult, type Workflow } from "./workflowRunner";

const exampleDir = join(repoRoot, "examples", "gitops");
const workflowsDir = join(exampleDir, ".github", "workflows");
const PASSPHRASE = "gitops-test-passphrase";

describe("examples/gitops workflow: its run: steps against the emulator", () => {
  let tmp: string;
  let checkout: string;
  let emulator: RunningEmulator;
  let admin: SvcClient;
  let pipelineToken: { id: string; token: string };
  let infrastructure: Workflow;
  let pulumiUp: Workflow;
  let jobCount = 0;
  const printed: string[] = [];

  /** One job on a fresh runner: a copy of the checkout, the job's env, GitHub's step summary file. */
  async function runJob(
    workflow: Workflow,
    job: string,
    context: Omit<ExpressionContext, "vars" | "secrets">,
  ): Promise<{ steps: StepResult[]; dir: string; summary: string }> {
    const dir = join(tmp, `job-${++jobCount}-${job}`);
    cpSync(checkout, dir, { recursive: true });
    const summary = join(dir, ".step-summary.md");
    writeFileSync(summary, "");
    const full: ExpressionContext = {
      ...context,
      vars: { PULUMI_BACKEND_URL: `file://${join(tmp, "backend")}`, SVC_BASE_URL: emulator.baseUrl, SVC_PARTNER_ID: String(emulator.partnerId) },
      secrets: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, SVC_APP_TOKEN_ID: pipelineToken.id, SVC_APP_TOKEN: pipelineToken.token },
    };
    const env = cleanEnv({
      CI: "true",
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
      PULUMI_HOME: join(dir, ".pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
    });
    const steps = await runJobSteps(workflow, job, full, dir, env);
    for (const step of steps) printed.push(step.output);
    return { steps, dir, summary: readFileSync(summary, "utf8") };
  }

  const failures = (steps: StepResult[]) => steps.filter((s) => s.code !== 0).map((s) => `${s.step.name}: ${s.output.slice(-3000)}`);

  beforeAll(async () => {
    tmp = scratchDir("pulumi-svc-gitops-");
    infrastructure = readWorkflow(join(workflowsDir, "infrastructure.yml"));
    pulumiUp = readWorkflow(join(workflowsDir, "pulumi-up.yml"));
    emulator = await startEmulator({ quiet: true });
    admin = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    // The one-time bootstrap an admin does (examples/pipeline-app-token): from here on, only the token is used.
    pipelineToken = await createPipelineToken(admin, { description: "gitops pipeline" });

    // The user's repository: the example as committed, its dependency on pulumi-svc resolved to the packed
    // tarball in the lock file (npm ci in the jobs installs from it, as it would from the registry).
    const packed = await packRepo(join(tmp, "pack"), { ignoreScripts: true });
    mkdirSync(join(tmp, "backend")); // the state bucket (a file backend here; postgres://, s3:// or Pulumi Cloud in a real pipeline)
    checkout = join(tmp, "checkout");
    cpSync(exampleDir, checkout, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.dependencies["pulumi-svc"]).toMatch(/^\^\d+\.\d+\.\d+$/);
    manifest.devDependencies = {
      typescript: repoToolVersion("typescript"),
      "@types/node": repoToolVersion("@types/node"),
      // The policy pack's SDK (the pack itself ships in pulumi-svc: node_modules/pulumi-svc/policy).
      "@pulumi/policy": repoToolVersion("@pulumi/policy"),
    };
    manifest.dependencies["@pulumi/pulumi"] = repoToolVersion("@pulumi/pulumi");
    writeFileSync(join(checkout, "package.json"), JSON.stringify(manifest, null, 2));
    await runOk("npm", ["install", "--package-lock-only", "--no-audit", "--no-fund", "--prefer-offline", "--save-exact", packed.tarball], {
      cwd: checkout,
      env: cleanEnv(),
      timeoutMs: 300_000,
    });
  }, 600_000);
  afterAll(async () => {
    await admin?.close();
    await emulator?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the jobs a runner would start: setup actions, Node 22, the engine's Pulumi version, app-token credentials", () => {
    // the CLI the repo's own tests run on (scripts/pulumi-engine/cli/go.mod), not the npm SDK's version
    const enginePulumi = enginePinnedVersion();
    for (const [workflow, job] of [
      [infrastructure, "preview"],
      [infrastructure, "preview-prod"],
      [infrastructure, "drift"],
      [pulumiUp, "up"],
    ] as const) {
      const steps = workflow.jobs[job]!.steps!;
      const uses = steps.filter((s) => s.uses).map((s) => s.uses!.replace(/@.*/, ""));
      expect(uses.slice(0, 3), job).toEqual(["actions/checkout", "actions/setup-node", "pulumi/actions"]);
      expect(steps.find((s) => s.uses?.startsWith("actions/setup-node"))!.with!["node-version"]).toBe(22);
      expect(steps.find((s) => s.uses?.startsWith("pulumi/actions"))!.with!["pulumi-version"]).toBe(enginePulumi);
      const env = workflow.jobs[job]!.env!;
      // GitHub expressions, not JavaScript templates:
      const expression = (text: string) => `\${{ ${text} }}`;
      expect(env.SVC_APP_TOKEN, job).toBe(expression("secrets.SVC_APP_TOKEN"));
      expect(env.SVC_APP_TOKEN_ID, job).toBe(expression("secrets.SVC_APP_TOKEN_ID"));
      expect(JSON.stringify(workflow), job).not.toMatch(/ADMIN_SECRET|adminSecret/i);
      // runnable as is outside GitHub: no expression inside any script
      for (const step of steps) if (step.run) expect(step.run, `${job}: ${step.name}`).not.toContain("${{");
    }
  });

  it("a pull request: preview of the stack, the diff written for the PR comment", async () => {
    const { steps, dir } = await runJob(infrastructure, "preview", { matrix: { stack: "dev" } });
    expect(failures(steps)).toEqual([]);
    expect(steps.map((s) => s.step.name)).toEqual(["Install dependencies", "Select the stack", "Preview", "Check the policy pack"]);
    // The pack shipped in the package ran on the stack, and the program keeps its rules.
    expect(steps.at(-1)!.output).toMatch(/svc@v0\.1\.0 \(local: .*node_modules\/pulumi-svc\/policy\/analyzer\)/);
    const comment = readFileSync(join(dir, "comment.md"), "utf8");
    expect(comment.split("\n")[0]).toBe("<!-- pulumi-preview:dev -->");
    expect(comment).toContain("```diff");
    expect(comment).toMatch(/\+ pulumi-nodejs:dynamic\/svc:AppToken: \(create\)/);
    expect(comment).toContain('description      : "backend service (dev)"');
    expect(comment).toMatch(/\+ 2 to create/);
    // the step after it posts that very file
    const post = infrastructure.jobs.preview!.steps!.find((s) => s.uses?.startsWith("actions/github-script"))!;
    expect(post.if).toContain("always()");
    expect(String(post.with!.script)).toContain('readFileSync("comment.md"');
    expect((await admin.appTokens.list()).objects).toHaveLength(1); // a preview creates nothing: only the pipeline's token
  }, 300_000);

  it("the merge to main: up-dev, then up-staging, a preview of prod, then up-prod (gated by its environment), each up the pulumi-up job", async () => {
    const jobs = infrastructure.jobs;
    expect(jobs["up-dev"]).toMatchObject({ uses: "./.github/workflows/pulumi-up.yml", with: { stack: "dev" }, if: "github.event_name == 'push'" });
    expect(jobs["up-staging"]).toMatchObject({ uses: "./.github/workflows/pulumi-up.yml", with: { stack: "staging" }, needs: "up-dev" });
    // prod: previewed after the merge (code from main, the prod-preview environment), then deployed once approved
    expect(jobs["preview-prod"]).toMatchObject({ needs: "up-staging", environment: "prod-preview", env: { STACK: "prod" } });
    expect(jobs["up-prod"]).toMatchObject({ uses: "./.github/workflows/pulumi-up.yml", with: { stack: "prod" }, needs: "preview-prod" });
    expect(pulumiUp.jobs.up!.environment).toBe(`\${{ inputs.stack }}`);

    const { steps } = await runJob(pulumiUp, "up", { inputs: { stack: "dev" } });
    expect(failures(steps)).toEqual([]);
    expect(steps.map((s) => s.step.name)).toEqual(["Install dependencies", "Select the stack", "Recover an interrupted run", "Deploy"]);
    expect(steps[2]!.stdout).toMatch(/nothing to recover/);
    expect(steps.at(-1)!.stdout).toMatch(/\+ 2 created/);
    const tokens = (await admin.appTokens.list()).objects;
    const backend = tokens.find((t) => t.description === "backend service (dev)");
    expect(backend).toMatchObject({ sessionType: 0, sessionDuration: 86400 }); // Pulumi.dev.yaml's setting
  }, 300_000);

  it("the schedule: a change made outside Pulumi fails the drift check and reports the diff", async () => {
    const backend = (await admin.appTokens.list()).objects.find((t) => t.description === "backend service (dev)")!;
    await admin.appTokens.update(backend.id, { description: "edited in the console" });
    const { steps, dir, summary } = await runJob(infrastructure, "drift", { matrix: { stack: "dev" } });
    expect(steps.map((s) => [s.step.name, s.code])).toEqual([
      ["Install dependencies", 0],
      ["Select the stack", 0],
      ["Drift check", 1],
    ]);
    const report = readFileSync(join(dir, "drift.md"), "utf8");
    expect(report).toMatch(/^## Drift in `dev`/);
    expect(report).toMatch(/description\s*:\s*"edited in the console" => "backend service \(dev\)"/);
    expect(summary).toBe(report);
    const issue = infrastructure.jobs.drift!.steps!.find((s) => s.uses?.startsWith("actions/github-script"))!;
    expect(issue.if).toContain("failure()");
    expect(String(issue.with!.script)).toContain('readFileSync("drift.md"');
  }, 300_000);

  it("no step printed the app token", () => {
    expect(printed.length).toBeGreaterThan(0);
    for (const output of printed) expect(output).not.toContain(pipelineToken.token);
  });
});
