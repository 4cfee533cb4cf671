#!/usr/bin/env bash
# Makes sure Debian's PostgreSQL 15 server binaries are installed (for the test of Pulumi's postgres:// state
# backend), like scripts/ensure-chromium.sh does for Chromium. Idempotent: returns at once when they are there.
# Installs only the packages (postgresql-15): no cluster is created or started here; the test runs its own
# server in a temp dir. Prints the bin directory as the last line of stdout.
set -euo pipefail

BIN=/usr/lib/postgresql/15/bin
say() { echo "ensure-postgres: $*" >&2; }

if [ -x "$BIN/initdb" ] && [ -x "$BIN/postgres" ] && [ -x "$BIN/psql" ] && [ -x "$BIN/pg_ctl" ]; then
  echo "$BIN"; exit 0
fi

command -v apt-get >/dev/null 2>&1 || { say "$BIN is missing and apt-get is not available; install PostgreSQL 15 by hand"; exit 1; }
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else say "need root (or sudo) to apt-get install postgresql-15"; exit 1; fi
fi

say "$BIN missing; running apt-get update"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
say "installing postgresql-15"
# The package's post-install creates and starts a default cluster on port 5432; the test never uses it.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql-15 >&2
[ -x "$BIN/initdb" ] || { say "apt-get finished but $BIN/initdb is still missing"; exit 1; }
say "installed $("$BIN/postgres" --version)"
echo "$BIN"
