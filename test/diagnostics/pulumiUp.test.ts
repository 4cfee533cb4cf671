/**
 * What a person sees: `pulumi up` of the plugin against a faulty emulator prints, under the resource that met them,
 * the throttling pause, the retry and its cause, and the recovered create; `-v=9 --logflow` (a CI job's log) carries
 * the operations' debug summaries too. Neither holds the admin secret or a token value.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformStack, type PlatformStack, values } from "../support/platformStack";

describe("diagnostics in `pulumi up` (plugin, faulty emulator)", () => {
  let p: PlatformStack;

  beforeAll(async () => {
    p = await platformStack({ stackName: "diagnostics", provider: "plugin" });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
  });

  it("up shows the throttling pause, the retry and the recovered create under the token, and no secret", async () => {
    await p.setScenario({ tokens: { ci: { description: "diagnostics in up" } } });
    // The token's add: 429 (paused, retried), then committed with its answer lost (recovered); the recovery's list: 503 (retried).
    p.emulator.ctx.faults.set({ next: ["throttle", "commitThenDrop", "error"], retryAfterSeconds: 0, pathIncludes: "/appToken/action/" });
    let output = "";
    const up = await p.stack.up({ onOutput: (text) => (output += text), logVerbosity: 9, logFlow: true, logToStdErr: true, color: "never" });
    p.emulator.ctx.faults.set({});
    expect(up.summary.result).toBe("succeeded");
    expect(p.emulator.ctx.faults.get().pending).toEqual([]);

    // The diagnostics section of `pulumi up`, under the resource (svc:index:AppToken (ci)).
    const diagnostics = output.slice(output.lastIndexOf("Diagnostics:"));
    expect(diagnostics).toMatch(/svc:index:AppToken \(ci\):/);
    expect(diagnostics).toMatch(/the platform is throttling requests \(429\): pausing \d+ ms before attempt 2 of appToken\.add/);
    expect(diagnostics).toMatch(/retrying appToken\.list in \d+ ms \(attempt 2\): the platform answered 503/);
    expect(diagnostics).toMatch(/recovered a create whose answer was lost \(.+\): found app token \S+ made by it and adopted it/);

    // Under -v=9 --logflow the engine's log (stderr) carries the debug summary of each operation, with its URN.
    expect(up.stderr).toMatch(/create: \d+ API requests, 2 retries, \d+ ms/);

    const tokenValue = String(values(up.outputs).ciToken);
    expect(tokenValue.length).toBeGreaterThan(10);
    // The engine's own -v=9 lines echo resource outputs (Pulumi's verbose logs are not for sharing); ours never do.
    const ours = up.stderr.split("\n").filter((line) => /API requests?, \d+ retr|throttling requests|retrying appToken|recovered a create/.test(line));
    expect(ours.length).toBeGreaterThanOrEqual(4);
    for (const secret of [p.emulator.adminSecret, tokenValue]) {
      expect(output).not.toContain(secret);
      expect(ours.join("\n")).not.toContain(secret);
    }
  }, 180_000);
});
