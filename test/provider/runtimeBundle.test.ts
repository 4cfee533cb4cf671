/**
 * dist/provider/runtime/index.js, the module the stored shims require, is one bundled file
 * (scripts/build-provider-runtime.mjs, run by `npm run build` after tsc): built from the current sources, loading no
 * other file of the package (each one the engine's new provider process would resolve, read and compile), and its
 * dependencies from node_modules.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const entry = join(root, "dist", "provider", "runtime", "index.js");
const scratch = mkdtempSync(join(tmpdir(), "svc-runtime-bundle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the provider runtime bundle", () => {
  it("is built from the current sources (npm run build makes it)", () => {
    const fresh = join(scratch, "index.js");
    execFileSync(process.execPath, [join(root, "scripts", "build-provider-runtime.mjs"), "--outfile", fresh], { stdio: "pipe" });
    const built = readFileSync(entry, "utf8");
    expect(built === readFileSync(fresh, "utf8"), `${entry} is not the bundle of the current sources: run npm run build`).toBe(true);
  });

  it("loads no other file of the package, zod from node_modules, and undici only at its first call", () => {
    const script = `const runtime = require(${JSON.stringify(entry)});
      console.log(JSON.stringify({ files: Object.keys(require.cache), kinds: Object.keys(runtime).sort() }));`;
    const { files, kinds } = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as { files: string[]; kinds: string[] };
    const ours = files.filter((f) => !f.includes("/node_modules/"));
    expect(ours).toEqual([entry]);
    expect(files.some((f) => f.includes("/node_modules/zod/"))).toBe(true);
    expect(files.filter((f) => f.includes("/node_modules/undici/"))).toEqual([]);
    expect(kinds).toEqual(["appToken", "configure", "emailNotificationTemplate", "httpNotificationTemplate"]);
  });
});
