//go:build tools

// The YAML language host, from github.com/pulumi/pulumi-yaml (its own release line, not the engine's).
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
