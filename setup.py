"""Optional compiled code; everything else is declared in pyproject.toml.

Last Mouse Lost's state has its hot path in C (src/trapworks/games/last_mouse_lost/_fastlml.c).
Booby Trap copies a loaded Chipmunk space exactly in C (src/trapworks/games/booby_trap/_worldcopy.c),
so that a removal can start from the loaded tray its hold check left instead of loading it again.
Both extensions are optional: without a C compiler and Python's headers the install still succeeds
and the games run their pure-Python paths, with the same behaviour (set TRAPWORKS_PURE_PYTHON=1 to
use those paths even where the extensions are built).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "trapworks.games.last_mouse_lost._fastlml",
            ["src/trapworks/games/last_mouse_lost/_fastlml.c"],
            optional=True,
        ),
        Extension(
            "trapworks.games.booby_trap._worldcopy",
            ["src/trapworks/games/booby_trap/_worldcopy.c"],
            optional=True,
        ),
    ]
)
