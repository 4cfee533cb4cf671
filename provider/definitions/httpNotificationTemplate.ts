/**
 * HttpNotificationTemplate: a webhook. Clone a system template (chosen by id, system name or event), then activate
 * it (templateFields.ts, templateOperations.ts, shared with the email kind). In-place fields update in place (update, updateStatus); a
 * different source template replaces, deleting first when the systemName must stay unique. A failed activation
 * removes the clone, or, if even that fails, records it as a partial failure.
 */
import { z } from "zod";
import type { SvcClient } from "../../sdk";
import { EVENTS, type EventKey } from "../../contract/events";
import { type EventNotificationTemplate, HttpMethod, SecureHashingAlgo, TemplateType, WebhookUrl } from "../../contract/platform";
import { plain } from "../core/diff";
import { unlessGone } from "../core/errors";
import { configSecret, defineResource, stateChecker, type CheckedInputsOf, type ProgramInputsOf } from "./define";
import { HttpMethodName, SecureHashingAlgoName } from "./schemaTypes";
import { TEMPLATE_ID, templateDisabled, type TemplateTexts, templateInputFields, templateOutputFields, templateState } from "./templateFields";
import { templateDefinition } from "./templateOperations";
import { nameOf } from "./templateSelection";

/** Friendly event names (the contract's catalog), matched against the system templates' eventType and eventObjectType. */
export const TEMPLATE_EVENTS = EVENTS;
export type TemplateEvent = EventKey;

const texts: TemplateTexts = {
  what: "template",
  kindName: "HTTP",
  disabledMeans: "",
  examples: {
    systemTemplateId: "1001",
    systemTemplateName: "HTTP_ENTRY_READY",
    name: "Entry ready -> publishing",
    systemName: "PUBLISHING_ENTRY_READY",
    description: "Tells publishing an entry is ready",
    eventType: "3",
  },
};

const inputs = templateInputFields(texts, {
  url: {
    schema: WebhookUrl,
    change: "inPlace",
    description: "Where deliveries are sent: https, or http to a loopback address for local testing.",
    example: "https://publishing.example.com/hooks/entry-ready",
  },
  method: { schema: HttpMethodName.default("POST"), typeName: "HttpMethod", change: "inPlace", description: "The HTTP method of deliveries.", example: "POST" },
  signSecret: {
    // Required on create (validate, below); absent only after `pulumi import`, which cannot read it back.
    schema: z.string().min(16, "expected a signing secret of at least 16 characters").optional(),
    requiredOnCreate: true,
    change: "inPlace",
    secret: true,
    description:
      "The signing secret of deliveries (X-SVC-SIGNATURE), at least 16 characters; a secret. Write-once on the platform: compared with the state, never read back.",
    example: "a-long-random-signing-secret",
  },
  secureHashingAlgo: {
    schema: SecureHashingAlgoName.default("SHA256"),
    typeName: "SecureHashingAlgo",
    change: "inPlace",
    description: "The hash of the delivery signature: SHA1, SHA256 or SHA512.",
    example: "SHA256",
  },
} as const);
const outputs = templateOutputFields(texts);

export type HttpNotificationTemplateInputs = CheckedInputsOf<typeof inputs>;
export type HttpNotificationTemplateProgramInputs = ProgramInputsOf<typeof inputs>;
/** The state: every input and output (the mapper below is checked against both tables). */
export type TemplateOutputs = ReturnType<typeof templateOutputs>;

/** The input-only fields the outputs carry through from the inputs. */
type CarriedInputs = Pick<
  HttpNotificationTemplateInputs,
  "systemTemplateId" | "systemTemplateName" | "event" | "signSecret" | "adoptId" | "connection" | "account"
>;

const checkedState = stateChecker(inputs, outputs);

/** Outputs: the server's record, with the write-once signSecret kept from the inputs (never read back). */
export function templateOutputs(template: EventNotificationTemplate, carried: Partial<CarriedInputs>, sourceTemplateId: string | undefined) {
  return checkedState(
    templateState(template, carried, sourceTemplateId, {
      url: template.url,
      method: nameOf(HttpMethod, template.method),
      signSecret: carried.signSecret,
      secureHashingAlgo: nameOf(SecureHashingAlgo, template.secureHashingAlgo),
    }),
  );
}

export const httpNotificationTemplate = defineResource<HttpNotificationTemplateInputs, TemplateOutputs>({
  type: "HttpNotificationTemplate",
  runtimeExport: "httpNotificationTemplate",
  description:
    "A webhook: an HTTP event notification template, cloned from a system template (chosen by id, system name or event) " +
    "with your url and signing secret, then activated. Updatable fields update in place; a different source template " +
    "replaces (deleting first when the systemName stays the same, as it must be unique). `signSecret` is a secret.",
  example: `const webhook = new svc.HttpNotificationTemplate("entry-ready", {
  event: "entry.ready",
  name: "Entry ready -> publishing",
  systemName: "PUBLISHING_ENTRY_READY",
  url: "https://publishing.example.com/hooks/entry-ready",
  signSecret: config.requireSecret("webhookSigningSecret"),
});`,
  program: {
    title: "A signed webhook when an entry is ready",
    name: "entry-ready",
    variable: "entryReady",
    inputs: {
      event: "entry.ready",
      name: "Entry ready -> publishing",
      url: "https://publishing.example.com/hooks/entry-ready",
      signSecret: configSecret("webhookSigningSecret"),
    },
    exports: ["templateId", "id"],
  },
  takeover: { id: TEMPLATE_ID, namePrefix: "webhook", noun: "webhook", isDisabled: templateDisabled },
  // What the clone sends (templateFields.ts, cloneFields); the systemName is unique in an account, but a hand-made
  // template may share it: every field must match.
  recovery: { creationFields: ["systemName", "name", "url", "method", "secureHashingAlgo", "description"], emptyAsUnset: ["systemName", "description"] },
  inputs,
  outputs,
  ...templateDefinition({
    texts,
    api: (client: SvcClient) => client.templates,
    listFilter: { typeEqual: TemplateType.HTTP },
    contentField: "url",
    finishing: "activating",
    cloneFields,
    // An update sends every field, as the clone does (the write-once secret included).
    updateFields: cloneFields,
    state: templateOutputs,
    get: (api, id, signal) => unlessGone(() => api.get(id, { signal })),
    refuseAdoption: (found, id) =>
      found.type === TemplateType.HTTP ? undefined : `adoptId: template ${id} is of type ${found.type}, expected ${TemplateType.HTTP}`,
    validate(checked, olds, failures) {
      // A new template needs its signing secret. Only an imported one (whose previous inputs, read from the server,
      // have none: the platform never returns it) may go without, until the program declares one.
      const creating = Object.keys(olds).length === 0;
      if (checked.signSecret === undefined && (creating || olds.signSecret !== undefined) && !failures.some((f) => f.reason.startsWith("signSecret"))) {
        failures.push({ property: "", reason: "signSecret: expected a signing secret of at least 16 characters (required)" });
      }
    },
  }),
});

function cloneFields(inputs: HttpNotificationTemplateInputs) {
  const { name, systemName, description, url, method, signSecret, secureHashingAlgo } = inputs;
  return plain({ name, systemName, description, url, method: HttpMethod[method], signSecret, secureHashingAlgo: SecureHashingAlgo[secureHashingAlgo] });
}
