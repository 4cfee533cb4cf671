/**
 * The provider runtime's compile cache folder (provider/runtime/compileCache.ts): Node runs what it finds there, so
 * the folder is this user's own (created 0700, owner and mode checked); anything else is refused, never used.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { enablePrivateCompileCache, privateCacheFolder } from "../../provider/runtime/compileCache";

const uid = process.getuid?.() ?? 1000;

describe("compile cache folder", () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "compile-cache-base-"));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("is a per-user folder, created 0700", () => {
    const folder = privateCacheFolder(base, uid);
    expect(folder).toEqual({ ok: true, dir: join(base, `pulumi-svc-compile-cache-${uid}`) });
    const stat = statSync(folder.dir);
    expect(stat.mode & 0o777).toBe(0o700);
    expect(stat.uid).toBe(uid);
  });

  it("reuses the folder it made before", () => {
    expect(privateCacheFolder(base, uid).ok).toBe(true);
    expect(privateCacheFolder(base, uid)).toEqual({ ok: true, dir: join(base, `pulumi-svc-compile-cache-${uid}`) });
  });

  it("refuses a folder another user owns", () => {
    const dir = join(base, `pulumi-svc-compile-cache-${uid + 1}`);
    mkdirSync(dir, { mode: 0o700 });
    // The folder is this process's; checked as the user uid+1 would check it, it belongs to someone else.
    expect(privateCacheFolder(base, uid + 1)).toEqual({ ok: false, dir, reason: `it is owned by uid ${uid}, not by this user (uid ${uid + 1})` });
  });

  it("refuses a folder group or others can write to", () => {
    const dir = join(base, `pulumi-svc-compile-cache-${uid}`);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(privateCacheFolder(base, uid)).toEqual({ ok: false, dir, reason: "others can write to it (mode 777)" });
    chmodSync(dir, 0o720);
    expect(privateCacheFolder(base, uid)).toMatchObject({ ok: false, reason: "others can write to it (mode 720)" });
  });

  it("refuses a symlink, even to a private folder", () => {
    const target = join(base, "elsewhere");
    mkdirSync(target, { mode: 0o700 });
    const dir = join(base, `pulumi-svc-compile-cache-${uid}`);
    symlinkSync(target, dir, "dir");
    expect(privateCacheFolder(base, uid)).toEqual({ ok: false, dir, reason: "it is a symbolic link" });
  });

  it("runs without the cache when the folder is refused, and says which folder and why on stderr", () => {
    const dir = join(base, `pulumi-svc-compile-cache-${uid}`);
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    vi.stubEnv("NODE_COMPILE_CACHE", "");
    vi.stubEnv("NODE_DISABLE_COMPILE_CACHE", "");
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      expect(enablePrivateCompileCache(base, uid)).toMatchObject({ ok: false });
    } finally {
      vi.unstubAllEnvs();
    }
    expect(written.join("")).toBe(
      `pulumi-svc: compile cache off: refusing ${dir} because others can write to it (mode 777); remove it to get the cache back\n`,
    );
  });
});
