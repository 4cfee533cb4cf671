/**
 * The secret scan the engine suites run at every stack's close (test/support/secretScan.ts): it must find a planted
 * secret wherever and however it was written, and must never print the value it found.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startEmulator } from "../../emulator";
import { SvcClient } from "../../sdk";
import { assertNoSecrets, emulatorSecrets, FIXED_TEST_SECRETS, findSecrets, SecretScan, secretForms } from "./secretScan";

const PLANTED = { label: "the planted token", value: 'tok-3f9a1c0b7e5d4a2"back\\slash' };

describe("secret scan", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "secret-scan-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const plant = (relativePath: string, content: string | Buffer) => {
    mkdirSync(join(dir, relativePath, ".."), { recursive: true });
    writeFileSync(join(dir, relativePath), content);
  };

  it("finds a secret in a file nested deep in the folder, naming the file and the label", () => {
    plant("a/b/c/.pulumi/stacks/test.json", `{"outputs":{"token":"${PLANTED.value}"}}`);
    plant("a/clean.json", "{}");
    expect(findSecrets({ roots: [dir], secrets: [PLANTED] })).toEqual([
      { where: `${dir}: a/b/c/.pulumi/stacks/test.json`, label: PLANTED.label, form: "plain" },
    ]);
  });

  it("finds it JSON-escaped, and JSON-escaped inside a JSON string", () => {
    plant("state.json", JSON.stringify({ v: PLANTED.value }));
    plant("nested.json", JSON.stringify({ v: JSON.stringify({ w: PLANTED.value }) }));
    const hits = findSecrets({ roots: [dir], secrets: [PLANTED] });
    expect(hits.map((h) => [h.where.slice(dir.length + 2), h.form])).toEqual([
      ["nested.json", "JSON-escaped twice"],
      ["state.json", "JSON-escaped"],
    ]);
  });

  it.each([0, 1, 2, 3, 4, 5])("finds it in base64 and base64url inside a larger blob (secret %i bytes in)", (prefixLength) => {
    const blob = Buffer.concat([Buffer.alloc(prefixLength, 0x7b), Buffer.from(PLANTED.value), Buffer.from("}tail")]);
    plant("b64.txt", `data: ${blob.toString("base64")}\n`);
    plant("b64url.txt", blob.toString("base64url"));
    const hits = findSecrets({ roots: [dir], secrets: [PLANTED] });
    expect(hits.map((h) => h.where.slice(dir.length + 2)).sort()).toEqual(["b64.txt", "b64url.txt"]);
  });

  it("searches captured texts and single files, and does not follow a symlink out of the folder", () => {
    const outside = mkdtempSync(join(tmpdir(), "secret-scan-outside-"));
    try {
      writeFileSync(join(outside, "theirs.txt"), PLANTED.value);
      symlinkSync(outside, join(dir, "node_modules"), "dir");
      plant("Pulumi.test.yaml", `config: ${encodeURIComponent(PLANTED.value)}`);
      expect(findSecrets({ roots: [dir], secrets: [PLANTED] }).map((h) => h.form)).toEqual(["URL-encoded"]);
      expect(
        findSecrets({ roots: [join(dir, "Pulumi.test.yaml")], texts: [{ name: "up: stderr", text: `error: ${PLANTED.value}` }], secrets: [PLANTED] }),
      ).toEqual([
        { where: join(dir, "Pulumi.test.yaml"), label: PLANTED.label, form: "URL-encoded" },
        { where: "up: stderr", label: PLANTED.label, form: "plain" },
      ]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("fails naming the file and the label, and never prints the secret in any form", () => {
    plant("backend/.pulumi/history/test-1.json", Buffer.from(`{"x":"${PLANTED.value}"}`).toString("base64"));
    const printed: string[] = [];
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
        printed.push(String(chunk));
        return true;
      });
    }
    for (const method of ["log", "error", "warn", "info"] as const)
      vi.spyOn(console, method).mockImplementation((...args) => void printed.push(args.join(" ")));
    let failure: Error | undefined;
    try {
      assertNoSecrets({ roots: [dir], secrets: [PLANTED] });
    } catch (error) {
      failure = error as Error;
    }
    vi.restoreAllMocks();
    expect(failure?.message).toMatch(/the planted token \(base64 \(offset \d\)\) in .*backend\/\.pulumi\/history\/test-1\.json/);
    const everything = [failure?.message, failure?.stack, ...printed].join("\n");
    for (const { needle } of secretForms(PLANTED.value)) expect(everything).not.toContain(needle);
  });

  it("passes a folder that holds none of the secrets", () => {
    plant("backend/state.json", JSON.stringify({ ciphertext: "v1:abc", value: "[secret]" }));
    expect(() => assertNoSecrets({ roots: [dir], secrets: [PLANTED] })).not.toThrow();
  });

  it("always searches for the fixed test secrets, refuses values too short to search for, and reads sources at check time", () => {
    const scan = new SecretScan();
    scan.addRoot(dir);
    expect(scan.knownSecrets().map((s) => s.value)).toEqual(expect.arrayContaining(Object.values(FIXED_TEST_SECRETS)));
    expect(() => scan.register("a pin", "1234")).toThrow(/shorter than 8 characters/);
    let late: string | undefined;
    scan.addSource(() => (late ? [{ label: "a late token", value: late }] : []));
    plant("out.log", "token: late-token-value-42");
    expect(() => scan.check()).not.toThrow();
    late = "late-token-value-42";
    expect(() => scan.check()).toThrow(/a late token \(plain\) in .*out\.log/);
  });

  it("knows every admin secret, token value and signing secret the emulator holds", async () => {
    const emulator = await startEmulator({ quiet: true } as Parameters<typeof startEmulator>[0]);
    const client = new SvcClient({ baseUrl: emulator.baseUrl, partnerId: emulator.partnerId, auth: { adminSecret: emulator.adminSecret } });
    try {
      const second = emulator.ctx.createPartner();
      const token = await client.appTokens.add({ description: "scan me", hashType: "SHA256" } as never);
      emulator.ctx.store.putDoc("template", "tpl-1", emulator.partnerId, { signSecret: "whsec-scan-0123" });
      const known = emulatorSecrets(emulator);
      expect(known).toEqual(
        expect.arrayContaining([
          { label: `the admin secret of emulator account ${emulator.partnerId}`, value: emulator.adminSecret },
          { label: `the admin secret of emulator account ${second.id}`, value: second.adminSecret },
          { label: `the value of app token ${token.id}`, value: token.token },
          { label: "the signing secret of template tpl-1", value: "whsec-scan-0123" },
        ]),
      );
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
