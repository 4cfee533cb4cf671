// A Go Pulumi program run the way Go programs run here: as an Automation API inline program, which needs no Go
// language host (the proxy does not serve one). The engine is the `pulumi` on PATH; the backend, passphrase and
// PULUMI_HOME come from the environment (test/languages/go.test.ts sets them).
//
// Usage: go run . <stack> <name>. Goes up, previews (expecting no change), goes up again with a second config value,
// destroys and removes the stack; prints one JSON report on stdout.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optdestroy"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// component is a resource that needs no provider plugin.
type component struct {
	pulumi.ResourceState
}

func program(ctx *pulumi.Context) error {
	name := config.Get(ctx, "name")
	c := &component{}
	if err := ctx.RegisterComponentResource("svc:test:Component", "c", c); err != nil {
		return err
	}
	ctx.Export("greeting", pulumi.String(fmt.Sprintf("hello %s from go", name)))
	ctx.Export("secret", pulumi.ToSecret(pulumi.String("s3cr3t")))
	ctx.Export("component", c.URN())
	return nil
}

type report struct {
	Version      string                 `json:"version"`
	Outputs      map[string]interface{} `json:"outputs"`
	SecretKeys   []string               `json:"secretKeys"`
	UpChanges    map[string]int         `json:"upChanges"`
	Preview      map[string]int         `json:"preview"`
	Update       map[string]int         `json:"update"`
	UpdatedValue interface{}            `json:"updatedGreeting"`
	Destroy      map[string]int         `json:"destroy"`
}

func run(stackName, name string) (*report, error) {
	ctx := context.Background()
	s, err := auto.UpsertStackInlineSource(ctx, stackName, "langs-go", program)
	if err != nil {
		return nil, fmt.Errorf("stack: %w", err)
	}
	r := &report{Outputs: map[string]interface{}{}}
	r.Version = s.Workspace().PulumiCommand().Version().String()
	if err := s.SetConfig(ctx, "name", auto.ConfigValue{Value: name}); err != nil {
		return nil, err
	}
	up, err := s.Up(ctx, optup.SuppressProgress())
	if err != nil {
		return nil, fmt.Errorf("up: %w", err)
	}
	for k, v := range up.Outputs {
		r.Outputs[k] = v.Value
		if v.Secret {
			r.SecretKeys = append(r.SecretKeys, k)
		}
	}
	r.UpChanges = *up.Summary.ResourceChanges
	pre, err := s.Preview(ctx, optpreview.ExpectNoChanges())
	if err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	r.Preview = map[string]int{}
	for op, n := range pre.ChangeSummary {
		r.Preview[string(op)] = n
	}
	if err := s.SetConfig(ctx, "name", auto.ConfigValue{Value: name + "-2"}); err != nil {
		return nil, err
	}
	up2, err := s.Up(ctx, optup.SuppressProgress())
	if err != nil {
		return nil, fmt.Errorf("second up: %w", err)
	}
	r.Update = *up2.Summary.ResourceChanges
	r.UpdatedValue = up2.Outputs["greeting"].Value
	d, err := s.Destroy(ctx, optdestroy.SuppressProgress())
	if err != nil {
		return nil, fmt.Errorf("destroy: %w", err)
	}
	r.Destroy = *d.Summary.ResourceChanges
	if err := s.Workspace().RemoveStack(ctx, stackName); err != nil {
		return nil, fmt.Errorf("rm: %w", err)
	}
	return r, nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run . <stack> <name>")
		os.Exit(2)
	}
	r, err := run(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
