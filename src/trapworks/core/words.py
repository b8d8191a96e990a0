"""English words for the developer-facing messages (errors of options, notation, the CLI).

Player-facing texts come from the catalogs (core/messages.py); these are the English of
refusals that name a count, so none has to write "(s)".
"""

from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    """`one` for a count of 1, else `many` (default: `one` + "s")."""
    return one if count == 1 else (many if many is not None else one + "s")


class Said(str):
    """An English sentence that also says which message it is (issue 37): the template, a message
    id of the web catalog, and its values (numbers, names), so a refusal that carries it (the
    server's `ServiceError`) is worded in the viewer's language. It is the English text wherever
    a string is expected (the terminal prints it as is)."""

    msg: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Said:
        text = template
        for key, value in values.items():
            text = text.replace("{" + key + "}", str(value))
        said = super().__new__(cls, text)
        said.msg = template
        said.values = dict(values)
        return said

    @classmethod
    def worded(cls, text: str, msg: str, values: dict[str, object]) -> Said:
        """A message whose English is `text`, made by its catalog (a game's message id, not a
        template: a seat is a number there, named by the catalog's rules)."""
        said = super().__new__(cls, text)
        said.msg = msg
        said.values = dict(values)
        return said

    def __reduce__(self) -> tuple[object, ...]:
        return (_said, (self.msg, self.values, str(self)))


def _said(template: str, values: dict[str, object], text: str | None = None) -> Said:
    return Said(template, **values) if text is None else Said.worded(text, template, values)
