"""The `trapworks` command's entry point, kept light: before the command's imports (numpy,
numba, pydantic: seconds of wall time on a loaded machine), a run that will compile or load a
game's batched engine says so at once, then the CLI (trapworks.cli) runs as usual.

Only the standard library and trapworks.paths are imported here; the games are known by their
entry points (metadata, no import) and a compiled engine by its module beside the game's
package (batch.py built on trapworks.core.stream_jit, numba's)."""

from __future__ import annotations

import importlib.util
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

RUN_COMMANDS = ("simulate", "tournament", "explore")
# Flags after which the run plays on the kernel, on Ray's workers, prints only JSON or no run at all.
NO_LOCAL_ENGINE = ("--backend=ray", "--keep-records", "--max-actions", "--json", "--help", "-h")

# When the early notice is said: "auto" (the default) when stderr is a terminal, where a person
# waits on it; "always"; "never". A run whose stderr is a pipe or a log gets the warm-up's own line
# later, and a mistyped option's error stays the one line a script reads.
NOTICE_ENV = "TRAPWORKS_COMPILE_NOTICE"

# Set once the notice is printed; cli.simulate.warm_engines reads it (this module sits above the
# CLI's layer and is not imported there) so as not to say it twice.
ANNOUNCED_ENV = "TRAPWORKS_COMPILE_ANNOUNCED"


def engine_game(argv: list[str]) -> str | None:
    """The game whose batched engine this command line will prepare before its workers start
    (simulate, tournament or explore of a game that ships one, on this machine), else None."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or words[0] not in RUN_COMMANDS:
        return None
    if any(a in NO_LOCAL_ENGINE or a.split("=")[0] in NO_LOCAL_ENGINE for a in argv):
        return None
    if any(a == "--backend" and b == "ray" for a, b in zip(argv, argv[1:], strict=False)):
        return None
    games = {e.name: e.value for e in entry_points(group="trapworks.games")}
    game = next((w for w in words[1:] if w in games), None)
    if game is None:
        return None
    package = games[game].split(":")[0]
    try:
        found = importlib.util.find_spec(package)  # imports its parent package, not the game
    except (ImportError, ValueError):
        return None
    if found is None or not found.submodule_search_locations:
        return None
    engines = [Path(p) / "batch.py" for p in found.submodule_search_locations]
    # numba compiles an engine built on core.stream_jit; Last Mouse Lost's is C, built at install
    if not any(e.exists() and "trapworks.core.stream_jit" in e.read_text(encoding="utf-8") for e in engines):
        return None
    return game


def announce(argv: list[str]) -> bool:
    """Say at once that a run's compiled engine is being prepared (compiled on first use, loaded
    from the cache later); True when said."""
    from trapworks.paths import numba_cache_dir

    mode = os.environ.get(NOTICE_ENV, "auto")
    if mode == "never" or (mode != "always" and not sys.stderr.isatty()):
        return False
    game = engine_game(argv)
    if game is None:
        return False
    sys.stderr.write(
        f"Compiling {game}'s batched engine: up to a minute on first use, "
        f"then seconds from the cache in {numba_cache_dir()}\n"
    )
    sys.stderr.flush()
    os.environ[ANNOUNCED_ENV] = game
    return True


def main() -> None:
    announce(sys.argv[1:])
    from trapworks.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
