/**
 * A list that holds a secret comes back secret as a whole, whatever the platform did to it: elements reordered,
 * prepended or removed outside Pulumi (drift). Recorded by index, a secret would follow its old position onto
 * another element after a prepend, and the secret one would go to the state in plain text. On Read (refresh, and
 * the refresh after an import), Update and Diff, over the plugin's gRPC wire.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcClient } from "../../../sdk";
import {
  checkRequest,
  createRequest,
  diffRequest,
  EMAIL_TEMPLATE,
  failuresOf,
  isSecretAt,
  type Props,
  readRequest,
  secret,
  startWire,
  updateRequest,
  valuesOf,
  visibleText,
  type WireHarness,
} from "./wireHarness";

const SECRET_EMAIL = "fake-drift-secret-recipient@example.com";
const SECRET_PARAMETER = "fake-drift-secret-parameter-value";
const SECRETS = [SECRET_EMAIL, SECRET_PARAMETER];

const emailInputs = (subject = "Ready: {entry_name}"): Props => ({
  event: "entry.ready",
  name: "List secrets under drift",
  subject,
  body: "Entry {entry_name} is ready.",
  fromEmail: "video@example.com",
  to: [{ email: "editors@example.com", name: "Editors" }, { email: secret(SECRET_EMAIL) }],
  contentParameters: [
    { key: "entry_name", value: "{entry.name}" },
    { key: "private", value: secret(SECRET_PARAMETER) },
  ],
});

type Recipient = { email: string; name?: string };
type Parameter = { key: string; value: string };
const EDITORS: Recipient = { email: "editors@example.com", name: "Editors" };
const HIDDEN: Recipient = { email: SECRET_EMAIL };
const ENTRY: Parameter = { key: "entry_name", value: "{entry.name}" };
const PRIVATE: Parameter = { key: "private", value: SECRET_PARAMETER };

/** What was done on the platform by hand, as the lists it leaves there. */
const DRIFTS: Record<string, { to: Recipient[]; contentParameters: Parameter[] }> = {
  prepended: { to: [{ email: "added-by-hand@example.com" }, EDITORS, HIDDEN], contentParameters: [{ key: "added", value: "{entry.id}" }, ENTRY, PRIVATE] },
  reordered: { to: [HIDDEN, EDITORS], contentParameters: [PRIVATE, ENTRY] },
  "plain element removed": { to: [HIDDEN], contentParameters: [PRIVATE] },
  "secret element removed": { to: [EDITORS], contentParameters: [ENTRY] },
};

/** No secret in plain text, and the rule that ensures it: each list that held a secret wrapped whole. */
const expectListsSecret = (props: Props, what: string) => {
  for (const value of SECRETS) expect(visibleText(props), what).not.toContain(value);
  expect(isSecretAt(props, ["to"]), `${what}: to`).toBe(true);
  expect(isSecretAt(props, ["contentParameters"]), `${what}: contentParameters`).toBe(true);
};

describe("secrets in lists under drift, on the wire", () => {
  let wire: WireHarness;
  let admin: SvcClient;
  beforeAll(async () => {
    wire = await startWire();
    admin = new SvcClient({ baseUrl: wire.emulator.baseUrl, partnerId: wire.emulator.partnerId, auth: { adminSecret: wire.emulator.adminSecret } });
  });
  afterAll(async () => {
    await admin?.close();
    await wire?.stop();
  });

  const check = async (news: Props) => {
    const response = await wire.call<provproto.CheckResponse>("check", checkRequest(EMAIL_TEMPLATE, news));
    expect(failuresOf(response)).toEqual([]);
    return valuesOf(response.getInputs());
  };

  for (const [drift, lists] of Object.entries(DRIFTS)) {
    it(`${drift}: Read, Update and Diff keep both lists secret as a whole`, async () => {
      const inputs = await check(emailInputs());
      expectListsSecret(inputs, "Check");
      const created = await wire.call<provproto.CreateResponse>("create", createRequest(EMAIL_TEMPLATE, inputs));
      const id = created.getId();
      const outs = valuesOf(created.getProperties());
      expectListsSecret(outs, "Create");

      await admin.emailTemplates.update(id, { to: { emailRecipients: lists.to }, contentParameters: lists.contentParameters });

      // Refresh: the state's outputs and inputs as the engine holds them.
      const read = await wire.call<provproto.ReadResponse>("read", readRequest(EMAIL_TEMPLATE, id, outs, inputs));
      const refreshed = valuesOf(read.getProperties());
      expectListsSecret(refreshed, "Read's properties");
      expectListsSecret(valuesOf(read.getInputs()), "Read's inputs");

      // Diff of the program against the drifted state: the drift is seen, and the answer carries no value.
      const diff = await wire.call<provproto.DiffResponse>("diff", diffRequest(EMAIL_TEMPLATE, id, refreshed, inputs, valuesOf(read.getInputs())));
      expect(diff.getDiffsList()).toEqual(expect.arrayContaining(["to", "contentParameters"]));
      const diffBytes = Buffer.from(diff.serializeBinary()).toString("latin1");
      for (const value of SECRETS) expect(diffBytes).not.toContain(value);

      // Update back to the program's lists (and a new subject), from the drifted state; and its preview.
      const news = await check(emailInputs("Now ready: {entry_name}"));
      for (const preview of [true, false]) {
        const updated = await wire.call<provproto.UpdateResponse>(
          "update",
          updateRequest(EMAIL_TEMPLATE, id, refreshed, news, { oldInputs: valuesOf(read.getInputs()), preview }),
        );
        expectListsSecret(valuesOf(updated.getProperties()), preview ? "Update's preview" : "Update");
      }
    });
  }

  it("the refresh after an import (state read by id alone, program's inputs with a secret element) wraps the lists", async () => {
    const inputs = await check(emailInputs());
    const created = await wire.call<provproto.CreateResponse>("create", createRequest(EMAIL_TEMPLATE, inputs));
    const id = created.getId();
    const imported = await wire.call<provproto.ReadResponse>("read", readRequest(EMAIL_TEMPLATE, id));
    expect(imported.getId()).toBe(id);
    const { to, contentParameters } = DRIFTS.prepended!;
    await admin.emailTemplates.update(id, { to: { emailRecipients: to }, contentParameters });
    // The state holds what the import read (plain: nothing said it was secret yet), the inputs are the program's.
    const read = await wire.call<provproto.ReadResponse>("read", readRequest(EMAIL_TEMPLATE, id, valuesOf(imported.getProperties()), inputs));
    expectListsSecret(valuesOf(read.getProperties()), "Read's properties");
    expectListsSecret(valuesOf(read.getInputs()), "Read's inputs");
  });
});
