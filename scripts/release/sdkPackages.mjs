/**
 * The SDKs as users install them, from the generated folders (sdk-gen/ or a regeneration for another download URL):
 * the Python wheel and sdist (setuptools' own build backend, from the venv of scripts/ensure-languages.sh, no
 * network), the Go module laid out as a module proxy serves it (GOPROXY=file://…), and the npm tarball.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

/** Builds the wheel and the sdist of the Python SDK folder into outDir; returns their file names. */
export function pythonPackages(sdkDir, outDir, python) {
  const work = mkdtempSync(join(tmpdir(), "pulumi-svc-release-py-"));
  try {
    mkdirSync(outDir, { recursive: true });
    // Each from its own copy: a build writes build/ and *.egg-info beside the sources, which the next would package.
    const build = (kind) => {
      const src = join(work, kind);
      cpSync(sdkDir, src, { recursive: true });
      const script = `import sys; from setuptools import build_meta as b; print(b.build_${kind}(sys.argv[1]))`;
      const env = { ...process.env, SOURCE_DATE_EPOCH: "1767225600" };
      return execFileSync(python, ["-c", script, outDir], { cwd: src, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env })
        .trim()
        .split("\n")
        .pop();
    };
    return [build("wheel"), build("sdist")];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const filesUnder = (dir) =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)).map((f) => join(name, f)) : [name]));

/**
 * The Go module `module` at `version` (v-prefixed) from the folder goDir, as a module proxy serves it:
 * <proxyDir>/<module>/@v/{list, <version>.info, <version>.mod, <version>.zip}. The zip holds every file under
 * `<module>@<version>/`, as Go's module zip format says; written with the venv's Python (zipfile).
 */
export function goModuleProxy(goDir, module, version, proxyDir, python) {
  const at = join(proxyDir, module, "@v");
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "list"), `${version}\n`);
  writeFileSync(join(at, `${version}.info`), `${JSON.stringify({ Version: version, Time: "2026-01-01T00:00:00Z" })}\n`);
  writeFileSync(join(at, `${version}.mod`), readFileSync(join(goDir, "go.mod")));
  const files = filesUnder(goDir).filter((f) => !/(^|\/)(\.|build\/|bin\/)/.test(f));
  const script = [
    "import sys, zipfile",
    "src, prefix, out, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]",
    "with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for f in files:",
    "        info = zipfile.ZipInfo(prefix + f, date_time=(2026, 1, 1, 0, 0, 0))",
    "        info.compress_type = zipfile.ZIP_DEFLATED",
    "        z.writestr(info, open(src + '/' + f, 'rb').read())",
  ].join("\n");
  execFileSync(python, ["-c", script, goDir, `${module}@${version}/`, join(at, `${version}.zip`), ...files]);
  return relative(proxyDir, at);
}

/**
 * The npm tarball of the package at root (built already: no prepack), into outDir; with `pluginDownloadURL`, its
 * package.json names that URL (a mirror's build). Returns the file name.
 */
export function npmTarball(root, outDir, pluginDownloadURL) {
  mkdirSync(outDir, { recursive: true });
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", outDir], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const name = out.trim().split("\n").pop();
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  if (pluginDownloadURL && pluginDownloadURL !== pkg.pulumiSvc?.pluginDownloadURL) {
    const work = mkdtempSync(join(tmpdir(), "pulumi-svc-release-npm-"));
    try {
      execFileSync("tar", ["-xzf", join(outDir, name), "-C", work]);
      const path = join(work, "package", "package.json");
      const packed = JSON.parse(readFileSync(path, "utf8"));
      packed.pulumiSvc = { ...packed.pulumiSvc, pluginDownloadURL };
      writeFileSync(path, `${JSON.stringify(packed, null, 2)}\n`);
      execFileSync("tar", ["--sort=name", "--owner=0", "--group=0", "--numeric-owner", "-czf", join(outDir, name), "-C", work, "package"]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return name;
}
