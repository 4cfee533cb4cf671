/**
 * The session's state machine as a pure step: (state, event) -> {state, effects}. It decides states and lists
 * effects as data; SvcAvatarSession (the runner) performs them. The table in docs/avatar.md is this file.
 */
import type { EndReason } from "../../contract/avatar";
import type { AvatarError } from "./errors";
import { ConnectionState, SessionState } from "./types";

export interface MachineState {
  session: SessionState;
  connection: ConnectionState;
  sessionId: string | null;
  endReason: EndReason | null;
  speaking: boolean;
  /** endSession is in progress (keeps a second endSession from racing the first). */
  ending: boolean;
}

export const initialMachineState: MachineState = {
  session: SessionState.IDLE,
  connection: ConnectionState.DISCONNECTED,
  sessionId: null,
  endReason: null,
  speaking: false,
  ending: false,
};

/** Commands the user calls; each is allowed in the states listed (else INVALID_STATE). */
export type Command = "createSession" | "initSession" | "sayText" | "sayAudio" | "interrupt" | "endSession" | "attachAvatar";

export type MachineEvent =
  | { type: "command.requested"; command: Command }
  | { type: "session.created"; sessionId: string }
  | { type: "rtc.connecting" }
  | { type: "rtc.negotiated" }
  | { type: "rtc.connected" }
  | { type: "rtc.failed"; error: AvatarError }
  | { type: "create.failed"; error: AvatarError }
  | { type: "keepAlive.tick" }
  | { type: "api.failed"; error: AvatarError; fatal: boolean }
  | { type: "server.ended"; reason: EndReason }
  /** serverReason: the backend said the session had already ended (410), and why. */
  | { type: "end.completed"; serverReason?: EndReason }
  /** final: the server does not know the session (404): nothing to retry, the session is over locally. */
  | { type: "end.failed"; error: AvatarError; final?: boolean }
  | { type: "speaking.started" }
  | { type: "speaking.ended" };

export type Effect =
  | { type: "emit.stateChange"; state: SessionState; reason?: EndReason }
  | { type: "emit.connectionChange"; state: ConnectionState }
  | { type: "emit.error"; error: AvatarError }
  | { type: "emit.speakingStart" }
  | { type: "emit.speakingEnd" }
  | { type: "keepAlive.start" }
  | { type: "keepAlive.stop" }
  | { type: "keepAlive.send" }
  | { type: "events.start" }
  | { type: "events.stop" }
  | { type: "rtc.close" }
  | { type: "backend.end" }
  | { type: "backend.release" }
  | { type: "reject.invalidState"; command: Command; state: SessionState };

export interface Step {
  state: MachineState;
  effects: Effect[];
}

const ALLOWED: Record<Command, readonly SessionState[]> = {
  createSession: [SessionState.IDLE],
  initSession: [SessionState.IDLE],
  sayText: [SessionState.READY],
  sayAudio: [SessionState.READY],
  interrupt: [SessionState.READY],
  endSession: [SessionState.READY, SessionState.ERROR, SessionState.ENDED],
  attachAvatar: [SessionState.IDLE, SessionState.CREATING, SessionState.READY, SessionState.ERROR],
};

export function isAllowed(command: Command, state: SessionState): boolean {
  return ALLOWED[command].includes(state);
}

export function step(state: MachineState, event: MachineEvent): Step {
  switch (event.type) {
    case "command.requested": {
      if (!isAllowed(event.command, state.session) || (event.command === "endSession" && state.ending)) {
        return same(state, { type: "reject.invalidState", command: event.command, state: state.session });
      }
      if (event.command === "createSession" || event.command === "initSession") return toSession(state, SessionState.CREATING);
      if (event.command === "endSession" && state.session !== SessionState.ENDED) {
        const next = { ...state, ending: true };
        return {
          state: { ...next, connection: ConnectionState.CLOSED },
          effects: [...stopAll(), ...connectionEffect(state, ConnectionState.CLOSED), { type: "backend.end" }],
        };
      }
      return same(state);
    }
    case "session.created":
      return state.session === SessionState.CREATING ? same({ ...state, sessionId: event.sessionId }) : same(state);
    case "rtc.connecting":
      return withConnection(state, ConnectionState.CONNECTING);
    case "rtc.negotiated": {
      if (state.session !== SessionState.CREATING) return same(state);
      const next = toSession(state, SessionState.READY);
      return { state: next.state, effects: [...next.effects, { type: "keepAlive.start" }, { type: "events.start" }] };
    }
    case "rtc.connected":
      return state.connection === ConnectionState.CONNECTING ? withConnection(state, ConnectionState.CONNECTED) : same(state);
    case "rtc.failed": {
      if (state.session !== SessionState.READY && state.session !== SessionState.CREATING) return same(state);
      const failed = withConnection(state, ConnectionState.FAILED);
      if (state.session === SessionState.CREATING) return failed; // create.failed follows from the runner
      return fail(failed.state, event.error, failed.effects);
    }
    case "create.failed": {
      if (state.session !== SessionState.CREATING) return same(state);
      const conn = state.connection === ConnectionState.CONNECTING ? withConnection(state, ConnectionState.FAILED) : same(state);
      const result = fail(conn.state, event.error, conn.effects);
      return { state: result.state, effects: [...result.effects, ...(state.sessionId ? [{ type: "backend.release" } as const] : [])] };
    }
    case "keepAlive.tick":
      return state.session === SessionState.READY && !state.ending ? same(state, { type: "keepAlive.send" }) : same(state);
    case "api.failed":
      if (state.session !== SessionState.READY || state.ending) return same(state, { type: "emit.error", error: event.error });
      return event.fatal ? fail(state, event.error, []) : same(state, { type: "emit.error", error: event.error });
    case "server.ended":
      if (state.session !== SessionState.READY && state.session !== SessionState.ERROR) return same(state);
      return toEnded(state, event.reason);
    case "end.completed": {
      if (!state.ending) return same(state);
      // Ending a session that failed reports "error"; otherwise the server's reason for an earlier end, or "client".
      const reason: EndReason = state.session === SessionState.ERROR ? "error" : (event.serverReason ?? "client");
      return toEnded({ ...state, ending: false }, reason);
    }
    case "end.failed": {
      if (!state.ending) return same(state);
      if (event.final) {
        const ended = toEnded({ ...state, ending: false }, "error");
        return { state: ended.state, effects: [{ type: "emit.error", error: event.error }, ...ended.effects] };
      }
      return fail({ ...state, ending: false }, event.error, []);
    }
    case "speaking.started":
      return state.session === SessionState.READY && !state.speaking ? same({ ...state, speaking: true }, { type: "emit.speakingStart" }) : same(state);
    case "speaking.ended":
      return state.speaking ? same({ ...state, speaking: false }, { type: "emit.speakingEnd" }) : same(state);
  }
}

function same(state: MachineState, ...effects: Effect[]): Step {
  return { state, effects };
}

function toSession(state: MachineState, session: SessionState, reason?: EndReason): Step {
  if (state.session === session) return same(state);
  return { state: { ...state, session }, effects: [{ type: "emit.stateChange", state: session, ...(reason ? { reason } : {}) }] };
}

function connectionEffect(state: MachineState, connection: ConnectionState): Effect[] {
  return state.connection === connection ? [] : [{ type: "emit.connectionChange", state: connection }];
}

function withConnection(state: MachineState, connection: ConnectionState): Step {
  return { state: { ...state, connection }, effects: connectionEffect(state, connection) };
}

function stopAll(): Effect[] {
  return [{ type: "keepAlive.stop" }, { type: "events.stop" }, { type: "rtc.close" }];
}

/** To ERROR: stop keep-alive, polling and WebRTC; report the error, then the state. */
function fail(state: MachineState, error: AvatarError, prior: Effect[]): Step {
  const speaking: Effect[] = state.speaking ? [{ type: "emit.speakingEnd" }] : [];
  const next = toSession({ ...state, speaking: false }, SessionState.ERROR);
  return { state: next.state, effects: [...prior, ...stopAll(), ...speaking, { type: "emit.error", error }, ...next.effects] };
}

/** To ENDED with a reason: stop everything, close the connection. */
function toEnded(state: MachineState, reason: EndReason): Step {
  const closed = withConnection(state, ConnectionState.CLOSED);
  const speaking: Effect[] = state.speaking ? [{ type: "emit.speakingEnd" }] : [];
  const next = toSession({ ...closed.state, speaking: false, endReason: reason }, SessionState.ENDED, reason);
  return { state: next.state, effects: [...stopAll(), ...closed.effects, ...speaking, ...next.effects] };
}
