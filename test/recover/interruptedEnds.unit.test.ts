/**
 * The provider's end of an interrupted create, on its own (provider/core/recovery.ts, termination.ts,
 * operationLifetime.ts), with a scripted platform: a create whose request commits after the Cancel is still found;
 * the look-up stops when the process must exit and then says an object may still appear; a termination keeps every
 * create already answered, while the creates in flight delete what they made within one budget, and names what they
 * could not delete; a failed clean-up delete during recovery is reported with type and id.
 */
import { describe, expect, it } from "vitest";
import { CreateLedger } from "../../provider/core/createLedger";
import { PartialCreateError } from "../../provider/core/errors";
import type { OperationContext } from "../../provider/core/operationContext";
import { OperationLifetime } from "../../provider/core/operationLifetime";
import { createWithRecovery, type RecoverableCreate } from "../../provider/core/recovery";
import { ProviderProcess } from "../../provider/core/providerProcess";
import { Termination } from "../../provider/core/termination";
import { appToken } from "../../provider/definitions";
import type { ResourceDefinition } from "../../provider/definitions/define";
import { handlersFor } from "../../provider/runtime/handlers";

const SECRET_VALUE = "tok-value-never-printed-0123456789";
/** The exit budget of these tests' lifetimes (a process has EXIT_BUDGET_MS, 4.25 s): same rules, shorter waits. */
const SHORT_EXIT_BUDGET_MS = 600;

interface Obj {
  id: string;
  token?: string;
}

/** An operation context on `lifetime` with a platform clock and a diagnostics log collected in `lines`. */
function contextOn(lifetime: OperationLifetime, requestTimeoutMs: number, lines: string[]): OperationContext {
  return {
    client: {} as OperationContext["client"],
    signal: lifetime.signal(),
    serverNowMs: () => Date.now(),
    log: (_severity, message) => lines.push(message),
    accountName: "partner 1",
    ledger: new CreateLedger(),
    requestTimeoutMs,
    interruption: lifetime,
  };
}

/** A create call that never answers until aborted (its request is in flight), like undici's. */
const hangingCreate = (signal: AbortSignal) => (): Promise<Obj> =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(Object.assign(new Error("aborted"), { code: "TIMEOUT" })), { once: true }));

const whenAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));

describe("a create interrupted while its request is in flight", () => {
  it("is looked for until the request's timeout: an object the platform commits after the Cancel is found, not orphaned", async () => {
    const lifetime = new OperationLifetime(60_000);
    const lines: string[] = [];
    const ctx = contextOn(lifetime, 3_000, lines);
    let looks = 0;
    let committed = false;
    const plan: RecoverableCreate<Obj> = {
      what: "app token",
      fingerprint: "late",
      create: hangingCreate(ctx.signal),
      // The platform commits the request some time after the Cancel: the first look-ups find nothing.
      find: async () => {
        looks++;
        return committed ? [{ id: "0_late", token: SECRET_VALUE }] : [];
      },
      idOf: (o) => o.id,
      propertiesOf: (o) => ({ tokenId: o.id }),
    };
    const creating = createWithRecovery(ctx, plan).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    lifetime.cancel();
    await new Promise((r) => setTimeout(r, 700));
    committed = true;
    const outcome = await creating;
    expect(outcome).toBeInstanceOf(PartialCreateError);
    expect((outcome as PartialCreateError).id).toBe("0_late");
    expect(looks).toBeGreaterThan(1);
    expect(lines.join("\n")).not.toContain(SECRET_VALUE);
  });

  it("ends at the exit budget when the engine stops the process, and says an object may still appear", async () => {
    const lifetime = new OperationLifetime(60_000, SHORT_EXIT_BUDGET_MS);
    const lines: string[] = [];
    const ctx = contextOn(lifetime, 30_000, lines);
    const lookupSignals: AbortSignal[] = [];
    const plan: RecoverableCreate<Obj> = {
      what: "app token",
      fingerprint: "never",
      create: hangingCreate(ctx.signal),
      find: async (_since, signal) => {
        lookupSignals.push(signal);
        return [];
      },
      idOf: (o) => o.id,
      propertiesOf: (o) => ({ tokenId: o.id }),
    };
    const termination = new Termination(
      () => lifetime.terminate(),
      ctx.log,
      () => lifetime.endUntil(Number.POSITIVE_INFINITY),
    );
    const creating = termination.trackCreate(createWithRecovery(ctx, plan)).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const settled = await termination.settleBeforeExit();
    const error = (await creating) as Error;
    expect(settled.leftBehind).toEqual([]);
    // The look-up was cut by the exit budget (not the 30 s request timeout), and the message does not claim nothing was made.
    expect(lookupSignals.at(-1)?.aborted).toBe(true);
    expect(lifetime.exitBudgetLeftMs()).toBe(0);
    expect(error.message).toMatch(/may still make it/);
    expect(error.message).toMatch(/pulumi-svc recover/);
  }, 30_000);

  it("between rounds (no request in flight) one look-up decides: nothing was made", async () => {
    const lifetime = new OperationLifetime(60_000);
    const ctx = contextOn(lifetime, 30_000, []);
    let looks = 0;
    const plan: RecoverableCreate<Obj> = {
      what: "app token",
      fingerprint: "between",
      // Refused before acting (a 503 may have acted, so the round looks, finds nothing, waits and creates again).
      create: () => Promise.reject(Object.assign(new Error("status 503"), { code: "HTTP_ERROR", status: 503 })),
      find: async () => {
        looks++;
        if (looks === 1) lifetime.cancel(); // cancelled during the round's own look-up
        return [];
      },
      idOf: (o) => o.id,
      propertiesOf: (o) => ({ tokenId: o.id }),
    };
    const error = (await createWithRecovery(ctx, plan).catch((e: unknown) => e)) as Error;
    expect(error).not.toBeInstanceOf(PartialCreateError);
    expect(error.message).not.toMatch(/may still make it/);
    expect(looks).toBe(2); // the round's look-up, then the interrupted create's one
  });
});

describe("a termination", () => {
  it("keeps every create it answered, deletes what the creates in flight made, and names only those it could not delete", async () => {
    const session = new ProviderProcess();
    session.configure({ get: (key) => ({ "svc:baseUrl": "http://127.0.0.1:9", "svc:partnerId": "1", "svc:adminSecret": SECRET_VALUE })[key] });
    const asked: string[] = [];
    const deleted: string[] = [];
    // A scripted platform: "answered" is made at once; the others are made when the engine stops the process (the
    // create found what its request made, as createWithRecovery does), and each delete behaves as its id says.
    const definition: ResourceDefinition = {
      ...appToken,
      create: async (ctx, inputs) => {
        const id = String(inputs.description);
        if (id === "0_answered") return { id, outs: { tokenId: id } };
        await whenAborted(ctx.signal);
        if (id === "nothing") throw new Error("cancelled before the platform acted");
        throw new PartialCreateError(`${id} was created, but the operation was interrupted`, id, { tokenId: id });
      },
      delete: async (ctx, id) => {
        asked.push(id);
        // A delete the platform never answers: cut by the exit budget.
        if (id === "0_stuck") await whenAborted(ctx.signal);
        if (id !== "0_quick") throw new Error("status 500");
        deleted.push(id);
      },
    };
    const handlers = handlersFor(definition, session);
    const answered = await handlers.create({ description: "0_answered" });
    const inFlight = ["0_quick", "0_stuck", "0_failing", "nothing"].map((id) => handlers.create({ description: id }).catch((e: unknown) => e));
    const { leftBehind } = await session.termination.settleBeforeExit();
    const ends = (await Promise.all(inFlight)) as Error[];
    await session.close();

    expect(answered.id).toBe("0_answered");
    // The answered create survives (the engine may have recorded it); the in-flight one that made its object deleted it.
    expect(asked.sort()).toEqual(["0_failing", "0_quick", "0_stuck"]);
    expect(deleted).toEqual(["0_quick"]);
    expect(ends.every((end) => end instanceof Error && !(end instanceof PartialCreateError))).toBe(true);
    // Named: only in-flight creates whose delete failed or did not finish before the exit.
    expect(leftBehind).toEqual(
      expect.arrayContaining([
        { type: "AppToken", id: "0_stuck" },
        { type: "AppToken", id: "0_failing" },
      ]),
    );
    expect(leftBehind).toHaveLength(2);
  }, 30_000);
});

describe("a clean-up delete during recovery that fails", () => {
  it("is reported with the type and id of what remains, never a secret", async () => {
    const lifetime = new OperationLifetime(60_000);
    const lines: string[] = [];
    const ctx = contextOn(lifetime, 1_000, lines);
    const plan: RecoverableCreate<Obj> = {
      what: "app token",
      fingerprint: "unusable",
      // The answer is lost after the platform acted.
      create: () => Promise.reject(Object.assign(new Error("status 502"), { code: "HTTP_ERROR", status: 502 })),
      find: async () => [{ id: "0_unreadable" }],
      idOf: (o) => o.id,
      propertiesOf: (o) => ({ tokenId: o.id }),
      usable: (o) => typeof o.token === "string",
      discard: () => Promise.reject(Object.assign(new Error(`status 500 (${"x".repeat(3)})`), { code: "HTTP_ERROR", status: 500 })),
    };
    const error = (await createWithRecovery(ctx, plan).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/app token it made \(0_unreadable\) could not be used, and deleting it failed/);
    expect(error.message).toMatch(/pulumi-svc recover/);
    expect(lines.join("\n")).toMatch(/app token 0_unreadable made by it could not be used, and deleting it failed/);
    expect(lines.join("\n")).not.toContain(SECRET_VALUE);
  });
});
