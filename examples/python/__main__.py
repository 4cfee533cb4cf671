"""Two app tokens and a webhook, through the native plugin (pulumi-resource-svc) and its generated Python SDK.

Where and how to reach the platform comes from stack config (svc:baseUrl, svc:partnerId, and the secret
svc:adminSecret or an app token), read by the plugin, never by this program.
"""
import pulumi
import pulumi_svc as svc

config = pulumi.Config()

# An ADMIN token for a deployment pipeline, limited to listing.
pipeline = svc.AppToken(
    "deploy-pipeline",
    description=config.get("pipelineDescription") or "Deployment pipeline",
    hash_type=config.get("hashType") or svc.HashType.SHA256,
    session_privileges="list:*",
)

# A USER token: the backend exchanges it for short sessions; it can never act as the account admin.
backend = svc.AppToken(
    "backend",
    description="Backend service",
    session_type=svc.SessionType.USER,
    session_duration=3600,
)

# A webhook: clones the platform's "entry ready" system template with our URL and signing secret, then activates it.
entry_ready = svc.HttpNotificationTemplate(
    "entry-ready",
    event="entry.ready",
    name="Entry ready -> publishing",
    url=config.require("webhookUrl"),
    sign_secret=config.require_secret("webhookSigningSecret"),
)

# Provider functions: look up what exists instead of hard-coding ids per environment. The output forms keep the
# schema's secrets secret: the token value read back is a secret output too.
pipeline_lookup = svc.get_app_token_output(id=pipeline.token_id)
email_catalog = svc.get_system_templates_output(kind=svc.TemplateKind.EMAIL, event="entry.ready")

pulumi.export("pipelineTokenId", pipeline.token_id)
pulumi.export("pipelineTokenLookup", pipeline_lookup.token)
pulumi.export("entryReadyEmailSystemName", email_catalog.templates[0].system_name)
# A Pulumi secret (the schema marks AppToken.token secret): `pulumi stack output pipelineToken --show-secrets`.
pulumi.export("pipelineToken", pipeline.token)
pulumi.export("backendTokenId", backend.token_id)
pulumi.export("templateId", entry_ready.template_id)
