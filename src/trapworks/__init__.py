"""trapworks: rule-faithful digital editions of classic trap games."""

from .paths import use_numba_cache

use_numba_cache()  # before any engine is compiled: the cache lives in the data folder

from . import games as _games  # noqa: E402, F401  (registers the built-in games)
from .core import available_games, make  # noqa: E402

# Bumped whenever the rules (or anything else that changes a game's rows) change: simulation rows
# carry it, and tests/sim/test_provenance.py fails when the games play differently under the
# same version.
__version__ = "0.4.0"
__all__ = ["make", "available_games", "__version__"]
