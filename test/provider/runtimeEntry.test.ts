/**
 * The runtime entry points that stored stacks require by name (see docs/design.md, "stable shim"): both the current
 * path and the one shims stored before package.json had `exports` resolve, to the same module, with the same names.
 */
import { describe, expect, it } from "vitest";

describe("provider runtime entry points", () => {
  it("resolves pulumi-svc/provider-runtime and the legacy pulumi-svc/dist/provider/runtime to one module", () => {
    const current = require.resolve("pulumi-svc/provider-runtime");
    const legacy = require.resolve("pulumi-svc/dist/provider/runtime");
    expect(legacy).toBe(current);
    const runtime = require(current) as Record<string, Record<string, unknown> | ((...args: unknown[]) => unknown)>;
    expect(typeof runtime.configure).toBe("function");
    for (const kind of ["appToken", "httpNotificationTemplate"]) {
      for (const method of ["check", "diff", "create", "read", "update", "delete"]) {
        expect(typeof (runtime[kind] as Record<string, unknown>)[method]).toBe("function");
      }
    }
  });
});
