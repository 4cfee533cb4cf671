"""An app token on the video platform, through the svc provider (configured by the stack's svc:* settings)."""
import pulumi
import pulumi_svc as svc

pipeline = svc.AppToken(
    "pipeline",
    description="Deployment pipeline",
    session_privileges="list:*",
)

pulumi.export("pipelineTokenId", pipeline.id)
pulumi.export("pipelineToken", pipeline.token)
