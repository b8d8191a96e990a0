"""English words for the developer-facing messages (errors of options, notation, the CLI).

Player-facing texts come from the catalogs (core/messages.py); these are the English of
refusals that name a count, so none has to write "(s)".
"""


def plural(count: int, one: str, many: str | None = None) -> str:
    """`one` for a count of 1, else `many` (default: `one` + "s")."""
    return one if count == 1 else (many if many is not None else one + "s")
