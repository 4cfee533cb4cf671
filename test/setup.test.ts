/**
 * scripts/setup.mjs runs the command it was given on the project's Node 22, whatever `node` started it (on a fresh
 * clone that is the machine's older Node: the shell would keep using it for a second `node` in the same script).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../scripts/engineEnv";

describe("scripts/setup.mjs", () => {
  it("runs `-- <script>` on Node 22 even when started by another node", () => {
    const bin = join(repoRoot, "node_modules", ".bin");
    const path = (process.env.PATH ?? "")
      .split(":")
      .filter((dir) => dir !== bin && !dir.startsWith(join(repoRoot, "node_modules")))
      .join(":");
    const output = execFileSync("sh", ["-c", "node scripts/setup.mjs --no-engine --no-build -- -e 'console.log(process.version)'"], {
      cwd: repoRoot,
      env: { ...process.env, PATH: path },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(output.trim().split("\n").at(-1)).toMatch(/^v22\./);
  }, 120_000);
});
