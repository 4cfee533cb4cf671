/**
 * The svc policy pack (`pulumi preview --policy-pack policy`): four mandatory rules over svc resources of either
 * provider (resources.ts), each a plain function (rules.ts). A violation fails the preview with the rule's message.
 */
import { PolicyPack, type ReportViolation, type ResourceValidationArgs } from "@pulumi/policy";
import { stackOf, type SvcType, svcTypeOf } from "./resources";
import { adminTokenExpiry, emailFromDomain, type Props, templateSignSecret, webhookHttps } from "./rules";

/** A validation of svc resources only: `check` gets the resource's svc type, inputs and stack. */
function svcResources(check: (type: SvcType, props: Props, stack: string, args: ResourceValidationArgs) => string | undefined) {
  return (args: ResourceValidationArgs, reportViolation: ReportViolation) => {
    const props = args.props as Props;
    const type = svcTypeOf(args.type, props);
    if (!type) return;
    const message = check(type, props, stackOf(args.urn), args);
    if (message) reportViolation(message);
  };
}

new PolicyPack("svc", {
  policies: [
    {
      name: "svc-admin-token-expiry",
      description: "An ADMIN app token in a stack named prod* must have an expiry.",
      enforcementLevel: "mandatory",
      validateResource: svcResources((type, props, stack) => adminTokenExpiry(type, props, stack)),
    },
    {
      name: "svc-webhook-https",
      description: "Webhook URLs must be https, except to a loopback address.",
      enforcementLevel: "mandatory",
      validateResource: svcResources((type, props) => webhookHttps(type, props)),
    },
    {
      name: "svc-template-sign-secret",
      description: "Every webhook template declares signSecret.",
      enforcementLevel: "mandatory",
      validateResource: svcResources((type, props) => templateSignSecret(type, props)),
    },
    {
      name: "svc-email-from-domain",
      description: "An email template's fromEmail is in one of the allowed domains (config: allowedDomains).",
      enforcementLevel: "mandatory",
      configSchema: {
        properties: { allowedDomains: { type: "array", items: { type: "string" }, default: [] } },
      },
      validateResource: svcResources((type, props, _stack, args) =>
        emailFromDomain(type, props, args.getConfig<{ allowedDomains: string[] }>().allowedDomains ?? []),
      ),
    },
  ],
});
