/**
 * Friendly event names, matched against the system templates' eventType and eventObjectType. In a module of its own
 * without zod: the package's entry point re-exports it, and a program should not load zod (the provider process
 * validates, the program does not).
 */
export const TEMPLATE_EVENTS = {
  "entry.added": { eventType: "2", eventObjectType: "1" },
  "entry.updated": { eventType: "11", eventObjectType: "1" },
  "entry.deleted": { eventType: "7", eventObjectType: "1" },
  "entry.ready": { eventType: "12", eventObjectType: "1" },
  "entry.transcoding_complete": { eventType: "12", eventObjectType: "4" },
  "metadata.changed": { eventType: "6", eventObjectType: "7" },
  "category.user_added": { eventType: "5", eventObjectType: "12" },
} as const;
export type TemplateEvent = keyof typeof TEMPLATE_EVENTS;
