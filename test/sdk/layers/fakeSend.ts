/** Fakes for testing one transport layer alone: an exchange with defaults, and scripted inner send functions. */
import type { Exchange, Send } from "../../../sdk/transport/exchange";
import type { TransportResponse } from "../../../sdk/transport/options";

export function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    method: "POST",
    url: "https://platform.example/api_v3/service/appToken/action/list",
    idempotent: true,
    service: "appToken",
    action: "list",
    timeoutMs: 30_000,
    maxRetries: 3,
    signal: new AbortController().signal,
    deadlineAt: Number.POSITIVE_INFINITY,
    attempt: 1,
    wire: { unanswered: 0 },
    ...overrides,
  };
}

export function response(status: number, headers: Record<string, string> = {}): TransportResponse {
  return { status, headers, body: "", requestId: undefined, attempts: 1 };
}

/** A send that answers each attempt from `script` in turn (an Error is thrown), recording the exchanges it saw. */
export function scriptedSend(script: Array<TransportResponse | Error>): Send & { seen: Exchange[] } {
  const seen: Exchange[] = [];
  const send = async (ex: Exchange): Promise<TransportResponse> => {
    seen.push(ex);
    const next = script[Math.min(seen.length - 1, script.length - 1)] as TransportResponse | Error;
    if (next instanceof Error) throw next;
    return { ...next, attempts: ex.attempt };
  };
  return Object.assign(send, { seen });
}

export function errno(code: string): Error {
  return Object.assign(new Error(code), { code });
}
