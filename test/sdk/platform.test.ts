/** api_v3 wire format: request encoding, error mapping and response validation (MockAgent, no network). */
import { describe, expect, it } from "vitest";
import { AppToken, paginate, SvcApiError, SvcHttpError, SvcResponseError, SvcValidationError } from "../../sdk";
import { KS, PARTNER_ID, apiError, appTokenJson, harness, recorder } from "./helpers";

const P = "/api_v3/service/appToken/action";

describe("request encoding", () => {
  it("add: POST form body with format=1, the ks as a form parameter and appToken[field]", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    let headers: Record<string, string> = {};
    pool.intercept({ path: `${P}/add`, method: "POST" }).reply((opts) => {
      headers = opts.headers as Record<string, string>;
      return recorder(bodies, appTokenJson())(opts);
    });
    const token = await client.appTokens.add({ hashType: "SHA256", sessionType: 0, description: "ci", expiry: 0 });
    expect(token.id).toBe("0_abc123");
    expect(bodies[0]).toEqual({
      format: "1",
      ks: KS,
      "appToken[objectType]": "SvcAppToken",
      "appToken[hashType]": "SHA256",
      "appToken[sessionType]": "0",
      "appToken[description]": "ci",
      "appToken[expiry]": "0",
    });
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(JSON.stringify(headers)).not.toContain(KS);
  });

  it("list: filter[...] and pager[...] with their objectTypes", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(recorder(bodies, { objects: [], totalCount: 0, objectType: "SvcAppTokenListResponse" }));
    await client.appTokens.list({ statusEqual: 2, hashTypeEqual: "SHA256" }, { pageSize: 10, pageIndex: 2 });
    expect(bodies[0]).toMatchObject({
      "filter[objectType]": "SvcAppTokenFilter",
      "filter[statusEqual]": "2",
      "filter[hashTypeEqual]": "SHA256",
      "pager[objectType]": "SvcFilterPager",
      "pager[pageSize]": "10",
      "pager[pageIndex]": "2",
    });
  });

  it("templates: clone, updateStatus and listTemplates encode their parameters", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    const T = "/api_v3/service/eventnotification_eventnotificationtemplate/action";
    const tpl = {
      id: "12",
      partnerId: PARTNER_ID,
      name: "hook",
      type: "httpNotification.Http",
      status: 1,
      createdAt: 1,
      updatedAt: 1,
      objectType: "SvcHttpNotificationTemplate",
    };
    pool.intercept({ path: `${T}/clone`, method: "POST" }).reply(recorder(bodies, tpl));
    pool.intercept({ path: `${T}/updateStatus`, method: "POST" }).reply(recorder(bodies, { ...tpl, status: 2 }));
    pool
      .intercept({ path: `${T}/listTemplates`, method: "POST" })
      .reply(recorder(bodies, { objects: [tpl], totalCount: 1, objectType: "SvcEventNotificationTemplateListResponse" }));
    await client.templates.clone("3", {
      name: "hook",
      systemName: "hook1",
      url: "https://example.test/h",
      method: 2,
      signSecret: "sign-secret-value",
      secureHashingAlgo: 2,
    });
    expect((await client.templates.updateStatus("12", 2)).status).toBe(2);
    await client.templates.listTemplates({ typeEqual: "httpNotification.Http" });
    expect(bodies[0]).toMatchObject({
      id: "3",
      "eventNotificationTemplate[objectType]": "SvcHttpNotificationTemplate",
      "eventNotificationTemplate[url]": "https://example.test/h",
      "eventNotificationTemplate[method]": "2",
      "eventNotificationTemplate[signSecret]": "sign-secret-value",
      "eventNotificationTemplate[secureHashingAlgo]": "2",
    });
    expect(bodies[1]).toMatchObject({ id: "12", status: "2" });
    expect(bodies[2]).toMatchObject({ "filter[objectType]": "SvcEventNotificationTemplateFilter", "filter[typeEqual]": "httpNotification.Http" });
  });

  it("multirequest: N:service, N:action, N:params, top-level ks; a failed slot yields its error", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    pool
      .intercept({ path: "/api_v3/service/multirequest", method: "POST" })
      .reply(recorder(bodies, [appTokenJson(), apiError("APP_TOKEN_ID_NOT_FOUND", 'Application token id "0_x" not found', { ID: "0_x" })]));
    const results = await client.multirequest([
      { service: "appToken", action: "get", params: { id: "0_abc123" }, schema: AppToken },
      { service: "appToken", action: "update", params: { id: "0_x", appToken: { objectType: "SvcAppToken", description: "d" } } },
    ]);
    expect(bodies[0]).toEqual({
      format: "1",
      ks: KS,
      "1:service": "appToken",
      "1:action": "get",
      "1:id": "0_abc123",
      "2:service": "appToken",
      "2:action": "update",
      "2:id": "0_x",
      "2:appToken[objectType]": "SvcAppToken",
      "2:appToken[description]": "d",
    });
    expect(results[0]).toMatchObject({ ok: true, value: { id: "0_abc123" } });
    expect(results[1]?.ok).toBe(false);
    const error = (results[1] as unknown as { error: SvcApiError }).error;
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND", args: { ID: "0_x" }, service: "appToken", action: "update" });
  });
});

describe("error mapping", () => {
  it("an HTTP 200 SvcAPIException becomes SvcApiError with code, args, service, action, httpStatus", async () => {
    const { pool, client } = harness();
    pool
      .intercept({ path: `${P}/get`, method: "POST" })
      .reply(200, apiError("APP_TOKEN_ID_NOT_FOUND", 'Application token id "0_x" not found', { ID: "0_x" }), { headers: { "x-request-id": "req-1" } });
    const error = await client.appTokens.get("0_x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({
      code: "APP_TOKEN_ID_NOT_FOUND",
      args: { ID: "0_x" },
      httpStatus: 200,
      service: "appToken",
      action: "get",
      requestId: "req-1",
    });
    expect((error as Error).message).toBe('appToken.get: Application token id "0_x" not found');
  });

  it("args [] becomes {}", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, apiError("SERVICE_FORBIDDEN", "forbidden", []));
    await expect(client.appTokens.get("0_x")).rejects.toMatchObject({ code: "SERVICE_FORBIDDEN", args: {} });
  });

  it("a non-200 status without an error object becomes SvcHttpError (after retries for reads)", async () => {
    const { pool, client } = harness({ maxRetries: 1 });
    pool
      .intercept({ path: `${P}/get`, method: "POST" })
      .reply(503, "<html>busy</html>", { headers: { "retry-after": "0" } })
      .times(2);
    const error = await client.appTokens.get("0_x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcHttpError);
    expect(error).toMatchObject({ code: "HTTP_ERROR", status: 503, retryAfterMs: 0 });
  });

  it("a non-200 status carrying an error object keeps the platform code and the status", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/add`, method: "POST" }).reply(500, apiError("INTERNAL_SERVER_ERROR", "boom"));
    await expect(client.appTokens.add({})).rejects.toMatchObject({ name: "SvcApiError", code: "INTERNAL_SERVER_ERROR", httpStatus: 500 });
  });

  it("a body that is not JSON becomes INVALID_RESPONSE", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, "<xml/>", { headers: { "content-type": "text/xml" } });
    const error = await client.appTokens.get("0_x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcResponseError);
    expect((error as Error).message).toContain("not JSON (content-type text/xml)");
  });

  it("a missing required field fails naming the field; unknown extra fields pass through", async () => {
    const { pool, client } = harness();
    const { hashType: _omit, ...missing } = appTokenJson();
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, missing);
    await expect(client.appTokens.get("0_abc123")).rejects.toThrow("appToken.get response: hashType is required");
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, appTokenJson({ brandNewField: "x" }));
    expect(await client.appTokens.get("0_abc123")).toMatchObject({ brandNewField: "x" });
  });

  it("a wrong type names the field and the expectation", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, appTokenJson({ status: "2" }));
    await expect(client.appTokens.get("0_abc123")).rejects.toThrow(/status: .*expected number/);
  });

  it("bad input is refused before any call, naming the field", async () => {
    const { client, events } = harness();
    await expect(client.appTokens.add({ hashType: "SHA3" as "SHA1" })).rejects.toThrow(/appTokens.add: hashType/);
    await expect(client.appTokens.add({ descripton: "typo" } as never)).rejects.toThrow(/unknown field\(s\) "descripton"/);
    await expect(client.appTokens.get("")).rejects.toBeInstanceOf(SvcValidationError);
    await expect(client.templates.clone("3", { url: "https://x" } as never)).rejects.toThrow(/name is required/);
    expect(events).toHaveLength(0);
  });

  it("bad client options are refused with the field named", () => {
    expect(() => harness({ baseUrl: "ftp://x" })).toThrow(/baseUrl/);
    expect(() => harness({ partnerId: "abc" })).toThrow(/partnerId/);
    expect(() => harness({ auth: { adminSecret: "s", ks: "k" } as never })).toThrow(/exactly one of/);
    expect(() => harness({ auth: { appTokenId: "0_a", appToken: "not-hex" } })).toThrow(/appToken: must be the token's hex value/);
  });
});

describe("retries at the api_v3 level", () => {
  it("add (a create) is not repeated after a 503; get is", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/add`, method: "POST" }).reply(503, "busy");
    await expect(client.appTokens.add({})).rejects.toMatchObject({ status: 503 });
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(503, "busy");
    pool.intercept({ path: `${P}/get`, method: "POST" }).reply(200, appTokenJson());
    expect((await client.appTokens.get("0_abc123")).id).toBe("0_abc123");
  });

  it("a delete retried after a lost answer that then finds the token gone counts as done", async () => {
    const { pool, client } = harness();
    pool.intercept({ path: `${P}/delete`, method: "POST" }).replyWithError(Object.assign(new Error("reset"), { code: "ECONNRESET" }));
    pool.intercept({ path: `${P}/delete`, method: "POST" }).reply(200, apiError("APP_TOKEN_ID_NOT_FOUND", "not found", { ID: "0_a" }));
    await expect(client.appTokens.delete("0_a")).resolves.toBeUndefined();
    pool.intercept({ path: `${P}/delete`, method: "POST" }).reply(200, apiError("APP_TOKEN_ID_NOT_FOUND", "not found", { ID: "0_a" }));
    await expect(client.appTokens.delete("0_a")).rejects.toMatchObject({ code: "APP_TOKEN_ID_NOT_FOUND" });
  });
});

describe("pagination", () => {
  it("iterate walks every page lazily; toArray({limit}) stops early", async () => {
    const { pool, client } = harness();
    const bodies: Record<string, string>[] = [];
    const page = (ids: string[]) => ({ objects: ids.map((id) => appTokenJson({ id })), totalCount: 5, objectType: "SvcAppTokenListResponse" });
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(recorder(bodies, page(["a", "b"])));
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(recorder(bodies, page(["c", "d"])));
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(recorder(bodies, page(["e"])));
    const ids: string[] = [];
    for await (const token of client.appTokens.iterate({ statusEqual: 2 }, { pageSize: 2 })) ids.push(token.id);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(bodies.map((b) => b["pager[pageIndex]"])).toEqual(["1", "2", "3"]);
    expect(bodies[0]).toMatchObject({ "filter[statusEqual]": "2", "pager[pageSize]": "2" });

    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(recorder(bodies, page(["a", "b"])));
    pool.intercept({ path: `${P}/list`, method: "POST" }).reply(recorder(bodies, page(["c", "d"])));
    const first3 = await client.appTokens.iterate({}, { pageSize: 2 }).toArray({ limit: 3 });
    expect(first3.map((t) => t.id)).toEqual(["a", "b", "c"]);
    expect(bodies).toHaveLength(5);
  });

  describe("a platform that never ends a list (issue 39, finding 10)", () => {
    // Full pages for ever, the totalCount always one page ahead: nothing the pager reads ends the list.
    const endless = (pageSize: number) => async (pageIndex: number) => ({
      objects: Array.from({ length: pageSize }, (_, i) => ({ id: `${pageIndex}_${i}` })),
      totalCount: (pageIndex + 1) * pageSize,
    });

    it("fails past 100,000 items by default, never returning a silently cut list", async () => {
      let pages = 0;
      const fetchPage = endless(10);
      const walk = paginate(async (pageIndex) => {
        pages++;
        return fetchPage(pageIndex);
      }, 10).toArray();
      await expect(walk).rejects.toMatchObject({
        code: "LIST_TOO_LONG",
        message: expect.stringMatching(/^a list: the list did not end within maxItems \(100000\)/),
      });
      expect(pages).toBe(10_000);
    });

    it("through the client: the error names the list call, the bound and what to do; maxItems and maxBytes are the client's options", async () => {
      const { pool, client } = harness();
      const answer = (opts: { body?: unknown }) => {
        const index = Number(new URLSearchParams(String(opts.body)).get("pager[pageIndex]"));
        return {
          statusCode: 200,
          data: {
            objects: [appTokenJson({ id: `0_${index}a` }), appTokenJson({ id: `0_${index}b` })],
            totalCount: (index + 1) * 2,
            objectType: "SvcAppTokenListResponse",
          },
        };
      };
      pool
        .intercept({ path: `${P}/list`, method: "POST" })
        .reply(answer)
        .persist();

      const byItems = client.appTokens.iterate({}, { pageSize: 2, maxItems: 6 }).toArray();
      await expect(byItems).rejects.toMatchObject({ code: "LIST_TOO_LONG", service: "appToken", action: "list" });
      await expect(byItems).rejects.toThrow(
        /^appToken\.list: the list did not end within maxItems \(6\); 6 items were read .*raise the bound \(iterate's maxItems or maxBytes option\)$/,
      );

      // The answers' own bytes count (each answer here is a few hundred bytes): the third page passes 1,000.
      const seen: string[] = [];
      const byBytes = (async () => {
        for await (const token of client.appTokens.iterate({}, { pageSize: 2, maxBytes: 1_000 })) seen.push(token.id);
      })();
      await expect(byBytes).rejects.toThrow(/^appToken\.list: the list did not end within maxBytes \(1000\); \d+ bytes of answers were read/);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.length).toBeLessThan(10);

      // A bound that is not a count is refused before any call.
      expect(() => client.templates.iterate({}, { maxItems: 0 })).toThrow(
        /^eventnotification_eventnotificationtemplate\.list: maxItems must be a whole number of at least 1$/,
      );
    });

    it("a list that ends at its bound exactly is read whole", async () => {
      const items = await paginate(async (pageIndex) => ({ objects: [{ id: pageIndex }, { id: -pageIndex }], totalCount: 6 }), {
        pageSize: 2,
        maxItems: 6,
      }).toArray();
      expect(items).toHaveLength(6);
    });
  });
});
