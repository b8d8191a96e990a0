"""trapworks: rule-faithful digital editions of classic trap games."""

from . import games as _games  # registers the built-in games  # noqa: F401
from .core import available_games, make

# Bumped whenever the rules (or anything else that changes a game's rows) change: simulation rows
# carry it, and tests/sim/test_provenance.py fails when the games play differently under the
# same version.
__version__ = "0.3.0"
__all__ = ["make", "available_games", "__version__"]
