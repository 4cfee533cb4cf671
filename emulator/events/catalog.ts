/**
 * The catalog of events and partner-0 system templates. Each system template matches one event; ids and
 * system names are stable across runs so tests and docs can name them. System templates are stored disabled
 * (status 1), as on the real platform, so a clone starts disabled until updateStatus(id, 2).
 */
import { EVENTS, type EventKey } from "../../contract/events";
import { EntryStatus, FlavorAssetStatus, HttpMethod, OBJECT_TYPES, SecureHashingAlgo, TemplateStatus, TemplateType } from "../../contract/platform";

export { EVENTS, EVENT_KEYS, isEventKey, type EventKey } from "../../contract/events";

/** The stored shape of a template (system or the account's own). */
export interface TemplateRecord {
  id: string;
  partnerId: number;
  name: string;
  systemName?: string;
  description?: string;
  type: string;
  status: number;
  eventType: string;
  eventObjectType: string;
  /** The catalog event this template reacts to. */
  event: EventKey;
  createdAt: number;
  updatedAt: number;
  objectType: string;
  url?: string;
  method?: number;
  signSecret?: string;
  secureHashingAlgo?: number;
  // email kind
  subject?: string;
  to?: string;
}

const CATALOG_TIME = 1_700_000_000;

function system(id: string, systemName: string, name: string, event: EventKey, kind: "http" | "email"): TemplateRecord {
  const e = EVENTS[event];
  return {
    id,
    partnerId: 0,
    name,
    systemName,
    description: `${e.description} (system template)`,
    type: kind === "http" ? TemplateType.HTTP : TemplateType.EMAIL,
    status: TemplateStatus.DISABLED,
    eventType: e.eventType,
    eventObjectType: e.eventObjectType,
    event,
    createdAt: CATALOG_TIME,
    updatedAt: CATALOG_TIME,
    objectType: kind === "http" ? OBJECT_TYPES.httpTemplate : OBJECT_TYPES.emailTemplate,
    ...(kind === "http" ? { method: HttpMethod.POST, secureHashingAlgo: SecureHashingAlgo.SHA256 } : { subject: `${name}`, to: "{admin_email}" }),
  };
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
];

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
