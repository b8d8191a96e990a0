"""Optional compiled code; everything else is declared in pyproject.toml.

Last Mouse Lost's state has its hot path in C (src/trapworks/games/last_mouse_lost/_fastlml.c).
The extension is optional: without a C compiler and Python's headers the install still succeeds
and the game runs its pure-Python path, with the same behaviour (set TRAPWORKS_PURE_PYTHON=1 to
use that path even where the extension is built).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "trapworks.games.last_mouse_lost._fastlml",
            ["src/trapworks/games/last_mouse_lost/_fastlml.c"],
            optional=True,
        )
    ]
)
