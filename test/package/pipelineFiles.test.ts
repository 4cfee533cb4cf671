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

  it("previews every stack on merge requests and posts the diff as a note", () => {
    const preview = job("preview");
    expect(preview.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(preview.parallel!.matrix).toEqual([{ STACK: ["dev", "staging", "prod"] }]);
    const script = scriptOf("preview");
    expect(script).toMatch(/npm ci/);
    expect(script).toMatch(/pulumi preview --stack "\$STACK" --diff/);
    expect(script).toMatch(/merge_requests\/\$CI_MERGE_REQUEST_IID\/notes/);
  });

  it("deploys dev, then staging, then prod on the default branch; prod waits for a person", () => {
    const onMain = '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH';
    expect(job("up-dev")).toMatchObject({ stage: "dev", variables: { STACK: "dev" }, environment: { name: "dev" }, rules: [{ if: onMain }] });
    expect(job("up-staging")).toMatchObject({ stage: "staging", needs: ["up-dev"], variables: { STACK: "staging" }, environment: { name: "staging" } });
    expect(job("up-prod")).toMatchObject({
      stage: "prod",
      needs: ["up-staging"],
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
});
