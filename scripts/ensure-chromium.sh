#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium (used headless by the client bundle test).
# Idempotent: returns at once when it is already there. Never downloads a browser through npm/playwright.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  echo "ensure-chromium: $CHROMIUM present"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-chromium: need root (or sudo) to apt-get install chromium" >&2
    exit 1
  fi
fi

echo "ensure-chromium: $CHROMIUM missing; running apt-get update"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q
echo "ensure-chromium: installing chromium (this takes a minute)"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
  exit 1
fi
echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
