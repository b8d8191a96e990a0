#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian machine, then run it.
# Extra arguments go to pytest (e.g. bash scripts/test.sh -k solver).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Browser tests drive Debian's Chromium (Playwright does not download browsers here).
if ! command -v chromium >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
exec .venv/bin/python -m pytest "$@"
