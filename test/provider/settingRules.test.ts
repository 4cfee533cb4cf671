/**
 * Each setting's rule is data (provider/core/settingRules.ts): the plugin checks values with it without zod
 * (followsRule, at Configure), and the `connection` input's zod schema is made from it (connectionInput.ts). Both
 * agree on one table of good and bad values per setting, and the base URL's plain check agrees with its zod schema.
 */
import { describe, expect, it } from "vitest";
import { isBaseUrl } from "../../contract/baseUrl";
import { BaseUrl } from "../../contract/baseUrlSchema";
import { HASH_TYPES } from "../../contract/hashTypes";
import { HashType } from "../../contract/platform";
import { settingSchema } from "../../provider/core/connectionInput";
import { followsRule } from "../../provider/core/settingRules";
import { SETTINGS, type SettingKey } from "../../provider/core/settings";

const URLS = {
  good: [
    "https://api.example.com/api_v3",
    "http://127.0.0.1:4010/api_v3",
    "HTTPS://API.example.com",
    "  https://padded.example.com/api_v3  ",
    "https://user:pw@host/api_v3",
    "http://[::1]:1/",
    "https://host/api_v3/",
  ],
  bad: [
    "",
    "api.example.com",
    "ftp://host/api_v3",
    "https:/host",
    "http:host",
    "https://",
    "mailto:a@b.c",
    "file:///etc",
    "ws://host",
    "https://exa mple.com",
    1,
    null,
    {},
    true,
  ],
};

/** For each setting, values its rule admits and values it refuses (as a `connection` gives them). */
const TABLE: Record<SettingKey, { good: unknown[]; bad: unknown[] }> = {
  baseUrl: URLS,
  partnerId: { good: [1, 2, 1e6, Number.MAX_SAFE_INTEGER], bad: [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1", null, true] },
  adminSecret: { good: ["s", "a secret"], bad: ["", 1, null, ["s"]] },
  appTokenId: { good: ["0_abc"], bad: ["", 0, undefined] },
  appToken: { good: ["t"], bad: ["", false] },
  appTokenHashType: { good: [...HASH_TYPES], bad: ["sha256", "SHA265", "", " SHA1", 1, null] },
  ks: { good: ["djJ8"], bad: ["", {}] },
  requestTimeoutMs: { good: [1, 30_000], bad: [0, -5, 0.5, "30000", Number.NaN] },
  maxConcurrency: { good: [1, 8, 1000], bad: [0, 1001, 2.5, -1, "8", Number.POSITIVE_INFINITY] },
  allowInsecureHttp: { good: [true, false], bad: ["true", 1, 0, null] },
};

describe("the settings' rules", () => {
  it("cover every setting", () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    it(`${key}: the plain check and the zod schema admit the same values`, () => {
      const { good, bad } = TABLE[key];
      for (const value of good) {
        expect(followsRule(SETTINGS[key].value, value), `${key} ${String(value)}`).toBe(true);
        expect(settingSchema(key).safeParse(value).success, `${key} ${String(value)}`).toBe(true);
      }
      for (const value of bad) {
        expect(followsRule(SETTINGS[key].value, value), `${key} ${String(value)}`).toBe(false);
        expect(settingSchema(key).safeParse(value).success, `${key} ${String(value)}`).toBe(false);
      }
    });
  }

  it("give the base URL's plain check and its zod schema one answer, and the hash types one list", () => {
    for (const value of [...URLS.good, ...URLS.bad]) expect(isBaseUrl(value), String(value)).toBe(BaseUrl.safeParse(value).success);
    expect(HashType.options).toEqual([...HASH_TYPES]);
    expect(settingSchema("appTokenHashType").safeParse("MD5").success).toBe(true);
  });
});
