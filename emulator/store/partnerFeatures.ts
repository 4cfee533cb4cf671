/**
 * Per-account plugin permissions. The spec's prerequisite for templates is "the event notification plugin
 * permission is enabled on the account"; the real service checks it when a call reaches the service and answers
 * FEATURE_FORBIDDEN (args FEATURE) without it. Every account here has it unless switched off through the control
 * API (`POST /_emulator/partners/:id/features`); the flag is stored beside the account, so it survives restarts.
 */
import { EVENT_NOTIFICATION_PLUGIN } from "../../contract/platform";
import { ApiError } from "../shared/errors";
import type { Store } from "./store";

export const PARTNER_FEATURES = [EVENT_NOTIFICATION_PLUGIN] as const;
export type PartnerFeature = (typeof PARTNER_FEATURES)[number];

const key = (partnerId: number, feature: PartnerFeature) => `partner:${partnerId}:feature:${feature}`;

export function hasFeature(store: Store, partnerId: number, feature: PartnerFeature): boolean {
  return store.getMeta(key(partnerId, feature)) !== "off";
}

export function setFeature(store: Store, partnerId: number, feature: PartnerFeature, enabled: boolean): void {
  store.setMeta(key(partnerId, feature), enabled ? "on" : "off");
}

export function featuresOf(store: Store, partnerId: number): Record<PartnerFeature, boolean> {
  return Object.fromEntries(PARTNER_FEATURES.map((f) => [f, hasFeature(store, partnerId, f)])) as Record<PartnerFeature, boolean>;
}

export function requireFeature(store: Store, partnerId: number, feature: PartnerFeature): void {
  if (!hasFeature(store, partnerId, feature)) {
    throw new ApiError("FEATURE_FORBIDDEN", `The usage of feature [${feature}] is forbidden`, { FEATURE: feature });
  }
}
