/**
 * The plugin's version and where the engine downloads it from: both live in package.json (`version`, and
 * `pulumiSvc.pluginDownloadURL`), the one place they are set. A bundle (scripts/build-plugin.mjs, the release's
 * executables) carries them as constants; unbundled code (tests, `pulumi-svc/native` compiled by tsc) reads the
 * package.json above it. The engine matches the version against what a program or SDK asks for, and fetches a
 * missing plugin from the URL (`${VERSION}`, `${OS}`, `${ARCH}` are filled in by the engine).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

declare const __SVC_PLUGIN_VERSION__: string | undefined;
declare const __SVC_PLUGIN_DOWNLOAD_URL__: string | undefined;

interface PackageJson {
  name?: string;
  version: string;
  pulumiSvc?: { pluginDownloadURL?: string };
}

function ownPackageJson(): PackageJson {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const path = join(dir, "package.json");
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, "utf8")) as PackageJson;
    if (pkg.name === "pulumi-svc") return pkg;
  }
  throw new Error(`no package.json of pulumi-svc above ${__dirname}`);
}

const bundled = typeof __SVC_PLUGIN_VERSION__ === "string";
const pkg = bundled ? undefined : ownPackageJson();

export const PLUGIN_VERSION: string = bundled ? (__SVC_PLUGIN_VERSION__ as string) : pkg!.version;

export const PLUGIN_DOWNLOAD_URL: string =
  typeof __SVC_PLUGIN_DOWNLOAD_URL__ === "string" ? __SVC_PLUGIN_DOWNLOAD_URL__ : (pkg?.pulumiSvc?.pluginDownloadURL ?? "");
