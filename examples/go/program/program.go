// Package program is the stack: two app tokens and a webhook, through the native plugin (pulumi-resource-svc) and
// its generated Go SDK. Where and how to reach the platform comes from stack config (svc:baseUrl, svc:partnerId, and
// the secret svc:adminSecret or an app token), read by the plugin, never by this program.
package program

import (
	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func orDefault(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}

// Run declares the stack's resources and outputs.
func Run(ctx *pulumi.Context) error {
	conf := config.New(ctx, "")

	// An ADMIN token for a deployment pipeline, limited to listing.
	pipeline, err := svc.NewAppToken(ctx, "deploy-pipeline", &svc.AppTokenArgs{
		Description:       pulumi.String(orDefault(conf.Get("pipelineDescription"), "Deployment pipeline")),
		HashType:          svc.HashType(orDefault(conf.Get("hashType"), string(svc.HashTypeSHA256))),
		SessionPrivileges: pulumi.String("list:*"),
	})
	if err != nil {
		return err
	}

	// A USER token: the backend exchanges it for short sessions; it can never act as the account admin.
	backend, err := svc.NewAppToken(ctx, "backend", &svc.AppTokenArgs{
		Description:     pulumi.String("Backend service"),
		SessionType:     svc.SessionTypeUSER,
		SessionDuration: pulumi.Int(3600),
	})
	if err != nil {
		return err
	}

	// A webhook: a clone of the platform's "entry ready" system template with our URL and signing secret.
	entryReady, err := svc.NewHttpNotificationTemplate(ctx, "entry-ready", &svc.HttpNotificationTemplateArgs{
		Event:      pulumi.String("entry.ready"),
		Name:       pulumi.String("Entry ready -> publishing"),
		Url:        pulumi.String(conf.Require("webhookUrl")),
		SignSecret: conf.RequireSecret("webhookSigningSecret"),
	})
	if err != nil {
		return err
	}

	// Provider functions: look up what exists instead of hard-coding ids per environment. The output forms keep the
	// schema's secrets secret: the token value read back is a secret output too. (Go names a function whose result
	// is a resource of the package Lookup<Resource>: getAppToken is LookupAppToken.)
	pipelineLookup := svc.LookupAppTokenOutput(ctx, svc.LookupAppTokenOutputArgs{Id: pipeline.TokenId})
	emailCatalog := svc.GetSystemTemplatesOutput(ctx, svc.GetSystemTemplatesOutputArgs{
		Kind:  svc.TemplateKindEMAIL,
		Event: pulumi.String("entry.ready"),
	})

	ctx.Export("pipelineTokenId", pipeline.TokenId)
	ctx.Export("pipelineTokenLookup", pipelineLookup.Token())
	ctx.Export("entryReadyEmailSystemName", emailCatalog.Templates().Index(pulumi.Int(0)).SystemName())
	// A Pulumi secret (the schema marks AppToken.token secret).
	ctx.Export("pipelineToken", pipeline.Token)
	ctx.Export("backendTokenId", backend.TokenId)
	ctx.Export("templateId", entryReady.TemplateId)
	return nil
}
