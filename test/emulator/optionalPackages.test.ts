/** The emulator's media stack is optional: without it, the avatar media path says what to install. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { avatarErrorHandler } from "../../emulator/avatar/errors";
import { isInstalled, OptionalPackageMissingError, requireOptional } from "../../emulator/optionalPackages";

describe("optional packages of the emulator", () => {
  it("the missing-package error names the package, what needs it, and the install command with the tested version", () => {
    const error = new OptionalPackageMissingError("werift", "The emulator's WHEP endpoint (avatar media)");
    expect(error.message).toBe(
      "The emulator's WHEP endpoint (avatar media) needs the optional package werift, which is not installed: npm install werift@0.25.2",
    );
    expect(error.code).toBe("OPTIONAL_PACKAGE_MISSING");
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

  it("loads an installed one (the repo installs both as dev dependencies)", () => {
    expect(isInstalled("werift")).toBe(true);
    expect(typeof requireOptional<unknown>("node-turn", "test")).toBe("function");
  });
});
