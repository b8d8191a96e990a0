"""trapworks: rule-faithful digital editions of classic trap games."""

from . import games as _games  # registers the built-in games  # noqa: F401
from .core import available_games, make

__version__ = "0.1.0"
__all__ = ["make", "available_games", "__version__"]
