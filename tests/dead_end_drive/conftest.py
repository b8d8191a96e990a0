"""13 Dead End Drive tests import their helpers as `dd_helpers` whatever pytest's import mode."""

import sys
from pathlib import Path

for _dir in (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent):
    if str(_dir) not in sys.path:
        sys.path.insert(0, str(_dir))
