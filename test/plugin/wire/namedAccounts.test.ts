/**
 * Named accounts on the wire: one plugin server configured with `accounts` (three partners of the emulator) and an
 * own account. Each resource's `account` picks where it is made, read, updated and deleted; each account has its own
 * client and session (a session.start per account); the sockets to the platform are one pool per origin. An unknown
 * name fails Check naming the names known; a bad entry fails CheckConfig naming the entry and the field; nothing
 * answered shows a credential. DiffConfig keeps a provider whose old account is still served by name, and a
 * resource's Diff judges "same account" by partner and base URL, whatever names it.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provprotoValues from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionOfAccount } from "../../../provider/core/providerAccounts";
import {
  APP_TOKEN,
  checkConfigRequest,
  checkRequest,
  configureRequest,
  createRequest,
  deleteRequest,
  diffConfigRequest,
  diffRequest,
  failuresOf,
  type Props,
  secret,
  startWire,
  updateRequest,
  valuesOf,
  visibleText,
  type WireHarness,
} from "./wireHarness";

interface Partner {
  id: number;
  adminSecret: string;
}

describe("named accounts (`accounts`, `account`) on one plugin server", () => {
  let wire: WireHarness;
  let partners: Partner[];
  let settings: Props;
  const names = ["eu", "us", "apac"];

  beforeAll(async () => {
    wire = await startWire({ configure: false });
    partners = names.map(() => wire.emulator.ctx.createPartner());
    settings = {
      ...wire.settings,
      accounts: secret(Object.fromEntries(names.map((name, i) => [name, { partnerId: partners[i]!.id, adminSecret: partners[i]!.adminSecret }]))),
    };
    await wire.configure(settings);
  });
  afterAll(async () => {
    await wire?.stop();
  });

  const tokensOf = (partnerId: number) =>
    wire.emulator.ctx.store
      .listDocs<{ id: string; status: number; description: string }>("appToken", partnerId)
      .filter((d) => d.status === 2)
      .map((d) => d.description)
      .sort();
  const check = async (news: Props) => wire.call<provproto.CheckResponse>("check", checkRequest(APP_TOKEN, news));
  const create = async (news: Props) => {
    const checked = valuesOf((await check(news)).getInputs());
    const response = await wire.call<provproto.CreateResponse>("create", createRequest(APP_TOKEN, checked));
    return { id: response.getId(), outs: valuesOf(response.getProperties()) };
  };

  it("creates each resource in the account it names, each account with its own session, and deletes it there", async () => {
    wire.resetApiCalls();
    const made = [];
    for (const name of names) made.push(await create({ description: `in ${name}`, account: name }));
    const own = await create({ description: "in the own account" });
    for (const [i, name] of names.entries()) expect(tokensOf(partners[i]!.id)).toEqual([`in ${name}`]);
    expect(tokensOf(wire.emulator.partnerId)).toEqual(["in the own account"]);
    expect(made.map((m) => m.outs.account)).toEqual(names);
    expect(made.map((m) => m.outs.partnerId)).toEqual(partners.map((p) => p.id));
    // One session per account: nothing of one account's session is used for another.
    expect(wire.apiCalls()["session.start"]).toBe(names.length + 1);
    // One socket pool for the one origin, however many accounts.
    const agents = (wire.server.session.clients as unknown as { agents: Map<string, unknown> }).agents;
    expect([...agents.keys()]).toEqual([new URL(wire.emulator.baseUrl).origin]);
    for (const m of [...made, own]) await wire.call("delete", deleteRequest(APP_TOKEN, m.id, m.outs));
    for (const p of partners) expect(tokensOf(p.id)).toEqual([]);
  });

  it("refuses an unknown name at Check, naming it and the names known, with no call to the platform", async () => {
    wire.resetApiCalls();
    const failures = failuresOf(await check({ description: "nowhere", account: "emea" }));
    expect(failures).toEqual([{ property: "account", reason: 'account: account "emea" is unknown: this provider knows "apac", "eu", "us"' }]);
    expect(wire.apiCalls()).toEqual({});
  });

  it("refuses `account` beside `connection`", async () => {
    const failures = failuresOf(
      await check({ description: "both", account: "eu", connection: secret({ partnerId: partners[0]!.id, adminSecret: partners[0]!.adminSecret }) }),
    );
    expect(failures.map((f) => f.reason)).toEqual([expect.stringMatching(/^account: set `account` or `connection`, not both/)]);
  });

  it("refuses a bad entry at CheckConfig and Configure, naming the entry and the field, never a value", async () => {
    const bad = (accounts: unknown) => ({ ...settings, accounts: secret(accounts) });
    const reasons = async (accounts: unknown) =>
      failuresOf(await wire.call<provproto.CheckResponse>("checkConfig", checkConfigRequest(bad(accounts)))).map((f) => f.reason);
    expect(await reasons({ eu: { partnerId: "not-a-number", adminSecret: "secret-value-1" } })).toEqual([
      "`accounts.eu.partnerId` must be a whole number from 1",
    ]);
    expect(await reasons({ eu: { partnerId: 7, adminSecrett: "secret-value-2" } })).toEqual([
      expect.stringMatching(/^`accounts\.eu\.adminSecrett` is not a connection field; expected one of: baseUrl, partnerId, adminSecret/),
    ]);
    expect(await reasons({ "e u": { partnerId: 7, adminSecret: "secret-value-3" } })).toEqual([
      'The name "e u" is not a name of letters, digits, `-` and `_` (at most 64)'.replace("The name", "`accounts`: the name"),
    ]);
    expect(await reasons({ eu: { partnerId: 7 } })).toEqual([
      expect.stringMatching(/^No credentials in `accounts\.eu`: `accounts\.eu\.partnerId` names an account/),
    ]);
    const configure = wire.call("configure", configureRequest(bad({ eu: { partnerId: "x", adminSecret: "secret-value-4" } })));
    await expect(configure).rejects.toThrow(/`accounts\.eu\.partnerId` must be a whole number/);
    await wire.configure(settings);
    const answer = await wire.call<provproto.CheckResponse>("checkConfig", checkConfigRequest(bad({ eu: { partnerId: "x", adminSecret: "secret-value-5" } })));
    expect(visibleText(valuesOf(answer.getInputs()))).not.toMatch(/secret-value/);
  });

  it("keeps `accounts` secret in CheckConfig's answer", async () => {
    const answer = await wire.call<provproto.CheckResponse>("checkConfig", checkConfigRequest(settings));
    const text = visibleText(valuesOf(answer.getInputs()));
    for (const p of partners) expect(text).not.toContain(p.adminSecret);
  });

  it("serves a provider with named accounts and no account of its own; a resource naming none is refused at Check", async () => {
    const { baseUrl: _b, partnerId: _p, adminSecret: _a, ...onlyNamed } = settings;
    const accounts = Object.fromEntries(
      names.map((name, i) => [name, { baseUrl: wire.emulator.baseUrl, partnerId: partners[i]!.id, adminSecret: partners[i]!.adminSecret }]),
    );
    const failures = failuresOf(await wire.call<provproto.CheckResponse>("checkConfig", checkConfigRequest({ ...onlyNamed, accounts: secret(accounts) })));
    expect(failures).toEqual([]);
    await wire.configure({ accounts: secret(accounts) });
    try {
      expect(failuresOf(await check({ description: "named", account: "us" }))).toEqual([]);
      expect(failuresOf(await check({ description: "unnamed" })).map((f) => f.reason)).toEqual([expect.stringMatching(/^connection: No platform URL/)]);
    } finally {
      await wire.configure(settings);
    }
  });

  it("DiffConfig: an explicit provider of one account moving to a provider that serves it by name is no replacement; one it does not serve is", async () => {
    const diffConfig = async (olds: Props, news: Props) => wire.call<provproto.DiffResponse>("diffConfig", diffConfigRequest(olds, news));
    const explicit = { baseUrl: wire.emulator.baseUrl, partnerId: partners[1]!.id, adminSecret: secret(partners[1]!.adminSecret) };
    const kept = await diffConfig(explicit, settings);
    expect(kept.getReplacesList()).toEqual([]);
    const stranger = { ...explicit, partnerId: 999_999 };
    expect((await diffConfig(stranger, settings)).getReplacesList()).toEqual(["partnerId"]);
  });

  it("Diff: a resource of an explicit provider (no choice in state) or of a connection, moving to the named account of its partner, is an update that calls nothing", async () => {
    const made = await create({ description: "moving", connection: secret({ partnerId: partners[2]!.id, adminSecret: partners[2]!.adminSecret }) });
    const checkedAs = async (account: string | undefined) => valuesOf((await check({ description: "moving", ...(account ? { account } : {}) })).getInputs());
    const fromConnection = await wire.call<provproto.DiffResponse>("diff", diffRequest(APP_TOKEN, made.id, made.outs, await checkedAs("apac")));
    expect(fromConnection.getReplacesList()).toEqual([]);
    expect(fromConnection.getChanges()).toBe(provprotoValues.DiffResponse.DiffChanges.DIFF_SOME);
    const { connection: _c, ...fromProvider } = made.outs;
    const moved = await wire.call<provproto.DiffResponse>("diff", diffRequest(APP_TOKEN, made.id, fromProvider, await checkedAs("apac")));
    expect(moved.getReplacesList()).toEqual([]);
    // To another partner's name: a replacement.
    const elsewhere = await wire.call<provproto.DiffResponse>("diff", diffRequest(APP_TOKEN, made.id, fromProvider, await checkedAs("eu")));
    expect(elsewhere.getReplacesList()).toEqual(["account"]);
    // No name at all while the own account is another partner that a name serves: refused, saying which name keeps it.
    await expect(wire.call("diff", diffRequest(APP_TOKEN, made.id, fromProvider, await checkedAs(undefined)))).rejects.toThrow(/Set `account: apac` on it/);
    wire.resetApiCalls();
    const checked = await checkedAs("apac");
    const updated = await wire.call<provproto.UpdateResponse>("update", updateRequest(APP_TOKEN, made.id, made.outs, checked));
    const outs = valuesOf(updated.getProperties());
    expect(outs.account).toBe("apac");
    expect(outs.connection).toBeUndefined();
    expect(wire.apiCalls()).toEqual({});
    await wire.call("delete", deleteRequest(APP_TOKEN, made.id, outs));
    expect(tokensOf(partners[2]!.id)).toEqual([]);
  });

  it("getAppTokens takes `account`", async () => {
    const made = await create({ description: "listed in us", account: "us" });
    const invoke = (args: Props) =>
      wire.call<provproto.InvokeResponse>(
        "invoke",
        new provprotoValues.InvokeRequest().setTok("svc:index:getAppTokens").setArgs(structproto.Struct.fromJavaScript(args as never)),
      );
    const inUs = valuesOf((await invoke({ account: "us" })).getReturn()) as { tokens: { description: string }[] };
    expect(inUs.tokens.map((t) => t.description)).toEqual(["listed in us"]);
    const own = valuesOf((await invoke({})).getReturn()) as { tokens: { description: string }[] };
    expect(own.tokens.map((t) => t.description)).not.toContain("listed in us");
    await expect(invoke({ account: "emea" })).rejects.toThrow(/account "emea" is unknown: this provider knows "apac", "eu", "us"/);
    await wire.call("delete", deleteRequest(APP_TOKEN, made.id, made.outs));
  });

  it("connectionOfAccount: the connection a state's provider inputs give an account (what recover reads)", () => {
    const inputs = {
      baseUrl: wire.emulator.baseUrl,
      partnerId: wire.emulator.partnerId,
      adminSecret: wire.emulator.adminSecret,
      accounts: JSON.stringify({ eu: { partnerId: partners[0]!.id, adminSecret: partners[0]!.adminSecret } }),
    };
    expect(connectionOfAccount(inputs, "eu")).toMatchObject({
      baseUrl: wire.emulator.baseUrl,
      partnerId: partners[0]!.id,
      auth: { adminSecret: partners[0]!.adminSecret },
    });
    expect(connectionOfAccount(inputs, undefined)).toMatchObject({ partnerId: wire.emulator.partnerId });
    expect(() => connectionOfAccount(inputs, "us")).toThrow('account "us" is unknown: this provider knows "eu"');
    expect(connectionOfAccount({ "svc:baseUrl": wire.emulator.baseUrl, "svc:accounts": inputs.accounts }, "eu").partnerId).toBe(partners[0]!.id);
  });
});
