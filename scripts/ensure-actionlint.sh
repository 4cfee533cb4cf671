#!/usr/bin/env bash
# Makes actionlint (the GitHub Actions workflow linter, a Go module) available for the pipeline-file test.
# Built once from the Go module proxy with `go install` and cached outside the clone, keyed by version, like the
# Pulumi engine (scripts/ensure-pulumi.sh). An actionlint of the same version already on PATH is preferred.
# Prints progress on stderr and the path of the binary as the last line of stdout.
set -euo pipefail
say() { echo "[ensure-actionlint] $*" >&2; }

version=v1.7.12
if command -v actionlint >/dev/null 2>&1 && [ "$(actionlint -version 2>/dev/null | head -1)" = "$version" ]; then
  command -v actionlint; exit 0
fi

cache_root=${PULUMI_SVC_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}
bin="$cache_root/actionlint/$version/bin"
if [ -x "$bin/actionlint" ] && [ "$("$bin/actionlint" -version 2>/dev/null | head -1)" = "$version" ]; then
  echo "$bin/actionlint"; exit 0
fi

command -v go >/dev/null 2>&1 || { say "Go is needed to build actionlint $version (https://go.dev/dl), or put actionlint $version on PATH"; exit 1; }
say "building actionlint $version with go install into $bin (once; later runs reuse it)"
tmp="$bin.tmp.$$"
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# -ldflags sets the version actionlint reports (a `go install` of a tagged module reports it too; this is for certainty).
CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath \
  -ldflags "-s -w -X github.com/rhysd/actionlint.version=$version" \
  "github.com/rhysd/actionlint/cmd/actionlint@$version" >&2
got=$("$tmp/actionlint" -version | head -1)
[ "$got" = "$version" ] || { say "built actionlint reports '$got', expected $version"; exit 1; }
rm -rf "$bin"; mkdir -p "$(dirname "$bin")"; mv "$tmp" "$bin"; trap - EXIT
say "built actionlint $version"
echo "$bin/actionlint"
