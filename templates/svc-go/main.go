// An app token on the video platform, through the svc provider (configured by the stack's svc:* settings). The
// program runs inline with Pulumi's Automation API, with this folder as the workspace (Pulumi.yaml and the stack's
// Pulumi.<stack>.yaml): `go run . up`, `go run . preview`, `go run . destroy` (the stack: $PULUMI_STACK, else dev).
// The generated SDK names the plugin's version and download URL: the engine installs the plugin when it is missing.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func program(ctx *pulumi.Context) error {
	pipeline, err := svc.NewAppToken(ctx, "pipeline", &svc.AppTokenArgs{
		Description:       pulumi.String("Deployment pipeline"),
		SessionPrivileges: pulumi.String("list:*"),
	})
	if err != nil {
		return err
	}
	ctx.Export("pipelineTokenId", pipeline.ID())
	ctx.Export("pipelineToken", pipeline.Token)
	return nil
}

func run(command, stackName string) error {
	ctx := context.Background()
	s, err := auto.UpsertStackInlineSource(ctx, stackName, "${PROJECT}", program, auto.WorkDir("."))
	if err != nil {
		return err
	}
	switch command {
	case "up":
		_, err = s.Up(ctx, optup.ProgressStreams(os.Stdout))
	case "preview":
		_, err = s.Preview(ctx, optpreview.ProgressStreams(os.Stdout))
	case "destroy":
		_, err = s.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))
	default:
		err = fmt.Errorf("unknown command %q: up, preview or destroy", command)
	}
	return err
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run . <up|preview|destroy>")
		os.Exit(2)
	}
	stackName := os.Getenv("PULUMI_STACK")
	if stackName == "" {
		stackName = "dev"
	}
	if err := run(os.Args[1], stackName); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
