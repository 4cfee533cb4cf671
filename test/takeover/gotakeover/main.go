// The Go step of test/takeover/takeoverLanguages.test.ts: the program `pulumi-svc takeover --language go
// --go-package program` wrote into ./program (its Takeover function), previewed by the Automation API as an inline
// program (no Go language host is served here: examples/go/README.md), expecting no change. The workspace is the
// current folder (the test's project, its stack and config already set).
//
// Usage: gotakeover <stack> <project>; prints the preview's change summary as JSON on stdout.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optpreview"

	"pulumi-svc/test/takeover/gotakeover/program"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gotakeover <stack> <project>")
		os.Exit(2)
	}
	ctx := context.Background()
	s, err := auto.SelectStackInlineSource(ctx, os.Args[1], os.Args[2], program.Takeover, auto.WorkDir("."))
	if err != nil {
		fmt.Fprintln(os.Stderr, "stack:", err)
		os.Exit(1)
	}
	res, err := s.Preview(ctx, optpreview.ExpectNoChanges())
	if err != nil {
		fmt.Fprintln(os.Stderr, "preview:", err)
		os.Exit(1)
	}
	summary := map[string]int{}
	for op, n := range res.ChangeSummary {
		summary[string(op)] = n
	}
	out, _ := json.Marshal(summary)
	fmt.Println(string(out))
}
