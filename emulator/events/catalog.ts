/**
 * The catalog of events and partner-0 system templates. Each system template matches one event; ids and
 * system names are stable across runs so tests and docs can name them. System templates are stored disabled
 * (status 1), as on the real platform, so a clone starts disabled until updateStatus(id, 2).
 */
import { z } from "zod";
import { EmailFormat, EmailPriority, EmailTemplateRecord } from "../../contract/emailTemplates";
import { EVENT_KEYS, EVENTS, type EventKey } from "../../contract/events";
import {
  EntryStatus,
  FlavorAssetStatus,
  HttpMethod,
  HttpTemplateRecord,
  OBJECT_TYPES,
  SecureHashingAlgo,
  TemplateStatus,
  TemplateType,
} from "../../contract/platform";

export { EVENTS, EVENT_KEYS, isEventKey, type EventKey } from "../../contract/events";

/**
 * The stored shape of a template (system or the account's own), derived from the contract's record schemas: the
 * fields both kinds have, each kind's own fields (optional here: a record holds one kind's), and the catalog event
 * it reacts to. A field is written once, in the contract.
 */
export const TemplateRecord = z.object({
  ...HttpTemplateRecord.shape,
  ...EmailTemplateRecord.partial().shape,
  ...pick(HttpTemplateRecord.shape, ["id", "partnerId", "name", "status", "eventType", "eventObjectType", "createdAt", "updatedAt"]),
  type: z.enum([TemplateType.HTTP, TemplateType.EMAIL]),
  objectType: z.enum([OBJECT_TYPES.httpTemplate, OBJECT_TYPES.emailTemplate]),
  /** The catalog event this template reacts to. */
  event: z.enum(EVENT_KEYS),
});
export type TemplateRecord = z.output<typeof TemplateRecord>;

function pick<S extends Record<string, z.ZodType>, K extends keyof S>(shape: S, keys: readonly K[]): Pick<S, K> {
  return Object.fromEntries(keys.map((k) => [k, shape[k]])) as Pick<S, K>;
}

/** System email templates send from this address until a clone sets its own. */
export const SYSTEM_FROM = { email: "notifications@svc-emulator.localhost", name: "Svc platform" } as const;

const CATALOG_TIME = 1_700_000_000;

function system(id: string, systemName: string, name: string, event: EventKey, kind: "http" | "email"): TemplateRecord {
  const e = EVENTS[event];
  const base = {
    id,
    partnerId: 0,
    name,
    systemName,
    description: `${e.description} (system template)`,
    status: TemplateStatus.DISABLED,
    eventType: e.eventType,
    eventObjectType: e.eventObjectType,
    event,
    createdAt: CATALOG_TIME,
    updatedAt: CATALOG_TIME,
  };
  if (kind === "http") {
    return { ...base, type: TemplateType.HTTP, objectType: OBJECT_TYPES.httpTemplate, method: HttpMethod.POST, secureHashingAlgo: SecureHashingAlgo.SHA256 };
  }
  // An email system template has everything but recipients: a clone names who is told (`to` is required there).
  return {
    ...base,
    type: TemplateType.EMAIL,
    objectType: OBJECT_TYPES.emailTemplate,
    format: EmailFormat.TEXT,
    fromEmail: SYSTEM_FROM.email,
    fromName: SYSTEM_FROM.name,
    priority: EmailPriority.NORMAL,
    ...systemEmailContent(e.description, e.objectType),
  };
}

/** Subject, body and content parameters of a system email template, by the kind of object its event carries. */
function systemEmailContent(what: string, objectType: string): Pick<TemplateRecord, "subject" | "body" | "contentParameters"> {
  switch (objectType) {
    case "SvcMediaEntry":
      return {
        subject: `${what}: {entry_name}`,
        body: `${what}.\n\nEntry: {entry_name} ({entry_id})\nAccount: {partner_id}`,
        contentParameters: [
          { key: "entry_id", description: "Entry id", value: "{entry.id}" },
          { key: "entry_name", description: "Entry name", value: "{entry.name}" },
          { key: "partner_id", description: "Account id", value: "{entry.partnerId}" },
        ],
      };
    case "SvcCategoryUser":
      return {
        subject: `${what}: {user_id}`,
        body: `${what}.\n\nUser: {user_id}\nCategory: {category_id}`,
        contentParameters: [
          { key: "user_id", description: "User id", value: "{object.userId}" },
          { key: "category_id", description: "Category id", value: "{object.categoryId}" },
        ],
      };
    default:
      return {
        subject: `${what}: {object_id}`,
        body: `${what}.\n\nObject: {object_id}\nEntry: {entry_id}`,
        contentParameters: [
          { key: "object_id", description: "Id of the event's object", value: "{object.id}" },
          { key: "entry_id", description: "Entry the object belongs to", value: "{object.entryId}{object.objectId}" },
        ],
      };
  }
}

export const SYSTEM_TEMPLATES: readonly TemplateRecord[] = [
  system("101", "HTTP_ENTRY_ADDED", "Entry Added (HTTP)", "entry.added", "http"),
  system("102", "HTTP_ENTRY_TRANSCODING_COMPLETE", "Transcoding Complete (HTTP)", "entry.transcoding_complete", "http"),
  system("103", "HTTP_ENTRY_UPDATED", "Entry Updated (HTTP)", "entry.updated", "http"),
  system("104", "HTTP_ENTRY_DELETED", "Entry Deleted (HTTP)", "entry.deleted", "http"),
  system("105", "HTTP_ENTRY_STATUS_READY", "Entry Ready (HTTP)", "entry.ready", "http"),
  system("106", "HTTP_METADATA_CHANGED", "Metadata Changed (HTTP)", "metadata.changed", "http"),
  system("107", "HTTP_USER_ADDED_TO_CATEGORY", "User Added To Category (HTTP)", "category.user_added", "http"),
  system("201", "EMAIL_ENTRY_ADDED", "Entry Added (Email)", "entry.added", "email"),
  system("202", "EMAIL_ENTRY_READY", "Entry Ready (Email)", "entry.ready", "email"),
  system("203", "EMAIL_ENTRY_DELETED", "Entry Deleted (Email)", "entry.deleted", "email"),
  system("204", "EMAIL_USER_ADDED_TO_CATEGORY", "User Added To Category (Email)", "category.user_added", "email"),
  system("205", "EMAIL_ENTRY_TRANSCODING_COMPLETE", "Transcoding Complete (Email)", "entry.transcoding_complete", "email"),
  system("206", "EMAIL_ENTRY_UPDATED", "Entry Updated (Email)", "entry.updated", "email"),
  system("207", "EMAIL_METADATA_CHANGED", "Metadata Changed (Email)", "metadata.changed", "email"),
].map((t) => TemplateRecord.parse(t));

/** Sample objects for `trigger` when the caller gives none. */
export function sampleObject(event: EventKey, partnerId: number, nowSec: number): Record<string, unknown> {
  const e = EVENTS[event];
  const entryId = "0_sample01";
  switch (e.objectType) {
    case "SvcMediaEntry":
      return {
        id: entryId,
        partnerId,
        name: "Sample entry",
        status: event === "entry.deleted" ? EntryStatus.DELETED : EntryStatus.READY,
        mediaType: 1,
        createdAt: nowSec,
        updatedAt: nowSec,
        objectType: e.objectType,
      };
    case "SvcFlavorAsset":
      return {
        id: "0_flavor01",
        entryId,
        partnerId,
        status: FlavorAssetStatus.READY,
        flavorParamsId: 0,
        createdAt: nowSec,
        updatedAt: nowSec,
        objectType: e.objectType,
      };
    case "SvcMetadata":
      return {
        id: 1,
        partnerId,
        objectId: entryId,
        metadataObjectType: 1,
        version: 1,
        xml: "<metadata/>",
        createdAt: nowSec,
        updatedAt: nowSec,
        objectType: e.objectType,
      };
    default:
      return { categoryId: 1, userId: "sample-user", partnerId, status: 1, createdAt: nowSec, updatedAt: nowSec, objectType: e.objectType };
  }
}
