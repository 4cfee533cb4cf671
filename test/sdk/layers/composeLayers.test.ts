import { describe, expect, it } from "vitest";
import { composeLayers } from "../../../sdk/transport/composeLayers";
import type { Layer } from "../../../sdk/transport/exchange";
import { exchange, response } from "./fakeSend";

describe("composeLayers", () => {
  it("stacks layers outermost first", async () => {
    const order: string[] = [];
    const named =
      (name: string): Layer =>
      (next) =>
      async (ex) => {
        order.push(name);
        return next(ex);
      };
    await composeLayers(
      named("outer"),
      named("inner"),
    )(async () => {
      order.push("send");
      return response(200);
    })(exchange());
    expect(order).toEqual(["outer", "inner", "send"]);
  });

  it("rejects a piece that is not a layer, where the pieces join", () => {
    expect(() => composeLayers("retry" as unknown as Layer)).toThrow(/layer 0 is not a function/);
    expect(() => composeLayers((() => undefined) as unknown as Layer)(async () => response(200))).toThrow(/layer 0 did not return/);
  });
});
