/**
 * A field marked `requiredOnCreate` (optional in the schema only because `pulumi import` cannot read it back) is
 * required by check of a create on every resource, not only in the generated class: a create without it fails in
 * preview, naming the field (a secret one by its name in the reason, never its value); an import, whose previous
 * inputs come from the read, may go without.
 */
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appToken } from "../../provider/definitions/appToken";
import type { ResourceDefinition } from "../../provider/definitions/define";
import { handlersFor } from "../../provider/runtime/handlers";
import { providerRuntime } from "../support/providerRuntime";

const { session } = providerRuntime();
const STACK_CONFIG: Record<string, string> = { "svc:baseUrl": "https://api.example.com/api_v3", "svc:partnerId": "7", "svc:adminSecret": "not-used-here" };
beforeAll(() => session.configure({ get: (key) => STACK_CONFIG[key] }));
afterAll(() => session.close());

/** App tokens with one more field, a secret required of a create, and no rule of their own for it. */
const withRequired = {
  ...appToken,
  validate: undefined,
  inputs: {
    ...appToken.inputs,
    password: {
      schema: z.string().min(8).optional(),
      change: "inPlace",
      secret: true,
      requiredOnCreate: true,
      description: "a password",
      example: "p4ssw0rd!",
    },
  },
} as unknown as ResourceDefinition;

describe("requiredOnCreate at check", () => {
  it("a create without the field fails, naming it; with it, or as an import, it passes", async () => {
    const handlers = handlersFor(withRequired, session);
    const created = await handlers.check({}, { description: "x" });
    expect(created.failures).toEqual([{ property: "", reason: expect.stringMatching(/^password: required when the resource is created/) }]);
    expect((await handlers.check({}, { description: "x", password: "long-enough" })).failures).toEqual([]);
    expect((await handlers.check({ description: "x", hashType: "SHA256" }, { description: "x" })).failures).toEqual([]);
  });

  it("a value that fails its schema is reported once, by the schema", async () => {
    const { failures } = await handlersFor(withRequired, session).check({}, { description: "x", password: "short" });
    expect(failures).toHaveLength(1);
    expect(JSON.stringify(failures)).not.toContain("short");
  });
});
