/**
 * Pipeline authentication with app tokens of every hash type, against the emulator: with the type given, and
 * without it (found by the client, then remembered). A token made with the platform's default (SHA1) used to fail
 * with INVALID_APP_TOKEN_HASH, because the client assumed SHA256.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator";
import { type HashType, SvcClient, type SvcClientOptions, type TransportEvent } from "../../sdk";
import { createHashTypeFinder, hashTypesToTry } from "../../sdk/auth/appTokenHashTypes";
import { SvcApiError } from "../../sdk";

let emu: RunningEmulator;
const clients: SvcClient[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, quiet: true });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await emu?.close();
});

function client(auth: SvcClientOptions["auth"], onEvent?: (event: TransportEvent) => void): SvcClient {
  const c = new SvcClient({ baseUrl: emu.baseUrl, partnerId: emu.partnerId, auth, onEvent });
  clients.push(c);
  return c;
}

async function tokenOf(hashType: HashType | undefined): Promise<{ id: string; token: string }> {
  const created = await client({ adminSecret: emu.adminSecret }).appTokens.add({
    ...(hashType ? { hashType } : {}),
    sessionType: 2,
    sessionPrivileges: "disableentitlement",
  });
  return { id: created.id, token: created.token as string };
}

function startSessionCalls(events: TransportEvent[]): number {
  return events.filter((e) => e.type === "request" && e.action === "startSession").length;
}

describe("app token sessions, every hash type", () => {
  for (const hashType of ["SHA1", "SHA256", "SHA512"] as const) {
    it(`${hashType}: authenticates with the type given, and without it`, async () => {
      const { id, token } = await tokenOf(hashType);
      const given = client({ appTokenId: id, appToken: token, hashType });
      expect((await given.templates.listTemplates()).totalCount).toBeGreaterThan(0);

      const events: TransportEvent[] = [];
      const found = client({ appTokenId: id, appToken: token }, (event) => events.push(event));
      expect((await found.templates.listTemplates()).totalCount).toBeGreaterThan(0);
      // The type found is remembered: the next session takes one startSession.
      const before = startSessionCalls(events);
      await found.sessions.start();
      expect(startSessionCalls(events) - before).toBe(1);
    });
  }

  it("a token made with the platform's default (SHA1, no hashType sent) authenticates without the type", async () => {
    const { id, token } = await tokenOf(undefined);
    expect((await client({ appTokenId: id, appToken: token }).templates.listTemplates()).totalCount).toBeGreaterThan(0);
  });

  it("a token of one length is still found when the type is another (the real service's 32-character tokens)", () => {
    expect(hashTypesToTry("a".repeat(40))[0]).toBe("SHA1");
    expect(hashTypesToTry("a".repeat(128))[0]).toBe("SHA512");
    expect(hashTypesToTry("a".repeat(32))).toEqual(["MD5", "SHA256", "SHA1", "SHA512"]);
    expect(new Set(hashTypesToTry("a".repeat(7)))).toEqual(new Set(["SHA256", "SHA1", "SHA512", "MD5"]));
  });

  it("the type found by the search is remembered", async () => {
    const tried: HashType[] = [];
    const finder = createHashTypeFinder(undefined, "0123456");
    const attempt = async (hashType: HashType): Promise<HashType> => {
      tried.push(hashType);
      if (hashType !== "SHA512") throw new SvcApiError("INVALID_APP_TOKEN_HASH", "Invalid application token hash");
      return hashType;
    };
    expect(await finder.find(attempt)).toBe("SHA512");
    expect(tried).toEqual(["SHA256", "SHA1", "SHA512"]);
    expect(await finder.find(attempt)).toBe("SHA512");
    expect(tried).toEqual(["SHA256", "SHA1", "SHA512", "SHA512"]);
  });

  it("a wrong token fails with INVALID_APP_TOKEN_HASH after trying each type; a given type is tried alone", async () => {
    const { id } = await tokenOf("SHA256");
    const events: TransportEvent[] = [];
    const wrong = client({ appTokenId: id, appToken: "b".repeat(64) }, (event) => events.push(event));
    await expect(wrong.templates.listTemplates()).rejects.toMatchObject({ code: "INVALID_APP_TOKEN_HASH" });
    expect(startSessionCalls(events)).toBe(4);

    const givenEvents: TransportEvent[] = [];
    const givenWrong = client({ appTokenId: id, appToken: "b".repeat(64), hashType: "SHA1" }, (event) => givenEvents.push(event));
    await expect(givenWrong.templates.listTemplates()).rejects.toMatchObject({ code: "INVALID_APP_TOKEN_HASH" });
    expect(startSessionCalls(givenEvents)).toBe(1);
  });
});
