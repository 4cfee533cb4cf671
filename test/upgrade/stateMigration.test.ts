/**
 * The state migration hook of the definitions, as the next release would use it: AppToken gains an in-place input
 * `purpose` with a default. States written before it lack the field, so without a migration every existing token
 * would show a change (`purpose: undefined => "unspecified"`) on the first preview after the upgrade, and the update
 * would call the platform for nothing. The migration fills the default; diff (through the plugin's Diff too), read
 * and update then see this release's shape, and the preview is clean.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { SvcProviderServer } from "../../plugin/server";
import { ProviderProcess } from "../../provider/core/providerProcess";
import { appToken } from "../../provider/definitions";
import type { AppTokenInputs, AppTokenOutputs } from "../../provider/definitions/appToken";
import { migrateState, type ResourceDefinition } from "../../provider/definitions/define";
import { handlersFor } from "../../provider/runtime/handlers";

const DEFAULT_PURPOSE = "unspecified";
/** The fields each update of the next release's AppToken was asked to send. */
const updates: string[][] = [];

/** AppToken of the next release: `purpose` is new (input-only: carried through read from the state). */
function nextAppToken(withMigration: boolean): ResourceDefinition {
  const next: ResourceDefinition<AppTokenInputs & { purpose: string }, AppTokenOutputs & { purpose?: string | undefined }> = {
    ...appToken,
    inputs: {
      ...appToken.inputs,
      purpose: { schema: z.string().default(DEFAULT_PURPOSE), change: "inPlace", description: "What the token is used for.", example: "deploy" },
    },
    async create(ctx, inputs) {
      const made = await appToken.create(ctx, inputs);
      return { ...made, outs: { ...made.outs, purpose: inputs.purpose } };
    },
    async read(ctx, id, state) {
      const outs = await appToken.read(ctx, id, state);
      return outs && { ...outs, purpose: state.purpose };
    },
    async update(ctx, id, olds, inputs, changed) {
      updates.push(changed);
      const platformFields = changed.filter((key) => key !== "purpose");
      const outs = platformFields.length > 0 ? await appToken.update(ctx, id, olds, inputs, platformFields) : olds;
      return { ...outs, purpose: inputs.purpose };
    },
    ...(withMigration
      ? {
          stateMigrations: [
            {
              description: "states written before `purpose` existed get its default",
              appliesTo: (state: Record<string, unknown>) => !("purpose" in state),
              migrate: (state: Record<string, unknown>) => ({ ...state, purpose: DEFAULT_PURPOSE }),
            },
          ],
        }
      : {}),
  };
  return next;
}

describe("state migrations: a state of the previous release previews clean", () => {
  let emulator: RunningEmulator;
  /** A token made by this release's AppToken: the state the previous release wrote, without `purpose`. */
  let id: string;
  let oldState: Record<string, unknown>;
  /** The program's inputs, unchanged across the upgrade, as the next release checks them (purpose defaulted). */
  let news: Record<string, unknown>;

  const session = new ProviderProcess();

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    const config: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:partnerId": String(emulator.partnerId),
      "svc:adminSecret": emulator.adminSecret,
    };
    session.configure({ get: (key) => config[key] });
    const previous = handlersFor(appToken, session, "replace");
    const made = await previous.create((await previous.check({}, { description: "made before the upgrade" })).inputs);
    ({ id } = made);
    oldState = made.outs;
    expect(oldState).not.toHaveProperty("purpose");
    news = (await handlersFor(nextAppToken(true), session, "replace").check(oldState, { description: "made before the upgrade" })).inputs;
    expect(news.purpose).toBe(DEFAULT_PURPOSE);
  });
  afterAll(async () => {
    await session.close();
    await emulator?.close();
  });

  it("without the migration, the old state shows a change of the new field (what the hook is for)", async () => {
    const outcome = await handlersFor(nextAppToken(false), session, "replace").diff(id, oldState, news);
    expect(outcome).toMatchObject({ changes: true, changed: ["purpose"], replaces: [] });
  });

  it("with it, diff finds no change, and read returns the state in the new shape", async () => {
    const next = handlersFor(nextAppToken(true), session, "replace");
    expect(await next.diff(id, oldState, news)).toMatchObject({ changes: false, changed: [], replaces: [] });
    const read = await next.read(id, oldState);
    expect(read.props).toMatchObject({ tokenId: id, purpose: DEFAULT_PURPOSE, description: "made before the upgrade" });
    expect(read.inputs).toMatchObject({ purpose: DEFAULT_PURPOSE });
  });

  it("through the plugin's Diff, as the engine calls it on preview: DIFF_NONE", async () => {
    const service = new SvcProviderServer([nextAppToken(true)], "0.0.0-test", undefined, session).service() as unknown as {
      diff(call: { request: provproto.DiffRequest }, callback: (error: unknown, value?: provproto.DiffResponse) => void): void;
    };
    const struct = (value: Record<string, unknown>) => structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
    const request = new provproto.DiffRequest()
      .setId(id)
      .setUrn("urn:pulumi:test::upgrade::svc:index:AppToken::made-before")
      .setType("svc:index:AppToken")
      .setOlds(struct(oldState))
      .setNews(struct(news));
    const response = await new Promise<provproto.DiffResponse>((resolve, reject) =>
      service.diff({ request }, (error, value) => (error || !value ? reject(error) : resolve(value))),
    );
    expect(response.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);
    expect(response.getDiffsList()).toEqual([]);
  });

  it("an update of another field sends only that field, and writes the new shape", async () => {
    const next = handlersFor(nextAppToken(true), session, "replace");
    updates.length = 0;
    const { outs } = await next.update(id, oldState, { ...news, description: "after the upgrade" });
    expect(updates).toEqual([["description"]]);
    expect(outs).toMatchObject({ tokenId: id, description: "after the upgrade", purpose: DEFAULT_PURPOSE });
    expect(await next.diff(id, outs, { ...news, description: "after the upgrade" })).toMatchObject({ changes: false });
  });

  it("runs only the migrations whose rule recognises the state, in order, and leaves the argument as it is", () => {
    const seen: string[] = [];
    const definition = {
      ...appToken,
      stateMigrations: [
        { description: "a", appliesTo: (s: Record<string, unknown>) => !("a" in s), migrate: (s: Record<string, unknown>) => (seen.push("a"), { ...s, a: 1 }) },
        {
          description: "b",
          appliesTo: (s: Record<string, unknown>) => s.a === 1 && !("b" in s),
          migrate: (s: Record<string, unknown>) => (seen.push("b"), { ...s, b: 2 }),
        },
      ],
    } as ResourceDefinition;
    const state = { tokenId: "0_x" };
    expect(migrateState(definition, state)).toEqual({ tokenId: "0_x", a: 1, b: 2 });
    expect(state).toEqual({ tokenId: "0_x" });
    expect(migrateState(definition, { tokenId: "0_x", a: 1, b: 2 })).toEqual({ tokenId: "0_x", a: 1, b: 2 });
    expect(seen).toEqual(["a", "b"]);
  });
});
