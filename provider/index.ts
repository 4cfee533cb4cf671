/** pulumi-svc: Pulumi resources for the video platform. */
import type { EVENTS } from "../contract/events";

// The dynamic resource classes and their Args, generated from the definitions (provider/generated/resources.ts).
export * from "./generated/resources";
export type { TemplateEvent } from "./definitions/httpNotificationTemplate";

/**
 * The event catalog the `event` input takes (friendly name -> eventType, eventObjectType). Loaded on first use: its
 * module brings zod, which a program needs for nothing else (check runs in the provider process), and loading it
 * cost every `pulumi up` and `preview` about 90 ms (docs/bench.md).
 */
export declare const TEMPLATE_EVENTS: typeof EVENTS;
Object.defineProperty(exports, "TEMPLATE_EVENTS", {
  enumerable: true,
  get: () => (require("../contract/events") as typeof import("../contract/events")).EVENTS,
});
