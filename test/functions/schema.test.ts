/**
 * The typed package schema: enums and object types named by the definitions' fields, the functions with their
 * secret outputs, each provider setting's SVC_* variable (defaultInfo), a deprecated field's deprecationMessage; and
 * a typo in an enum refused by the plugin's check (what `pulumi preview` shows in Python and YAML), naming the
 * allowed values.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONNECTION_DEPRECATION } from "../../provider/definitions/define";
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../plugin/schema";
import { repoRoot } from "../../scripts/engineEnv";
import { SvcProviderServer } from "../../plugin/server";
import { SETTINGS } from "../../provider/core/connection";
import { DEFINITIONS, FUNCTIONS } from "../../provider/definitions";
import { SYSTEM_TEMPLATE_ID_DEPRECATION } from "../../provider/definitions/templateSelection";
import { FIELD_TABLE } from "../../provider/generated/fieldTable";

type Property = { $ref?: string; type?: string; items?: Property; secret?: boolean; deprecationMessage?: string; defaultInfo?: { environment: string[] } };
const schema = packageSchema(DEFINITIONS, "0.0.0-test") as unknown as {
  types: Record<string, { type: string; enum?: { value: string }[]; properties?: Record<string, Property>; required?: string[] }>;
  resources: Record<string, { inputProperties: Record<string, Property>; properties: Record<string, Property> }>;
  functions: Record<string, { inputs: { properties: Record<string, Property>; required?: string[] }; outputs: { properties: Record<string, Property> } }>;
  config: { variables: Record<string, Property> };
  provider: { inputProperties: Record<string, Property> };
};
const ref = (name: string) => `#/types/svc:index:${name}`;

describe("the typed schema", () => {
  it("names an enum type for hashType, sessionType, method, secureHashingAlgo, format and priority", () => {
    const inputs = (type: string) => schema.resources[`svc:index:${type}`]!.inputProperties;
    expect(inputs("AppToken").hashType?.$ref).toBe(ref("HashType"));
    expect(inputs("AppToken").sessionType?.$ref).toBe(ref("SessionType"));
    expect(inputs("HttpNotificationTemplate").method?.$ref).toBe(ref("HttpMethod"));
    expect(inputs("HttpNotificationTemplate").secureHashingAlgo?.$ref).toBe(ref("SecureHashingAlgo"));
    expect(inputs("EmailNotificationTemplate").format?.$ref).toBe(ref("EmailFormat"));
    expect(inputs("EmailNotificationTemplate").priority?.$ref).toBe(ref("EmailPriority"));
    expect(schema.types["svc:index:SessionType"]?.enum?.map((e) => e.value)).toEqual(["USER", "ADMIN"]);
    expect(schema.types["svc:index:EmailPriority"]?.enum?.map((e) => e.value)).toEqual(["HIGH", "NORMAL", "LOW"]);
  });

  it("has object types for recipients and content parameters", () => {
    const email = schema.resources["svc:index:EmailNotificationTemplate"]!.inputProperties;
    for (const key of ["to", "cc", "bcc", "replyTo"]) expect(email[key], key).toMatchObject({ type: "array", items: { $ref: ref("EmailRecipient") } });
    expect(email.contentParameters).toMatchObject({ type: "array", items: { $ref: ref("ContentParameter") } });
    expect(schema.types["svc:index:EmailRecipient"]).toMatchObject({ type: "object", required: ["email"] });
    expect(Object.keys(schema.types["svc:index:EmailRecipient"]!.properties!)).toEqual(["email", "name"]);
    expect(schema.types["svc:index:ContentParameter"]).toMatchObject({ type: "object", required: ["key", "value"] });
  });

  it("gives every provider setting its SVC_* variable as defaultInfo of the stack config, not of an explicit provider's inputs", () => {
    for (const [key, setting] of Object.entries(SETTINGS)) {
      expect(schema.config.variables[key]?.defaultInfo, key).toEqual({ environment: [setting.env] });
      // A generated SDK would copy the environment's credentials into an explicit provider naming another account.
      expect(schema.provider.inputProperties[key]?.defaultInfo, key).toBeUndefined();
    }
  });

  it("carries a deprecated field's deprecationMessage, and the native classes' field table knows it", () => {
    for (const type of ["HttpNotificationTemplate", "EmailNotificationTemplate"] as const) {
      expect(schema.resources[`svc:index:${type}`]!.inputProperties.systemTemplateId?.deprecationMessage).toBe(SYSTEM_TEMPLATE_ID_DEPRECATION);
      expect(FIELD_TABLE[type].deprecated).toEqual({ systemTemplateId: SYSTEM_TEMPLATE_ID_DEPRECATION, connection: CONNECTION_DEPRECATION });
    }
    // `connection` gives way to `account` on every resource.
    for (const resource of Object.values(schema.resources)) {
      expect(resource.inputProperties.connection?.deprecationMessage).toBe(CONNECTION_DEPRECATION);
      expect(resource.inputProperties.account?.type).toBe("string");
    }
    expect(schema.resources["svc:index:HttpNotificationTemplate"]!.inputProperties.event?.deprecationMessage).toBeUndefined();
    // The generated Python SDK warns (pulumi.log.warn) when a program sets it: the warning of `pulumi preview`.
    const python = readFileSync(join(repoRoot, "sdk-gen", "python", "pulumi_svc", "http_notification_template.py"), "utf8");
    expect(python).toContain(`pulumi.log.warn("""system_template_id is deprecated: ${SYSTEM_TEMPLATE_ID_DEPRECATION}""")`);
  });

  it("has every function, with the token value a secret output and list results typed", () => {
    expect(Object.keys(schema.functions)).toEqual(FUNCTIONS.map((f) => `svc:index:${f.name}`));
    const getAppToken = schema.functions["svc:index:getAppToken"]!;
    expect(getAppToken.inputs.required).toEqual(["id"]);
    expect(getAppToken.outputs.properties.token).toMatchObject({ type: "string", secret: true });
    expect(getAppToken.outputs.properties.hashType?.$ref).toBe(ref("HashType"));
    const secretOutputs = Object.entries(schema.functions).flatMap(([token, f]) =>
      Object.entries(f.outputs.properties)
        .filter(([, p]) => p.secret)
        .map(([key]) => `${token}.${key}`),
    );
    expect(secretOutputs).toEqual(["svc:index:getAppToken.token"]);
    expect(schema.functions["svc:index:getAppTokens"]!.outputs.properties.tokens).toMatchObject({ type: "array", items: { $ref: ref("AppTokenSummary") } });
    expect(schema.functions["svc:index:getAppTokens"]!.inputs.properties.sessionType?.$ref).toBe(ref("SessionType"));
    expect(schema.functions["svc:index:getSystemTemplates"]!.outputs.properties.templates?.items?.$ref).toBe(ref("SystemTemplate"));
    expect(schema.functions["svc:index:getNotificationTemplate"]!.inputs.properties.kind?.$ref).toBe(ref("TemplateKind"));
  });
});

describe("a typo in an enum", () => {
  const server = new SvcProviderServer(DEFINITIONS, "0.0.0-test");
  it("fails the plugin's check (pulumi preview) with the allowed values", async () => {
    const request = new provproto.CheckRequest()
      .setUrn("urn:pulumi:dev::p::svc:index:AppToken::t")
      .setType("svc:index:AppToken")
      .setOlds(structproto.Struct.fromJavaScript({}))
      .setNews(structproto.Struct.fromJavaScript({ hashType: "SHA265", sessionType: "ADMN" }));
    const response = await new Promise<provproto.CheckResponse>((resolve, reject) =>
      server.check({ request }, (error, value) => (error ? reject(error) : resolve(value as provproto.CheckResponse))),
    );
    const failures = response.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "hashType", reason: expect.stringMatching(/^hashType: .*"SHA1"\|"SHA256"\|"SHA512"\|"MD5"/) },
        { property: "sessionType", reason: expect.stringMatching(/^sessionType: .*"USER"\|"ADMIN"/) },
      ]),
    );
  });
});
