"""Where trapworks keeps its files: a neutral module that every layer may import (it imports
nothing of trapworks)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """Where trapworks keeps records and its database: $TRAPWORKS_HOME, else the platform's user
    data folder (platformdirs: $XDG_DATA_HOME/trapworks or ~/.local/share/trapworks on Linux,
    ~/Library/Application Support/trapworks on macOS, %LOCALAPPDATA%\\trapworks on Windows)."""
    if os.environ.get("TRAPWORKS_HOME"):
        return Path(os.environ["TRAPWORKS_HOME"])
    return platformdirs.user_data_path("trapworks", appauthor=False)


def numba_cache_dir() -> Path:
    """Where the compiled engines (numba) keep their machine code between runs: $NUMBA_CACHE_DIR
    when set, else the data folder's `numba-cache/` (compiled once, then loaded in seconds)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return data_dir() / "numba-cache"


def use_numba_cache() -> Path:
    """Point numba's cache at `numba_cache_dir()` (before numba reads its settings: trapworks'
    own import does this; worker processes inherit it through the environment); the folder."""
    import sys

    folder = numba_cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before trapworks: its settings are read, set them too
        numba.config.CACHE_DIR = str(folder)
    return folder
