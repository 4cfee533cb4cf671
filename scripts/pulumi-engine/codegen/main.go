// Command pulumi-svc-codegen writes the Node.js, Python and Go SDKs of a Pulumi package from its schema, with
// Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen/{nodejs,python,go}), at the engine's
// version. It stands in for `pulumi package gen-sdk`, which needs language-host features the hosts we can build lack.
//
//	pulumi-svc-codegen <schema.json> <outdir>    writes <outdir>/nodejs, <outdir>/python and <outdir>/go
//
// The schema must be self-contained: references to other packages' types are refused (no plugin is loaded).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-svc-codegen"

// noLoader refuses every external package: the schemas we generate from reference none.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("schema references package %q; only self-contained schemas are supported", pkg)
}

func (l noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, d.Version)
}

func (l noLoader) LoadPackageReference(pkg string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(pkg, v)
	return nil, err
}

func (l noLoader) LoadPackageReferenceV2(ctx context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	_, err := l.LoadPackageV2(ctx, d)
	return nil, err
}

// bind parses and validates the schema afresh: each generator records its language's info in the package it is
// given, so every language gets its own copy.
func bind(raw []byte) (*schema.Package, error) {
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("parsing the schema: %w", err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("invalid schema: %w", diags)
	}
	return pkg, nil
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func run(schemaPath, outDir string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	generators := []struct {
		lang string
		gen  func(*schema.Package) (map[string][]byte, error)
	}{
		{"nodejs", func(p *schema.Package) (map[string][]byte, error) {
			return nodejs.GeneratePackage(tool, p, nil, nil, false, noLoader{})
		}},
		{"python", func(p *schema.Package) (map[string][]byte, error) {
			return python.GeneratePackage(tool, p, nil, noLoader{})
		}},
		{"go", func(p *schema.Package) (map[string][]byte, error) {
			return gogen.GeneratePackage(tool, p, nil)
		}},
	}
	for _, g := range generators {
		pkg, err := bind(raw)
		if err != nil {
			return err
		}
		files, err := g.gen(pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", g.lang, err)
		}
		if err := write(filepath.Join(outDir, g.lang), files); err != nil {
			return fmt.Errorf("%s: %w", g.lang, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d files\n", g.lang, len(files))
	}
	return nil
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pulumi-svc-codegen <schema.json> <outdir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-svc-codegen:", err)
		os.Exit(1)
	}
}
