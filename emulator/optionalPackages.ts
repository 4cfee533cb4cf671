/**
 * The emulator's media stack (werift for the WHEP endpoint, node-turn for the TURN relay) is an optional peer
 * dependency: a Pulumi program that installs pulumi-svc does not pull it (about 21 MB). Everything else in the
 * emulator works without it; the avatar media path loads it on first use and, when it is missing, fails with a
 * message that says what to install.
 */
export type OptionalPackage = "werift" | "node-turn";

export class OptionalPackageMissingError extends Error {
  readonly code = "OPTIONAL_PACKAGE_MISSING";
  constructor(
    readonly packageName: OptionalPackage,
    purpose: string,
  ) {
    super(`${purpose} needs the optional package ${packageName}, which is not installed: npm install ${packageName}@${versionOf(packageName)}`);
    this.name = "OptionalPackageMissingError";
  }
}

/** Is `name` installed where the emulator can load it? */
export function isInstalled(name: OptionalPackage): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** Throws OptionalPackageMissingError unless `name` is installed. */
export function assertInstalled(name: OptionalPackage, purpose: string): void {
  if (!isInstalled(name)) throw new OptionalPackageMissingError(name, purpose);
}

/** `name`'s module, or OptionalPackageMissingError. */
export function requireOptional<T>(name: OptionalPackage, purpose: string): T {
  assertInstalled(name, purpose);
  return require(name) as T;
}

/** The version this package was tested with (its peerDependencies), for the install hint. */
function versionOf(name: OptionalPackage): string {
  try {
    const manifest = require("pulumi-svc/package.json") as { peerDependencies?: Record<string, string> };
    return manifest.peerDependencies?.[name] ?? "latest";
  } catch {
    return "latest";
  }
}
