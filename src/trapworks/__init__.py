"""trapworks: rule-faithful digital editions of classic trap games."""

from .paths import use_numba_cache

use_numba_cache()  # before any engine is compiled: the cache lives in the data folder

from typing import TYPE_CHECKING, Any  # noqa: E402

from . import games as _games  # noqa: E402, F401  (registers the built-in games)

if TYPE_CHECKING:
    from .core import available_games, make


def __getattr__(name: str) -> Any:
    # `make` and `available_games` load trapworks.core (numpy, pydantic) on first use, not at
    # `import trapworks`: the command line says what it does before those seconds of imports.
    if name in ("make", "available_games"):
        from . import core

        return getattr(core, name)
    raise AttributeError(f"module 'trapworks' has no attribute {name!r}")


# Bumped whenever the rules (or anything else that changes a game's rows) change: simulation rows
# carry it, and tests/sim/test_provenance.py fails when the games play differently under the
# same version.
__version__ = "0.4.0"
__all__ = ["make", "available_games", "__version__"]
