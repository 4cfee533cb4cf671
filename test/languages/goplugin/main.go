// The step after the import of test/languages/goPlugin.test.ts: the example's program (examples/go/program) plus a
// declaration of the token imported into the stack (what a user adds to program.Run after `pulumi import`), run by
// the Automation API as an inline program: a preview expecting no change, then an up expecting none. The workspace
// is the current folder (a copy of examples/go).
//
// Usage: goplugin <stack>; prints one JSON report on stdout.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi-svc/pulumi-svc/sdk/go/svc"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optup"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"

	"pulumi-svc/examples/go/program"
)

// withImported is the example's program and the imported token, declared as it was read.
func withImported(ctx *pulumi.Context) error {
	if err := program.Run(ctx); err != nil {
		return err
	}
	outside, err := svc.NewAppToken(ctx, "outside", &svc.AppTokenArgs{
		Description:       pulumi.String("made outside Pulumi"),
		HashType:          svc.HashTypeSHA1,
		SessionType:       svc.SessionTypeADMIN,
		SessionDuration:   pulumi.Int(7200),
		SessionPrivileges: pulumi.String("list:*"),
	})
	if err != nil {
		return err
	}
	ctx.Export("outsideToken", outside.Token)
	return nil
}

type report struct {
	Preview        map[string]int `json:"preview"`
	Up             map[string]int `json:"up"`
	OutsideSecret  bool           `json:"outsideSecret"`
	OutsideTokenOK bool           `json:"outsideTokenNonEmpty"`
}

func run(stackName string) (*report, error) {
	ctx := context.Background()
	s, err := auto.SelectStackInlineSource(ctx, stackName, "svc-go", withImported, auto.WorkDir("."))
	if err != nil {
		return nil, fmt.Errorf("stack: %w", err)
	}
	r := &report{Preview: map[string]int{}}
	pre, err := s.Preview(ctx, optpreview.ExpectNoChanges())
	if err != nil {
		return nil, fmt.Errorf("preview: %w", err)
	}
	for op, n := range pre.ChangeSummary {
		r.Preview[string(op)] = n
	}
	up, err := s.Up(ctx, optup.ExpectNoChanges())
	if err != nil {
		return nil, fmt.Errorf("up: %w", err)
	}
	r.Up = *up.Summary.ResourceChanges
	r.OutsideSecret = up.Outputs["outsideToken"].Secret
	value, _ := up.Outputs["outsideToken"].Value.(string)
	r.OutsideTokenOK = value != ""
	return r, nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: goplugin <stack>")
		os.Exit(2)
	}
	r, err := run(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
