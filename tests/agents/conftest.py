"""The search tests import their toy games as `search_toy_games` (also by "module:Class"
strings in a game's `agents`), whatever pytest's import mode."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
