/**
 * getSystemTemplates: the platform's catalog of system templates (what HTTP and email templates are cloned from),
 * optionally only those of a kind, of a catalog event, or of a platform event type and object type.
 */
import { z } from "zod";
import { EVENT_KEYS, type EventKey } from "../../contract/events";
import { type EventNotificationTemplate, TemplateType } from "../../contract/platform";
import { plain } from "../core/diff";
import { ACCOUNT_ARGUMENT, defineFunction } from "./defineFunction";
import { ProviderError } from "../core/errors";
import { TemplateKind } from "./schemaTypes";
import { eventOf } from "./templateSelection";

const inputs = {
  kind: {
    schema: TemplateKind.optional(),
    typeName: "TemplateKind" as const,
    description: "Only system templates of this kind: HTTP or EMAIL. Left out: both.",
    example: "EMAIL",
  },
  event: {
    schema: z.enum(EVENT_KEYS).optional(),
    description: `Only those reacting to this catalog event (${EVENT_KEYS.join(", ")}).`,
    example: "entry.ready",
  },
  eventType: { schema: z.string().min(1).optional(), description: "Only those of this platform event type.", example: "3" },
  eventObjectType: { schema: z.string().min(1).optional(), description: "Only those of this platform object type.", example: "1" },
  account: ACCOUNT_ARGUMENT,
};

export type GetSystemTemplatesArgs = {
  kind?: TemplateKind;
  event?: EventKey;
  eventType?: string;
  eventObjectType?: string /** A named account of the provider (`accounts`); its own account when left out. */;
  account?: string;
};
/** A system template as getSystemTemplates lists it (the schema's SystemTemplate). */
export interface SystemTemplate {
  templateId: string;
  kind: TemplateKind;
  name: string;
  systemName?: string;
  event?: EventKey;
  eventType: string;
  eventObjectType: string;
}
export type GetSystemTemplatesResult = { templates: SystemTemplate[] };

export const getSystemTemplates = defineFunction<GetSystemTemplatesArgs, GetSystemTemplatesResult>({
  name: "getSystemTemplates",
  description:
    "Lists the platform's system templates (the catalog templates are cloned from), optionally only those of a kind, " +
    "of a catalog event, or of a platform event type and object type. Fails, naming the account and the filter, when none matches.",
  example: `const catalog = svc.getSystemTemplatesOutput({ kind: "EMAIL", event: "entry.ready" });
export const emailSystemNames = catalog.templates.apply((ts) => ts.map((t) => t.systemName));`,
  inputs,
  outputs: {
    templates: {
      type: "array",
      typeName: "SystemTemplate",
      description: "The system templates found.",
      example: [{ templateId: "1001", kind: "HTTP", name: "Entry ready", systemName: "HTTP_ENTRY_READY", event: "entry.ready" }],
    },
  },

  async invoke(ctx, args) {
    const { client, signal } = ctx;
    const listed: { kind: TemplateKind; template: EventNotificationTemplate }[] = [];
    if (args.kind !== "EMAIL") {
      const { objects } = await client.templates.listTemplates({ typeEqual: TemplateType.HTTP }, { pageSize: 500 }, { signal });
      listed.push(...objects.map((template) => ({ kind: "HTTP" as const, template })));
    }
    if (args.kind !== "HTTP") {
      const { objects } = await client.emailTemplates.listTemplates({}, { pageSize: 500 }, { signal });
      listed.push(...objects.map((template) => ({ kind: "EMAIL" as const, template: template as EventNotificationTemplate })));
    }
    const templates = listed
      .filter(
        ({ template: t }) =>
          (args.event === undefined || eventOf(t) === args.event) && matches(t.eventType, args.eventType) && matches(t.eventObjectType, args.eventObjectType),
      )
      .map(
        ({ kind, template: t }): SystemTemplate =>
          plain({
            templateId: t.id,
            kind,
            name: t.name,
            systemName: t.systemName,
            event: eventOf(t),
            eventType: t.eventType ?? "",
            eventObjectType: t.eventObjectType ?? "",
          }),
      );
    if (templates.length === 0) {
      const filter = Object.entries(args)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k} ${JSON.stringify(v)}`);
      throw new ProviderError(`getSystemTemplates: no system template matches ${filter.join(", ") || "(no filter)"} in ${ctx.accountName}`);
    }
    return { templates };
  },
});

const matches = (actual: string | undefined, wanted: string | undefined) => wanted === undefined || actual === wanted;
