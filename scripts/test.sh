#!/usr/bin/env bash
# Set up everything the test suite needs on a fresh Debian machine, then run it.
# Extra arguments go to pytest (e.g. bash scripts/test.sh -k solver).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Browser tests drive Debian's Chromium (Playwright does not download browsers here); the
# server's PostgreSQL tests use a local PostgreSQL on loopback.
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
# Its headless shell (the same Blink, without the full browser's windowing): the browser tests take
# it when it is there, for about a fifth less CPU per test (tests/web/web_helpers.py CHROMIUM).
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
# A C compiler and Python's headers build Last Mouse Lost's compiled state (setup.py; optional:
# without them the install still works and the game takes its pure-Python path).
command -v cc >/dev/null 2>&1 || missing+=(gcc)
# The cluster tests: Redis as the other bus, HAProxy as the load balancer in front of the nodes.
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
python3 -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  || missing+=(python3-dev)
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -z "${TRAPWORKS_TEST_POSTGRES_URL:-}" ]; then
  pg_version=$(ls /etc/postgresql | sort -n | tail -1)
  as_root pg_ctlcluster "$pg_version" main start 2>/dev/null || true  # already running is fine
  as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='trapworks'\" | grep -q 1 \
      || psql -qc \"CREATE ROLE trapworks LOGIN PASSWORD 'trapworks'\""
  as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='trapworks_test'\" | grep -q 1 \
      || createdb -O trapworks trapworks_test"
  export TRAPWORKS_TEST_POSTGRES_URL="postgresql+psycopg://trapworks:trapworks@127.0.0.1/trapworks_test"
fi

# The two npm installs run in the background while Python's environment is made below (they wait
# on the npm registry and the disk, pip on PyPI: in a fresh clone ~21 s of wall for both here,
# which no longer comes before pip's), and are waited for before lint and the lanes need them.
npm_ci() {
  local log
  log=$(mktemp)
  (cd "$1" && npm ci --no-audit --no-fund --silent) > "$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
  rm -f "$log"
}
npm_pids=()
need_axe=0 need_lint=0
# axe-core for the accessibility checks of the browser tests (tests/web/axe, injected by Playwright).
[ -f tests/web/axe/node_modules/axe-core/axe.min.js ] || need_axe=1
# TypeScript and ESLint for the web front end (tests/web/lint: JSDoc types checked by tsc --checkJs,
# no build step; ESLint's recommended rules), pinned by its package-lock.
{ [ -x tests/web/lint/node_modules/.bin/tsc ] && [ -x tests/web/lint/node_modules/.bin/eslint ]; } || need_lint=1
if [ $need_axe = 1 ] || [ $need_lint = 1 ]; then
  command -v npm >/dev/null 2>&1 || { as_root apt-get update -qq; as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }
fi
if [ $need_axe = 1 ]; then npm_ci tests/web/axe & npm_pids+=($!); fi
if [ $need_lint = 1 ]; then npm_ci tests/web/lint & npm_pids+=($!); fi

# pip byte-compiles what it installs one file after another, on one core while the other waits:
# about 105 CPU s for the 20,710 .py files of a fresh venv. In a fresh venv (CI's clean clone) it
# installs without compiling, and compileall compiles on every core (-j 0): the same .pyc files
# in about half the wall time. Its exit status is not read: a few files of the dependencies are
# not Python 3.11 (torch's py312_intrinsics.py), which pip skipped the same way. In an existing
# venv pip compiles the little it installs (compileall would read all 20,710 files: ~16 CPU s).
compile=()
if [ ! -x .venv/bin/python ]; then python3 -m venv .venv; compile=(--no-compile); fi
.venv/bin/python -m pip install -q "${compile[@]}" --upgrade pip setuptools  # the venv's own are old (pip 23, setuptools 65)
.venv/bin/python -m pip install -q "${compile[@]}" -e ".[test,postgres]"
if [ ${#compile[@]} -gt 0 ]; then
  .venv/bin/python -m compileall -qq -j 0 "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" || true
fi
# The editable install leaves src/ uncompiled, and where PYTHONDONTWRITEBYTECODE is set (this
# machine's environment) no process writes the bytecode it makes: every lane, test server, CLI
# run and Ray or pool worker compiled the trapworks modules it imports, each time (~0.35 CPU s
# more a process for the server and CLI: 2.69 against 2.35 CPU s, mean of 3, docs/testing.md).
# Compiling src/ once costs 0.8 CPU s; Python reads the bytecode whatever that variable says, and
# recompiles (in memory) a file changed since.
.venv/bin/python -m compileall -q src
for pid in "${npm_pids[@]}"; do wait "$pid"; done  # the npm installs (above)

# Lint, format and types: ruff, mypy, tsc --checkJs, ESLint. Any finding fails the run. With pytest
# arguments they run first, as before; for the whole suite they run beside the first two lanes
# (which mostly wait on Chromium and sockets at their start), and the run fails at the end if they
# found anything: the suite's wall time is its CPU time on two cores, and lint had those cores to
# itself for a minute or two before.
lint() {
  echo "ruff check, ruff format --check, mypy..."
  .venv/bin/ruff check src tests bench
  .venv/bin/ruff format --check src tests bench
  .venv/bin/mypy
  echo "tsc --checkJs --noEmit, eslint (the web front end)..."
  (cd tests/web/lint && node_modules/.bin/tsc --checkJs --noEmit -p tsconfig.json)
  tests/web/lint/node_modules/.bin/eslint --config tests/web/lint/eslint.config.mjs src/trapworks/web/static
}
# With arguments: pytest with them, as asked. Without: the whole suite as five pytest processes
# at once, each a lane that writes its own report, shown when all are done:
#   browser the browser tests (tests/web/*browser*.py but the French pages' file, which the heavy
#         lane runs after its own): mostly waits on Chromium and the server;
#   pages the game-page and API files of tests/web that need no database server (listed below);
#   web   the other web and server tests (they hold the PostgreSQL and cluster tests): mostly
#         waits on sockets and cluster nodes; these three overlap the CPU-bound lanes;
#   heavy the files where the suite's CPU time is (Booby Trap's physics at rest over every stored
#         tray, 13 Dead End Drive's batched engine against the kernel move for move, the vector
#         environments against the kernel step for step): on the second core, beside the rest;
#   rest  everything else.
# Five lanes on two cores: the browser, pages and web lanes spend most of their wall time waiting (on
# Chromium, sockets, cluster nodes, sleeps that are part of what they check), so the two
# CPU-bound lanes keep both cores busy. Measured (CI, 2 cores, 4 lanes, before the warm-up below):
# browser 1,952 s, web 1,914 s, heavy 1,177 s, rest 2,658 s wall; see docs/testing.md for the
# figures after and how to measure them.
# For daily work the fast lane (`pytest -m "not slow" --ignore=tests/web`, README) leaves the
# exhaustive checks and the server out.
if [ $# -gt 0 ]; then
  lint
  exec .venv/bin/python -m pytest "$@"
fi
heavy=(tests/booby_trap/test_at_rest.py tests/dead_end_drive/test_dd_batch.py tests/research/test_vector_env*.py)
# The French pages' browser tests run in the heavy lane, after its own files: in the clean-clone
# run the heavy lane ended 7 minutes before the browser lane (07:19 against 07:26; browser
# 1,823 s), and these are about 5 minutes of the browser lane (docs/testing.md).
late_browser=(tests/web/test_i18n_browser.py)
browser=()
for f in tests/web/*browser*.py; do
  case " ${late_browser[*]} " in *" $f "*) ;; *) browser+=("$f") ;; esac
done
logs=$(mktemp -d)
(set -e; lint) > "$logs/lint.log" 2>&1 &
lint_pid=$!
# A real browser against a real server on a loaded machine: a test that fails on a timeout is run
# once more, as Playwright's own CI set-up does (retries), and every such rerun is listed in the
# summary ("RERUN"), so a flaky test is seen and fixed rather than hidden. Any other failure fails.
retry=(-raR --reruns 1 --reruns-delay 2 --only-rerun TimeoutError)
.venv/bin/python -m pytest "${browser[@]}" "${retry[@]}" --durations=30 > "$logs/browser.log" 2>&1 &
lanes=($!)
# The other web tests as two lanes (they wait on servers and pages far more than they compute):
# "pages", the game pages and the API tests that need no database server, and "web", the rest
# (PostgreSQL, the cluster behind HAProxy, the small-disk and memory bounds), which share local
# services and so stay in one process.
pages=(tests/web/test_game_page.py tests/web/test_dead_end_drive_board.py tests/web/test_mouse_trap_board.py
       tests/web/test_boards.py tests/web/test_i18n.py tests/web/test_secrets.py tests/web/test_security_headers.py
       tests/web/test_hints.py tests/web/test_live.py tests/web/test_options_everywhere.py
       tests/web/test_fair_undo_web.py tests/web/test_takeback.py tests/web/test_server_analysis_hook.py
       tests/web/test_static_view.py tests/web/test_docs_match.py tests/web/test_error_codes.py
       tests/web/test_inputs.py tests/web/test_fuzz.py)
# The pages lane ended about 15 minutes before the rest lane (CI: 958 s against 1,845 s), so it
# also takes two CPU-bound parts of the rest, after its own files (by then the warm-up has filled
# the engines' cache): the stuck-position guard (tests/stuck, ~220 s of the rest lane in CI) and
# the Ray cluster tests (~175 s). The Ray files share one cluster (tests/sim/conftest.py): in this
# order its worker nodes are each started once (the token test starts one, test_ray.py the second,
# its lost-worker test kills the first, test_ray_no_workers.py the second).
moved=(tests/stuck tests/sim/test_ray_operations.py tests/sim/test_ray.py tests/sim/test_ray_no_workers.py)
.venv/bin/python -m pytest "${pages[@]}" "${moved[@]}" "${retry[@]}" --durations=30 > "$logs/pages.log" 2>&1 &
lanes+=($!)
web_ignore=()
for f in "${browser[@]}" "${late_browser[@]}" "${pages[@]}"; do web_ignore+=(--ignore="$f"); done
# The community's tests (its browser pages, arenas on two nodes with a node killed, PostgreSQL)
# wait on servers like the web lane's, which ended 8 minutes before the rest lane in CI (1,307 s
# against 1,789 s): they run there, after tests/web's own.
.venv/bin/python -m pytest tests/web tests/community "${web_ignore[@]}" "${retry[@]}" --durations=30 \
  > "$logs/web.log" 2>&1 &
lanes+=($!)
# The compiled engines (numba: Mouse Trap's and 13 Dead End Drive's batched engines) are compiled
# once here, one engine on each core, into the data folder's numba-cache/, which every lane's tests
# and their CLI subprocesses then load in seconds. A fresh clone's cache is cold (numba keys it by
# the source files' path and time), and before this each lane and CLI subprocess that met an engine
# compiled it for itself, several at once: 50-70 CPU s per engine each time (test_dd_agents_cli's
# simulate-and-play took 172 s, 5 s with the cache filled). The heavy lane starts after it.
echo "compiling the batched engines and vector environments (or loading them from the cache)..."
warm=()
# Then, in the same process chain (it loads the engine just cached), the game's vector environment
# (its own compiled step, ~114 CPU s cold for Mouse Trap's; tests/research/test_vector_env*.py):
# a reset and a step of each compiles it (Last Mouse Lost's, not numba, is checked on the way).
vec_warm='import sys, gymnasium, numpy, trapworks.adapters.gymnasium
for env_id in sys.argv[1:]:
    envs = gymnasium.make_vec(env_id, num_envs=2)
    _, info = envs.reset(seed=0)
    envs.step(numpy.argmax(info["action_mask"], axis=1).astype(numpy.int64))
    envs.close()'
declare -A vec_ids=([mouse-trap]="trapworks/MouseTrap-v0"
                    [dead-end-drive]="trapworks/DeadEndDrive-v0 trapworks/LastMouseLost-v0")
for game in mouse-trap dead-end-drive; do
  { .venv/bin/trapworks simulate "$game" -a heuristic,random -p 2 -n 2 -w 1 --out "$logs/warm-$game.csv" --json \
      && .venv/bin/python -c "$vec_warm" ${vec_ids[$game]}; } > "$logs/warm-$game.log" 2>&1 &
  warm+=($!)
done
# The rest lane starts at once too, its files that never meet a compiled engine first (the rules,
# server-free and solver tests), so the cores are busy while the warm-up compiles; the files that
# run the engines come last, by which time the warm-up has filled the cache (measured: the lane
# waited 3-12 minutes for it before, while the run's CPU was 40% idle).
engine_files=(tests/agents tests/cli tests/research tests/sim tests/mouse_trap tests/dead_end_drive)
first_files=()
for entry in tests/*; do
  case " ${engine_files[*]} ${moved[*]} tests/web tests/community " in *" $entry "*) continue ;; esac
  if [ -d "$entry" ] || [[ "$(basename "$entry")" == test_*.py ]]; then first_files+=("$entry"); fi
done
ignore=(--ignore=tests/web)
for f in "${heavy[@]}" "${moved[@]}"; do ignore+=(--ignore="$f"); done
.venv/bin/python -m pytest "${first_files[@]}" "${engine_files[@]}" "${ignore[@]}" --durations=30 \
  > "$logs/rest.log" 2>&1 &
lanes+=($!)
for pid in "${warm[@]}"; do
  wait "$pid" || { cat "$logs"/warm-*.log; kill "${lanes[@]}" "$lint_pid" 2>/dev/null; exit 1; }
done
# The heavy lane after the warm-up: its tests are long and CPU-bound (pytest's 300 s timeout a
# test), and started beside the compilation they ran out of time on a loaded machine.
# Its tests are sized to take 1-2 CPU minutes each; on a machine shared with other work (CI here
# got about 40% of the two cores: docs/testing.md) that ran past pytest's 300 s a test, so this lane
# allows 900 s (a hang is still stopped).
# Then the late browser files, with the browser lane's retry on a timeout.
(
  heavy_status=0
  .venv/bin/python -m pytest "${heavy[@]}" --timeout 900 --durations=30 > "$logs/heavy.log" 2>&1 || heavy_status=1
  .venv/bin/python -m pytest "${late_browser[@]}" "${retry[@]}" --durations=30 > "$logs/heavy-browser.log" 2>&1 \
    || heavy_status=1
  exit $heavy_status
) &
lanes+=($!)
status=0
lint_status=0
wait "$lint_pid" || lint_status=1
for lane in "${lanes[@]}"; do wait "$lane" || status=1; done
echo "=== lint (ruff, mypy, tsc, eslint)"; cat "$logs/lint.log"
if [ $lint_status -ne 0 ]; then echo "lint FAILED (see above)"; status=1; fi
echo "=== pytest (the rest: not tests/web, not the heavy lane)"; cat "$logs/rest.log"
echo "=== pytest ${heavy[*]}"; cat "$logs/heavy.log"
echo "=== pytest ${late_browser[*]} (headless Chromium, in the heavy lane after its files)"
cat "$logs/heavy-browser.log" 2>/dev/null || echo "(not run)"
echo "=== pytest tests/web (the server's tests, no browser, not the pages lane)"; cat "$logs/web.log"
echo "=== pytest ${pages[*]} ${moved[*]}"; cat "$logs/pages.log"
echo "=== pytest tests/web/*browser*.py (headless Chromium)"; cat "$logs/browser.log"
exit $status
