import { describe, expect, it } from "vitest";
import { AvatarError } from "../../sdk/browser";
import { initialMachineState, isAllowed, step, type MachineEvent, type MachineState } from "../../sdk/browser/sessionMachine";

const err = new AvatarError("API_REQUEST_FAILED", "boom");
const run = (events: MachineEvent[], from: MachineState = initialMachineState) =>
  events.reduce<{ state: MachineState; effects: string[] }>(
    (acc, event) => {
      const next = step(acc.state, event);
      return {
        state: next.state,
        effects: [...acc.effects, ...next.effects.map((e) => e.type + ("state" in e && typeof e.state === "string" ? `:${e.state}` : ""))],
      };
    },
    { state: from, effects: [] },
  );

const ready = run([
  { type: "command.requested", command: "createSession" },
  { type: "session.created", sessionId: "s1" },
  { type: "rtc.connecting" },
  { type: "rtc.negotiated" },
]).state;

describe("sessionMachine (pure step)", () => {
  it("walks IDLE -> CREATING -> READY with the documented effects", () => {
    const { state, effects } = run([
      { type: "command.requested", command: "createSession" },
      { type: "session.created", sessionId: "s1" },
      { type: "rtc.connecting" },
      { type: "rtc.negotiated" },
      { type: "rtc.connected" },
    ]);
    expect(state).toMatchObject({ session: "READY", connection: "CONNECTED", sessionId: "s1" });
    expect(effects).toEqual([
      "emit.stateChange:CREATING",
      "emit.connectionChange:CONNECTING",
      "emit.stateChange:READY",
      "keepAlive.start",
      "events.start",
      "emit.connectionChange:CONNECTED",
    ]);
  });

  it("lists the allowed commands per state", () => {
    expect(isAllowed("createSession", "IDLE")).toBe(true);
    expect(isAllowed("createSession", "READY")).toBe(false);
    expect(isAllowed("sayText", "READY")).toBe(true);
    expect(isAllowed("sayText", "CREATING")).toBe(false);
    expect(isAllowed("endSession", "ERROR")).toBe(true);
    expect(isAllowed("endSession", "CREATING")).toBe(false);
    expect(isAllowed("attachAvatar", "ENDED")).toBe(false);
    const { state, effects } = step(initialMachineState, { type: "command.requested", command: "interrupt" });
    expect(state).toBe(initialMachineState);
    expect(effects).toEqual([{ type: "reject.invalidState", command: "interrupt", state: "IDLE" }]);
  });

  it("endSession: stops everything, closes, ends on the backend; ENDED(client) on completion; ENDED(error) from ERROR", () => {
    const ending = run([{ type: "command.requested", command: "endSession" }], ready);
    expect(ending.state).toMatchObject({ session: "READY", connection: "CLOSED", ending: true });
    expect(ending.effects).toEqual(["keepAlive.stop", "events.stop", "rtc.close", "emit.connectionChange:CLOSED", "backend.end"]);
    expect(step(ending.state, { type: "command.requested", command: "endSession" }).effects[0]?.type).toBe("reject.invalidState");
    const done = run([{ type: "end.completed" }], ending.state);
    expect(done.state).toMatchObject({ session: "ENDED", endReason: "client", ending: false });
    expect(done.effects.at(-1)).toBe("emit.stateChange:ENDED");
    expect(run([{ type: "end.completed", serverReason: "idle-timeout" }], ending.state).state.endReason).toBe("idle-timeout");
    const failed = run([{ type: "end.failed", error: err }], ending.state);
    expect(failed.state.session).toBe("ERROR");
    // A 404 on end (final): reported, and the session is over locally with reason "error" (410 is "already ended").
    const unknown = run([{ type: "end.failed", error: err, final: true }], ending.state);
    expect(unknown.state).toMatchObject({ session: "ENDED", endReason: "error", ending: false });
    expect(unknown.effects[0]).toBe("emit.error");
    expect(unknown.effects.at(-1)).toBe("emit.stateChange:ENDED");
    const fromError = run(
      [
        { type: "command.requested", command: "endSession" },
        { type: "end.completed", serverReason: "server" },
      ],
      failed.state,
    );
    expect(fromError.state).toMatchObject({ session: "ENDED", endReason: "error" });
    // ENDED: endSession is a no-op, nothing else is allowed.
    expect(step(done.state, { type: "command.requested", command: "endSession" }).effects).toEqual([]);
  });

  it("server.ended, api.failed (fatal or not), rtc.failed and create.failed", () => {
    const speaking = step(ready, { type: "speaking.started" }).state;
    const ended = run([{ type: "server.ended", reason: "idle-timeout" }], speaking);
    expect(ended.state).toMatchObject({ session: "ENDED", connection: "CLOSED", endReason: "idle-timeout", speaking: false });
    expect(ended.effects).toEqual(["keepAlive.stop", "events.stop", "rtc.close", "emit.connectionChange:CLOSED", "emit.speakingEnd", "emit.stateChange:ENDED"]);
    expect(run([{ type: "api.failed", error: err, fatal: false }], ready)).toMatchObject({ state: ready, effects: ["emit.error"] });
    expect(run([{ type: "api.failed", error: err, fatal: true }], ready).state.session).toBe("ERROR");
    const rtc = run([{ type: "rtc.failed", error: err }], ready);
    expect(rtc.state).toMatchObject({ session: "ERROR", connection: "FAILED" });
    const creating = run([
      { type: "command.requested", command: "createSession" },
      { type: "session.created", sessionId: "s" },
      { type: "rtc.connecting" },
    ]).state;
    const cf = run([{ type: "create.failed", error: err }], creating);
    expect(cf.state).toMatchObject({ session: "ERROR", connection: "FAILED" });
    expect(cf.effects.at(-1)).toBe("backend.release");
    // Keep-alive ticks only act while READY and not ending.
    expect(step(ready, { type: "keepAlive.tick" }).effects).toEqual([{ type: "keepAlive.send" }]);
    expect(step(cf.state, { type: "keepAlive.tick" }).effects).toEqual([]);
    // Speaking events are de-duplicated.
    expect(step(speaking, { type: "speaking.started" }).effects).toEqual([]);
    expect(step(ready, { type: "speaking.ended" }).effects).toEqual([]);
  });
});
