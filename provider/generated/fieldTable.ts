// Generated from provider/definitions by `npm run generate`: do not edit.
export const FIELD_TABLE = {
  "AppToken": {
    "runtimeExport": "appToken",
    "inputs": ["hashType","sessionType","sessionDuration","sessionPrivileges","sessionUserId","description","expiry","keepers","adoptId","connection","account"],
    "outputs": ["tokenId","token","partnerId","status","createdAt","updatedAt"],
    "secrets": ["connection","token"],
    "deprecated": {"connection":"`connection` is deprecated: add the account to the provider's `accounts` (stack config `svc:accounts.<name>.*`, or `accounts` on an explicit provider) and set `account: \"<name>\"`; a resource moves from one to the other without replacement"},
    "required": [],
  },
  "HttpNotificationTemplate": {
    "runtimeExport": "httpNotificationTemplate",
    "inputs": ["systemTemplateId","systemTemplateName","event","name","systemName","description","url","method","signSecret","secureHashingAlgo","active","adoptId","connection","account"],
    "outputs": ["templateId","partnerId","sourceTemplateId","status","eventType","eventObjectType","createdAt","updatedAt"],
    "secrets": ["signSecret","connection"],
    "deprecated": {"systemTemplateId":"A system template's id differs between accounts (dev, prod): choose it by event or systemTemplateName, the same in every account (getSystemTemplates lists them).","connection":"`connection` is deprecated: add the account to the provider's `accounts` (stack config `svc:accounts.<name>.*`, or `accounts` on an explicit provider) and set `account: \"<name>\"`; a resource moves from one to the other without replacement"},
    "required": ["name","url","signSecret"],
  },
  "EmailNotificationTemplate": {
    "runtimeExport": "emailNotificationTemplate",
    "inputs": ["systemTemplateId","systemTemplateName","event","name","systemName","description","subject","body","format","fromEmail","fromName","to","cc","bcc","replyTo","priority","contentParameters","active","adoptId","connection","account"],
    "outputs": ["templateId","partnerId","sourceTemplateId","status","eventType","eventObjectType","createdAt","updatedAt"],
    "secrets": ["connection"],
    "deprecated": {"systemTemplateId":"A system template's id differs between accounts (dev, prod): choose it by event or systemTemplateName, the same in every account (getSystemTemplates lists them).","connection":"`connection` is deprecated: add the account to the provider's `accounts` (stack config `svc:accounts.<name>.*`, or `accounts` on an explicit provider) and set `account: \"<name>\"`; a resource moves from one to the other without replacement"},
    "required": ["name","subject","body","fromEmail","to"],
  },
} as const;

export type ResourceType = keyof typeof FIELD_TABLE;

/** Whether `name` (from a request, a URN, a state) names a resource of the package. */
export const isResourceType = (name: string): name is ResourceType => Object.hasOwn(FIELD_TABLE, name);

/** The provider settings that are secrets (an explicit provider wraps them). */
export const PROVIDER_SECRET_SETTINGS = ["adminSecret","appToken","ks","accounts"] as const;
