/**
 * A typo in an enum value fails type-checking in a TypeScript program (`pulumi-svc/native`: the resources' Args and
 * the functions' arguments are typed from the definitions), with a message naming the allowed values. The program is
 * compiled with the repo's compiler options; a correct one, beside it, compiles clean.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/engineEnv";

const tmp = mkdtempSync(join(tmpdir(), "pulumi-svc-typecheck-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const native = JSON.stringify(join(repoRoot, "provider", "native", "index"));
const PROGRAM = (hashType: string, sessionType: string, method: string) => `import * as svc from ${native};
new svc.AppToken("t", { hashType: "${hashType}" });
svc.getAppTokensOutput({ sessionType: "${sessionType}" });
new svc.HttpNotificationTemplate("w", { event: "entry.ready", name: "hook", url: "https://h.example.com", signSecret: "0123456789abcdef", method: "${method}" });
`;

/** The compiler's messages for each file, by file name. */
function diagnostics(files: Record<string, string>): Record<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const roots = Object.entries(files).map(([name, text]) => {
    const path = join(tmp, name);
    writeFileSync(path, text);
    return path;
  });
  // The program lives outside the repo (rootDir: the filesystem's root), and nothing is written.
  const program = ts.createProgram(roots, { ...config!.options, noEmit: true, rootDir: "/" });
  return Object.fromEntries(
    roots.map((path) => [
      path.slice(tmp.length + 1),
      ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    ]),
  );
}

describe("a typo in an enum value in a TypeScript program", () => {
  it("fails type-checking, naming the allowed values; the correct values compile", () => {
    const result = diagnostics({ "typo.ts": PROGRAM("SHA265", "ADMN", "PUSH"), "correct.ts": PROGRAM("SHA256", "ADMIN", "PUT") });
    expect(result["correct.ts"]).toEqual([]);
    const typo = result["typo.ts"]!.join("\n");
    expect(typo).toMatch(/"SHA265"[^\n]* is not assignable to type [^\n]*"SHA1" \| "SHA256" \| "SHA512" \| "MD5"/);
    expect(typo).toMatch(/"ADMN"[^\n]* is not assignable to type [^\n]*"USER" \| "ADMIN"/);
    expect(typo).toMatch(/"PUSH"[^\n]* is not assignable to type [^\n]*"GET" \| "POST" \| "PUT" \| "DELETE"/);
  }, 120_000);
});
