/**
 * The provider's settings are one table (provider/core/settings.ts); what is derived from it agrees with it: each
 * setting's schema type with its zod schema, the `connection` input's fields, the credential and account lists of
 * the rules, and the explicit provider's generated `ProviderArgs`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { ConnectionInput, settingSchema } from "../../provider/core/connectionInput";
import { ACCOUNT, CREDENTIALS, SECRET_SETTINGS, SETTINGS } from "../../provider/core/settings";
import { PROVIDER_SECRET_SETTINGS } from "../../provider/generated/fieldTable";
import { repoRoot } from "../../scripts/engineEnv";

describe("the settings table", () => {
  it("gives each setting the schema type of its zod schema", () => {
    for (const [key, setting] of Object.entries(SETTINGS)) {
      const json = z.toJSONSchema(settingSchema(key as keyof typeof SETTINGS), { io: "input" }) as { type?: string };
      expect(json.type, key).toBe(setting.type);
    }
  });

  it("derives the connection input: every setting but the per-process maxConcurrency, each optional, nothing else", () => {
    expect(Object.keys(ConnectionInput.shape)).toEqual(Object.keys(SETTINGS).filter((key) => key !== "maxConcurrency"));
    expect(ConnectionInput.safeParse({}).success).toBe(true);
    expect(ConnectionInput.safeParse({ maxConcurrency: 4 }).success).toBe(false);
    expect(ConnectionInput.safeParse({ partnerId: 0 }).success).toBe(false);
    expect(ConnectionInput.safeParse({ appTokenHashType: "SHA265" }).success).toBe(false);
  });

  it("derives the rules' lists and the secret settings from its flags", () => {
    expect(CREDENTIALS).toEqual(["adminSecret", "appTokenId", "appToken", "appTokenHashType", "ks"]);
    expect(ACCOUNT).toEqual(["baseUrl", "partnerId"]);
    expect(SECRET_SETTINGS).toEqual(["adminSecret", "appToken", "ks"]);
    // The explicit provider also wraps its named accounts (each holds credentials).
    expect([...PROVIDER_SECRET_SETTINGS]).toEqual([...SECRET_SETTINGS, "accounts"]);
  });

  it("is the explicit provider's generated ProviderArgs, every setting optional", () => {
    const generated = readFileSync(join(repoRoot, "provider/generated/native.ts"), "utf8");
    const body = generated.slice(generated.indexOf("export interface ProviderArgs {"));
    const keys = [...body.matchAll(/^ {2}(\w+)\?: pulumi\.Input<(\w+)>;$/gm)].map(([, key, type]) => [key, type]);
    const tsType = { string: "string", integer: "number", boolean: "boolean" };
    expect(keys).toEqual(Object.entries(SETTINGS).map(([key, setting]) => [key, tsType[setting.type]]));
  });
});
