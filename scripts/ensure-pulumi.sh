#!/usr/bin/env bash
# Makes the Pulumi engine available: the `pulumi` CLI, the Node.js language host `pulumi-language-nodejs`, the
# dynamic provider host script `pulumi-resource-pulumi-nodejs` and the policy pack launcher `pulumi-analyzer-policy`
# (scripts/pulumi-analyzer-policy: what `pulumi preview --policy-pack` runs for a Node.js pack), all in one bin directory.
#
# The CLI's installer cannot download binaries here, so the engine is built from Pulumi's Go modules (wrapper
# modules in scripts/pulumi-engine/) and cached outside the clone, keyed by version. A compatible `pulumi` already on
# PATH (the pinned engine version, with its language host beside it) is preferred.
#
# Two versions, two facts: the engine's is pinned in scripts/pulumi-engine/cli/go.mod (pkg/v3 and sdk/v3, equal),
# the Node SDK's is @pulumi/pulumi in package.json. The engine must be at least the SDK's version (the Go module
# proxy serves some engine releases the npm registry does not have yet, and not every release npm has).
#
# Prints progress on stderr and the bin directory as the last line of stdout; also records it in
# node_modules/.pulumi-svc-engine so the tests, the demo and `npm run pulumi` find it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
say() { echo "[ensure-pulumi] $*" >&2; }

sdk_version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' node_modules/@pulumi/pulumi/package.json | head -1)
[ -n "$sdk_version" ] || { say "node_modules/@pulumi/pulumi is missing: run npm ci first"; exit 1; }
version=$(sed -n 's|^[[:space:]]*\(require \)\{0,1\}github.com/pulumi/pulumi/pkg/v3 v\([0-9][0-9.]*\).*|\2|p' scripts/pulumi-engine/cli/go.mod | head -1)
sdk_go=$(sed -n 's|^[[:space:]]*\(require \)\{0,1\}github.com/pulumi/pulumi/sdk/v3 v\([0-9][0-9.]*\).*|\2|p' scripts/pulumi-engine/cli/go.mod | head -1)
[ -n "$version" ] || { say "scripts/pulumi-engine/cli/go.mod does not pin github.com/pulumi/pulumi/pkg/v3"; exit 1; }
[ "$sdk_go" = "$version" ] || { say "scripts/pulumi-engine/cli/go.mod pins pkg/v3 v$version but sdk/v3 v$sdk_go: keep them equal"; exit 1; }
# at least: the smaller of the two, in version order, is the SDK's
[ "$(printf '%s\n%s\n' "$sdk_version" "$version" | sort -V | head -1)" = "$sdk_version" ] ||
  { say "the engine (v$version, scripts/pulumi-engine/cli/go.mod) is older than @pulumi/pulumi $sdk_version: the engine must be at least the SDK's version"; exit 1; }

dynamic_host="$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
policy_launcher="$root/scripts/pulumi-analyzer-policy"
record() { # $1 = bin dir
  mkdir -p node_modules
  printf '%s\n' "$1" > node_modules/.pulumi-svc-engine
  echo "$1"
}

# 1. A compatible engine already on PATH.
if command -v pulumi >/dev/null 2>&1 && command -v pulumi-language-nodejs >/dev/null 2>&1; then
  if [ "$(pulumi version 2>/dev/null)" = "v$version" ]; then
    bin=$(dirname "$(command -v pulumi)")
    if [ -x "$bin/pulumi-resource-pulumi-nodejs" ] || command -v pulumi-resource-pulumi-nodejs >/dev/null 2>&1; then
      say "using pulumi v$version from PATH ($bin)"
      command -v pulumi-analyzer-policy >/dev/null 2>&1 || say "no pulumi-analyzer-policy on PATH: policy packs (docs/policy.md) need it beside pulumi ($policy_launcher)"
      record "$bin"; exit 0
    fi
  fi
fi

# 2. The cache, keyed by version (and by the wrapper modules' go.sum, so a change of dependencies rebuilds).
cache_root=${PULUMI_SVC_ENGINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc/engine}
key=$(cat scripts/pulumi-engine/cli/go.sum scripts/pulumi-engine/lang/go.sum | sha256sum | cut -c1-12)
bin="$cache_root/v$version-$key/bin"
if [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ] && [ "$("$bin/pulumi" version 2>/dev/null)" = "v$version" ]; then
  [ -x "$bin/pulumi-resource-pulumi-nodejs" ] || install -m 755 "$dynamic_host" "$bin/pulumi-resource-pulumi-nodejs"
  cmp -s "$policy_launcher" "$bin/pulumi-analyzer-policy" || install -m 755 "$policy_launcher" "$bin/pulumi-analyzer-policy"
  record "$bin"; exit 0
fi

# 3. Build from source.
command -v go >/dev/null 2>&1 || { say "Go is needed to build the Pulumi engine (https://go.dev/dl), or put pulumi v$version on PATH"; exit 1; }
say "building the Pulumi engine v$version from Go modules into $bin (a few minutes, once; later runs reuse it)"
tmp="$bin.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
export CGO_ENABLED=0 GOFLAGS=-mod=mod
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$version"
start=$(date +%s)
# go build downloads only the modules the build needs (`go mod download` would also try pruned ones the proxy lacks).
say "downloading modules and compiling pulumi-language-nodejs"
(cd scripts/pulumi-engine/lang && go build -trimpath -o "$tmp/pulumi-language-nodejs" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs) >&2
say "compiling pulumi (the CLI; the longest step)"
(cd scripts/pulumi-engine/cli && go build -trimpath -ldflags "$ldflags" -o "$tmp/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) >&2 &
build=$!
while kill -0 "$build" 2>/dev/null; do sleep 15; kill -0 "$build" 2>/dev/null && say "still compiling pulumi ($(( $(date +%s) - start ))s)"; done
wait "$build"
got=$("$tmp/pulumi" version)
[ "$got" = "v$version" ] || { say "built pulumi reports '$got', expected v$version"; exit 1; }
# The dynamic provider host is a small script that resolves @pulumi/pulumi from the project it runs in: copied, it serves every clone.
install -m 755 "$dynamic_host" "$tmp/pulumi-resource-pulumi-nodejs"
install -m 755 "$policy_launcher" "$tmp/pulumi-analyzer-policy"
rm -rf "$bin"; mv "$tmp" "$bin"; trap - EXIT
say "built in $(( $(date +%s) - start ))s"
record "$bin"
