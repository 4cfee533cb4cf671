/**
 * The emulator's packages are optional peer dependencies: without them the emulator says what to install, and
 * nothing but the emulator loads them (the provider and the sdk never reach them).
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { avatarErrorHandler } from "../../emulator/avatar/errors";
import {
  assertEmulatorPackages,
  EMULATOR_PACKAGES,
  isInstalled,
  MEDIA_PACKAGES,
  OptionalPackageMissingError,
  requireOptional,
} from "../../emulator/shared/optionalPackages";

const repo = join(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/**
 * The packages a file loads when it is required, following the project's own files: static imports and re-exports
 * only (`import type` is erased; a `require()` inside a function is the lazy loading this test is about).
 */
function packagesLoadedFrom(entry: string): Map<string, string> {
  const loaded = new Map<string, string>();
  const seen = new Set<string>();
  const pending = [join(repo, entry)];
  const statement = /^\s*(?:import|export)\s+(?!type\s)(?:[^;"]*?\sfrom\s+)?"([^"]+)"/gm;
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(statement)) {
      if (spec === undefined || spec.startsWith("node:")) continue;
      if (spec.startsWith(".")) {
        const base = resolve(dirname(file), spec);
        const target = [`${base}.ts`, join(base, "index.ts")].find((candidate) => {
          try {
            readFileSync(candidate);
            return true;
          } catch {
            return false;
          }
        });
        if (target) pending.push(target);
      } else {
        const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : (spec.split("/")[0] as string);
        if (!loaded.has(name)) loaded.set(name, file.slice(repo.length + 1));
      }
    }
  }
  return loaded;
}

describe("optional packages of the emulator", () => {
  it("the missing-package error names the package, what needs it, and the install command with the tested version", () => {
    const error = new OptionalPackageMissingError("werift", "The emulator's WHEP endpoint (avatar media)");
    expect(error.message).toBe(
      "The emulator's WHEP endpoint (avatar media) needs the optional package werift, which is not installed: npm install werift@0.25.2",
    );
    expect(error.code).toBe("OPTIONAL_PACKAGE_MISSING");
  });

  it("without the emulator's own packages, loading the emulator names every missing one and the command that installs them", () => {
    const missing = new Set(["hono", "smtp-server", "jose"]);
    expect(() => assertEmulatorPackages((name) => !missing.has(name))).toThrow(
      "The emulator (pulumi-svc/emulator, svc-emulator start) needs the optional packages hono, smtp-server, jose, which are not installed: " +
        `npm install hono@${manifest.peerDependencies.hono} smtp-server@${manifest.peerDependencies["smtp-server"]} jose@${manifest.peerDependencies.jose}`,
    );
    expect(() => assertEmulatorPackages(() => true)).not.toThrow();
    expect(() => assertEmulatorPackages()).not.toThrow();
  });

  it("the avatar API answers 501 with that message instead of an internal error", async () => {
    const app = new Hono();
    app.onError(avatarErrorHandler);
    app.post("/init-client", () => {
      throw new OptionalPackageMissingError("node-turn", "The emulator's TURN relay (avatar media)");
    });
    const response = await app.request("/init-client", { method: "POST" });
    expect(response.status).toBe(501);
    expect(await response.json()).toEqual({ success: false, error: expect.stringContaining("npm install node-turn@0.0.6") });
  });

  it("loads an installed one (the repo installs them as dev dependencies)", () => {
    expect(isInstalled("werift")).toBe(true);
    expect(typeof requireOptional<unknown>("node-turn", "test")).toBe("function");
  });

  it("package.json: each is an optional peer dependency at an exact version, and a dev dependency at that version, never a dependency", () => {
    for (const name of [...EMULATOR_PACKAGES, ...MEDIA_PACKAGES]) {
      expect(manifest.dependencies[name], name).toBeUndefined();
      expect(manifest.peerDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(manifest.devDependencies[name], name).toBe(manifest.peerDependencies[name]);
    }
  });

  it("the provider, the sdk and svc-emulator's other commands never load them; the emulator entry checks them first", () => {
    const optional = new Set<string>([...EMULATOR_PACKAGES, ...MEDIA_PACKAGES]);
    for (const entry of [
      "provider/index.ts",
      "provider/native/index.ts",
      "provider/runtime/index.ts",
      "provider/cli/main.ts",
      "sdk/index.ts",
      "sdk/avatar/index.ts",
      "sdk/browser/index.ts",
      "sdk/browser/fakes/index.ts",
      "emulator/cli.ts",
    ]) {
      const reached = [...packagesLoadedFrom(entry)].filter(([name]) => optional.has(name)).map(([name, by]) => `${name} (by ${by})`);
      expect(reached, entry).toEqual([]);
    }
    // Sanity of the walk: the emulator entry does reach them, after its check.
    expect([...packagesLoadedFrom("emulator/index.ts").keys()]).toEqual(expect.arrayContaining(["hono", "@hono/node-server", "smtp-server", "nodemailer"]));
    expect(readFileSync(join(repo, "emulator/index.ts"), "utf8")).toMatch(/^(?:\/\/.*\n|\/\*[\s\S]*?\*\/\n)*import "\.\/emulatorPackagesCheck";/);
  });
});
