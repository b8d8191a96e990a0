"""Booby Trap (Parker Brothers, 1965), seed 001: the regular game and its three variant games.

Whether a removal moves the spring bar is decided by the rigid-body model in `physics.py`, not
by a dice roll. A turn is two actions: touch one piece (the toucher alone gets a tension
reading), then pass or remove it.

Action ids: 0..N-1 touch piece id; N pass; N+1 remove the touched piece (N = number of pieces).
"""

from __future__ import annotations

import random
import re
import weakref
from statistics import NormalDist
from typing import Any

from trapworks.core import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    Option,
    OptionError,
    State,
)
from trapworks.core.messages import told
from trapworks.core.randomness import new_seed, stream_seed

from . import physics
from .physics import MARK, POINTS, SIZE_NAMES, SIZES, Packing, Piece

VARIANTS = ("regular", "solitaire", "sizes-in-order", "no-passes")
MAX_PLAYERS = 6
# Pieces pressed together at rest overlap by a few tenths of a millimetre in the model (0.33 mm
# the most seen in four random games); rounded to the eye's millimetre (EYE_MM, below) two
# centres can seem up to 1.4 mm closer. A position with more is not a packing at rest.
MAX_REST_OVERLAP = 2.5  # mm
SOLITAIRE_TRIPS_ALLOWED = 3  # 001: 'tripping the spring bar no more than three times'
PENALTY = 3  # 001: 'the player is penalized three points'
# 001: 'one large size piece, or one medium size piece plus one small size piece, or three small
# sizes pieces': the ways to pay three points, in the rulebook's order (the one we try first).
PAYMENTS = (("L",), ("M", "S"), ("S", "S", "S"))
# A touch (issue 25): "A loose playing piece can be found only by feeling carefully the tension on
# the piece" (001). A hand judges a force to within a fixed fraction of it (Weber's law, about a
# tenth for pressure and weight: the `tension_noise` option), and cannot tell a tension below about
# half a percent of the bar's force from none: the reading's absolute noise.
TOUCH_FLOOR = 0.005
FEELS = ((0.02, "loose"), (0.15, "light"), (0.5, "firm"), (float("inf"), "tight"))
# What a seat sees of the tray: positions at the resolution of an eye looking down at it, the
# nearest millimetre (a player reads a ruler by eye to a millimetre, not to its tenths). With
# exact positions any program recomputes every piece's tension from the view, better than the
# toucher's own reading; at 0.5 mm the tray model on the view still ranked the pieces better than
# a touch did (issue 25). At 1 mm, with the touch above, the reading is clearly ahead of the best
# estimate from the view (bench/booby_trap_perception.py, docs/booby-trap.md).
EYE_MM = 1.0
# How many trays the first set-up node picks among (public), and how many placements below the
# eye's resolution the second draws among (nobody sees it).
TRAYS = 4
JITTERS = 3
# A touch's noise as chance (the OpenSpiel tree's, and the kernel's with noise=chance): this many
# equally likely levels, the midpoints in probability of the normal distribution of the
# `tension_noise` option.
NOISE_LEVELS = 5
_QUANTILES = tuple(NormalDist().inv_cdf((i + 0.5) / NOISE_LEVELS) for i in range(NOISE_LEVELS))


def noisy_reading(true: float, sigma: float, level: int) -> float:
    """What a toucher reads at noise level `level`: the true tension plus that level's noise,
    never below 0."""
    return round(max(0.0, true + sigma * _QUANTILES[level]), 3)


def noise_outcomes(true: float, sigma: float) -> list[tuple[int, float]]:
    """The noise levels of a touch as chance outcomes (level, probability); levels that give the
    same reading (below 0, read as 0) are one outcome: the toucher sees the reading, not the noise."""
    first: dict[float, int] = {}
    probs: dict[int, float] = {}
    for level in range(NOISE_LEVELS):
        i = first.setdefault(noisy_reading(true, sigma, level), level)
        probs[i] = probs.get(i, 0.0) + 1 / NOISE_LEVELS
    return sorted(probs.items())


def noise_value(sigma: float, level: int) -> float:
    return _QUANTILES[level] * sigma


# Positions as views give them (to EYE_MM) must read back: pieces seen within EYE_MM of the walls
# or the bar, and seen overlapping by up to about 1.5 EYE_MM more than they do.
POSITION_SLACK = 1.0 + EYE_MM


def eye(value: float) -> float:
    """A length as an eye reads it: to the nearest EYE_MM."""
    return round(round(value / EYE_MM) * EYE_MM, 2)


def decimal(value: float) -> dict[str, Any]:
    """A measurement for a message: written with two decimals in the reader's language."""
    return {"decimal": round(float(value), 2), "digits": 2}


# A travel on the scale as a player reads it, to the nearest quarter of a mark (judge 5: "the
# spring bar moves 9.13 marks" read as machine output): the whole marks and the quarter past them.
_QUARTERS = ("whole", "quarter", "half", "three_quarters")
# Under one mark (a piece kept): the part of one mark, "almost a mark" for one that rounds up to it.
_PARTS = ("under_quarter", "quarter", "half", "three_quarters", "almost")


def marks_msg(marks: float) -> dict[str, Any]:
    """How far the bar moved, for a message: "9¼ marks", "1 mark" from one mark up (a trip), "half
    a mark", "less than a quarter of a mark" under one (a piece kept: never "1 mark" for a travel
    short of it)."""
    quarters = round(max(marks, 0.0) * 4)
    if marks < 1.0:
        return {"msg": f"booby_trap.part.{_PARTS[min(quarters, 4)]}"}
    whole, quarter = divmod(max(quarters, 4), 4)
    return {"msg": f"booby_trap.marks.{_QUARTERS[quarter]}", "args": {"n": whole}}


def size_msg(size: str) -> dict[str, Any]:
    return {"msg": f"booby_trap.size.{SIZE_NAMES[size]}"}


def feel_args(piece: int, reading: float) -> dict[str, Any]:
    return {
        "piece": piece,
        "feel": {"msg": f"booby_trap.feel.{feel_word(reading)}"},
        "tension": decimal(reading),
    }


def feel_word(reading: float) -> str:
    for limit, word in FEELS:
        if reading < limit:
            return word
    return "tight"


class BoobyTrapGame(Game):
    game_id = "booby-trap"
    title = "Booby Trap"
    # The options, declared once (trapworks.core.options): kernel, CLI and lobby all read this.
    options_schema = (
        Option.integer(
            "players",
            None,
            1,
            MAX_PLAYERS,
            nullable=True,
            null_label="2 (1 for solitaire)",
            expects=f"2 to {MAX_PLAYERS} players (1 for variant=solitaire)",
            label="Players",
            help="How many take turns removing pieces.",
        ),
        Option.choice(
            "variant",
            "regular",
            VARIANTS,
            labels={
                "regular": "Regular game",
                "solitaire": "Solitaire",
                "sizes-in-order": "Sizes in order (small, then medium, then large)",
                "no-passes": "No passes",
            },
            names={
                "regular": "regular game",
                "solitaire": "solitaire",
                "sizes-in-order": "sizes in order",
                "no-passes": "no passes",
            },
            label="Game",
            help="The regular game or one of the rulebook's three variant games.",
            source="the regular game and its variant games",
        ),
        Option.boolean(
            "teaching",
            False,
            label="Show the forces",
            help="Every player sees how hard each piece presses (for learning, not for a real game).",
        ),
        Option.number(
            "tension_noise",
            0.1,
            0.0,
            1.0,
            label="Touch accuracy",
            help="How unsure a touch reading is (0: exact), as a fraction of the tension felt.",
            source="silent on how much a touch tells",
            advanced=True,
        ),
        Option.integer(
            "pieces_per_size",
            20,
            1,
            21,
            label="Pieces of each size",
            help="How many small, medium and large pieces fill the tray.",
            source="20 of each piece (a later remake has 21)",
            advanced=True,
        ),
        Option.choice(
            "first_player",
            0,
            list(range(MAX_PLAYERS)),
            labels={i: f"Player {i + 1}" for i in range(MAX_PLAYERS)},
            label="Who starts",
            help="The player who takes the first turn.",
            source="'A player is selected to take the first turn'",
        ),
        Option.choice(
            "setup",
            "seeded",
            ("seeded", "chance"),
            labels={
                "seeded": "Mixed from the game's seed",
                "chance": "Chance nodes (for tree search)",
            },
            label="Tray set-up",
            help=(
                "Where the tray comes from: mixed from the game's seed (every game its own tray), or "
                "two chance nodes before the first move, one of 4 trays (public) and then one of 3 "
                "placements below the eye's resolution (nobody sees it): the OpenSpiel tree's "
                "set-up with seed=-1, in the kernel's own chance model."
            ),
            source="leaves the mixing to the players",
            advanced=True,
        ),
        Option.choice(
            "noise",
            "seeded",
            ("seeded", "chance"),
            labels={
                "seeded": "Drawn from the game's seed",
                "chance": "Chance nodes (for tree search)",
            },
            label="Touch noise",
            help=(
                "Where a touch's noise comes from: drawn from the game's seed, or a chance node "
                "after each touch, one of 5 equally likely levels (only the toucher sees it): the "
                "OpenSpiel tree's with seed=-1, in the kernel's own chance model."
            ),
            source="silent on how much a touch tells",
            advanced=True,
        ),
    )
    has_hidden_information = True  # touch readings
    has_chance = False  # the setup's mixing is seeded (setup=chance: two chance nodes); physics the rest
    # Agents, levels, hints, encoder and analysis hooks: the package's SPEC (__init__.py).

    def _validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        # The schema has checked each value; left: what depends on the variant and player count.
        variant = options["variant"]
        players = options["players"]
        if players is None:
            players = 1 if variant == "solitaire" else 2
        if variant == "solitaire":
            if players != 1:
                raise OptionError(f"players {players}: the solitaire game is for 1 player")
        elif not 2 <= players <= MAX_PLAYERS:
            raise OptionError(
                f"players {players}: the {variant} game is for 2 to {MAX_PLAYERS} players "
                "(1 player: variant=solitaire)"
            )
        options["players"] = players
        per = options["pieces_per_size"]
        if 3 * per <= players:
            raise OptionError(f"pieces_per_size {per}: too few pieces for {players} players")
        fp = options["first_player"]
        if fp >= players:
            raise OptionError(f"first_player {fp!r}: a seat from 0 to {players - 1}")
        return options

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.players: int = self.options["players"]
        self.variant: str = self.options["variant"]
        self.num_pieces = 3 * self.options["pieces_per_size"]
        self.pass_action = self.num_pieces
        self.remove_action = self.num_pieces + 1
        # 001: 'until there are as many playing pieces left on the board as there are players';
        # solitaire: 'remove all pieces except one'.
        self.end_at = 1 if self.variant == "solitaire" else self.players
        # setup=chance: the set-up's chance outcomes, numbered after the seats' actions.
        self.tray_base = self.num_pieces + 2
        self.placement_base = self.tray_base + TRAYS
        # noise=chance: a touch's noise levels, after the set-up's (a touch with no noise,
        # tension_noise=0, has no noise node).
        self.noise_base = self.placement_base + JITTERS
        self.noise_chance: bool = self.options["noise"] == "chance" and self.options["tension_noise"] > 0
        # Every hidden draw is a kernel chance node: the OpenSpiel adapter adds no layer.
        self.hidden_chance_in_kernel = self.options["setup"] == "chance" and (
            self.noise_chance or self.options["tension_noise"] == 0
        )

    def chance_actions(self) -> tuple[int, ...]:
        """setup=chance: the trays, then the placements below the eye's resolution; else none
        (the tray comes from the seed)."""
        setup = (
            tuple(range(self.tray_base, self.placement_base + JITTERS))
            if self.options["setup"] == "chance"
            else ()
        )
        noise = tuple(range(self.noise_base, self.noise_base + NOISE_LEVELS)) if self.noise_chance else ()
        return setup + noise

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        # Touch piece 0..N-1, pass N, remove N+1.
        return self.num_pieces + 2

    def min_utility(self) -> float:
        if self.variant == "solitaire":
            return -1.0
        # Every removal trips the bar: three points of debt each.
        return -float(PENALTY * self.num_pieces)

    def max_utility(self) -> float:
        if self.variant == "solitaire":
            return 1.0
        return float(self.options["pieces_per_size"] * sum(POINTS.values()))

    def utility_sum(self) -> float | None:
        return None  # net scores: general-sum

    def max_game_length(self) -> int:
        # Per removal at most 2n passes (touch + pass each) before one touch + remove; with
        # noise=chance a noise node after each touch; setup=chance: its two nodes.
        per = 6 * self.players + 3 if self.noise_chance else 4 * self.players + 2
        return self.num_pieces * per + (2 if self.options["setup"] == "chance" else 0)

    def new_initial_state(self, seed: int | None = None) -> BoobyTrapState:
        return BoobyTrapState(self, seed=seed)

    def help_text(self) -> str:
        rules = {
            "no-passes": " No passes in this game.",
            "sizes-in-order": " Small pieces first, then medium, then large.",
            "solitaire": " Remove all pieces but one, tripping the bar no more than three times.",
            "regular": "",
        }[self.variant]
        return (
            "Touch one piece (touch 17, or just 17) to feel its tension, then 'remove' it or 'pass'. "
            "If the spring bar moves a mark (1/4 inch) or more you lose 3 points." + rules
        )


class BoobyTrapState(State):
    game: BoobyTrapGame  # this game's own type (the kernel only knows Game)

    def __init__(
        self,
        game: BoobyTrapGame,
        seed: int | None = None,
        start: str | None = None,
        packing: Packing | None = None,
        sizes: tuple[str, ...] | None = None,
        chance_setup: bool | None = None,
    ):
        super().__init__(game, seed=seed, start=start)
        n = game.players
        # setup=chance: "tray", then "placement", while the set-up's chance nodes are pending.
        self.setup_stage: str | None = None
        # noise=chance: a touch's noise is the next chance node (its reading comes with it).
        self.noise_pending = False
        if packing is None and chance_setup is None:
            chance_setup = game.options["setup"] == "chance"
        if chance_setup:
            # Until the chance nodes have chosen, the state holds tray 0 (what it shows at the
            # chance node; nothing of the tray to come). Its own seed keeps the touch noise.
            if seed is None:
                seed = new_seed()
            self.__dict__.update(_tray(game, 0).__dict__)
            self.seed = seed
            self.noise_key = stream_seed(seed, "noise")
            self.setup_stage = "tray"
            self.setup_tray: int | None = None
            return
        if packing is None:
            if seed is None:
                # A fresh tray each game; the drawn seed is kept, so records and undo replay it.
                seed = new_seed()
                self.seed = seed
            # Separate streams: the tray (public) and the touch noise (each seat's secret).
            packing, at_rest, _checks = physics.set_up_report(
                stream_seed(seed, "pile"), game.options["pieces_per_size"]
            )
            sizes = tuple(p.size for p in packing.pieces)
        else:
            at_rest = True
        # False only if the set-up's tray did not come to hold within physics.MAX_SETTLE_STEPS
        # (never seen; reported in every view as `setup_at_rest`).
        self.setup_at_rest: bool = at_rest
        self.sizes: tuple[str, ...] = sizes  # size of every piece id, on the tray or not
        self.packing: Packing = packing
        self.bar_rest: float = packing.bar  # where the bar settled at the setup (the scale's zero)
        self.to_move = game.options["first_player"]
        self.touched: int | None = None
        self.passes_in_row = 0
        self.touches = 0  # touches so far: numbers each reading's noise
        # None only for positions, which carry their own key.
        self.noise_key = stream_seed(seed, "noise") if seed is not None else 0
        self.removals = 0  # successful or not: numbers the packings ("settles")
        self.winnings: list[list[int]] = [[] for _ in range(n)]
        self.debt = [0] * n
        self.trips = [0] * n
        self.discard: list[int] = []
        self.over = False
        # Private: each seat's own readings; a seat's view and resample show only its own.
        self.readings: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.last_removal: dict[str, Any] | None = None

    # --- who moves --------------------------------------------------------------
    def current_player(self) -> int:
        if self.setup_stage is not None or self.noise_pending:
            return CHANCE
        return TERMINAL if self.over else self.to_move

    def chance_visible_to(self) -> int:
        """Who sees the outcome of this chance node: -1 everybody (the tray), -2 nobody (the
        placement below the eye's resolution), or the toucher (a touch's noise)."""
        if self.setup_stage == "placement":
            return -2
        if self.noise_pending:
            return self.to_move
        return -1

    def public_history(self) -> list[int]:
        """The actions every seat has seen: the placement below the eye's resolution and the
        touches' noise (setup=chance, noise=chance) left out."""
        game = self.game
        lo, hi = game.placement_base, game.noise_base + NOISE_LEVELS
        return [a for a in self._history if not lo <= a < hi]

    def story_owner(self, action: int) -> int | None:
        if self.noise_pending:
            return self.to_move  # the reading belongs to the toucher's turn
        return super().story_owner(action)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        # setup=chance (the only chance nodes): as the OpenSpiel tree's at seed=-1
        # (chance_layer.BoobyTrapChance), equally likely trays, then placements.
        game = self.game
        if self.setup_stage == "tray":
            return [(game.tray_base + t, 1 / TRAYS) for t in range(TRAYS)]
        if self.setup_stage == "placement":
            return [(game.placement_base + j, 1 / JITTERS) for j in range(JITTERS)]
        if self.noise_pending:
            # noise=chance: as the OpenSpiel tree's (chance_layer.BoobyTrapChance).
            sigma = game.options["tension_noise"]
            true = self.true_tension(self.touched)
            return [(game.noise_base + level, p) for level, p in noise_outcomes(true, sigma)]
        return []

    def _set_up(self, action: int) -> None:
        """Apply a set-up chance outcome (setup=chance): the tray becomes the kernel's tray of
        seed t, settled (chance_layer._tray, the same object the OpenSpiel tree uses); then every
        piece and the bar are placed within the eye's resolution (chance_layer.jittered)."""
        game = self.game
        if self.setup_stage == "tray":
            tray = action - game.tray_base
            own = ("game", "seed", "start", "noise_key", "_history", "_events", "_revealed_upto")
            keep = {k: self.__dict__[k] for k in own}
            self.__dict__.update(_tray(game, tray).__dict__)
            self.__dict__.update(keep)
            self.setup_tray = tray
            self.setup_stage = "placement"
        else:
            self.packing = jittered(self, action - game.placement_base, tray=self.setup_tray)
            self.setup_stage = None

    def is_terminal(self) -> bool:
        return self.over

    def pieces_left(self) -> int:
        return len(self.packing.pieces)

    def must_remove(self) -> bool:
        """001: 'If everyone playing has passed twice in succession, then on the third turn a
        player must remove a piece'; the no-passes game never allows a pass."""
        return self.game.variant == "no-passes" or self.passes_in_row >= 2 * self.game.players

    def touchable(self) -> list[int]:
        pieces = self.packing.pieces
        if self.game.variant == "sizes-in-order":
            # 001: 'All small size playing pieces must be removed first. Next, all medium size pieces'
            present = {p.size for p in pieces}
            first = next((s for s in SIZES if s in present), None)
            return [p.id for p in pieces if p.size == first]
        return [p.id for p in pieces]

    # --- actions ------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        if self.touched is None:
            return self.touchable()
        if self.must_remove():
            return [self.game.remove_action]
        return [self.game.pass_action, self.game.remove_action]

    def _why_illegal(self, action: int) -> str | None:
        game = self.game
        if self.setup_stage is not None:
            if action not in [a for a, _ in self._chance_outcomes()]:
                return self._said("setup_outcome", stage=self.setup_stage)
            return None
        if self.noise_pending:
            if action not in [a for a, _ in self._chance_outcomes()]:
                return self._said("noise_outcome")
            return None
        if not 0 <= action <= game.remove_action:
            return self._said(
                "no_action", last=game.num_pieces - 1, pass_id=game.pass_action, remove_id=game.remove_action
            )
        if self.touched is None:
            if action >= game.num_pieces:
                return self._said("touch_first")
            if all(p.id != action for p in self.packing.pieces):
                return self._said("not_on_tray", piece=action)
            if action not in self.touchable():
                first = SIZE_NAMES[self.sizes[self.touchable()[0]]]
                return self._said(f"sizes_in_order.{first}", piece=action, size=size_msg(self.sizes[action]))
            return None
        if action < game.num_pieces:
            return self._said("touched_already", piece=self.touched)
        if action == game.pass_action and self.must_remove():
            if game.variant == "no-passes":
                return self._said("no_passes")
            return self._said("passed_twice")
        return None

    def reveals_outcome(self, action: int) -> bool:
        # A touch reveals a reading and a removal how the tray settles: against an AI, undo must
        # not let a player feel a second piece in one turn or try a removal again.
        return action != self.game.pass_action

    def describe_action(self, action: int) -> str:
        game = self.game
        if action == game.pass_action:
            return "Pass (put the piece back untouched)"
        if action == game.remove_action:
            return f"Remove piece {self.touched}"
        if 0 <= action < game.num_pieces:
            return f"Touch piece {action} (a {SIZE_NAMES[self.sizes[action]]} one)"
        return self.action_to_string(action)

    def describe_message(self, action: int) -> dict[str, Any] | None:
        game = self.game
        if action == game.pass_action:
            return {"msg": "booby_trap.do.pass", "args": {}}
        if action == game.remove_action:
            return {"msg": "booby_trap.do.remove", "args": {"piece": self.touched}}
        if 0 <= action < game.num_pieces:
            return {
                "msg": "booby_trap.do.touch",
                "args": {"piece": action, "size": size_msg(self.sizes[action])},
            }
        return None

    def _apply_action(self, action: int) -> None:
        game = self.game
        if self.setup_stage is not None:
            self._set_up(action)
            return
        seat = self.to_move
        if self.noise_pending:
            self.noise_pending = False
            sigma = game.options["tension_noise"]
            self._feel(seat, noisy_reading(self.true_tension(self.touched), sigma, action - game.noise_base))
            return
        if self.touched is None:
            self._touch(seat, action)
        elif action == game.pass_action:
            self.passes_in_row += 1
            self._events.append(
                {
                    "type": "pass",
                    "seat": seat,
                    "piece": self.touched,
                    "msg": "booby_trap.passes",
                    "args": {"who": seat},
                }
            )
            self.touched = None
            self._next_player()
        else:
            self._remove(seat)

    def _touch(self, seat: int, piece: int) -> None:
        self.touched = piece
        self.touches += 1
        self._events.append(
            {
                "type": "touch",
                "seat": seat,
                "piece": piece,
                "msg": "booby_trap.touches",
                "args": {"who": seat, "piece": piece, "size": size_msg(self.sizes[piece])},
            }
        )
        if self.game.noise_chance:
            self.noise_pending = True  # the reading comes with the noise's chance node
            return
        self._feel(seat, self.reading_for(piece, self.touches))

    def _feel(self, seat: int, reading: float) -> None:
        piece = self.touched
        entry = {
            "touch": self.touches,
            "settle": self.removals,
            "piece": piece,
            "reading": reading,
            "feel": feel_word(reading),
        }
        self.readings[seat].append(entry)
        self._events.append(
            {
                "type": "feel",
                "to": [seat],
                "seat": seat,
                "piece": piece,
                "reading": reading,
                "feel": entry["feel"],
                "msg": "booby_trap.feels",
                "args": feel_args(piece, reading),
            }
        )

    def true_tension(self, piece: int) -> float:
        """Sum of the contact forces on `piece`, in units of the spring's force on the bar."""
        return physics.stress_of(self.packing).load[piece]

    def reading_for(self, piece: int, touch_number: int) -> float:
        """The tension the toucher feels: the true one judged as a hand judges a force, never
        below 0. Weber's law: a felt force is known to within a fixed fraction of itself (the
        `tension_noise` option, the standard deviation of that fraction), and a tension below
        about TOUCH_FLOOR of the bar's force cannot be told from none (docs/booby-trap.md)."""
        noise = self.game.options["tension_noise"]
        true = self.true_tension(piece)
        if noise == 0:
            return round(true, 3)
        rng = random.Random(f"booby-trap-feel:{self.noise_key}:{touch_number}:{piece}")
        felt = true * (1.0 + rng.gauss(0.0, noise)) + rng.gauss(0.0, TOUCH_FLOOR)
        return round(max(0.0, felt), 3)

    def _remove(self, seat: int) -> None:
        piece = self.touched
        # The settle's positions are kept raw (`tape`); the event's animation frames are made from
        # them only if the event is read (`all_events`): playouts and search never draw them.
        result = physics.resolve_removal(self.packing, piece, tape=True)
        self.packing = result.after
        self.removals += 1
        self.passes_in_row = 0
        self.touched = None
        size = self.sizes[piece]
        marks = eye(result.travel) / MARK
        # Read to the eye's resolution a travel just short of a mark can round up to it (and one
        # just past it down): the reading shown never contradicts the judgement.
        marks = max(marks, 1.0) if result.tripped else min(marks, 0.99)
        event: dict[str, Any] = {
            "type": "removal",
            "seat": seat,
            "piece": piece,
            "size": size,
            # The bar's travel as read on the scale, and the animation, at the eye's resolution:
            # the event goes to every seat.
            "travel_mm": eye(result.travel),
            "marks": round(marks, 2),
            "tripped": result.tripped,
            "popped": list(result.popped),
            "bar": eye(self.packing.bar),
            "frames": _LazyFrames(result.tape),
            "at_rest": result.at_rest,
        }
        if not result.tripped:
            # 001: 'he has completed a successful play and keeps the piece'
            self.winnings[seat].append(piece)
            self._pay_debt(seat)
            # A bar that did not move at the eye's resolution is said so, not "0.00 of a mark".
            event["msg"] = "booby_trap.keeps" if round(max(marks, 0.0), 2) > 0 else "booby_trap.keeps_still"
            event["args"] = {
                "who": seat,
                "piece": piece,
                "size": size_msg(size),
                "n": POINTS[size],
                "marks": marks_msg(marks),
            }
            self._events.append(event)
        else:
            # 001: 'the piece that caused the penalty is placed in a discard pile along with any
            # other pieces that may have jumped out of the board or been pushed up on their sides'
            self.trips[seat] += 1
            self.discard.append(piece)
            self.discard.extend(result.popped)
            self.debt[seat] += PENALTY
            paid = self._pay_debt(seat)
            event["msg"] = "booby_trap.trips_popped" if result.popped else "booby_trap.trips"
            # "9¼ marks", "1 graduation": to the quarter mark, as a player reads the scale.
            event["args"] = {
                "who": seat,
                "piece": piece,
                "marks": marks_msg(marks),
            }
            if result.popped:
                event["args"].update(n=len(result.popped), pieces=list(result.popped))
            self._events.append(event)
            self._events.append(
                {
                    "type": "penalty",
                    "seat": seat,
                    "paid": paid,
                    "debt": self.debt[seat],
                    **self._payment_message(seat, paid),
                }
            )
        if not result.at_rest:
            # Never seen (docs/booby-trap.md); if the model ever fails to settle, say so.
            self._events.append(
                {
                    "type": "unsettled",
                    "msg": "booby_trap.unsettled",
                    "args": {"n": round(physics.MAX_SETTLE_STEPS * physics.DT)},
                }
            )
        self.last_removal = {k: v for k, v in event.items() if k != "frames"}
        if self._game_ends():
            self.over = True
            self._events.append(
                {
                    "type": "game_over",
                    "scores": self.scores(),
                    "winners": self.winners(),
                    **self.result_message(),
                }
            )
        else:
            self._next_player()

    def _pay_debt(self, seat: int) -> list[int]:
        """001: 'he must discard from his winnings, pieces equal to three points ... if a player
        should owe more than he can pay he must keep track of his debt and pay it off as soon as
        he wins enough points to do so.' Pays in lots of three points with the rulebook's three
        combinations; returns the pieces discarded."""
        paid: list[int] = []
        held = self.winnings[seat]
        while self.debt[seat] >= PENALTY:
            for combo in PAYMENTS:
                chosen: list[int] = []
                pool = sorted(held)
                for size in combo:
                    match = next((p for p in pool if self.sizes[p] == size and p not in chosen), None)
                    if match is None:
                        break
                    chosen.append(match)
                if len(chosen) == len(combo):
                    break
            else:
                break
            for p in chosen:
                held.remove(p)
            self.discard.extend(chosen)
            paid.extend(chosen)
            self.debt[seat] -= PENALTY
        return paid

    def _game_ends(self) -> bool:
        game = self.game
        if game.variant == "solitaire" and self.trips[0] > SOLITAIRE_TRIPS_ALLOWED:
            return True
        return self.pieces_left() <= game.end_at

    def _next_player(self) -> None:
        self.to_move = (self.to_move + 1) % self.game.players

    # --- results ----------------------------------------------------------------
    def points(self, seat: int) -> int:
        return sum(POINTS[self.sizes[p]] for p in self.winnings[seat])

    def scores(self) -> list[int]:
        """Net scores: points held minus debt ('each player can tell at a glance what his net
        score is at any time')."""
        return [self.points(s) - self.debt[s] for s in range(self.game.players)]

    def solitaire_won(self) -> bool:
        return self.over and self.pieces_left() <= 1 and self.trips[0] <= SOLITAIRE_TRIPS_ALLOWED

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.game.players
        if self.game.variant == "solitaire":
            return [1.0 if self.solitaire_won() else -1.0]
        return [float(s) for s in self.scores()]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        if self.game.variant == "solitaire":
            return [0] if self.solitaire_won() else []
        return super().winners()

    def _payment_message(self, seat: int, paid: list[int]) -> dict[str, Any]:
        """The penalty's payment: the pieces discarded from the winnings, and what is still owed."""
        pieces = [
            {"msg": "booby_trap.piece", "args": {"piece": p, "size": size_msg(self.sizes[p])}} for p in paid
        ]
        owed = self.debt[seat]
        if not paid:
            return {"msg": "booby_trap.owes", "args": {"who": seat, "n": owed}}
        if owed:
            return {"msg": "booby_trap.pays_owes", "args": {"who": seat, "pieces": pieces, "n": owed}}
        return {"msg": "booby_trap.pays", "args": {"who": seat, "pieces": pieces}}

    def result_message(self) -> dict[str, Any]:
        """The end of the game as a typed message (its scores; the page says who won)."""
        trips = {"msg": "booby_trap.bar_tripped", "args": {"n": self.trips[0]}}
        if self.game.variant == "solitaire":
            # Pieces that jump out count as removed: ending with none left (after a trip) is a win too.
            if self.solitaire_won():
                return {"msg": "booby_trap.solitaire_won", "args": {"n": self.pieces_left(), "trips": trips}}
            return {"msg": "booby_trap.solitaire_lost", "args": {"trips": trips}}
        scores = [
            {"msg": "booby_trap.score", "args": {"who": s, "n": v}} for s, v in enumerate(self.scores())
        ]
        return {"msg": "booby_trap.game_over", "args": {"scores": scores}}

    # --- notation -----------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        game = self.game
        if game.options["setup"] == "chance" and isinstance(action, int):
            if game.tray_base <= action < game.placement_base:
                return f"tray {action - game.tray_base}"
            if game.placement_base <= action < game.placement_base + JITTERS:
                return f"placement {action - game.placement_base}"
        if game.noise_chance and isinstance(action, int) and 0 <= action - game.noise_base < NOISE_LEVELS:
            return f"noise {action - game.noise_base}"
        if action == game.pass_action:
            return "pass"
        if action == game.remove_action:
            return "remove"
        if isinstance(action, int) and 0 <= action < game.num_pieces:
            return f"touch {action}"
        raise IllegalActionError(action, "no such action id")

    _TOUCH_RE = re.compile(r"^(?:touch|t)?\s*([sml])?\s*(\d+)$")
    _SETUP_RE = re.compile(r"^(tray|placement)\s+(\d+)$")
    _NOISE_RE = re.compile(r"^noise\s+(\d+)$")

    def _said(self, msg: str, **args: Any) -> str:
        # Why an action is illegal, a message of the game's catalog (issue 37): English here and
        # at the terminal, the page words it in the viewer's language.
        return told(type(self.game), f"booby_trap.illegal.{msg}", **args)

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalActionError(text, self._said("not_text"))
        if self.over:
            raise IllegalActionError(text, self._said("game_over"))
        t = text.strip().lower()
        game = self.game
        m = self._SETUP_RE.match(t) if self.setup_stage is not None else None
        if m:
            base, count = (game.tray_base, TRAYS) if m.group(1) == "tray" else (game.placement_base, JITTERS)
            if int(m.group(2)) >= count:
                raise IllegalActionError(text, self._said("setup_range", stage=m.group(1), last=count - 1))
            action = base + int(m.group(2))
        elif self.setup_stage is not None:
            raise IllegalActionError(text, self._said("setup_write", stage=self.setup_stage))
        elif self.noise_pending:
            m = self._NOISE_RE.match(t)
            if not m or int(m.group(1)) >= NOISE_LEVELS:
                raise IllegalActionError(text, self._said("noise_write", last=NOISE_LEVELS - 1))
            action = game.noise_base + int(m.group(1))
        elif t in ("pass", "p", "i pass"):
            action = game.pass_action
        elif t in ("remove", "r", "take", "pick"):
            action = game.remove_action
        else:
            m = self._TOUCH_RE.match(t)
            if not m:
                raise IllegalActionError(text, self._said("syntax"))
            action = int(m.group(2))
            if action >= game.num_pieces:
                raise IllegalActionError(text, self._said("no_piece", piece=action, last=game.num_pieces - 1))
            if m.group(1) and m.group(1).upper() != self.sizes[action]:
                raise IllegalActionError(
                    text,
                    self._said(
                        "wrong_size",
                        piece=action,
                        size=size_msg(self.sizes[action]),
                        said=size_msg(m.group(1).upper()),
                    ),
                )
        reason = self._why_illegal(action)
        if reason:
            raise IllegalActionError(text, reason)
        return action

    # --- information --------------------------------------------------------------
    def _view(self, seat: int | None = None) -> dict[str, Any]:
        game = self.game
        n = game.players
        legal = []
        if not self.over:
            legal = [{"id": a, "text": self.action_to_string(a)} for a in self._legal_actions()]
        v: dict[str, Any] = {
            "game": game.game_id,
            "seat": seat,
            "variant": game.variant,
            "players": n,
            "teaching": game.options["teaching"],
            "tray": {
                "width": physics.TRAY_WIDTH,
                "length": physics.BAR_BACK,
                "mark": MARK,
                "bar_thickness": physics.BAR_THICKNESS,
                "units": "mm",
                "radius": dict(physics.RADIUS),
                "points": dict(POINTS),
            },
            "pieces": [
                {
                    "id": p.id,
                    "size": p.size,
                    "x": eye(p.x),
                    "y": eye(p.y),
                    "r": p.radius,
                    "points": POINTS[p.size],
                }
                for p in self.packing.pieces
            ],
            "bar": eye(self.packing.bar),
            "bar_rest": eye(self.bar_rest),
            "bar_marks": round((eye(self.bar_rest) - eye(self.packing.bar)) / MARK, 3),
            "to_move": None if self.over else self.to_move,
            "touched": self.touched,
            "passes_in_row": self.passes_in_row,
            "must_remove": (not self.over) and self.must_remove(),
            "touchable": [] if self.over or self.touched is not None else self.touchable(),
            "scores": [
                {
                    "seat": s,
                    "points": self.points(s),
                    "debt": self.debt[s],
                    "net": self.scores()[s],
                    "trips": self.trips[s],
                    "pieces": {z: sum(1 for p in self.winnings[s] if self.sizes[p] == z) for z in SIZES},
                }
                for s in range(n)
            ],
            "discard": {
                "ids": list(self.discard),
                "count": {z: sum(1 for p in self.discard if self.sizes[p] == z) for z in SIZES},
            },
            "pieces_left": self.pieces_left(),
            "end_at": game.end_at,
            "last_removal": dict(self.last_removal) if self.last_removal else None,
            "legal_actions": legal if seat is None or seat == self.to_move else [],
            "terminal": self.over,
            "winners": self.winners(),
            # Without the noise key (with it and the tray a seat could compute every other seat's
            # readings) and with the tray as the eye sees it.
            "position": write_position(self, with_key=False, by_eye=True),
            "moves_made": len(self._history),
            "settles": self.removals,
            "setup_at_rest": self.setup_at_rest,
            "my_readings": [dict(r) for r in self.readings[seat]] if seat is not None else [],
            "reading": None,
        }
        mine = self.readings[seat] if seat is not None else []
        if self.touched is not None and seat == self.to_move and mine and mine[-1]["touch"] == self.touches:
            v["reading"] = dict(mine[-1])  # (noise=chance: none until the noise's node)
        if game.options["teaching"]:
            stress = physics.stress_of(self.packing)
            v["stress"] = {
                "contacts": [[a, b, round(f, 4)] for a, b, f in stress.contacts],
                "loads": {str(k): round(x, 4) for k, x in stress.load.items()},
            }
        return v

    def _resample(self, seat: int, rng: random.Random) -> BoobyTrapState:
        """Every score is public and the tray is seen to EYE_MM; what a seat does not know is
        where exactly each piece lies within that, the other seats' readings and the noise of
        readings still to come. The clone puts every piece (and the bar) at a random spot within
        the eye's resolution of what the seat sees, keeps `seat`'s own readings, forgets everyone
        else's and draws a fresh noise key (a seat in mid-turn gets its current reading redrawn
        with it). Nothing of the exact tray goes into the clone."""
        new = self.clone()
        half = EYE_MM / 2
        new.packing = Packing(
            tuple(
                Piece(p.id, p.size, eye(p.x) + rng.uniform(-half, half), eye(p.y) + rng.uniform(-half, half))
                for p in self.packing.pieces
            ),
            eye(self.packing.bar) + rng.uniform(-half, half),
        )
        new.bar_rest = eye(self.bar_rest)
        for s in range(self.game.players):
            if s != seat:
                new.readings[s] = []
        new.noise_key = rng.randrange(2**62)
        # The last action's private events (another seat's feel) go too.
        new._events = [e for e in new._events if "to" not in e or seat in e["to"]]
        if new.touched is not None and new.to_move != seat:
            # Another seat is mid-turn: it holds some reading; redraw it with the new key.
            reading = new.reading_for(new.touched, new.touches)
            new.readings[new.to_move] = [
                {
                    "touch": new.touches,
                    "settle": new.removals,
                    "piece": new.touched,
                    "reading": reading,
                    "feel": feel_word(reading),
                }
            ]
        return new

    def all_events(self) -> list[dict[str, Any]]:
        for e in self._events:
            lazy = e.get("frames")
            if lazy.__class__ is _LazyFrames:
                e["frames"] = lazy.frames()
        return self._events

    def stat_events(self) -> list[dict[str, Any]]:
        # The animation's frames are for the eye: a simulation's statistics never read them, and
        # making them was a sixth of a simulated game's time.
        return [{k: v for k, v in e.items() if k != "frames"} for e in self._events]

    def __getstate__(self) -> dict[str, Any]:
        self.all_events()  # the animation made before pickling (a record of what was seen)
        return super().__getstate__()

    # --- copying ------------------------------------------------------------------
    def clone(self) -> BoobyTrapState:
        new = BoobyTrapState.__new__(BoobyTrapState)
        new.__dict__.update(self.__dict__)
        new._history = self._history[:]
        new._events = [dict(e) for e in self._events]
        new.winnings = [w[:] for w in self.winnings]
        new.debt = self.debt[:]
        new.trips = self.trips[:]
        new.discard = self.discard[:]
        new.readings = [[dict(r) for r in rs] for rs in self.readings]
        new.last_removal = dict(self.last_removal) if self.last_removal else None
        return new


class _LazyFrames:
    """A removal event's animation, made into frames (at most 60, at the eye's resolution) when
    the event is first read: the same frames `resolve_removal(..., frames=True)` gives."""

    __slots__ = ("tape", "made")

    def __init__(self, tape: list):
        self.tape = tape
        self.made: list | None = None

    def frames(self) -> list:
        if self.made is None:
            self.made = [_frame_by_eye(physics.frame_of(t)) for t in _downsample(self.tape, 60)]
            self.tape = []
        return self.made


def _frame_by_eye(frame: dict) -> dict:
    return {"bar": eye(frame["bar"]), "pieces": [[pid, eye(x), eye(y)] for pid, x, y in frame["pieces"]]}


def _downsample(frames: list, limit: int) -> list:
    if len(frames) <= limit:
        return frames
    step = (len(frames) - 1) / (limit - 1)
    return [frames[round(i * step)] for i in range(limit)]


# --- position notation ------------------------------------------------------------
# One line of key=value fields:
#   bt1 sizes=<letter per piece id> tray=<id>:<x>:<y>,... bar=<x> rest=<x> turn=<seat 1..n | ->
#   touched=<id | -> passes=<k> touches=<k> key=<noise key> settles=<k>
#   won=<ids of seat 1>/<ids of seat 2>... debt=<a>/<b>... trips=<a>/<b>... discard=<ids>
# Floats are written with repr(), which reads back to the same bits. The private readings are
# not part of the notation; the record's actions replay them exactly. Views give the position
# without `key` (the parser then uses key 0), since the key and the public tray would let a seat
# compute other seats' readings.

POSITION_HELP = (
    "bt1 sizes=SML.. tray=ID:X:Y,.. bar=X rest=X turn=N touched=ID|- passes=K touches=K key=K "
    "settles=K won=IDS/IDS debt=A/B trips=A/B discard=IDS (ids joined by '.', '-' for none)"
)


def _ids(items: list[int]) -> str:
    return ".".join(map(str, items)) or "-"


def write_position(state: BoobyTrapState, with_key: bool = True, by_eye: bool = False) -> str:
    """The position text; `by_eye`: lengths as a seat sees them (EYE_MM), for views."""

    def length(v: float) -> str:
        return repr(eye(v)) if by_eye else repr(v)

    tray = ",".join(f"{p.id}:{length(p.x)}:{length(p.y)}" for p in state.packing.pieces) or "-"
    fields = [
        "bt1",
        f"sizes={''.join(state.sizes)}",
        f"tray={tray}",
        f"bar={length(state.packing.bar)}",
        f"rest={length(state.bar_rest)}",
        f"turn={'-' if state.over else state.to_move + 1}",
        f"touched={'-' if state.touched is None else state.touched}",
        f"passes={state.passes_in_row}",
        f"touches={state.touches}",
        f"key={state.noise_key}" if with_key else "",
        f"settles={state.removals}",
        f"won={'/'.join(_ids(w) for w in state.winnings)}",
        f"debt={'/'.join(map(str, state.debt))}",
        f"trips={'/'.join(map(str, state.trips))}",
        f"discard={_ids(state.discard)}",
    ]
    return " ".join(f for f in fields if f)


# Game -> tray number -> the kernel's initial state of that tray (its physics settled once).
_TRAYS: weakref.WeakKeyDictionary[Any, dict[int, Any]] = weakref.WeakKeyDictionary()


def _tray(game: Any, tray: int) -> Any:
    """A copy of the kernel's initial state of seed `tray` (its tray settled once per game)."""
    trays = _TRAYS.setdefault(game, {})
    if tray not in trays:
        # never a chance set-up (the game's setup option): this is what the chance nodes choose
        trays[tray] = BoobyTrapState(game, seed=tray, chance_setup=False)
    return trays[tray].clone()


def jittered(tw: Any, jitter: int, tray: int | None = None) -> Any:
    """tw's packing with every piece and the bar placed anew within the eye's resolution of
    where the seats see them (uniformly, from a generator seeded by the tray, tw's seed unless
    given, and `jitter`)."""
    rng = random.Random(f"booby-trap tray {tw.seed if tray is None else tray} jitter {jitter}")
    half = EYE_MM / 2
    pieces = tuple(
        Piece(p.id, p.size, eye(p.x) + rng.uniform(-half, half), eye(p.y) + rng.uniform(-half, half))
        for p in tw.packing.pieces
    )
    return Packing(pieces, eye(tw.packing.bar) + rng.uniform(-half, half))
