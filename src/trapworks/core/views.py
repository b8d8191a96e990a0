"""Typed views: each game declares the shape of a seat's dynamic view, its private fields marked.

A view has three parts (issue 23): the static part (the spec's `static_view`, sent once with the
game's info), the seat's dynamic view (`State.view(seat)`, typed here) and the affordances (its
`legal_actions`). A game declares its dynamic view as a `TypedDict` (the spec's `view_type`) and
marks what only one seat may read with `Private`:

    class CardGameView(TypedDict):
        seat: int | None
        hand: Annotated[list[str], Private([])]          # the viewing seat's own cards
        players: Annotated[list[PlayerView], PerSeat()]  # one record per seat, its "seat" key

A `Private` field of the view belongs to the seat the view is made for; one inside a `PerSeat`
record belongs to that record's seat. The kernel (`strip_private`, which `State.view` and
`view_for` apply) replaces every private field that is not the viewer's by its declared empty
value, so a view's shape never changes with who reads it and no secret reaches another seat or
a spectator, whatever the game's own code put there.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Annotated, Any, get_args, get_origin, get_type_hints, is_typeddict


class Private:
    """Marks a view field as private to its seat (see the module's text); `empty` is what other
    viewers read in its place (copied for each view)."""

    __slots__ = ("empty",)

    def __init__(self, empty: Any = None):
        self.empty = empty

    def __repr__(self) -> str:
        return f"Private({self.empty!r})"


class PerSeat:
    """Marks a view field as a list of per-seat records (TypedDicts with a "seat" key) whose
    `Private` fields belong to the record's seat."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "PerSeat()"


@dataclass(frozen=True)
class ViewShape:
    """What the kernel reads of a view type: its keys, private fields and per-seat records."""

    required: frozenset[str]
    optional: frozenset[str]
    private: dict[str, Any]  # field -> the empty value other viewers read
    per_seat: dict[str, ViewShape]  # field -> the shape of its records

    @property
    def keys(self) -> frozenset[str]:
        return self.required | self.optional

    @property
    def has_private(self) -> bool:
        return bool(self.private) or any(s.has_private for s in self.per_seat.values())


_SHAPES: dict[type, ViewShape] = {}


def view_shape(view_type: type) -> ViewShape:
    """The shape of a TypedDict view type (made once per type). TypeError when it is not one,
    or a PerSeat field is not a list of TypedDicts with a "seat" key."""
    found = _SHAPES.get(view_type)
    if found is not None:
        return found
    if not is_typeddict(view_type):
        raise TypeError(f"{view_type!r} is not a TypedDict: a view type is one")
    hints = get_type_hints(view_type, include_extras=True)
    private: dict[str, Any] = {}
    per_seat: dict[str, ViewShape] = {}
    for name, hint in hints.items():
        marks = get_args(hint)[1:] if get_origin(hint) is Annotated else ()
        for mark in marks:
            if isinstance(mark, Private):
                private[name] = mark.empty
            elif isinstance(mark, PerSeat):
                inner = get_args(hint)[0]
                item = get_args(inner)[0] if get_origin(inner) is list and get_args(inner) else None
                if item is None or not is_typeddict(item) or "seat" not in get_type_hints(item):
                    raise TypeError(
                        f"{view_type.__name__}.{name}: PerSeat marks a list of TypedDicts with a 'seat' key"
                    )
                per_seat[name] = view_shape(item)
    shape = ViewShape(
        frozenset(getattr(view_type, "__required_keys__", ())),
        frozenset(getattr(view_type, "__optional_keys__", ())),
        private,
        per_seat,
    )
    _SHAPES[view_type] = shape
    return shape


def strip_private(
    view: dict[str, Any], shape: ViewShape, owner: int | None, viewer: int | None
) -> dict[str, Any]:
    """`view`, made for seat `owner`, as `viewer` (None: a spectator) may read it: every private
    field that is not the viewer's replaced by its empty value (a new dict where one changes)."""
    out = view
    if shape.private and (viewer is None or viewer != owner):
        out = dict(view)
        for name, empty in shape.private.items():
            if name in out:
                out[name] = copy.deepcopy(empty)
    for name, inner in shape.per_seat.items():
        records = out.get(name)
        if not inner.has_private or not isinstance(records, list):
            continue
        stripped = [
            strip_private(r, inner, r.get("seat"), viewer) if isinstance(r, dict) else r for r in records
        ]
        if any(a is not b for a, b in zip(stripped, records, strict=True)):
            if out is view:
                out = dict(view)
            out[name] = stripped
    return out


def conforms(view: dict[str, Any], shape: ViewShape) -> list[str]:
    """How `view` departs from its declared shape (missing or undeclared keys); [] when it fits."""
    problems = [f"missing key {k!r}" for k in sorted(shape.required - view.keys())]
    problems += [f"undeclared key {k!r}" for k in sorted(view.keys() - shape.keys)]
    return problems


__all__ = ["PerSeat", "Private", "ViewShape", "conforms", "strip_private", "view_shape"]
