#!/usr/bin/env bash
# Makes Pulumi's other languages available beside the engine (scripts/ensure-pulumi.sh builds the engine itself):
#
#   python-host  pulumi-language-python and its entry script pulumi-language-python-exec, from
#                github.com/pulumi/pulumi/sdk/v3 v3.68.0 (scripts/pulumi-engine/python-host)
#   yaml-host    pulumi-language-yaml, from github.com/pulumi/pulumi-yaml v1.25.0 (scripts/pulumi-engine/yaml-host)
#   venv         a Python virtual environment with `pulumi` from PyPI, pinned in scripts/pulumi-engine/python-host/requirements.txt
#   codegen      pulumi-svc-codegen: Pulumi's Node.js, Python and Go SDK generators at the engine's version
#                (scripts/pulumi-engine/codegen)
#   go           Go's own build cache warmed for test/languages/go, examples/go and test/languages/goplugin (Go
#                programs run as Automation API inline programs: they need no language host, and the proxy serves none)
#
# Each piece is cached outside the clone in its own folder, named by its version and a hash of its inputs (go.sum,
# requirements.txt, the Python interpreter): a cached piece costs a file test. Go builds run one at a time.
# Records the paths in node_modules/.pulumi-svc-languages (JSON, read by scripts/engineEnv.ts) and prints that file.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
say() { echo "[ensure-languages] $*" >&2; }
hash_of() { cat "$@" 2>/dev/null | sha256sum | cut -c1-12; }  # a missing go.sum hashes as empty
gomod_version() { # $1 = go.mod, $2 = module path: the version it requires
  sed -n "s|^[[:space:]]*\(require \)\{0,1\}$2 v\([0-9][0-9.]*\).*|\2|p" "$1" | head -1
}

engine_version=$(gomod_version scripts/pulumi-engine/cli/go.mod github.com/pulumi/pulumi/pkg/v3)
codegen_version=$(gomod_version scripts/pulumi-engine/codegen/go.mod github.com/pulumi/pulumi/pkg/v3)
gorun_version=$(gomod_version test/languages/go/go.mod github.com/pulumi/pulumi/sdk/v3)
python_host_version=$(gomod_version scripts/pulumi-engine/python-host/go.mod github.com/pulumi/pulumi/sdk/v3)
yaml_host_version=$(gomod_version scripts/pulumi-engine/yaml-host/go.mod github.com/pulumi/pulumi-yaml)
[ "$codegen_version" = "$engine_version" ] ||
  { say "scripts/pulumi-engine/codegen/go.mod requires pkg/v3 v$codegen_version, the engine is v$engine_version: keep them equal"; exit 1; }
[ "$gorun_version" = "$engine_version" ] ||
  { say "test/languages/go/go.mod requires sdk/v3 v$gorun_version, the engine is v$engine_version: keep them equal"; exit 1; }

cache_root=${PULUMI_SVC_LANGUAGES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc/languages}
export CGO_ENABLED=0 GOFLAGS=-mod=mod
need_go() { command -v go >/dev/null 2>&1 || { say "Go is needed to build $1 (https://go.dev/dl)"; exit 1; }; }

# Builds one Go package into a cached bin dir, atomically (a half-built dir never looks cached).
# $1 = bin dir, $2 = wrapper module dir, $3 = package, $4 = binary name, $5 = extra step run in the module dir
# with $tmp set (may be empty).
build_into() {
  local bin=$1 module=$2 pkg=$3 exe=$4 extra=${5:-} start tmp
  [ -x "$bin/$exe" ] && return 0
  need_go "$exe"
  say "building $exe from $pkg into $bin (once; later runs reuse it)"
  start=$(date +%s)
  tmp="$bin.tmp.$$"
  rm -rf "$tmp"; mkdir -p "$tmp"
  (cd "$module" && go build -trimpath -o "$tmp/$exe" "$pkg") >&2 || { rm -rf "$tmp"; exit 1; }
  if [ -n "$extra" ]; then (cd "$module" && tmp=$tmp eval "$extra") >&2 || { rm -rf "$tmp"; exit 1; }; fi
  rm -rf "$bin"; mkdir -p "$(dirname "$bin")"; mv "$tmp" "$bin"
  say "built $exe in $(( $(date +%s) - start ))s"
}

# 1. The Python language host, with its entry script (shipped in the same module, python/cmd/).
python_host_bin="$cache_root/python-host-v$python_host_version-$(hash_of scripts/pulumi-engine/python-host/go.sum)/bin"
build_into "$python_host_bin" scripts/pulumi-engine/python-host \
  github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python pulumi-language-python \
  'install -m 755 "$(go list -m -f "{{.Dir}}" github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec" "$tmp/"'

# 2. The YAML language host.
yaml_host_bin="$cache_root/yaml-host-v$yaml_host_version-$(hash_of scripts/pulumi-engine/yaml-host/go.sum)/bin"
build_into "$yaml_host_bin" scripts/pulumi-engine/yaml-host \
  github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml pulumi-language-yaml

# 3. The SDK generators.
codegen_bin="$cache_root/codegen-v$engine_version-$(hash_of scripts/pulumi-engine/codegen/go.sum scripts/pulumi-engine/codegen/main.go)/bin"
build_into "$codegen_bin" scripts/pulumi-engine/codegen . pulumi-svc-codegen

# 4. The Python virtual environment: `pulumi` (and the build tools a generated SDK's pip install needs) from PyPI.
python=${PULUMI_SVC_PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || { say "Python 3 is needed for the Python language tests (set PULUMI_SVC_PYTHON to its path)"; exit 1; }
py_version=$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
py_exe=$("$python" -c 'import sys; print(sys.executable)')
requirements=scripts/pulumi-engine/python-host/requirements.txt
pulumi_py=$(sed -n 's/^pulumi==\([0-9.]*\).*/\1/p' "$requirements")
venv="$cache_root/venv-py$py_version-pulumi$pulumi_py-$( (cat "$requirements"; echo "$py_exe") | sha256sum | cut -c1-12)"
if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.complete" ]; then
  say "creating the Python virtual environment $venv (pulumi $pulumi_py from PyPI; once)"
  start=$(date +%s)
  # A venv's scripts name its folder, so it is made in place; .complete marks one that finished.
  rm -rf "$venv"
  "$python" -m venv "$venv" >&2 || { say "'$python -m venv' failed: install Python's venv module (Debian: apt-get install python3-venv)"; exit 1; }
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input -q -r "$requirements" >&2
  touch "$venv/.complete"
  say "venv ready in $(( $(date +%s) - start ))s ($(du -sh "$venv" | cut -f1))"
fi

# 5. Go's build cache for the Go programs the tests run (so each test's `go run` / `go build` only links):
#    test/languages/go (no plugin), examples/go (the example on the generated SDK, sdk-gen/go) and
#    test/languages/goplugin (the example's program plus an imported token).
for gomod in test/languages/go examples/go test/languages/goplugin; do
  marker="$cache_root/go-warm-$(echo "$gomod" | tr / -)-$(hash_of $gomod/go.mod $gomod/go.sum $(find $gomod examples/go/program sdk-gen/go -name '*.go' | sort))"
  [ -f "$marker" ] && continue
  need_go "the Go program of $gomod"
  say "compiling $gomod (the Go SDK's Automation API; once per change)"
  start=$(date +%s)
  (cd "$gomod" && GOFLAGS= go build -o /dev/null .) >&2
  mkdir -p "$cache_root"; touch "$marker"
  say "compiled in $(( $(date +%s) - start ))s"
done

mkdir -p node_modules
printf '{"bins":["%s","%s"],"venv":"%s","python":"%s","codegen":"%s","pythonHost":"%s","yamlHost":"%s","pulumiPython":"%s"}\n' \
  "$python_host_bin" "$yaml_host_bin" "$venv" "$venv/bin/python" "$codegen_bin/pulumi-svc-codegen" \
  "$python_host_version" "$yaml_host_version" "$pulumi_py" > node_modules/.pulumi-svc-languages
cat node_modules/.pulumi-svc-languages
