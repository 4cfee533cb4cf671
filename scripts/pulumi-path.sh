#!/usr/bin/env bash
# Prints what to put first on PATH to run Pulumi programs of any language by hand with this repository's build:
# the engine (`pulumi`, from scripts/ensure-pulumi.sh), the Python and YAML language hosts (scripts/ensure-languages.sh)
# and the project's Node 22 (node_modules/.bin: the plugin and the Node.js host run `node`). Builds what is missing
# (once; cached). Run `node scripts/setup.mjs --languages` first on a fresh clone (npm dependencies, the build and
# the plugin's folder dist/pulumi-resource-svc).
#
#   export PATH="$(bash scripts/pulumi-path.sh):$PATH"
#
# The Python host runs the `python3` it finds on PATH: activate the program's virtual environment after this.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=$(bash scripts/ensure-pulumi.sh)
bash scripts/ensure-languages.sh >/dev/null
hosts=$(node_modules/.bin/node -p 'JSON.parse(require("fs").readFileSync("node_modules/.pulumi-svc-languages", "utf8")).bins.join(":")')
echo "$engine:$hosts:$PWD/node_modules/.bin"
