/**
 * What `pulumi-svc takeover --language python|go|yaml` writes from hostile platform values (quotes, backslashes, line
 * breaks, comment ends, U+2028/U+2029, bidirectional overrides, a byte-order mark, an emoji, `${...}` and `$$`, a
 * `fn::` key), read back by each language's own parser: Python's `ast`, Go's scanner and parser (test/takeover/
 * goliterals), and the `yaml` package with Pulumi YAML's `$$` escape. Each program is printable ASCII, has exactly the
 * statements (Go: the tokens) of the same program with plain values, and every literal gives back the value read.
 * test/provider/takeoverCode.test.ts does the same for TypeScript.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { pythonName } from "../../provider/cli/takeoverPython";
import type { Candidate } from "../../provider/cli/takeoverListing";
import { declaredInputs } from "../../provider/cli/takeoverCode";
import type { Declaration } from "../../provider/cli/takeoverDeclarations";
import { goProgram } from "../../provider/cli/takeoverGo";
import type { SchemaView } from "../../provider/cli/takeoverSchema";
import { pythonProgram } from "../../provider/cli/takeoverPython";
import { programFor } from "../../provider/cli/takeoverWriters";
import { yamlProgram } from "../../provider/cli/takeoverYaml";
import { appToken, emailNotificationTemplate, httpNotificationTemplate } from "../../provider/definitions";
import { repoRoot } from "../../scripts/engineEnv";
import type { ResourceDefinition } from "../../provider/definitions/define";

/** A type of a schema other than the package's, for the writers' guards. */
const THING: ResourceDefinition = { ...appToken, type: "Thing", takeover: { ...appToken.takeover, noun: "thing" } };

const HOSTILE_LINE = `a "dq" 'sq' \`tick\` \${process.exit(1)} $$ $ */ /* // # \\ \\n \\u0041 \\U0001F600 </script> \u202e\u2066 rtl \ufeff bom \u{1F600} \u00e9`;
const HOSTILE_TEXT = `${HOSTILE_LINE}\nimport os; os.exit(2)\r\n# \u2028 os.exit(3) \u2029 os.exit(4)\n\t"""''' */`;

const header = { partnerId: 101, baseUrl: "https://api.example.com/a\u2028b", importFile: "im\nport.json" };

function candidates(line: string, text: string): Candidate[] {
  return [
    {
      definition: appToken,
      label: "listed",
      id: "0_ab12cd34",
      name: "ci",
      inputs: {
        description: text,
        sessionPrivileges: line,
        sessionUserId: line,
        hashType: "SHA1",
        sessionType: "ADMIN",
        sessionDuration: 600,
        expiry: 1_900_000_000,
      },
    },
    {
      definition: httpNotificationTemplate,
      label: "listed",
      id: "2001",
      name: "hook",
      inputs: {
        event: "entry.ready",
        name: line,
        systemName: "HOOK_1",
        description: text,
        url: "https://hooks.example.com/a?q=%24%7Bx%7D",
        method: "GET",
        secureHashingAlgo: "SHA512",
        active: false,
      },
    },
    {
      definition: emailNotificationTemplate,
      label: "listed",
      id: "2002",
      // The same resource name as the token: YAML keys must differ across types.
      name: "ci",
      inputs: {
        event: "entry.ready",
        name: "Editors",
        subject: line,
        body: text,
        fromEmail: "video@example.com",
        to: [{ email: "editors@example.com", name: line }],
        cc: [{ email: "lead@example.com" }],
        contentParameters: [{ key: "entry_name", value: `${line.replace(/[{}]/g, "")}\n{entry.name}`, description: text }],
      },
    },
  ];
}
const hostile = () => candidates(HOSTILE_LINE, HOSTILE_TEXT);
const plain = () => candidates("plain", "plain");

function run(cmd: string, args: string[], input: string, cwd = repoRoot): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${cmd} failed: ${stderr}`)) : resolve(stdout),
    );
    child.stdin!.end(input);
  });
}

const PRINTABLE = /^[\x20-\x7e\n\t]*$/;

/** Python's ast: only the two imports and one `svc.<Type>("name", k=<literal>..., opts=pulumi.ResourceOptions(protect=True))` per object. */
const PYTHON_READER = `
import ast, json, sys
def value(node):
    if isinstance(node, ast.Constant) and type(node.value) in (str, int, float, bool):
        return node.value
    if isinstance(node, ast.List):
        return [value(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {value(k): value(v) for k, v in zip(node.keys, node.values)}
    # A value of one of the schema's object types: svc.<Type>Args(field=<literal>, ...), nothing else.
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.value.id == "svc" and node.func.attr.endswith("Args") and not node.args:
        return {k.arg: value(k.value) for k in node.keywords}
    raise ValueError("not a literal: " + ast.dump(node))
out = []
for stmt in ast.parse(sys.stdin.read()).body:
    if isinstance(stmt, ast.Import):
        out.append({"import": [[a.name, a.asname] for a in stmt.names]})
        continue
    call = stmt.value
    assert isinstance(stmt, ast.Expr) and isinstance(call, ast.Call), ast.dump(stmt)
    assert isinstance(call.func, ast.Attribute) and call.func.value.id == "svc", ast.dump(call.func)
    [name] = call.args
    kwargs = {k.arg: k.value for k in call.keywords}
    opts = kwargs.pop("opts")
    assert ast.unparse(opts) == "pulumi.ResourceOptions(protect=True)", ast.unparse(opts)
    out.append({"type": call.func.attr, "name": value(name), "inputs": {k: value(v) for k, v in kwargs.items()}})
sys.stdout.reconfigure(encoding="utf-8")
print(json.dumps(out, ensure_ascii=False))
`;

describe("takeover's Python, Go and YAML programs from hostile platform values", () => {
  it("Python: ast reads exactly the expected statements, every literal the value read", async () => {
    const code = programFor("python", hostile(), header);
    expect(code).toMatch(PRINTABLE);
    const statements = JSON.parse(await run("python3", ["-c", PYTHON_READER], code));
    expect(statements).toEqual([
      { import: [["pulumi", null]] },
      { import: [["pulumi_svc", "svc"]] },
      ...hostile().map((c) => ({
        type: c.definition.type,
        name: c.name,
        inputs: Object.fromEntries(Object.entries(declaredInputs(c)).map(([key, value]) => [pythonName(key), value])),
      })),
    ]);
    expect(statements[2].inputs.description).toBe(HOSTILE_TEXT);
    // The comments are those of the same program with plain values (the header names the URL and file, escaped).
    const comments = (text: string) => text.split("\n").filter((line) => line.trimStart().startsWith("#"));
    expect(comments(code).slice(2)).toEqual(comments(programFor("python", plain(), header)).slice(2));
  });

  it("Go: the scanner finds the tokens of the plain program, and every string literal unquotes to the value read", async () => {
    const reader = join(repoRoot, "test", "takeover", "goliterals", "main.go");
    const read = async (code: string) => JSON.parse(await run("go", ["run", reader], code, join(repoRoot, "test", "takeover", "goliterals")));
    const code = programFor("go", hostile(), header, { goPackage: "program" });
    expect(code).toMatch(PRINTABLE);
    const [hostileRead, plainRead] = [await read(code), await read(programFor("go", plain(), header, { goPackage: "program" }))];
    expect(hostileRead.tokens).toEqual(plainRead.tokens);
    // Every string of the program, in order: the imports, then each object's name and its values (the schema's object
    // types are Go structs, so their field names are identifiers, not strings; these candidates hold no map).
    const strings = (value: unknown): string[] =>
      typeof value === "string"
        ? [value]
        : Array.isArray(value)
          ? value.flatMap(strings)
          : value !== null && typeof value === "object"
            ? Object.values(value).flatMap(strings)
            : [];
    expect(hostileRead.strings).toEqual([
      "github.com/pulumi-svc/pulumi-svc/sdk/go/svc",
      "github.com/pulumi/pulumi/sdk/v3/go/pulumi",
      ...hostile().flatMap((c) => [c.name, ...Object.values(declaredInputs(c)).flatMap(strings)]),
    ]);
    expect(hostileRead.strings).toContain(HOSTILE_TEXT);
  }, 120_000);

  it("YAML: the document holds exactly the resources, every value read back as Pulumi YAML reads it ($$ is $)", () => {
    const code = programFor("yaml", hostile(), header);
    expect(code).toMatch(PRINTABLE);
    const document = parse(code) as { resources: Record<string, { type: string; name?: string; properties?: Record<string, unknown>; options: unknown }> };
    expect(Object.keys(document)).toEqual(["resources"]);
    // No string interpolates: every `$` comes doubled, which Pulumi YAML reads as one.
    const pulumiYaml = (value: unknown): unknown => {
      if (typeof value === "string") {
        expect(value.replaceAll("$$", "")).not.toContain("$");
        return value.replaceAll("$$", "$");
      }
      if (Array.isArray(value)) return value.map(pulumiYaml);
      if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [pulumiYaml(k), pulumiYaml(v)]));
      return value;
    };
    expect(
      Object.entries(document.resources).map(([key, r]) => ({ key, type: r.type, name: r.name, properties: pulumiYaml(r.properties), options: r.options })),
    ).toEqual([
      { key: "ci", type: "svc:index:AppToken", name: undefined, properties: declaredInputs(hostile()[0]!), options: { protect: true } },
      { key: "hook", type: "svc:index:HttpNotificationTemplate", name: undefined, properties: declaredInputs(hostile()[1]!), options: { protect: true } },
      {
        key: "ci-emailnotificationtemplate",
        type: "svc:index:EmailNotificationTemplate",
        name: "ci",
        properties: declaredInputs(hostile()[2]!),
        options: { protect: true },
      },
    ]);
  });

  it("YAML: a map key that Pulumi YAML would call as a function is refused, and nothing is written", () => {
    // No input of this package's schema is a map of free keys that takeover writes (recipients and content parameters
    // are object types): the guard is held on a schema that has one, as a future field could add.
    const schema: SchemaView = {
      language: { python: { packageName: "pulumi_svc" }, go: { importBasePath: "github.com/pulumi-svc/pulumi-svc/sdk/go/svc" } },
      resources: { "svc:index:Thing": { inputProperties: { tags: { type: "object", additionalProperties: { type: "string" } } } } },
    };
    const thing: Declaration = {
      definition: THING,
      type: "Thing",
      token: "svc:index:Thing",
      id: "1",
      name: "thing",
      hasSignSecret: false,
      inputs: { tags: { "fn::readFile": "/etc/passwd" } },
    };
    expect(() => yamlProgram(schema, [thing], header)).toThrow(`the map key "fn::readFile" would be a Pulumi YAML function call; takeover wrote nothing`);
  });

  it("follows the schema's named types: an enum as its type, objects as their Args, lists of them, in every language", async () => {
    // A schema with the typed fields a definition may get (enums, object types): the writers read them from the schema.
    const schema: SchemaView = {
      language: { python: { packageName: "pulumi_svc" }, go: { importBasePath: "github.com/pulumi-svc/pulumi-svc/sdk/go/svc" } },
      types: {
        "svc:index:HashType": { type: "string", enum: ["SHA1", "SHA256"] },
        "svc:index:EmailRecipient": { type: "object", properties: { email: { type: "string" }, name: { type: "string" } } },
      },
      resources: {
        "svc:index:Thing": {
          inputProperties: {
            hashType: { $ref: "#/types/svc:index:HashType" },
            to: { type: "array", items: { $ref: "#/types/svc:index:EmailRecipient" } },
            owner: { $ref: "#/types/svc:index:EmailRecipient" },
            tags: { type: "object", additionalProperties: { type: "string" } },
          },
        },
      },
    };
    const thing: Declaration = {
      definition: THING,
      type: "Thing",
      token: "svc:index:Thing",
      id: "1",
      name: "thing",
      hasSignSecret: false,
      inputs: { hashType: "SHA1", to: [{ email: "a@example.com", name: HOSTILE_LINE }], owner: { email: "o@example.com" }, tags: { "k\u00e9y": "v" } },
    };
    const go = goProgram(schema, [thing], header, "program");
    expect(go).toContain('HashType: svc.HashType("SHA1"),');
    expect(go).toContain('To: svc.EmailRecipientArray{svc.EmailRecipientArgs{Email: pulumi.String("a@example.com"), Name: pulumi.String(');
    expect(go).toContain('Owner: svc.EmailRecipientArgs{Email: pulumi.String("o@example.com")},');
    expect(go).toContain('Tags: pulumi.StringMap{"k\\u00e9y": pulumi.String("v")},');
    const reader = join(repoRoot, "test", "takeover", "goliterals", "main.go");
    const read = JSON.parse(await run("go", ["run", reader], go, join(repoRoot, "test", "takeover", "goliterals")));
    expect(read.strings).toContain(HOSTILE_LINE);
    const python = pythonProgram(schema, [thing], header);
    expect(python).toContain('    hash_type="SHA1",');
    expect(python).toContain('    to=[svc.EmailRecipientArgs(email="a@example.com", name=');
    expect(python).toContain('    owner=svc.EmailRecipientArgs(email="o@example.com"),');
    await run("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], python);
    const yaml = parse(yamlProgram(schema, [thing], header)) as { resources: Record<string, { properties: Record<string, unknown> }> };
    // Pulumi YAML reads `$$` as `$`.
    expect(JSON.parse(JSON.stringify(yaml.resources.thing!.properties).replaceAll("$$", "$"))).toEqual(thing.inputs);
    // A value outside the enum is refused, naming the field.
    expect(() => goProgram(schema, [{ ...thing, inputs: { hashType: "MD5" } }], header)).toThrow('Thing 1: hashType: expected one of ["SHA1","SHA256"]');
  }, 60_000);
});
