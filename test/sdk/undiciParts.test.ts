/**
 * The transport loads undici's Agent and request from their own files (sdk/transport/undiciParts.ts) so that a new
 * dynamic provider process does not load all of undici. These must stay the objects undici's index exports, behave
 * as its `request` does, and the runtime must not load the index.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import * as undici from "undici";
import { describe, expect, it } from "vitest";
import { Agent, request } from "../../sdk/transport/undiciParts";

const root = join(__dirname, "..", "..");

describe("undici parts", () => {
  it("are undici's own Agent, and request sends what undici's request sends", async () => {
    expect(Agent).toBe(undici.Agent);
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
    expect(() => undici.request("ftp://127.0.0.1/x", { dispatcher: agent, method: "GET" })).toThrow(/protocol/i);
    await agent.close();
  });

  it("the provider runtime loads neither undici's index nor its fetch", () => {
    const script = `require(${JSON.stringify(join(root, "dist", "provider", "runtime", "index.js"))});
      const files = Object.keys(require.cache).filter((f) => f.includes("/node_modules/undici/"));
      console.log(JSON.stringify(files.map((f) => f.slice(f.indexOf("/node_modules/undici/") + 21))));`;
    const loaded = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
    expect(loaded).toContain("lib/dispatcher/agent.js");
    expect(loaded).not.toContain("index.js");
    expect(loaded.filter((f) => f.startsWith("lib/web/"))).toEqual([]);
  });
});
