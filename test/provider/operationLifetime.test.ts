/**
 * Each operation's signal: its own deadline (a TimeoutError, as AbortSignal.timeout gives), or the process's Cancel,
 * which ends every operation in flight and every later one with its reason.
 */
import { describe, expect, it } from "vitest";
import { OperationLifetime } from "../../provider/core/operationLifetime";

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => (signal.aborted ? resolve(signal.reason) : signal.addEventListener("abort", () => resolve(signal.reason), { once: true })));

describe("OperationLifetime.signal", () => {
  it("ends an operation at its deadline with a TimeoutError, and no other", async () => {
    const lifetime = new OperationLifetime(5);
    const first = lifetime.signal();
    const reason = await aborted(first);
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe("TimeoutError");
    expect(lifetime.isCancelled()).toBe(false);
    expect(new OperationLifetime(60_000).signal().aborted).toBe(false);
  });

  it("ends every operation in flight at Cancel, with its reason, and every later one at once", () => {
    const lifetime = new OperationLifetime(60_000);
    const inFlight = [lifetime.signal(), lifetime.signal(), lifetime.signal()];
    lifetime.cancel();
    for (const signal of inFlight) {
      expect(signal.aborted).toBe(true);
      expect(String(signal.reason)).toMatch(/cancelled/);
    }
    const later = lifetime.signal();
    expect(later.aborted).toBe(true);
    expect(later.reason).toBe(inFlight[0]!.reason);
  });

  it("gives each operation its own signal", () => {
    const lifetime = new OperationLifetime(60_000);
    const a = lifetime.signal();
    const b = lifetime.signal();
    expect(a).not.toBe(b);
    expect(a.aborted || b.aborted).toBe(false);
  });
});
