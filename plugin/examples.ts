/**
 * The examples of each resource in every language, the one source of the `{{% example %}}` blocks in the schema's
 * resource descriptions (which Pulumi's registry renders, and each SDK generator keeps its own language of, in its
 * doc comments). Each is a whole program: test/release/ type-checks the TypeScript ones, compiles the Go ones,
 * runs the Python ones with Pulumi's mocks and previews the YAML ones, against the release's SDKs.
 */
import type { ResourceType } from "../provider/resources/fieldTable";

export interface ResourceExample {
  title: string;
  typescript: string;
  python: string;
  go: string;
  yaml: string;
}

const goProgram = (imports: string[], body: string): string =>
  [
    "package main",
    "",
    "import (",
    ...imports.map((i) => `\t"${i}"`),
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    body,
    "\t})",
    "}",
  ].join("\n");

export const EXAMPLES: Record<ResourceType, ResourceExample> = {
  AppToken: {
    title: "An app token for a deployment pipeline",
    typescript: `import * as svc from "pulumi-svc/native";

const pipeline = new svc.AppToken("pipeline", {
  description: "Deployment pipeline",
  hashType: "SHA256",
  sessionPrivileges: "list:*",
});

export const pipelineToken = pipeline.token;`,
    python: `import pulumi
import pulumi_svc as svc

pipeline = svc.AppToken("pipeline",
    description="Deployment pipeline",
    hash_type="SHA256",
    session_privileges="list:*")

pulumi.export("pipelineToken", pipeline.token)`,
    go: goProgram(
      ["github.com/pulumi-svc/pulumi-svc/sdk/go/svc", "github.com/pulumi/pulumi/sdk/v3/go/pulumi"],
      `\t\tpipeline, err := svc.NewAppToken(ctx, "pipeline", &svc.AppTokenArgs{
\t\t\tDescription:       pulumi.String("Deployment pipeline"),
\t\t\tHashType:          svc.HashTypeSHA256,
\t\t\tSessionPrivileges: pulumi.String("list:*"),
\t\t})
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tctx.Export("pipelineToken", pipeline.Token)
\t\treturn nil`,
    ),
    yaml: `resources:
  pipeline:
    type: svc:index:AppToken
    properties:
      description: Deployment pipeline
      hashType: SHA256
      sessionPrivileges: list:*
outputs:
  pipelineToken: \${pipeline.token}`,
  },
  HttpNotificationTemplate: {
    title: "A signed webhook when an entry is ready",
    typescript: `import * as pulumi from "@pulumi/pulumi";
import * as svc from "pulumi-svc/native";

const config = new pulumi.Config();
const entryReady = new svc.HttpNotificationTemplate("entry-ready", {
  event: "entry.ready",
  name: "Entry ready -> publishing",
  url: "https://publishing.example.com/hooks/entry-ready",
  signSecret: config.requireSecret("webhookSigningSecret"),
});

export const templateId = entryReady.id;`,
    python: `import pulumi
import pulumi_svc as svc

config = pulumi.Config()
entry_ready = svc.HttpNotificationTemplate("entry-ready",
    event="entry.ready",
    name="Entry ready -> publishing",
    url="https://publishing.example.com/hooks/entry-ready",
    sign_secret=config.require_secret("webhookSigningSecret"))

pulumi.export("templateId", entry_ready.id)`,
    go: goProgram(
      ["github.com/pulumi-svc/pulumi-svc/sdk/go/svc", "github.com/pulumi/pulumi/sdk/v3/go/pulumi", "github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"],
      `\t\tconf := config.New(ctx, "")
\t\tentryReady, err := svc.NewHttpNotificationTemplate(ctx, "entry-ready", &svc.HttpNotificationTemplateArgs{
\t\t\tEvent:      pulumi.String("entry.ready"),
\t\t\tName:       pulumi.String("Entry ready -> publishing"),
\t\t\tUrl:        pulumi.String("https://publishing.example.com/hooks/entry-ready"),
\t\t\tSignSecret: conf.RequireSecret("webhookSigningSecret"),
\t\t})
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tctx.Export("templateId", entryReady.ID())
\t\treturn nil`,
    ),
    yaml: `config:
  webhookSigningSecret:
    type: string
    secret: true
resources:
  entry-ready:
    type: svc:index:HttpNotificationTemplate
    properties:
      event: entry.ready
      name: Entry ready -> publishing
      url: https://publishing.example.com/hooks/entry-ready
      signSecret: \${webhookSigningSecret}
outputs:
  templateId: \${entry-ready.id}`,
  },
  EmailNotificationTemplate: {
    title: "An email to the editors when an entry is ready",
    typescript: `import * as svc from "pulumi-svc/native";

const editors = new svc.EmailNotificationTemplate("editors-entry-ready", {
  event: "entry.ready",
  name: "Tell editors when an entry is ready",
  subject: "Ready: {entry_name}",
  body: "Entry {entry_name} ({entry_id}) is ready.",
  fromEmail: "video@example.com",
  to: [{ email: "editors@example.com", name: "Editors" }],
});

export const templateId = editors.id;`,
    python: `import pulumi
import pulumi_svc as svc

editors = svc.EmailNotificationTemplate("editors-entry-ready",
    event="entry.ready",
    name="Tell editors when an entry is ready",
    subject="Ready: {entry_name}",
    body="Entry {entry_name} ({entry_id}) is ready.",
    from_email="video@example.com",
    to=[{"email": "editors@example.com", "name": "Editors"}])

pulumi.export("templateId", editors.id)`,
    go: goProgram(
      ["github.com/pulumi-svc/pulumi-svc/sdk/go/svc", "github.com/pulumi/pulumi/sdk/v3/go/pulumi"],
      `\t\teditors, err := svc.NewEmailNotificationTemplate(ctx, "editors-entry-ready", &svc.EmailNotificationTemplateArgs{
\t\t\tEvent:     pulumi.String("entry.ready"),
\t\t\tName:      pulumi.String("Tell editors when an entry is ready"),
\t\t\tSubject:   pulumi.String("Ready: {entry_name}"),
\t\t\tBody:      pulumi.String("Entry {entry_name} ({entry_id}) is ready."),
\t\t\tFromEmail: pulumi.String("video@example.com"),
\t\t\tTo: svc.EmailRecipientArray{
\t\t\t\tsvc.EmailRecipientArgs{Email: pulumi.String("editors@example.com"), Name: pulumi.String("Editors")},
\t\t\t},
\t\t})
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tctx.Export("templateId", editors.ID())
\t\treturn nil`,
    ),
    yaml: `resources:
  editors-entry-ready:
    type: svc:index:EmailNotificationTemplate
    properties:
      event: entry.ready
      name: Tell editors when an entry is ready
      subject: "Ready: {entry_name}"
      body: Entry {entry_name} ({entry_id}) is ready.
      fromEmail: video@example.com
      to:
        - email: editors@example.com
          name: Editors
outputs:
  templateId: \${editors-entry-ready.id}`,
  },
};

/**
 * The `{{% examples %}}` block of a resource's description: its example in every language (a resource with none
 * here yet: its definition's TypeScript example alone).
 */
export function examplesBlock(type: string, typescriptExample: string): string {
  const example = (EXAMPLES as Record<string, ResourceExample>)[type];
  if (!example) return `## Example Usage\n\n\`\`\`typescript\n${typescriptExample}\n\`\`\``;
  return [
    "{{% examples %}}",
    "## Example Usage",
    "",
    "{{% example %}}",
    `### ${example.title}`,
    "",
    ...(["typescript", "python", "go", "yaml"] as const).flatMap((language) => [`\`\`\`${language}`, example[language], "```", ""]),
    "{{% /example %}}",
    "{{% /examples %}}",
  ].join("\n");
}
