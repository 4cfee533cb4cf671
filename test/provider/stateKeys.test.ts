/**
 * Every resource's state has exactly the keys of its definition's tables (its inputs and its outputs): what create,
 * read and list return, against the emulator in this process. The mappers are checked by the compiler too
 * (stateChecker in provider/definitions/define.ts); this checks the states the operations really return, absent
 * values left out: each key is an output, or an input the program set (or its default).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import type { OperationContext } from "../../provider/core/operationContext";
import { ProviderProcess } from "../../provider/core/providerProcess";
import { fieldsOf, inputsSchema } from "../../provider/definitions/define";
import { DEFINITIONS } from "../../provider/definitions";

/** A program of each resource, setting as many inputs as may be set together. */
const PROGRAMS: Record<string, Record<string, unknown>> = {
  AppToken: { description: "state keys", sessionPrivileges: "list:*", sessionUserId: "bot", keepers: { rotation: "1" } },
  HttpNotificationTemplate: {
    event: "entry.ready",
    name: "State keys: webhook",
    systemName: "STATE_KEYS_HOOK",
    url: "https://publishing.example.com/hooks/state-keys",
    signSecret: "a-long-random-signing-secret",
  },
  EmailNotificationTemplate: {
    systemTemplateName: "EMAIL_ENTRY_READY",
    name: "State keys: email",
    subject: "Ready: {entry_name}",
    body: "Entry {entry_name} is ready.",
    fromEmail: "video@example.com",
    fromName: "Video",
    to: [{ email: "editors@example.com" }],
    contentParameters: [{ key: "entry_name", value: "{entry.name}" }],
  },
};

describe("every definition's state has exactly its tables' keys", () => {
  const session = new ProviderProcess();
  let emulator: RunningEmulator;
  let ctx: OperationContext;

  beforeAll(async () => {
    emulator = await startEmulator({ quiet: true });
    const values: Record<string, string> = {
      "svc:baseUrl": emulator.baseUrl,
      "svc:partnerId": String(emulator.partnerId),
      "svc:adminSecret": emulator.adminSecret,
    };
    session.configure({ get: (key) => values[key] });
    ctx = session.contextFor(undefined);
  });
  afterAll(async () => {
    await session.close();
    await emulator.close();
  });

  it("every definition has a program here", () => {
    expect(Object.keys(PROGRAMS).sort()).toEqual(DEFINITIONS.map((d) => d.type).sort());
  });

  for (const definition of DEFINITIONS) {
    it(`${definition.type}: create, read and list`, async () => {
      const fields = fieldsOf(definition);
      const stateKeys = [...fields.inputKeys, ...fields.outputKeys].sort();
      expect(new Set(stateKeys).size, "an output that is also an input").toBe(stateKeys.length);
      const inputs = inputsSchema(definition.inputs).parse(PROGRAMS[definition.type]) as Record<string, unknown>;
      const expected = [...fields.outputKeys, ...fields.inputKeys.filter((key) => inputs[key] !== undefined)].sort();

      const { id, outs } = await definition.create(ctx, inputs);
      expect(Object.keys(outs).sort()).toEqual(expected);
      const read = await definition.read(ctx, id, outs);
      expect(Object.keys(read ?? {}).sort()).toEqual(expected);
      const listed = (await definition.list?.(ctx)) ?? [];
      const mine = listed.find((existing) => existing.id === id);
      expect(mine, "the created object is listed").toBeDefined();
      for (const existing of listed) expect(stateKeys).toEqual(expect.arrayContaining(Object.keys(existing.inputs)));
      await definition.delete(ctx, id, outs);
    });
  }
});
