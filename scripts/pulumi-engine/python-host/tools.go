//go:build tools

// The Python language host. Up to v3.68.0 it lived inside github.com/pulumi/pulumi/sdk/v3, which the Go module proxy
// serves; its per-release module (sdk/python/cmd/pulumi-language-python/v3) is refused. Its Python entry point,
// pulumi-language-python-exec, ships in the same module (python/cmd/) and is copied beside it.
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
