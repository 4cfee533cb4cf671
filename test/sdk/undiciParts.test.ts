/**
 * The transport reaches undici through its public index only (sdk/transport/undiciParts.ts), loaded at the first agent
 * made: `request` sends what undici's request sends, no source imports a file inside undici, and a new dynamic
 * provider process loads no undici before its first call.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as undici from "undici";
import { describe, expect, it } from "vitest";
import { createAgent, request } from "../../sdk/transport/undiciParts";

const root = join(__dirname, "..", "..");

/** The .ts files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(dir, f));
}

describe("undici parts", () => {
  it("are undici's own Agent, and request sends what undici's request sends", async () => {
    const made = createAgent({ connections: 1 });
    expect(made).toBeInstanceOf(undici.Agent);
    await made.close();
    const agent = new undici.MockAgent();
    agent.disableNetConnect();
    const seen: Array<{ method: string; path: string; body: string }> = [];
    agent
      .get("http://127.0.0.1:9999")
      .intercept({ path: () => true, method: () => true })
      .reply(200, (opts) => {
        seen.push({ method: opts.method, path: opts.path, body: String(opts.body ?? "") });
        return "ok";
      })
      .times(2);
    const ours = await request("http://127.0.0.1:9999/api_v3/service/x/action/get?format=1", { dispatcher: agent, method: "POST", body: "a=1" });
    const theirs = await undici.request("http://127.0.0.1:9999/api_v3/service/x/action/get?format=1", { dispatcher: agent, method: "POST", body: "a=1" });
    expect([ours.statusCode, await ours.body.text()]).toEqual([theirs.statusCode, await theirs.body.text()]);
    expect(seen[0]).toEqual(seen[1]);
    expect(seen[0]).toEqual({ method: "POST", path: "/api_v3/service/x/action/get?format=1", body: "a=1" });
    // A bad URL throws before anything is sent, as undici's request does (sendOnce awaits it: a rejection there).
    expect(() => request("ftp://127.0.0.1/x", { dispatcher: agent, method: "GET" })).toThrow(/protocol/i);
    await agent.close();
  });

  it("no source imports a file inside undici (its public index only)", () => {
    const deep = /["'`]undici\/(?!types["'`])[^"'`]+["'`]/;
    const offenders = ["sdk", "provider", "plugin", "contract"].flatMap(sources).filter((f) => deep.test(readFileSync(join(root, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("the provider runtime loads no undici before its first call", () => {
    const script = `require(${JSON.stringify(join(root, "dist", "provider", "runtime", "index.js"))});
      const files = Object.keys(require.cache).filter((f) => f.includes("/node_modules/undici/"));
      console.log(JSON.stringify(files));`;
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
    expect(loaded).toEqual([]);
  });
});
