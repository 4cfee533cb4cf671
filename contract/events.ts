/**
 * The catalog of platform events, defined once: each friendly key names the (eventType, eventObjectType) pair a
 * system template reacts to and the object a notification carries. The provider's `event` input, the emulator's
 * system templates and its `trigger` command all read this table.
 */
import { EventObjectType, EventType } from "./platform";

export interface CatalogEvent {
  eventType: string;
  eventObjectType: string;
  /** objectType of the object the notification carries. */
  objectType: string;
  description: string;
}

export const EVENTS = {
  "entry.added": { eventType: EventType.OBJECT_ADDED, eventObjectType: EventObjectType.ENTRY, objectType: "SvcMediaEntry", description: "An entry was added" },
  "entry.transcoding_complete": {
    eventType: EventType.OBJECT_STATUS_REACHED,
    eventObjectType: EventObjectType.FLAVOR_ASSET,
    objectType: "SvcFlavorAsset",
    description: "A flavor finished transcoding",
  },
  "entry.updated": {
    eventType: EventType.OBJECT_UPDATED,
    eventObjectType: EventObjectType.ENTRY,
    objectType: "SvcMediaEntry",
    description: "An entry was updated",
  },
  "entry.deleted": {
    eventType: EventType.OBJECT_DELETED,
    eventObjectType: EventObjectType.ENTRY,
    objectType: "SvcMediaEntry",
    description: "An entry was deleted",
  },
  "entry.ready": {
    eventType: EventType.OBJECT_STATUS_REACHED,
    eventObjectType: EventObjectType.ENTRY,
    objectType: "SvcMediaEntry",
    description: "An entry reached status READY",
  },
  "metadata.changed": {
    eventType: EventType.OBJECT_DATA_CHANGED,
    eventObjectType: EventObjectType.METADATA,
    objectType: "SvcMetadata",
    description: "Custom metadata of an object changed",
  },
  "category.user_added": {
    eventType: EventType.OBJECT_CREATED,
    eventObjectType: EventObjectType.CATEGORY_USER,
    objectType: "SvcCategoryUser",
    description: "A user was added to a category",
  },
} as const satisfies Record<string, CatalogEvent>;

export type EventKey = keyof typeof EVENTS;
export const EVENT_KEYS = Object.keys(EVENTS) as [EventKey, ...EventKey[]];

export function isEventKey(key: string): key is EventKey {
  return Object.hasOwn(EVENTS, key);
}

/** True when a template (by its eventType and eventObjectType) reacts to the event. */
export function templateMatchesEvent(template: { eventType?: string; eventObjectType?: string }, event: EventKey): boolean {
  const e = EVENTS[event];
  return template.eventType === e.eventType && template.eventObjectType === e.eventObjectType;
}
