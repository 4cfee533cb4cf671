/**
 * examples/gitops's pipeline files, checked as their CI systems would read them: the GitHub workflows by
 * actionlint (built and cached by scripts/ensure-actionlint.sh; never skipped), in a copy of the folder made a git
 * repository as a user's would be (actionlint then also checks the local reusable workflow's inputs); the GitLab
 * file parsed with `yaml` (strict) and its flow checked: stages in order, prod manual, drift on schedule.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/pulumi";

const exampleDir = join(repoRoot, "examples", "gitops");
const exec = promisify(execFile);

describe("examples/gitops GitHub workflows under actionlint", () => {
  let actionlint: string;
  let repo: string;
  beforeAll(async () => {
    const { stdout } = await exec("bash", [join(repoRoot, "scripts", "ensure-actionlint.sh")], { timeout: 600_000 });
    actionlint = stdout.trim().split("\n").at(-1)!;
    repo = mkdtempSync(join(tmpdir(), "pulumi-svc-actionlint-"));
    cpSync(exampleDir, repo, { recursive: true });
    await exec("git", ["init", "-q", "."], { cwd: repo });
  }, 600_000);
  afterAll(() => {
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  const lint = () =>
    exec(actionlint, ["-no-color"], { cwd: repo }).then(
      (r) => ({ code: 0, out: r.stdout + r.stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? 1, out: `${e.stdout ?? ""}${e.stderr ?? ""}` }),
    );

  it("reports nothing on the workflows as committed", async () => {
    expect(await lint()).toEqual({ code: 0, out: "" });
  }, 60_000);

  it("does catch a mistake (so the clean result above means something)", async () => {
    const file = join(repo, ".github", "workflows", "infrastructure.yml");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, good.replace("      stack: staging\n", "      stak: staging\n"));
    try {
      const result = await lint();
      expect(result.code).toBe(1);
      expect(result.out).toContain('input "stak" is not defined in "./.github/workflows/pulumi-up.yml" reusable workflow');
    } finally {
      writeFileSync(file, good);
    }
  }, 60_000);
});

interface GitLabJob {
  extends?: string;
  stage?: string;
  needs?: string[];
  rules?: { if: string; when?: string }[];
  when?: string;
  allow_failure?: boolean;
  environment?: { name: string; action?: string };
  variables?: Record<string, string>;
  parallel?: { matrix: Record<string, string[]>[] };
  script?: string[];
  before_script?: string[];
}

describe("examples/gitops .gitlab-ci.yml", () => {
  const text = readFileSync(join(exampleDir, ".gitlab-ci.yml"), "utf8");
  const ci = parse(text, { strict: true, uniqueKeys: true, prettyErrors: true }) as Record<string, unknown> & { stages: string[] };
  const job = (name: string) => ci[name] as GitLabJob;
  /** A job's script with its `extends:` chain resolved (one level is all the file uses, checked below). */
  const scriptOf = (name: string) =>
    [...(job(job(name).extends ?? "")?.before_script ?? []), ...(job(name).script ?? job(job(name).extends ?? "")?.script ?? [])].join("\n");

  it("parses strictly, with stages in order: preview, dev, staging, prod, drift", () => {
    expect(ci.stages).toEqual(["preview", "dev", "staging", "prod", "drift"]);
    for (const name of ["preview", "up-dev", "up-staging", "up-prod", "drift"]) expect(ci.stages, name).toContain(job(name).stage);
  });

  it("previews the non-prod stacks on merge requests and posts the diff as a note", () => {
    const preview = job("preview");
    expect(preview.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(preview.parallel!.matrix).toEqual([{ STACK: ["dev", "staging"] }]);
    const script = scriptOf("preview");
    expect(script).toMatch(/npm ci/);
    expect(script).toMatch(/pulumi preview --stack "\$STACK" --diff/);
    expect(script).toMatch(/merge_requests\/\$CI_MERGE_REQUEST_IID\/notes/);
  });

  it("deploys dev, then staging, previews prod, then deploys prod on the default branch; prod waits for a person", () => {
    const onMain = '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH';
    expect(job("up-dev")).toMatchObject({ stage: "dev", variables: { STACK: "dev" }, environment: { name: "dev" }, rules: [{ if: onMain }] });
    expect(job("up-staging")).toMatchObject({ stage: "staging", needs: ["up-dev"], variables: { STACK: "staging" }, environment: { name: "staging" } });
    expect(job("preview-prod")).toMatchObject({
      stage: "prod",
      needs: ["up-staging"],
      variables: { STACK: "prod" },
      environment: { name: "prod-preview" },
      rules: [{ if: onMain }],
    });
    expect(scriptOf("preview-prod")).toMatch(/pulumi preview --stack "\$STACK" --diff/);
    expect(job("up-prod")).toMatchObject({
      stage: "prod",
      needs: ["preview-prod"],
      variables: { STACK: "prod" },
      environment: { name: "prod" },
      allow_failure: false,
    });
    expect(job("up-prod").rules).toEqual([{ if: onMain, when: "manual" }]);
    expect(job("up-dev").rules![0]!.when).toBeUndefined();
    for (const name of ["up-dev", "up-staging", "up-prod"]) expect(scriptOf(name), name).toMatch(/pulumi up --stack "\$STACK" --yes/);
  });

  it("checks drift on a schedule: preview --refresh --expect-no-changes, failing and opening an issue", () => {
    const drift = job("drift");
    expect(drift.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }]);
    expect(drift.parallel!.matrix).toEqual([{ STACK: ["dev", "staging", "prod"] }]);
    const script = scriptOf("drift");
    expect(script).toMatch(/set -o pipefail\n\s*if pulumi preview --stack "\$STACK" --refresh --expect-no-changes/);
    expect(script).toMatch(/\/issues"/);
    expect(script).toMatch(/exit 1/);
  });

  it("authenticates with the app token from CI variables, never the admin secret", () => {
    expect(text).toContain("SVC_APP_TOKEN");
    expect(text).not.toMatch(/ADMIN_SECRET|adminSecret/i);
  });

  it("gives merge-request jobs no prod environment (so none of prod's scoped variables)", () => {
    const jobs = Object.keys(ci).filter((name) => !name.startsWith(".") && typeof ci[name] === "object" && name !== "default" && name !== "variables");
    const onMergeRequests = jobs.filter((name) => (job(name).rules ?? []).some((rule) => rule.if.includes("merge_request_event")));
    expect(onMergeRequests).toEqual(["preview"]);
    for (const name of onMergeRequests) {
      for (const env of environmentsOf(job(name).environment?.name ?? "", job(name).variables ?? {}, job(name).parallel?.matrix ?? [])) {
        expect(env, name).not.toMatch(/prod/);
      }
    }
    // the prod scopes are used only by jobs of the default branch
    for (const name of jobs.filter((n) => /prod/.test(job(n).environment?.name ?? ""))) {
      expect(job(name).rules, name).toEqual([expect.objectContaining({ if: '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' })]);
    }
  });
});

/** The environment names a GitLab job gets: `$STACK` in its name replaced by its variable or each matrix value. */
function environmentsOf(name: string, variables: Record<string, string>, matrix: Record<string, string[]>[]): string[] {
  const stacks = matrix.length > 0 ? matrix.flatMap((row) => row.STACK ?? []) : [variables.STACK ?? ""];
  return stacks.map((stack) => name.replaceAll("$STACK", stack));
}

interface GitHubJob {
  if?: string;
  needs?: string | string[];
  uses?: string;
  secrets?: unknown;
  environment?: string | { name: string };
  strategy?: { matrix?: Record<string, unknown[]> };
  steps?: { uses?: string }[];
}

describe("examples/gitops GitHub workflows: supply chain and pull-request secrets", () => {
  const workflowsDir = join(exampleDir, ".github", "workflows");
  const files = ["infrastructure.yml", "pulumi-up.yml"];
  const workflow = (file: string) =>
    parse(readFileSync(join(workflowsDir, file), "utf8"), { strict: true, uniqueKeys: true }) as {
      on: Record<string, unknown>;
      jobs: Record<string, GitHubJob>;
    };

  it("pins every action by the full commit of a release, its tag in a comment", () => {
    const lines = files.flatMap((file) =>
      readFileSync(join(workflowsDir, file), "utf8")
        .split("\n")
        .filter((line) => /^\s*(- )?uses:/.test(line))
        .map((line) => ({ file, line: line.trim().replace(/^- /, "") })),
    );
    const remote = lines.filter(({ line }) => !line.startsWith("uses: ./"));
    expect(remote.length).toBeGreaterThanOrEqual(10);
    for (const { file, line } of remote) expect(line, file).toMatch(/^uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
    // the parsed value too (what the runner fetches), not only the line's text
    for (const file of files) {
      for (const [name, job] of Object.entries(workflow(file).jobs)) {
        for (const step of job.steps ?? []) if (step.uses) expect(step.uses, `${file} ${name}`).toMatch(/@[0-9a-f]{40}$/);
      }
    }
  });

  it("runs only the non-prod previews on a pull request, with no prod environment and no inherited secrets", () => {
    const { on, jobs } = workflow("infrastructure.yml");
    // pull_request_target would run with the base repository's secrets for forks' pull requests
    expect(Object.keys(on)).not.toContain("pull_request_target");
    const needsOf = (job: GitHubJob) => (job.needs === undefined ? [] : [job.needs].flat());
    const runsOnPullRequest = (name: string): boolean => {
      const job = jobs[name]!;
      const own = job.if === undefined || job.if.includes("'pull_request'");
      return own && needsOf(job).every(runsOnPullRequest);
    };
    const onPullRequests = Object.keys(jobs).filter(runsOnPullRequest);
    expect(onPullRequests).toEqual(["preview"]);
    for (const name of onPullRequests) {
      const job = jobs[name]!;
      expect(job.secrets, name).toBeUndefined();
      expect(job.uses, name).toBeUndefined();
      const environment = typeof job.environment === "string" ? job.environment : (job.environment?.name ?? "");
      const stacks = (job.strategy?.matrix?.stack ?? []) as string[];
      expect(stacks, name).toEqual(["dev", "staging"]);
      for (const stack of stacks) expect(environment.replaceAll(`\${{ matrix.stack }}`, stack), name).not.toMatch(/prod/);
    }
  });
});
