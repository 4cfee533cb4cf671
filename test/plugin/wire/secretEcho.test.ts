/**
 * A platform whose error message quotes what it was sent (a real one may: "invalid description '<value>'"): an input
 * the program marked secret (`pulumi.secret(description)`) does not come back in the failure's message, for a create
 * and for an update, even on a field the definition does not mark secret.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_TOKEN, checkRequest, createRequest, secret, startWireOnStandIn, updateRequest, valuesOf, type WireHarness } from "./wireHarness";

const ADMIN_SECRET = "fake-echo-admin-secret-0001";
const KS = "djJ8MXxFQ0hPRVJST1JLU0ZPUlRFU1RTYWJjZGVmZ2hpams";

describe("a platform error that quotes a secret input", () => {
  let wire: WireHarness;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ wire, stop } = await startWireOnStandIn((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        if (req.url?.includes("/session/action/start")) return res.end(JSON.stringify(KS));
        // Every field sent, decoded, quoted back in the message.
        const sent = [...new URLSearchParams(body).entries()].map(([key, value]) => `${key}='${value}'`).join(" ");
        res.end(JSON.stringify({ objectType: "SvcAPIException", code: "INVALID_VALUE", message: `refused: ${sent}`, args: [] }));
      });
    }, ADMIN_SECRET));
  });
  afterAll(() => stop?.());

  it("hides it in a create's failure", async () => {
    const description = "create description only the program knows";
    const checked = (await wire.call<provproto.CheckResponse>("check", checkRequest(APP_TOKEN, { description: secret(description) }))).getInputs();
    const error = await wire.call("create", createRequest(APP_TOKEN, valuesOf(checked))).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    // The platform was called (its refusal is quoted), and the secret is not in what came back.
    expect(error?.details).toMatch(/appToken\.(add|update): refused/);
    expect(error?.details).not.toContain(description);
  });

  it("hides it in an update's failure", async () => {
    const description = "update description only the program knows";
    const oldInputs = { description: "before", hashType: "SHA256", sessionType: "USER" };
    const olds = { ...oldInputs, id: "0_echo", token: secret("f".repeat(64)), status: "ACTIVE" };
    const news = { ...oldInputs, description: secret(description) };
    const error = await wire.call("update", updateRequest(APP_TOKEN, "0_echo", olds, news, { oldInputs })).then(
      () => undefined,
      (e: grpc.ServiceError) => e,
    );
    // The platform was called (its refusal is quoted), and the secret is not in what came back.
    expect(error?.details).toMatch(/appToken\.(add|update): refused/);
    expect(error?.details).not.toContain(description);
  });
});
