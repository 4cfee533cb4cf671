/**
 * The recording of the engine's gRPC traffic with the plugin that the replay test feeds back (fixtures/engine-grpc.json),
 * and how an engine log (PULUMI_DEBUG_GRPC) becomes one: only the engine's calls to the svc provider, each with its
 * request and its answer (a response, or the error text), grouped by command (each command is a new plugin process).
 *
 * Scrubbed: what differs between runs or is a credential is replaced by a placeholder `{{name}}`: the emulator's
 * base URL and admin secret (`{{baseUrl}}`, `{{adminSecret}}`: the replay binds them to its own emulator's), the
 * plugin's version and folder, the ids of the objects created (`{{id:1}}`...) and the app token values
 * (`{{token:1}}`...); the loopback addresses of the engine's side channels become 127.0.0.1:0. The replay binds an unbound placeholder to the value it first meets at that place, and holds
 * every later occurrence to it. Timestamps (createdAt, updatedAt) are recorded as RECORDED_TIME (the replay takes
 * any number there), and the fields that differ in every run and that the plugin does not use (Check's random seed,
 * the engine's status channel) are dropped. The program's resources depend on each other in a chain and the engine
 * runs one at a time (`--parallel 1`), so the calls come in the same order in every recording; the default
 * provider's id (a new uuid per stack) is recorded as a fixed one. The other values are the program's, all obviously fake test values.
 */
export interface RecordedCall {
  /** The method's name, e.g. "Create" (of /pulumirpc.ResourceProvider/Create). */
  method: string;
  /** The request as protobuf JSON (the engine's log form). */
  request: Record<string, unknown>;
  response?: Record<string, unknown>;
  /** The engine's text of a failed call: "rpc error: code = <Code> desc = <message>". */
  error?: string;
}

export interface RecordedCommand {
  /** The `pulumi` command line that made these calls. */
  command: string;
  calls: RecordedCall[];
}

export interface Recording {
  /** How to make it again. */
  recordedWith: string;
  engineVersion: string;
  /** The emulator's partner id during the recording (the replay's emulator uses the same). */
  partnerId: number;
  commands: RecordedCommand[];
}

/** The partner id of the recording's emulator and of the replay's. */
export const RECORDING_PARTNER_ID = 424242;

/**
 * Fields of a request that differ in every run and that the plugin does not use: the engine's side channels and
 * Check's random seed. Dropped from the recording, so that a re-recording diffs only where the plugin changed.
 */
const RUN_SPECIFIC = ["resourceStatusAddress", "resourceStatusToken", "randomSeed"];
/** The platform's clock in a recording: every createdAt and updatedAt (the replay takes any number there). */
export const RECORDED_TIME = 1_700_000_000;
/** The default provider's id in a recording (the engine's is a new uuid per stack). */
const RECORDED_PROVIDER_ID = "00000000-0000-4000-8000-000000000000";
/** The engine's unknown value (Configure's id in a preview). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** What the scrubber needs to know of the run. */
export interface RunFacts {
  baseUrl: string;
  adminSecret: string;
  pluginDir: string;
}

/** The provider calls of one engine log (one line of JSON per event), in the order they finished. */
export function providerCalls(logText: string): RecordedCall[] {
  const calls: RecordedCall[] = [];
  for (const line of logText.split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as {
      method: string;
      request?: Record<string, unknown>;
      response?: Record<string, unknown>;
      errors?: string[];
      metadata?: { kind?: string; name?: string };
    };
    if (!entry.method.startsWith("/pulumirpc.ResourceProvider/") || entry.metadata?.name !== "svc") continue;
    // Each call is logged when it starts and when it ends: the end carries the answer.
    if (entry.response === undefined && entry.errors === undefined) continue;
    const request = Object.fromEntries(Object.entries(entry.request ?? {}).filter(([key]) => !RUN_SPECIFIC.includes(key)));
    const call: RecordedCall = { method: entry.method.slice("/pulumirpc.ResourceProvider/".length), request };
    if (entry.errors) call.error = entry.errors.join("; ");
    else call.response = entry.response;
    calls.push(call);
  }
  return calls;
}

/** The commands with every run-specific value and credential replaced by its placeholder (see the file's comment). */
export function scrub(commands: RecordedCommand[], facts: RunFacts): RecordedCommand[] {
  const ids = new Map<string, string>();
  const tokens = new Map<string, string>();
  for (const { calls } of commands) {
    for (const call of calls) {
      if (call.method === "Create" && typeof call.response?.id === "string" && !ids.has(call.response.id)) ids.set(call.response.id, `{{id:${ids.size + 1}}}`);
      collectTokens(call.response, tokens);
      collectTokens(call.request, tokens);
    }
  }
  const exact = new Map([...ids, ...tokens]);
  let text = JSON.stringify(commands, (key, value: unknown) => {
    if (typeof value === "string" && exact.has(value)) return exact.get(value);
    return (key === "createdAt" || key === "updatedAt") && typeof value === "number" ? RECORDED_TIME : value;
  });
  for (const [value, placeholder] of [
    [facts.adminSecret, "{{adminSecret}}"],
    [facts.baseUrl, "{{baseUrl}}"],
    [facts.pluginDir, "{{pluginDir}}"],
  ] as const) {
    text = text.split(value).join(placeholder);
  }
  // The engine's side channels of that run (Handshake's addresses), which the plugin does not use.
  text = text.replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:0");
  const scrubbed = JSON.parse(text) as RecordedCommand[];
  for (const { calls } of scrubbed) {
    for (const call of calls) {
      if (call.method === "GetPluginInfo" && call.response) call.response = { ...call.response, version: "{{pluginVersion}}" };
      // The provider's own id in the stack (a new one per stack; the plugin does not use it).
      if (call.method === "Configure" && call.request.id !== UNKNOWN) call.request = { ...call.request, id: RECORDED_PROVIDER_ID };
    }
  }
  return scrubbed;
}

/** The values of every `token` property (an app token's value, wrapped as a secret or not). */
function collectTokens(value: unknown, into: Map<string, string>): void {
  if (Array.isArray(value)) for (const item of value) collectTokens(item, into);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const plain = item !== null && typeof item === "object" && "value" in item ? (item as { value: unknown }).value : item;
      if (key === "token" && typeof plain === "string" && !into.has(plain)) into.set(plain, `{{token:${into.size + 1}}}`);
      else collectTokens(item, into);
    }
  }
}
