/**
 * What `pulumi-svc takeover` writes from what the platform sends: hostile text (line breaks, comment ends, backticks,
 * template holes, U+2028/U+2029, quotes, bidirectional overrides, very long strings) becomes escaped literals in a
 * program that the TypeScript compiler parses into exactly the expected statements, each literal giving back the
 * value it was made from; ids, names and values outside the platform's grammar stop the run with an error that names
 * the object and shows the value escaped and cut short.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { untrusted } from "../../provider/cli/asciiLiteral";
import { listCandidates, type Candidate } from "../../provider/cli/takeoverListing";
import { declaredInputs, importFile, programCode } from "../../provider/cli/takeoverCode";
import { LANGUAGES, programFor } from "../../provider/cli/takeoverWriters";
import { appToken, emailNotificationTemplate, httpNotificationTemplate } from "../../provider/definitions";
import type { ResourceDefinition } from "../../provider/definitions/define";
import type { OperationContext } from "../../provider/core/operationContext";

/** The definitions here list from fakes: they never reach a platform. */
const OFFLINE = {} as OperationContext;

/** Everything that could end a string, a comment or a line early, or make code read differently from what it does. */
const HOSTILE_LINE = `a "dq" 'sq' \`tick\` \${process.exit(1)} */ /* // \\ </script> \u202e\u2066 rtl \ufeff bom \u{1F600}`;
const HOSTILE_TEXT = `${HOSTILE_LINE}\nprocess.exit(2);\r\n// \u2028 process.exit(3) \u2029 process.exit(4)\n*/ process.exit(5); /*`;
const LONG_TEXT = `${"x".repeat(60_000)}${HOSTILE_TEXT}`;

const header = { partnerId: 101, baseUrl: "https://api.example.com/api_v3", importFile: "import.json" };
const candidate = (definition: ResourceDefinition, id: string, name: string, inputs: Record<string, unknown>): Candidate => ({
  definition,
  id,
  name,
  label: name,
  inputs,
});

const hostileCandidates = (): Candidate[] => [
  candidate(appToken, "0_ab12cd34", "ci", {
    description: LONG_TEXT,
    sessionPrivileges: HOSTILE_LINE,
    sessionUserId: HOSTILE_LINE,
    hashType: "SHA1",
    sessionType: "ADMIN",
    sessionDuration: 600,
    expiry: 0,
  }),
  candidate(httpNotificationTemplate, "2001", "hook", {
    event: "entry.ready",
    name: HOSTILE_LINE,
    systemName: "HOOK_1",
    description: HOSTILE_TEXT,
    url: "https://hooks.example.com/a?q=%60%24%7Bx%7D*/",
    method: "GET",
    secureHashingAlgo: "SHA512",
    active: false,
  }),
  candidate(emailNotificationTemplate, "2002", "mail", {
    event: "entry.ready",
    name: "Editors",
    subject: HOSTILE_LINE,
    body: HOSTILE_TEXT,
    fromEmail: "video@example.com",
    to: [{ email: "editors@example.com", name: HOSTILE_LINE }],
    contentParameters: [{ key: "entry_name", value: `${HOSTILE_LINE.replace(/[{}]/g, "")}\n{entry.name}`, description: HOSTILE_TEXT }],
  }),
];

/** The same objects with plain values. */
const plainCandidates = (): Candidate[] =>
  hostileCandidates().map((c) => ({
    ...c,
    inputs: Object.fromEntries(
      Object.entries(c.inputs).map(([key, value]) => [key, value === LONG_TEXT || value === HOSTILE_TEXT || value === HOSTILE_LINE ? "plain" : value]),
    ),
  }));

/** Every comment of the file, as the compiler's scanner finds it. */
function comments(code: string): { kind: string; text: string }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.ES2022, false, ts.LanguageVariant.Standard, code);
  const found: { kind: string; text: string }[] = [];
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token === ts.SyntaxKind.SingleLineCommentTrivia || token === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push({ kind: ts.SyntaxKind[token], text: scanner.getTokenText() });
    }
  }
  return found;
}

/** The value of a literal expression as the compiler reads it; throws on anything that is not a plain literal. */
function literalValue(node: ts.Expression): unknown {
  if (ts.isStringLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isArrayLiteralExpression(node)) return node.elements.map(literalValue);
  if (ts.isObjectLiteralExpression(node)) {
    return Object.fromEntries(
      node.properties.map((p) => {
        if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) throw new Error(`not a plain property: ${p.getText()}`);
        return [p.name.text, literalValue(p.initializer)];
      }),
    );
  }
  throw new Error(`not a literal: ${ts.SyntaxKind[node.kind]}`);
}

/** The program's statements: one import of pulumi-svc/native, then one `const x = new svc.Type(name, {...}, { protect: true })` per object. */
function parseProgram(code: string): { type: string; name: string; inputs: unknown }[] {
  const syntaxErrors = ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS } }).diagnostics ?? [];
  expect(syntaxErrors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  const file = ts.createSourceFile("takeover.ts", code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const [first, ...rest] = file.statements;
  expect(first && ts.isImportDeclaration(first) && ts.isStringLiteral(first.moduleSpecifier) && first.moduleSpecifier.text).toBe("pulumi-svc/native");
  return rest.map((statement) => {
    if (!ts.isVariableStatement(statement)) throw new Error(`an unexpected statement: ${statement.getText()}`);
    const [declaration, ...more] = statement.declarationList.declarations;
    expect(more).toEqual([]);
    expect(statement.declarationList.flags & ts.NodeFlags.Const).toBeTruthy();
    const created = declaration?.initializer;
    if (!created || !ts.isNewExpression(created)) throw new Error(`not a new expression: ${statement.getText()}`);
    const callee = created.expression;
    if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.expression) || callee.expression.text !== "svc") {
      throw new Error(`not a svc class: ${callee.getText()}`);
    }
    const [name, inputs, options, ...extra] = created.arguments ?? [];
    expect(extra).toEqual([]);
    expect(literalValue(options!)).toEqual({ protect: true });
    return { type: callee.name.text, name: literalValue(name!) as string, inputs: literalValue(inputs!) };
  });
}

describe("takeover's program from hostile platform values", () => {
  it("parses into exactly the expected statements, every literal giving back the value read, in printable ASCII only", () => {
    const candidates = hostileCandidates();
    // A header that is not plain either (a user's path, a URL): still only comments.
    const code = programCode(candidates, { ...header, baseUrl: "https://api.example.com/a\u2028process.exit(6)", importFile: "im\nport.json" });
    expect(code).toMatch(/^[\x20-\x7e\n]*$/);
    const statements = parseProgram(code);
    expect(statements).toEqual(candidates.map((c) => ({ type: c.definition.type, name: c.name, inputs: declaredInputs(c) })));
    // The hostile values are there, whole (declared, not dropped as defaults).
    expect(statements[0]!.inputs).toMatchObject({ description: LONG_TEXT, sessionPrivileges: HOSTILE_LINE });
    expect(statements[1]!.inputs).toMatchObject({ name: HOSTILE_LINE, description: HOSTILE_TEXT });
    expect(statements[2]!.inputs).toMatchObject({ body: HOSTILE_TEXT });
    // The comments are the ones a program of plain values has, word for word (the header names the URL and file).
    const plain = programCode(plainCandidates(), header);
    expect(comments(code).slice(2)).toEqual(comments(plain).slice(2));
    expect(
      comments(code)
        .slice(0, 2)
        .map((c) => c.kind),
    ).toEqual(
      comments(plain)
        .slice(0, 2)
        .map((c) => c.kind),
    );
  });

  it("writes the import file from the same checked ids and names", () => {
    expect(importFile(hostileCandidates())).toEqual({
      resources: [
        { type: "svc:index:AppToken", name: "ci", id: "0_ab12cd34" },
        { type: "svc:index:HttpNotificationTemplate", name: "hook", id: "2001" },
        { type: "svc:index:EmailNotificationTemplate", name: "mail", id: "2002" },
      ],
    });
  });
});

describe("takeover refuses what does not match the platform's grammar, and writes nothing", () => {
  const refusal = (candidates: Candidate[]): string => {
    let programError: Error | undefined;
    let importError: Error | undefined;
    try {
      programCode(candidates, header);
    } catch (error) {
      programError = error as Error;
    }
    try {
      importFile(candidates);
    } catch (error) {
      importError = error as Error;
    }
    expect(programError, "programCode accepted it").toBeInstanceOf(Error);
    const message = programError!.message;
    expect(message).toContain("takeover wrote nothing");
    // Shown escaped and short: no raw line break or control character, whatever the value.
    expect(message).toMatch(/^[\x20-\x7e]*$/);
    expect(message.length).toBeLessThan(400);
    return `${message}${importError ? `\n${importError.message}` : ""}`;
  };

  it.each([
    ["a line break and code", "0_ab\nprocess.exit(1)//"],
    ["a comment end", "0_ab */ process.exit(1) /*"],
    ["U+2028", "0_ab\u2028process.exit(1)"],
    ["a backtick", "0_ab`"],
    ["empty", ""],
    ["no prefix", "ab12cd34"],
    ["too long", `0_${"a".repeat(5_000)}`],
  ])("an app token id with %s", (_, id) => {
    const message = refusal([candidate(appToken, id, "ci", {})]);
    expect(message).toContain("AppToken ");
    expect(message).toContain("is not an app token id");
    expect(message).toContain(`AppToken ${untrusted(id)}: the id the platform sent is not an app token id`);
    // The import file is refused the same way.
    expect(message.split("\n")).toHaveLength(2);
  });

  const templates: Record<string, ResourceDefinition> = {
    HttpNotificationTemplate: httpNotificationTemplate,
    EmailNotificationTemplate: emailNotificationTemplate,
  };
  it.each([
    ["HttpNotificationTemplate", "2001\n;process.exit(1)"],
    ["HttpNotificationTemplate", "0_ab12cd34"],
    ["EmailNotificationTemplate", "0123"],
    ["EmailNotificationTemplate", "12a"],
  ])("a %s id %j", (type, id) => {
    const message = refusal([candidate(templates[type]!, id, "hook", {})]);
    expect(message).toContain(`${type} `);
    expect(message).toContain("is not a template id");
  });

  it("a resource name outside Pulumi's grammar as takeover makes them", () => {
    expect(refusal([candidate(appToken, "0_ab12cd34", 'ci", {}); process.exit(1); ("', {})])).toContain("AppToken 0_ab12cd34: the resource name");
  });

  it("a definition with no id grammar", () => {
    const unknownType = { ...appToken, type: "Mystery", takeover: undefined } as unknown as ResourceDefinition;
    expect(refusal([candidate(unknownType, "0_ab12cd34", "x", {})])).toContain("takeover knows no id grammar");
  });

  it.each([
    ["description", "a NUL \u0000 in text", "\u0000"],
    ["description", "an escape sequence for the terminal", "\u001b[2J"],
    ["description", "a C1 control (NEL)", "a\u0085b"],
    ["description", "a lone surrogate", "\ud800"],
    ["sessionUserId", "a line break in a one-line field", "user\nprocess.exit(1)"],
    ["sessionPrivileges", "U+2028 in a one-line field", "list:*\u2028"],
    ["description", "more than 100,000 characters", "d".repeat(100_001)],
  ])("an app token %s with %s", (key, _, value) => {
    const message = refusal([candidate(appToken, "0_ab12cd34", "ci", { [key]: value })]);
    expect(message).toContain(`AppToken 0_ab12cd34: ${key} "`);
    expect(message).toContain("from the platform is not");
  });

  it("a value the resource's own schema refuses (a systemName with a space), and nested text", () => {
    const hook = (inputs: Record<string, unknown>) =>
      candidate(httpNotificationTemplate, "2001", "hook", { event: "entry.ready", name: "Hook", url: "https://hooks.example.com/x", ...inputs });
    expect(refusal([hook({ systemName: "HOOK 1" })])).toContain(
      "HttpNotificationTemplate 2001: systemName from the platform is not a value the program may declare",
    );
    const mail = candidate(emailNotificationTemplate, "2002", "mail", {
      event: "entry.ready",
      name: "Editors",
      subject: "s",
      body: "b",
      fromEmail: "video@example.com",
      to: [{ email: "editors@example.com", name: "Ed\u2029itors" }],
    });
    expect(refusal([mail])).toContain("EmailNotificationTemplate 2002: to[0].name ");
  });

  it("prints a skipped object's values escaped (no terminal control sequence reaches the output)", async () => {
    const fake: ResourceDefinition = {
      ...httpNotificationTemplate,
      list: async () => [{ id: "2001", name: "odd", inputs: { eventType: "\u001b]0;owned\u0007", eventObjectType: "1\n2" } }],
    };
    const listing = await listCandidates(OFFLINE, 101, { ids: [], names: new Map() }, { definitions: [fake] });
    expect(listing.skipped[0]!.reason).toBe('reacts to an event outside the catalog (eventType "\\u001b]0;owned\\u0007", eventObjectType "1\\n2")');
  });

  it("leaves disabled tokens and templates out unless includeDisabled, and counts them", async () => {
    const tokens: ResourceDefinition = {
      ...appToken,
      list: async () => [
        { id: "0_on", name: "on", inputs: { status: 2 } },
        { id: "0_off", name: "off", inputs: { status: 1 } },
      ],
    };
    const mails: ResourceDefinition = {
      ...emailNotificationTemplate,
      list: async () => [
        { id: "2001", name: "live", inputs: { event: "entry.ready", active: true, status: 2 } },
        { id: "2002", name: "paused", inputs: { event: "entry.ready", active: false, status: 1 } },
      ],
    };
    const none = { ids: [], names: new Map() };
    const active = await listCandidates(OFFLINE, 101, none, { definitions: [tokens, mails] });
    expect(active.candidates.map((c) => c.id)).toEqual(["0_on", "2001"]);
    expect(active.disabledCount).toBe(2);
    const all = await listCandidates(OFFLINE, 101, none, { definitions: [tokens, mails], includeDisabled: true });
    expect(all.candidates.map((c) => c.id)).toEqual(["0_off", "0_on", "2001", "2002"]);
    expect(all.disabledCount).toBe(0);
  });
});

describe("credentials in a webhook url", () => {
  const PASSWORD = "fake-hook-pa55word";
  const TOKEN = "fakeQueryToken0123456789";
  const webhook = (url: string) =>
    candidate(httpNotificationTemplate, "2101", "hook", { event: "entry.ready", name: "Hook", url, method: "POST", secureHashingAlgo: "SHA256", active: true });

  it("refuses in every language, naming the object, and never shows the credential", () => {
    const urls = [
      `https://deploy:${PASSWORD}@hooks.example.com/in`,
      `https://deploy@hooks.example.com/in`,
      `https://hooks.example.com/in?token=${TOKEN}`,
      `https://hooks.example.com/in?x=1&sig=${TOKEN}`,
      `https://hooks.example.com/in?anything=${TOKEN}`,
    ];
    for (const language of LANGUAGES)
      for (const url of urls) {
        const run = () => programFor(language, [webhook(url)], header);
        expect(run, `${language} ${url}`).toThrow(
          /^HttpNotificationTemplate 2101 \("hook"\): its url \(https:\/\/hooks\.example\.com\) (holds a user name or password|has a query parameter "\w+" that may hold a credential); takeover never writes credentials into code/,
        );
        let message = "";
        try {
          run();
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).not.toContain(PASSWORD);
        expect(message).not.toContain(TOKEN);
      }
  });

  it("refuses a credential in the url's path or fragment in every language (issue 39, finding 11), naming the template", () => {
    const SLACK = "fakeSlackSecret0123456789";
    const DISCORD = "fakeDiscordToken_abcdefghijklmnopqrstuvwxyz-0123456789";
    const KEY = "3f2b9c1d7e6a4b5c8d9e0f1a2b3c4d5e";
    const cases: [url: string, secret: string, why: string][] = [
      [`https://hooks.slack.com/services/T0FAKE0001/B0FAKE0002/${SLACK}`, SLACK, "has a path of a webhook service that carries its credential in the path"],
      [`https://relay.example.com/services/T0FAKE0001/B0FAKE0002/${SLACK}`, SLACK, "has a path of a webhook service that carries its credential in the path"],
      [`https://discord.com/api/webhooks/123456789012345678/${DISCORD}`, DISCORD, "has a path of a webhook service that carries its credential in the path"],
      [`https://hooks.example.com/in/${KEY}/events`, KEY, "has a path segment that looks like a token or key"],
      [`https://hooks.example.com/in#token=${TOKEN}`, TOKEN, "has a fragment that may hold a credential"],
      [`https://hooks.example.com/in#x=1&signature=short`, "short", "has a fragment that may hold a credential"],
      [`https://hooks.example.com/in#${TOKEN}`, TOKEN, "has a fragment that may hold a credential"],
      [`https://hooks.example.com/in?password=${PASSWORD}`, PASSWORD, 'has a query parameter "password" that may hold a credential'],
    ];
    for (const language of LANGUAGES)
      for (const [url, secret, why] of cases) {
        let message = "";
        try {
          programFor(language, [webhook(url)], header);
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message, `${language} ${url}`).toMatch(/^HttpNotificationTemplate 2101 \("hook"\): its url \(https:\/\/[a-z.]+\) /);
        expect(message, `${language} ${url}`).toContain(`${why}; takeover never writes credentials into code and wrote nothing`);
        expect(message, `${language} ${url}`).not.toContain(secret);
      }
  });

  it("writes a path of plain words, dates and short ids, and a fragment of neither", () => {
    const urls = [
      "https://hooks.example.com/services/svc/events/entry-ready",
      "https://hooks.example.com/webhooks/entry-ready-notification-receiver",
      "https://hooks.example.com/v1/2024-01-01-handler/42",
      "https://hooks.example.com/api/webhooks/svc/in",
      "https://hooks.example.com/in#section-2",
    ];
    for (const language of LANGUAGES) for (const url of urls) expect(programFor(language, [webhook(url)], header), `${language} ${url}`).toContain(url);
  });

  it("writes a url with a harmless query, and never a baseUrl's userinfo in the header", () => {
    for (const language of LANGUAGES) {
      const code = programFor(language, [webhook("https://hooks.example.com/in?source=svc")], {
        ...header,
        baseUrl: `https://deploy:${PASSWORD}@api.example.com/api_v3`,
      });
      expect(code, language).toContain("source=svc");
      expect(code, language).toContain("https://api.example.com/api_v3");
      expect(code, language).not.toContain(PASSWORD);
    }
  });
});
