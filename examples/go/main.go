// Runs the stack of ./program through the Pulumi engine with the Automation API: an inline program, since no Go
// language host is served here. This folder is the workspace (Pulumi.yaml, Pulumi.<stack>.yaml), so `pulumi stack
// init` and `pulumi config set` work in it as for any project; the `pulumi` CLI on PATH runs the operations.
//
// Usage: go run . <up|preview|refresh|destroy> [stack]   (the stack defaults to $PULUMI_STACK, else dev)
package main

import (
	"context"
	"fmt"
	"os"
	"sort"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"

	"pulumi-svc/examples/go/program"
)

func run(command, stackName string) error {
	ctx := context.Background()
	s, err := auto.UpsertStackInlineSource(ctx, stackName, "svc-go", program.Run, auto.WorkDir("."))
	if err != nil {
		return err
	}
	switch command {
	case "up":
		res, err := s.Up(ctx, optup.ProgressStreams(os.Stdout))
		if err != nil {
			return err
		}
		keys := make([]string, 0, len(res.Outputs))
		for k := range res.Outputs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if res.Outputs[k].Secret {
				fmt.Printf("%s: [secret]\n", k)
			} else {
				fmt.Printf("%s: %v\n", k, res.Outputs[k].Value)
			}
		}
	case "preview":
		_, err = s.Preview(ctx, optpreview.ProgressStreams(os.Stdout))
	case "refresh":
		_, err = s.Refresh(ctx, optrefresh.ProgressStreams(os.Stdout))
	case "destroy":
		_, err = s.Destroy(ctx, optdestroy.ProgressStreams(os.Stdout))
	default:
		return fmt.Errorf("unknown command %q: up, preview, refresh or destroy", command)
	}
	return err
}

func main() {
	if len(os.Args) < 2 || len(os.Args) > 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . <up|preview|refresh|destroy> [stack]")
		os.Exit(2)
	}
	stackName := os.Getenv("PULUMI_STACK")
	if len(os.Args) == 3 {
		stackName = os.Args[2]
	}
	if stackName == "" {
		stackName = "dev"
	}
	if err := run(os.Args[1], stackName); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
