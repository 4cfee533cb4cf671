/**
 * How takeover writes its files (provider/cli/privateFiles.ts): a failure at any step leaves neither a target nor a
 * temporary file behind, and the temporary file is never opened through a link planted at its name. The temporary
 * name is made predictable here (randomBytes mocked) so that a link can be planted there.
 */
import { promises, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { writePrivateFiles } from "../../provider/cli/privateFiles";

vi.mock("node:crypto", async (importOriginal) => ({
  ...(await importOriginal<typeof import("node:crypto")>()),
  randomBytes: (size: number) => Buffer.alloc(size, 0xab),
}));

const TEMP_SUFFIX = `.${"ab".repeat(8)}.tmp`;

describe("writePrivateFiles", () => {
  const root = mkdtempSync(join(tmpdir(), "pulumi-svc-private-files-"));
  let dir: string;
  let n = 0;
  beforeEach(async () => {
    dir = join(root, `case-${++n}`);
    await promises.mkdir(dir);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const files = () => [
    { path: join(dir, "import.json"), text: "{}\n" },
    { path: join(dir, "index.ts"), text: "export {};\n" },
  ];

  it("removes the first file it created when the second cannot take its name", async () => {
    const link = promises.link.bind(promises);
    let calls = 0;
    vi.spyOn(promises, "link").mockImplementation(async (from, to) => {
      if (++calls === 2) throw Object.assign(new Error("EIO: i/o error, link"), { code: "EIO" });
      return link(from, to);
    });
    await expect(writePrivateFiles(files(), { overwrite: false })).rejects.toThrow("EIO");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes its temporary files when writing one fails (a full disk)", async () => {
    const open = promises.open.bind(promises);
    vi.spyOn(promises, "open").mockImplementation(async (...args: Parameters<typeof promises.open>) => {
      const handle = await open(...args);
      if (String(args[0]).includes("index.ts")) {
        vi.spyOn(handle, "writeFile").mockRejectedValue(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }));
      }
      return handle;
    });
    await expect(writePrivateFiles(files(), { overwrite: false })).rejects.toThrow("ENOSPC");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("keeps an existing file when a later one fails, even with overwrite (only files it created are removed)", async () => {
    writeFileSync(join(dir, "import.json"), "mine\n");
    await expect(writePrivateFiles([files()[0]!, { path: join(dir, "no", "index.ts"), text: "" }], { overwrite: true })).rejects.toThrow("ENOENT");
    expect(readFileSync(join(dir, "import.json"), "utf8")).toBe("mine\n");
    expect(readdirSync(dir)).toEqual(["import.json"]);
  });

  it("never opens its temporary file through a link planted at that name", async () => {
    const outside = join(root, `outside-${n}`);
    symlinkSync(outside, join(dir, `.index.ts${TEMP_SUFFIX}`));
    await expect(writePrivateFiles([files()[1]!], { overwrite: false })).rejects.toThrow(/EEXIST/);
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(join(dir, "index.ts"))).toBe(false);
    expect(lstatSync(join(dir, `.index.ts${TEMP_SUFFIX}`)).isSymbolicLink()).toBe(true);
  });

  it("refuses two files with one path", async () => {
    await expect(writePrivateFiles([files()[1]!, files()[1]!], { overwrite: true })).rejects.toThrow("the same path");
    expect(readdirSync(dir)).toEqual([]);
  });
});
