#!/usr/bin/env bash
# Set up trapworks in .venv and start the main job. Extra arguments go to the command.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# The research extra: OpenSpiel, whose Elo fit `trapworks tournament` (in the README) uses; the fast
# extra: numba, the batched engines that `simulate`, `tournament` and `explore` use (README).
.venv/bin/python -m pip install -q -e ".[research,fast]"
exec .venv/bin/trapworks serve "$@"
