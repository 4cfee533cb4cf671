/**
 * The emulator's packages are optional peer dependencies of pulumi-svc: a Pulumi program that installs pulumi-svc
 * for its provider or sdk does not pull them. Two groups:
 *  - the emulator's own (hono and @hono/node-server for HTTP, smtp-server and nodemailer for the mail sink and email
 *    delivery, jose for the avatar session tokens): the emulator entry (`pulumi-svc/emulator`, `svc-emulator start`)
 *    checks them before it loads any of them and, when some are missing, fails with the command that installs them;
 *  - its media stack (werift for the WHEP endpoint, node-turn for the TURN relay, about 21 MB): everything else works
 *    without it; the avatar media path loads it on first use and says what to install when it is missing.
 */
export const EMULATOR_PACKAGES = ["hono", "@hono/node-server", "smtp-server", "nodemailer", "jose"] as const;
export const MEDIA_PACKAGES = ["werift", "node-turn"] as const;

export type EmulatorPackage = (typeof EMULATOR_PACKAGES)[number];
export type OptionalPackage = EmulatorPackage | (typeof MEDIA_PACKAGES)[number];

export class OptionalPackageMissingError extends Error {
  readonly code = "OPTIONAL_PACKAGE_MISSING";
  readonly packageNames: readonly OptionalPackage[];
  constructor(packageNames: OptionalPackage | readonly OptionalPackage[], purpose: string) {
    const names = typeof packageNames === "string" ? [packageNames] : [...packageNames];
    const what =
      names.length === 1 ? `the optional package ${names[0]}, which is not installed` : `the optional packages ${names.join(", ")}, which are not installed`;
    super(`${purpose} needs ${what}: ${installCommand(names)}`);
    this.name = "OptionalPackageMissingError";
    this.packageNames = names;
  }
}

/** `npm install a@1 b@2`: each at the version this package was tested with. */
export function installCommand(names: readonly OptionalPackage[]): string {
  return `npm install ${names.map((name) => `${name}@${versionOf(name)}`).join(" ")}`;
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

/**
 * Throws one OptionalPackageMissingError naming every emulator package that is missing (none of them is loaded
 * here). `installed` is injectable for tests.
 */
export function assertEmulatorPackages(installed: (name: OptionalPackage) => boolean = isInstalled): void {
  const missing = EMULATOR_PACKAGES.filter((name) => !installed(name));
  if (missing.length > 0) throw new OptionalPackageMissingError(missing, "The emulator (pulumi-svc/emulator, svc-emulator start)");
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
