/**
 * The api_v3 wire contract, defined once: constants and zod schemas shared by the sdk (to parse responses)
 * and the emulator (to parse requests and shape responses). Only the contract lives here; encoding,
 * sessions, signatures and delivery are written separately on each side so a bug on one side shows
 * against the other.
 *
 * Response schemas are loose (unknown fields pass through, as the real service adds fields over time);
 * fields the platform omits when null are optional.
 */
import { z } from "zod";
import { HASH_TYPES } from "./hashTypes";
import { NOT_FOUND_CODES } from "./notFound";
import { isAllowedWebhookUrl, WEBHOOK_URL_EXPECTATION } from "./webhookUrl";

export { isNotFound, NOT_FOUND_CODES } from "./notFound";

// ---- enums -------------------------------------------------------------------------------------

export const SessionType = { USER: 0, ADMIN: 2 } as const;
export type SessionType = (typeof SessionType)[keyof typeof SessionType];
export const SessionTypeValue = z.union([z.literal(0), z.literal(2)]);

export const HashType = z.enum(HASH_TYPES);
export type HashType = z.infer<typeof HashType>;
/** The node:crypto algorithm of each hash type (an app token's tokenHash is computed with it). */
export const HASH_TYPE_ALGORITHM: Record<HashType, string> = { MD5: "md5", SHA1: "sha1", SHA256: "sha256", SHA512: "sha512" };
/** Hex length of a token of each hash type (the spec: 64 for SHA256). */
export const TOKEN_HEX_LENGTH: Record<HashType, number> = { MD5: 32, SHA1: 40, SHA256: 64, SHA512: 128 };

export const AppTokenStatus = { DISABLED: 1, ACTIVE: 2, DELETED: 3 } as const;
export type AppTokenStatus = (typeof AppTokenStatus)[keyof typeof AppTokenStatus];

export const TemplateStatus = { DISABLED: 1, ACTIVE: 2, DELETED: 3 } as const;
export type TemplateStatus = (typeof TemplateStatus)[keyof typeof TemplateStatus];

/** Media entry statuses the emulator uses (the real enum has more). */
export const EntryStatus = { READY: 2, DELETED: 3 } as const;
/** Flavor asset status READY. */
export const FlavorAssetStatus = { READY: 2 } as const;

export const HttpMethod = { GET: 1, POST: 2, PUT: 3, DELETE: 4 } as const;
export type HttpMethodName = keyof typeof HttpMethod;

export const SecureHashingAlgo = { SHA1: 1, SHA256: 2, SHA512: 3 } as const;
export type SecureHashingAlgoName = keyof typeof SecureHashingAlgo;

export const TemplateType = { HTTP: "httpNotification.Http", EMAIL: "emailNotification.Email" } as const;

/** Event types (string enums on the wire). */
export const EventType = {
  OBJECT_ADDED: "2",
  OBJECT_CHANGED: "3",
  OBJECT_CREATED: "5",
  OBJECT_DATA_CHANGED: "6",
  OBJECT_DELETED: "7",
  OBJECT_READY_FOR_REPLACMENT: "8",
  OBJECT_UPDATED: "11",
  OBJECT_STATUS_REACHED: "12",
} as const;

/** Event object types (string enums on the wire). */
export const EventObjectType = { ENTRY: "1", CATEGORY: "2", METADATA: "7", CATEGORY_USER: "12", FLAVOR_ASSET: "4" } as const;

export const OBJECT_TYPES = {
  appToken: "SvcAppToken",
  appTokenList: "SvcAppTokenListResponse",
  httpTemplate: "SvcHttpNotificationTemplate",
  emailTemplate: "SvcEmailNotificationTemplate",
  templateList: "SvcEventNotificationTemplateListResponse",
  templateFilter: "SvcEventNotificationTemplateFilter",
  /** Filter types of one kind of template: listing with them narrows the list to that kind. */
  httpTemplateFilter: "SvcHttpNotificationTemplateFilter",
  emailTemplateFilter: "SvcEmailNotificationTemplateFilter",
  appTokenFilter: "SvcAppTokenFilter",
  pager: "SvcFilterPager",
  exception: "SvcAPIException",
  notification: "SvcHttpNotification",
  sessionInfo: "SvcSessionInfo",
  widgetSession: "SvcStartWidgetSessionResponse",
  mediaEntry: "SvcMediaEntry",
} as const;

export const PAGER = { defaultPageSize: 30, maxPageSize: 500, firstPageIndex: 1 } as const;

// ---- errors ------------------------------------------------------------------------------------

/** Error codes used by the services we model (see docs/design.md for the args each carries). */
export const ErrorCode = z.enum([
  "MISSING_KS",
  "INVALID_KS",
  "SERVICE_FORBIDDEN",
  "START_SESSION_ERROR",
  "MISSING_MANDATORY_PARAMETER",
  "INVALID_ENUM_VALUE",
  "PROPERTY_VALIDATION_NOT_UPDATABLE",
  "PROPERTY_VALIDATION_MIN_LENGTH",
  "PROPERTY_VALIDATION_CANNOT_BE_NULL",
  "INVALID_FIELD_VALUE",
  "APP_TOKEN_ID_NOT_FOUND",
  "APP_TOKEN_NOT_ACTIVE",
  "INVALID_APP_TOKEN_HASH",
  "APP_TOKEN_EXPIRED",
  "EVENT_NOTIFICATION_TEMPLATE_NOT_FOUND",
  "EVENT_NOTIFICATION_TEMPLATE_DUPLICATE_SYSTEM_NAME",
  "EVENT_NOTIFICATION_WRONG_TYPE",
  "SERVICE_DOES_NOT_EXISTS",
  "ACTION_DOES_NOT_EXISTS",
  "INTERNAL_SERVER_ERROR",
  "INVALID_WIDGET_ID",
  "ENTRY_ID_NOT_FOUND",
  "INVALID_OBJECT_TYPE",
  "FEATURE_FORBIDDEN",
]);
export type ErrorCode = z.infer<typeof ErrorCode>;
/** The not-found codes (notFound.ts) are error codes of the contract. */
NOT_FOUND_CODES satisfies readonly ErrorCode[];

/** The plugin a partner needs for the event notification services (FEATURE_FORBIDDEN without it). */
export const EVENT_NOTIFICATION_PLUGIN = "eventNotification";

/** The error object the platform answers with (HTTP 200). `args` is `[]` when empty. */
export const ApiErrorBody = z.looseObject({
  code: z.string(),
  message: z.string(),
  objectType: z.literal(OBJECT_TYPES.exception),
  args: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** A list response: `{objects, totalCount, objectType}`. */
const listResponse = <T extends z.ZodType, O extends string>(item: T, objectType: O) =>
  z.looseObject({ objects: z.array(item), totalCount: z.number().int(), objectType: z.literal(objectType) });

// ---- app tokens --------------------------------------------------------------------------------

export const AppToken = z.looseObject({
  id: z.string(),
  /** Only present on add and for the account admin on get/list. */
  token: z.string().optional(),
  partnerId: z.number().int(),
  status: z.number().int(),
  sessionType: SessionTypeValue,
  sessionDuration: z.number().int(),
  sessionPrivileges: z.string().optional(),
  sessionUserId: z.string().optional(),
  hashType: HashType,
  description: z.string().optional(),
  expiry: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  objectType: z.literal(OBJECT_TYPES.appToken),
});
export type AppToken = z.infer<typeof AppToken>;

export const AppTokenListResponse = listResponse(AppToken, OBJECT_TYPES.appTokenList);
export type AppTokenListResponse = z.infer<typeof AppTokenListResponse>;

/** Fields accepted by appToken.add (`appToken[...]`). */
export const AppTokenAddFields = z.object({
  hashType: HashType.optional(),
  sessionType: z.coerce.number().pipe(SessionTypeValue).optional(),
  sessionDuration: z.coerce.number().int().min(0).optional(),
  sessionPrivileges: z.string().optional(),
  sessionUserId: z.string().optional(),
  description: z.string().optional(),
  expiry: z.coerce.number().int().min(0).optional(),
});
export type AppTokenAddFields = z.input<typeof AppTokenAddFields>;

/** Fields appToken.update accepts; anything else present in the request is not updatable. */
export const APP_TOKEN_UPDATABLE = ["description", "sessionDuration", "sessionPrivileges", "sessionUserId"] as const;
export const AppTokenUpdateFields = AppTokenAddFields.pick({
  description: true,
  sessionDuration: true,
  sessionPrivileges: true,
  sessionUserId: true,
});
export type AppTokenUpdateFields = z.input<typeof AppTokenUpdateFields>;

export const AppTokenFilter = z.object({
  statusEqual: z.coerce.number().int().optional(),
  hashTypeEqual: HashType.optional(),
  sessionTypeEqual: z.coerce.number().int().optional(),
  idEqual: z.string().optional(),
});
export type AppTokenFilter = z.input<typeof AppTokenFilter>;

export const Pager = z.object({
  pageSize: z.coerce.number().int().min(1).max(PAGER.maxPageSize).optional(),
  pageIndex: z.coerce.number().int().min(1).optional(),
});
export type Pager = z.input<typeof Pager>;

// ---- sessions ----------------------------------------------------------------------------------

/** session.start's parameters. */
export const StartSessionParams = z.object({
  secret: z.string().min(1, "must be a non-empty string"),
  partnerId: z.number().int().positive(),
  type: SessionTypeValue,
  userId: z.string().optional(),
  /** Seconds of validity (the platform's default is 86400). */
  expiry: z.number().int().positive().optional(),
  privileges: z.string().optional(),
});
export type StartSessionParams = z.input<typeof StartSessionParams>;

/** appToken.startSession's parameters; the ks sent with it is the one `tokenHash` was computed with. */
export const StartAppTokenSessionParams = z.object({
  id: z.string().min(1, "must be a non-empty string"),
  tokenHash: z.string().regex(/^[0-9a-f]+$/, "must be lower-case hex"),
  userId: z.string().optional(),
  type: SessionTypeValue.optional(),
  expiry: z.number().int().min(0).optional(),
  sessionPrivileges: z.string().optional(),
});
export type StartAppTokenSessionParams = z.input<typeof StartAppTokenSessionParams>;

/** session.start and appToken.startSession answer with a JSON string: the ks. */
export const SessionString = z.string().min(1);

/** appToken.startSession's response object (the real service returns SvcSessionInfo-like data). */
export const AppTokenSession = z.looseObject({
  ks: z.string().min(1),
  sessionType: SessionTypeValue.optional(),
  partnerId: z.number().int().optional(),
  userId: z.string().optional(),
  expiry: z.number().int().optional(),
  privileges: z.string().optional(),
  objectType: z.string().optional(),
});
export type AppTokenSession = z.infer<typeof AppTokenSession>;

// ---- event notification templates -------------------------------------------------------------

/** Fields every template has (both kinds), as stored and answered. */
export const templateBaseShape = {
  id: z.string(),
  partnerId: z.number().int(),
  name: z.string(),
  systemName: z.string().optional(),
  description: z.string().optional(),
  type: z.string(),
  status: z.number().int(),
  eventType: z.string().optional(),
  eventObjectType: z.string().optional(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  objectType: z.string(),
};

/** The HTTP kind's own fields. */
export const httpFieldsShape = {
  url: z.string().optional(),
  method: z.number().int().optional(),
  signSecret: z.string().optional(),
  secureHashingAlgo: z.number().int().optional(),
};

/** An HTTP template as stored (the emulator's record is this plus its catalog event). */
export const HttpTemplateRecord = z.object({
  ...templateBaseShape,
  type: z.literal(TemplateType.HTTP),
  objectType: z.literal(OBJECT_TYPES.httpTemplate),
  eventType: z.string(),
  eventObjectType: z.string(),
  ...httpFieldsShape,
});
export type HttpTemplateRecord = z.output<typeof HttpTemplateRecord>;

/** A template of either kind as the sdk reads it; the HTTP fields are typed, the email ones pass through (see emailTemplates.ts). */
export const EventNotificationTemplate = z.looseObject({ ...templateBaseShape, ...httpFieldsShape });
export type EventNotificationTemplate = z.infer<typeof EventNotificationTemplate>;

export const EventNotificationTemplateListResponse = listResponse(EventNotificationTemplate, OBJECT_TYPES.templateList);
export type EventNotificationTemplateListResponse = z.infer<typeof EventNotificationTemplateListResponse>;

/** Fields accepted by clone (`eventNotificationTemplate[...]`, objectType SvcHttpNotificationTemplate). */
/** The spec's HTTPS endpoint; plain http only on loopback (see webhookUrl.ts). */
export const WebhookUrl = z.string().refine(isAllowedWebhookUrl, { message: `expected ${WEBHOOK_URL_EXPECTATION}` });

export const HttpTemplateCloneFields = z.object({
  name: z.string(),
  systemName: z.string().optional(),
  description: z.string().optional(),
  url: WebhookUrl,
  method: z.coerce.number().int().optional(),
  signSecret: z.string().optional(),
  secureHashingAlgo: z.coerce.number().int().optional(),
});
export type HttpTemplateCloneFields = z.input<typeof HttpTemplateCloneFields>;

/** Fields accepted by update: every clone field may be changed in place. */
export const HttpTemplateUpdateFields = HttpTemplateCloneFields.partial();
export type HttpTemplateUpdateFields = z.input<typeof HttpTemplateUpdateFields>;

export const TemplateFilter = z.object({
  typeEqual: z.string().optional(),
  statusEqual: z.coerce.number().int().optional(),
  idEqual: z.string().optional(),
  systemNameEqual: z.string().optional(),
});
export type TemplateFilter = z.input<typeof TemplateFilter>;

// ---- webhook deliveries ------------------------------------------------------------------------

/** The body POSTed to a template's url when its event fires. */
export const Notification = z.looseObject({
  object: z.record(z.string(), z.unknown()),
  eventType: z.string(),
  eventObjectType: z.string(),
  eventNotificationJobId: z.number().int(),
  templateId: z.string(),
  templateName: z.string(),
  templateSystemName: z.string().optional(),
  partnerId: z.number().int().optional(),
  objectType: z.literal(OBJECT_TYPES.notification),
});
export type Notification = z.infer<typeof Notification>;

/** session.startWidgetSession's response (SvcStartWidgetSessionResponse on the real service). */
export const WidgetSession = z.looseObject({
  ks: z.string().min(1),
  partnerId: z.number().int().optional(),
  userId: z.string().optional(),
  objectType: z.string().optional(),
});
export type WidgetSession = z.infer<typeof WidgetSession>;
