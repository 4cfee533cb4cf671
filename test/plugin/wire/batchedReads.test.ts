/**
 * The engine sends a refresh's Reads at once; the plugin's client sends those of one account as multirequests
 * (sdk/platform/readBatcher.ts). Each Read must answer exactly what it answers alone: the object with its drift, an
 * empty id for an object deleted outside Pulumi, its secrets still secret.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SvcClient } from "../../../sdk";
import {
  APP_TOKEN,
  checkRequest,
  createRequest,
  EMAIL_TEMPLATE,
  HTTP_TEMPLATE,
  isSecretAt,
  type Props,
  readRequest,
  secret,
  startWire,
  valuesOf,
  type WireHarness,
} from "./wireHarness";

const INPUTS: Record<string, (k: number) => Props> = {
  [APP_TOKEN]: (k) => ({ description: `batched ${k}` }),
  [HTTP_TEMPLATE]: (k) => ({
    event: "entry.ready",
    name: `Batched hook ${k}`,
    url: `https://hooks.example.com/b${k}`,
    signSecret: secret("fake-signing-secret-0042"),
  }),
  [EMAIL_TEMPLATE]: (k) => ({
    event: "entry.ready",
    name: `Batched mail ${k}`,
    subject: "s",
    body: "b",
    fromEmail: "video@example.com",
    to: [{ email: "a@example.com" }],
  }),
};
const PER_TYPE = 4;

interface Made {
  type: string;
  id: string;
  inputs: Props;
  outs: Props;
}

/** What a Read answers, as plain values (secrets stay wrapped). */
const answer = (read: provproto.ReadResponse) => ({ id: read.getId(), properties: valuesOf(read.getProperties()), inputs: valuesOf(read.getInputs()) });

describe("batched Reads on the wire", () => {
  let wire: WireHarness;
  let platform: SvcClient;
  const made: Made[] = [];

  beforeAll(async () => {
    wire = await startWire();
    const { baseUrl, partnerId, adminSecret } = wire.emulator;
    platform = new SvcClient({ baseUrl, partnerId, auth: { adminSecret } });
    for (const type of [APP_TOKEN, HTTP_TEMPLATE, EMAIL_TEMPLATE]) {
      for (let k = 0; k < PER_TYPE; k++) {
        const checked = await wire.call<provproto.CheckResponse>("check", checkRequest(type, INPUTS[type]!(k), {}, `b${k}`));
        const inputs = valuesOf(checked.getInputs());
        const created = await wire.call<provproto.CreateResponse>("create", createRequest(type, inputs, { name: `b${k}` }));
        made.push({ type, id: created.getId(), inputs, outs: valuesOf(created.getProperties()) });
      }
    }
    // Outside Pulumi: the first of each kind deleted, the second's description changed (drift).
    for (const type of [APP_TOKEN, HTTP_TEMPLATE, EMAIL_TEMPLATE]) {
      const [gone, drifted] = made.filter((m) => m.type === type);
      if (type === APP_TOKEN) {
        await platform.appTokens.delete(gone!.id);
        await platform.appTokens.update(drifted!.id, { description: "changed outside" });
      } else {
        const templates = type === HTTP_TEMPLATE ? platform.templates : platform.emailTemplates;
        await templates.delete(gone!.id);
        await templates.update(drifted!.id, { description: "changed outside" } as never);
      }
    }
  });
  afterAll(async () => {
    await platform?.close();
    await wire?.stop();
  });

  const read = (m: Made) => wire.call<provproto.ReadResponse>("read", readRequest(m.type, m.id, m.outs, m.inputs)).then(answer);

  it("answer each object as its Read alone does: drift, gone, secrets", async () => {
    wire.resetApiCalls();
    const alone = [];
    for (const m of made) alone.push(await read(m));
    expect(wire.apiCalls().multirequest ?? 0).toBe(0);

    wire.resetApiCalls();
    const together = await Promise.all(made.map(read));
    expect(wire.apiCalls().multirequest ?? 0).toBeGreaterThan(0);
    expect(together).toEqual(alone);

    // What those answers are: gone is an empty id, drift is read back, the token value stays secret.
    for (const type of [APP_TOKEN, HTTP_TEMPLATE, EMAIL_TEMPLATE]) {
      const answers = together.filter((_, i) => made[i]!.type === type);
      expect(answers[0]!.id).toBe("");
      expect(answers[1]!.properties.description).toBe("changed outside");
    }
    const token = together[made.findIndex((m) => m.type === APP_TOKEN) + 2]!;
    expect(isSecretAt(token.properties, ["token"])).toBe(true);
  });
});
