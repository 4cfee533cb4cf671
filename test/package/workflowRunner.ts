/**
 * Runs a GitHub Actions job's own `run:` steps, taken from the workflow file, in order, the way a runner does:
 * each script in `bash --noprofile --norc -eo pipefail` (GitHub's `shell: bash`), with the job's `env:` (its
 * `${{ }}` expressions resolved from the matrix/inputs, vars and secrets the test supplies), stopping at the
 * first failing step. `uses:` steps (checkout, setup-node, installing the CLI, posting comments) are the
 * runner's business: the test stands in for them (a fresh copy of the checkout, Node 22 and the engine on PATH)
 * and checks what they are given.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { run, type Result } from "./processes";

export interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  shell?: string;
  with?: Record<string, unknown>;
  "working-directory"?: string;
}

export interface Job {
  if?: string;
  needs?: string | string[];
  uses?: string;
  with?: Record<string, unknown>;
  environment?: string | { name: string };
  env?: Record<string, string>;
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown[]> };
  concurrency?: { group: string; "cancel-in-progress"?: boolean };
  steps?: Step[];
}

export interface Workflow {
  name?: string;
  on: Record<string, unknown>;
  defaults?: { run?: { shell?: string } };
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

export function readWorkflow(file: string): Workflow {
  return parse(readFileSync(file, "utf8"), { strict: true, uniqueKeys: true }) as Workflow;
}

export interface ExpressionContext {
  matrix?: Record<string, string>;
  inputs?: Record<string, string>;
  vars: Record<string, string>;
  secrets: Record<string, string>;
}

/**
 * The `${{ }}` forms a job's env may use: `matrix.x`, `inputs.x`, `vars.X`, `secrets.X`. Anything else is an
 * error (the test does not guess). An unset var or secret is "" as on GitHub.
 */
export function resolveExpressions(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const match = /^(matrix|inputs|vars|secrets)\.([A-Za-z_][\w-]*)$/.exec(expression);
    if (!match) throw new Error(`unsupported expression in a job's env: \${{ ${expression} }}`);
    const [, scope, key] = match as unknown as [string, keyof ExpressionContext, string];
    const values = context[scope];
    if ((scope === "matrix" || scope === "inputs") && values?.[key] === undefined) throw new Error(`${scope}.${key} is not given`);
    return values?.[key] ?? "";
  });
}

export interface StepResult extends Result {
  step: Step;
}

/**
 * The job's `run:` steps in order in `workdir`; returns each one that ran (the last is the one that failed, if
 * any). `runnerEnv` is what a runner adds (PATH with the tools, GITHUB_STEP_SUMMARY, ...).
 */
export async function runJobSteps(
  workflow: Workflow,
  jobName: string,
  context: ExpressionContext,
  workdir: string,
  runnerEnv: Record<string, string | undefined>,
): Promise<StepResult[]> {
  const job = workflow.jobs[jobName];
  if (!job?.steps) throw new Error(`no job ${jobName} with steps`);
  const jobEnv = Object.fromEntries(Object.entries(job.env ?? {}).map(([key, value]) => [key, resolveExpressions(String(value), context)]));
  const shell = workflow.defaults?.run?.shell;
  const results: StepResult[] = [];
  for (const [index, step] of job.steps.entries()) {
    if (step.run === undefined) continue;
    if (step.if !== undefined || (step.shell ?? shell) !== "bash" || step["working-directory"] !== undefined) {
      throw new Error(`step ${step.name ?? index} of ${jobName}: the runner here supports plain bash steps without if:/working-directory`);
    }
    const script = join(workdir, `.step-${jobName}-${index}.sh`);
    writeFileSync(script, step.run);
    const result = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: workdir,
      env: { ...runnerEnv, ...jobEnv },
      timeoutMs: 300_000,
    });
    results.push({ ...result, step });
    if (result.code !== 0) break;
  }
  return results;
}
