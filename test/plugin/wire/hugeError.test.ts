/**
 * A stand-in platform that answers every call with a megabyte of error text (a ks and a token value in it, one
 * across the point where redaction cuts) cannot freeze the plugin: the operation fails with a short, redacted
 * message, and calls made while it is handled are answered. Before redaction was linear in the text and cut it
 * first, such an answer held the event loop for minutes: no gRPC call, no Cancel, no deadline was served.
 */
import type * as grpc from "@grpc/grpc-js";
import type * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REDACTED_TEXT } from "../../../sdk/core/redact";
import { APP_TOKEN, checkRequest, createRequest, empty, startWireOnStandIn, valuesOf, type WireHarness } from "./wireHarness";

const ADMIN_SECRET = "fake-huge-error-admin-secret-0001";
const TOKEN_VALUE = "0123456789abcdef0123456789abcdef0123456789abcdef";
const KS = "djJ8MXxIVUdFRVJST1JLU0ZPUlRFU1RTYWJjZGVmZ2hpams";

/** About 1 MB of text that makes a backtracking pattern retry from each start, with secrets early, across the cut and late. */
function megabyteMessage(): string {
  const head = `upstream failed: ks=${KS} `.padEnd(MAX_REDACTED_TEXT - 20, "x ");
  return `${head} ${TOKEN_VALUE} ${"eyJ".repeat(170_000)}authorization: ${" ".repeat(300_000)}, ${"a.".repeat(100_000)} ${KS}`;
}

describe("a platform answering with a megabyte of error text", () => {
  let wire: WireHarness;
  let stop: (() => Promise<void>) | undefined;
  let requests = 0;
  beforeAll(async () => {
    const body = JSON.stringify({ objectType: "SvcAPIException", code: "INTERNAL_SERVER_ERROR", message: megabyteMessage(), args: [] });
    ({ wire, stop } = await startWireOnStandIn((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    }, ADMIN_SECRET));
  });
  afterAll(() => stop?.());

  it("fails the create with a short, redacted message, and answers other calls meanwhile", async () => {
    const inputs = valuesOf((await wire.call<provproto.CheckResponse>("check", checkRequest(APP_TOKEN, { description: "huge error" }))).getInputs());
    const create = wire.call("create", createRequest(APP_TOKEN, inputs)).then(
      () => undefined,
      (error: grpc.ServiceError) => error,
    );
    // Asked while the create's answers are being read and redacted: each must be answered too.
    const info = await wire.call<plugproto.PluginInfo>("getPluginInfo", empty());
    expect(info.getVersion()).toBeTruthy();
    const check = await wire.call<provproto.CheckResponse>("check", checkRequest(APP_TOKEN, { description: "meanwhile" }));
    expect(check.getFailuresList()).toEqual([]);

    const error = await create;
    expect(error).toBeInstanceOf(Error);
    expect(requests).toBeGreaterThan(0);
    const details = error!.details;
    // The plugin's own words around at most a cut platform text, never the megabyte.
    expect(details.length).toBeLessThan(3 * MAX_REDACTED_TEXT);
    for (const value of [ADMIN_SECRET, TOKEN_VALUE, KS, TOKEN_VALUE.slice(0, 16), KS.slice(0, 16)]) expect(details).not.toContain(value);
  });
});
