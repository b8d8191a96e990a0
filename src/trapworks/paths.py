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
