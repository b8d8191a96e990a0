"""Mouse Trap: seed 000 (Milton Bradley, variant "milton-bradley") and seed 003 (the "Original
Rules" write-up, variant "original"), with every row of RULES-NOTES.md's table of differences as
its own option so that the two can be mixed.

A turn: the player to move rolls (a decision: "roll"), the die is a chance node, the mouse moves
and the space landed on is carried out. On Turn Crank with the trap complete the player decides:
"crank" (an opponent is on the Cheese Wheel), "move:P" (pay one cheese to roll for player P's
mouse; the die is a chance node) or "end". On a Build space that builds, the player decides
"build" or "end" (both books: the player "may" build; option build_optional). Cranking fires
the contraption: each stage of the firing chain is a chance node ("works" / "jams"). A tie for
"the rival with the most" cheese is a decision ("steal:P", one card at a time when the amount
may be divided).

Action ids: 0 roll, 1-6 die faces, 7 crank, 8 end, 9 build, 10+s move seat s's mouse, 20+s steal from
seat s, 30 stage works, 31 stage jams, 40+s seat s goes first.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from trapworks.core import CHANCE, TERMINAL, Game, IllegalActionError, Option, OptionError, State
from trapworks.core.game import FAST_APPLIED, FAST_DECLINED
from trapworks.core.messages import told

from .data import (
    CHEESE_WHEEL,
    DEFAULT_STAGE_ODDS,
    FIRING_CHAIN,
    LOOP_LENGTH,
    LOOP_START,
    NUM_PARTS,
    NUM_SPACES,
    PART_IDS,
    PARTS,
    SAFE,
    SPACES,
    STAGE_IDS,
    START,
    VARIANTS,
)

ROLL, CRANK, END, BUILD = 0, 7, 8, 9
MOVE_BASE, STEAL_BASE = 10, 20
WORKS, JAMS = 30, 31
FIRST_BASE = 40
DIE_FACES = (1, 2, 3, 4, 5, 6)
MAX_PLAYERS = 4

# Phases (the pending decision or chance event) and their names in notation and views.
P_FIRST, P_ROLL, P_DIE, P_CRANK, P_PUSH, P_STEAL, P_FIRE, P_OVER, P_BUILD = range(9)
PHASE_NAMES = ("first", "roll", "die", "crank", "push", "steal", "fire", "over", "build")
CHANCE_PHASES = frozenset((P_FIRST, P_DIE, P_PUSH, P_FIRE))
_IS_CHANCE = tuple(ph in CHANCE_PHASES for ph in range(len(PHASE_NAMES)))  # by phase number
DIE_OUTCOMES = tuple((d, 1 / 6) for d in DIE_FACES)
# Every action id a chance node can produce (no seat's decision has one of these ids).
_CHANCE_IDS = frozenset((*DIE_FACES, WORKS, JAMS, *(FIRST_BASE + s for s in range(MAX_PLAYERS))))
# Where a mouse on each space lands after a die roll of 0..6 (the Loop is circular).
_ADVANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(p + d if p + d < LOOP_START else LOOP_START + (p + d - LOOP_START) % LOOP_LENGTH for d in range(7))
    for p in range(NUM_SPACES)
)
# Each space's kind, None where landing does nothing (start, dog bone, safe).
_KINDS: tuple[str | None, ...] = tuple(
    None if SPACES[i]["kind"] in ("start", "dog_bone", "safe") else SPACES[i]["kind"]
    for i in range(NUM_SPACES)
)
# Seats after seat s in turn order, s itself last: _SEAT_ORDER[players][s].
_SEAT_ORDER = {n: tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n)) for n in range(2, 5)}
# What landing on a space does, as the die's fast path sorts it (MouseTrapGame.land_codes): nothing
# (start, dog bone, safe, and a build space that does not build for this player count), build,
# take cheese (take, cheese_wheel), Turn Crank, or anything else (_land).
_END_ONLY = [END]  # crank choices with nothing but "end" (compared with, never handed out)
L_NOTHING, L_BUILD, L_TAKE, L_CRANK, L_OTHER = range(5)
# The parts a build space builds, and the cheese a take space gives (0 elsewhere).
_PARTS_AT: tuple[int, ...] = tuple(int(SPACES[i].get("parts", 1)) for i in range(NUM_SPACES))
_AMOUNT_AT: tuple[int, ...] = tuple(
    int(SPACES[i]["amount"]) if SPACES[i]["kind"] in ("take", "cheese_wheel") else 0
    for i in range(NUM_SPACES)
)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# The names of spaces, parts and firing stages as messages of the game's catalog (i18n/*.po):
# an event names them by these, never by their English words.
SPACE_MSG: tuple[dict[str, Any], ...] = tuple({"msg": f"mouse_trap.space.{_slug(s['text'])}"} for s in SPACES)
STAGE_MSG: tuple[dict[str, Any], ...] = tuple({"msg": f"mouse_trap.stage.{f['id']}"} for f in FIRING_CHAIN)


def _part_msg(k: int) -> dict[str, Any]:
    """Part number k (1-based) of the building order, with its name."""
    return {
        "msg": "mouse_trap.numbered_part",
        "args": {"k": k, "part": {"msg": f"mouse_trap.part.{PART_IDS[k - 1]}"}},
    }


# The frequent events, made only when read (the state keeps the function and its arguments).
def _move_event(me: int, die: int, start: int, dest: int) -> dict[str, Any]:
    return {
        "player": me,
        "die": die,
        "start": start,
        "dest": dest,
        "type": "move",
        "msg": "mouse_trap.comes_round" if dest == start else "mouse_trap.moves",
        "args": {"who": me, "die": die, "dest": dest, "space": SPACE_MSG[dest]},
    }


def _take_event(me: int, from_pile: int) -> dict[str, Any]:
    return {
        "player": me,
        "amount": from_pile,
        "type": "take",
        "msg": "mouse_trap.takes",
        "args": {"who": me, "n": from_pile},
    }


def _end_event(me: int) -> dict[str, Any]:
    return {"player": me, "type": "end", "msg": "mouse_trap.ends_turn", "args": {"who": me}}


def _stage_event(stage: int, ok: bool) -> dict[str, Any]:
    info = FIRING_CHAIN[stage]
    return {
        "stage": stage,
        "id": info["id"],
        "ok": ok,
        "type": "trap_stage",
        "msg": "mouse_trap.stage_works" if ok else "mouse_trap.stage_jams",
        "args": {"letter": info["letter"], "stage": STAGE_MSG[stage]},
    }


def _trap_failed_event(stage: int, targets: list[int]) -> dict[str, Any]:
    info = FIRING_CHAIN[stage]
    args = {"letter": info["letter"], "stage": STAGE_MSG[stage], "seats": list(targets), "n": len(targets)}
    return {
        "stage": stage,
        "id": info["id"],
        "targets": targets,
        "type": "trap_failed",
        "msg": "mouse_trap.trap_jams" if targets else "mouse_trap.trap_jams_empty",
        "args": args,
    }


def _nothing_event(me: int) -> dict[str, Any]:
    return {"player": me, "type": "nothing", "msg": "mouse_trap.nothing_to_build", "args": {}}


def _no_build_event(me: int) -> dict[str, Any]:
    return {"player": me, "type": "no_build", "msg": "mouse_trap.does_not_build", "args": {"who": me}}


def _build_event(me: int, first: int, total: int) -> dict[str, Any]:
    parts = list(range(first, total + 1))
    return {
        "player": me,
        "parts": parts,
        "total": total,
        "type": "build",
        "msg": "mouse_trap.builds",
        "args": {"who": me, "parts": [_part_msg(k) for k in parts]},
    }


def _steal_event(taker: int, giver: int, amount: int) -> dict[str, Any]:
    return {
        "player": taker,
        "victim": giver,
        "amount": amount,
        "type": "steal",
        "msg": "mouse_trap.takes_from",
        "args": {"who": taker, "whom": giver, "n": amount},
    }


def _pay_event(me: int, target: int) -> dict[str, Any]:
    return {
        "player": me,
        "target": target,
        "type": "pay",
        "msg": "mouse_trap.pays_to_roll",
        "args": {"who": me, "whom": target},
    }


def _push_event(me: int, target: int, die: int, start: int, dest: int) -> dict[str, Any]:
    return {
        "player": me,
        "target": target,
        "die": die,
        "start": start,
        "dest": dest,
        "type": "push",
        "msg": "mouse_trap.pushed",
        "args": {"whom": target, "die": die, "dest": dest, "space": SPACE_MSG[dest]},
    }


# The die as sample_chance draws it: (actions, cumulative probabilities), made once.
_DIE_TABLE: tuple[list[int], list[float]] = (
    [a for a, _ in DIE_OUTCOMES],
    list(accumulate(p for _, p in DIE_OUTCOMES)),
)

ROW_OPTIONS = (
    "cheese_supply",
    "follow_destination",
    "pay_while_mouse_on_wheel",
    "pay_miss_ends_turn",
    "steal_tie",
    "safe_protects_cheese",
    "empty_pile_source",
    "crank_required",
    "build_optional",
    "paid_move_follows",
)
STEAL_TIES = ("choose-or-divide", "choose")
PILE_SOURCES = ("most", "any")
DEFAULT_TURN_LIMIT = 1000
try:
    import numba  # noqa: F401  (the batched engine's compiler)

    _BATCHED_AGENTS: frozenset[str] = frozenset({"random", "heuristic", "double-catch"})
except ImportError:
    _BATCHED_AGENTS = frozenset()


def _is_prob(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and 0.0 <= float(x) <= 1.0


def _stage_odds(odds: Any) -> dict[str, float]:
    if isinstance(odds, str):
        try:
            odds = json.loads(odds)
        except json.JSONDecodeError:
            pass
    if not isinstance(odds, dict):
        raise OptionError('trap_stage_odds: a mapping of stage id to probability, e.g. {"stairs": 0.9}')
    for key, p in odds.items():
        if key not in STAGE_IDS:
            raise OptionError(f"trap_stage_odds: no stage {key!r}; stages are {', '.join(STAGE_IDS)}")
        if not _is_prob(p):
            raise OptionError(f"trap_stage_odds[{key!r}] {p!r}: a probability from 0 to 1")
    return {k: float(v) for k, v in odds.items()}


class MouseTrapGame(Game):
    game_id = "mouse-trap"
    title = "Mouse Trap"
    # The options, declared once (trapworks.core.options): the kernel checks them with this, the
    # CLI lists them and the lobby builds its controls from it. The row options default to None:
    # "as the chosen variant's rulebook says" (variants.json).
    options_schema = (
        Option.integer(
            "players",
            2,
            2,
            MAX_PLAYERS,
            expects=f"Mouse Trap is for 2 to {MAX_PLAYERS} players",
            label="Players",
            help="How many mice race for the cheese.",
        ),
        Option.choice(
            "variant",
            "milton-bradley",
            ["milton-bradley", "original"],
            labels={"milton-bradley": "Milton Bradley rules", "original": "Original rules"},
            names={"milton-bradley": "Milton Bradley rules", "original": "original rules"},
            label="Rulebook",
            help="Which written rules to follow; the rows below can mix the two.",
            source="the Milton Bradley rules and the original rules differ in the rows below",
        ),
        Option.integer(
            "cheese_supply",
            None,
            0,
            500,
            nullable=True,
            null_label="as the rulebook says",
            label="Cheese in the supply",
            help="How much cheese starts in the pile.",
            source="Milton Bradley: 30 cheese cards; original: 52 cheese pieces",
            advanced=True,
        ),
        Option.boolean(
            "follow_destination",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="Follow Go back / Move ahead",
            help="After Go back or Move ahead, also do what the space you reach says.",
            source="original: the space reached is carried out; Milton Bradley: not",
        ),
        Option.boolean(
            "pay_while_mouse_on_wheel",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="Pay to move mice while one is on the Cheese Wheel",
            help="Whether you may pay cheese to roll a rival's mouse when one already sits on the wheel.",
            source="Milton Bradley allows it; the original rules do not",
        ),
        Option.boolean(
            "pay_miss_ends_turn",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="A paid miss ends the turn",
            help="A paid move that misses the Cheese Wheel ends your turn.",
            source="original: yes; Milton Bradley: no",
        ),
        Option.choice(
            "steal_tie",
            None,
            ["choose-or-divide", "choose"],
            labels={"choose-or-divide": "choose one or divide", "choose": "choose one"},
            nullable=True,
            null_label="as the rulebook says",
            label="Tie for the most cheese",
            help="When rivals tie for the most cheese, whom you take it from.",
            source="Milton Bradley: choose one or divide; original: choose one",
        ),
        Option.boolean(
            "safe_protects_cheese",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="Safe keeps your cheese",
            help="A mouse on Safe also keeps its cheese from being taken.",
            source="Milton Bradley: yes; original: no",
        ),
        Option.choice(
            "empty_pile_source",
            None,
            ["most", "any"],
            labels={"most": "the rival with the most", "any": "any rival"},
            nullable=True,
            null_label="as the rulebook says",
            label="Empty pile: take cheese from",
            help="Whom you take cheese from when the supply has run out.",
            source="Milton Bradley: the rival with the most; original: any rival",
        ),
        Option.boolean(
            "crank_required",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="Turn Crank must be cranked",
            help="On Turn Crank with a rival on the Cheese Wheel and the trap complete, you must crank.",
            source="Milton Bradley: 'turn the crank' (must); "
            "original: 'are allowed to attempt' (may end the turn)",
        ),
        Option.boolean(
            "build_optional",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="Building is a choice",
            help="On a Build space you decide whether to build the next part.",
            source="Milton Bradley: 'you may build one piece'; original: 'the player may add one part'",
        ),
        Option.boolean(
            "paid_move_follows",
            None,
            nullable=True,
            null_label="as the rulebook says",
            label="A paid roll follows the space",
            help=(
                "A rival's mouse moved by a paid roll (Turn Crank) that lands on Go back, Move ahead "
                "or Go to goes on to the space shown, and on the Cheese Wheel its owner takes the "
                "wheel's cheese; off: it stays where the die put it and nothing happens."
            ),
            source=(
                "Milton Bradley: 'When you land on one of these spaces, you must go to the space "
                "indicated'; original: 'follow the instructions for the space they land on'; neither "
                "says whether a mouse moved by an opponent is meant"
            ),
        ),
        Option.choice(
            "first_player",
            0,
            [0, 1, 2, 3, "random"],
            labels={0: "Player 1", 1: "Player 2", 2: "Player 3", 3: "Player 4", "random": "drawn at random"},
            label="Who starts",
            help="The player who takes the first turn.",
        ),
        Option.number(
            "trap_reliability",
            None,
            0.0,
            1.0,
            nullable=True,
            null_label="the usual odds of each stage",
            label="How often the trap works",
            help="The chance that a firing catches the mouse, spread evenly over the stages (1: always).",
            source="the rulebooks leave open how often the contraption fails",
            advanced=True,
        ),
        Option.custom(
            "trap_stage_odds",
            None,
            "mapping",
            _stage_odds,
            nullable=True,
            null_label="the usual odds",
            label="Odds of single stages",
            help='Chance that each named stage works, e.g. {"stairs": 0.9}.',
            advanced=True,
        ),
        Option.integer(
            "turn_limit",
            DEFAULT_TURN_LIMIT,
            1,
            nullable=True,
            null_label="no limit",
            label="Turn limit",
            help="Turns before the game is stopped with no winner.",
            advanced=True,
        ),
    )
    has_hidden_information = False
    has_chance = True
    # Agents, levels, hints, encoder and analysis hooks: the package's SPEC (__init__.py).
    # The agents the compiled engine plays (batch.py), where numba is installed, and the tables
    # it shares with these rules: the die's (actions, cumulative odds) and where a roll lands.
    batched_agents = _BATCHED_AGENTS
    batched_engine_jit = True
    die_table = _DIE_TABLE
    advance_table = _ADVANCE

    def _validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        # The schema has checked each value; left: the variant's values and the seat range.
        n = options["players"]
        for name in ROW_OPTIONS:
            if options[name] is None:
                options[name] = VARIANTS[options["variant"]][name]
        fp = options["first_player"]
        if fp != "random" and fp >= n:
            raise self.option("first_player").error(fp, f'a seat 0..{n - 1} or "random"')
        return options

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.options
        self.players: int = o["players"]
        self.supply: int = o["cheese_supply"]
        self.follow_destination: bool = o["follow_destination"]
        self.paid_move_follows: bool = o["paid_move_follows"]
        self.pay_while_on_wheel: bool = o["pay_while_mouse_on_wheel"]
        self.pay_miss_ends_turn: bool = o["pay_miss_ends_turn"]
        self.divide_ties: bool = o["steal_tie"] == "choose-or-divide"
        self.safe_protects_cheese: bool = o["safe_protects_cheese"]
        self.crank_required: bool = o["crank_required"]
        self.build_optional: bool = o["build_optional"]
        self.pile_from_most: bool = o["empty_pile_source"] == "most"
        self.turn_limit: int | None = o["turn_limit"]
        odds = list(DEFAULT_STAGE_ODDS)
        if o["trap_reliability"] is not None:
            # Spread the overall chance evenly, so the product of the stages is the figure asked for.
            each = float(o["trap_reliability"]) ** (1.0 / len(odds))
            odds = [each] * len(odds)
        for key, p in (o["trap_stage_odds"] or {}).items():
            odds[STAGE_IDS.index(key)] = p
        self.stage_odds: tuple[float, ...] = tuple(odds)
        self.capture_chance: float = math.prod(odds)
        # Which build spaces build for this player count ("2", "2-3", "2-3-4", and the Loop's).
        # Each firing stage's chance outcomes as sample_chance draws them, made once.
        self.fire_tables: list[tuple[list[int], list[float]]] = []
        for p in self.stage_odds:
            outcomes = (
                [(WORKS, 1.0)] if p >= 1.0 else [(JAMS, 1.0)] if p <= 0.0 else [(WORKS, p), (JAMS, 1.0 - p)]
            )
            self.fire_tables.append(([a for a, _ in outcomes], list(accumulate(q for _, q in outcomes))))
        self.builds_here = tuple(
            SPACES[i]["kind"] in ("build", "loop_build") and self.players in SPACES[i]["players"]
            for i in range(NUM_SPACES)
        )
        # Per space, what landing there does for this player count (see L_NOTHING...).
        self.land_codes: tuple[int, ...] = tuple(
            L_BUILD
            if self.builds_here[i]
            else L_NOTHING
            if _KINDS[i] is None or _KINDS[i] in ("build", "loop_build")
            else L_TAKE
            if _KINDS[i] in ("take", "cheese_wheel")
            else L_CRANK
            if _KINDS[i] == "turn_crank"
            else L_OTHER
            for i in range(NUM_SPACES)
        )
        self.seat_order: tuple[tuple[int, ...], ...] = _SEAT_ORDER[self.players]
        # The turn at which the game stops (turn_limit; None: never, a turn no game reaches).
        self.turn_cap: int = 1 << 62 if self.turn_limit is None else self.turn_limit

    def public_options(self) -> dict[str, Any]:
        opts = dict(self.options)
        if opts["trap_stage_odds"] is not None:
            opts["trap_stage_odds"] = dict(opts["trap_stage_odds"])
        return opts

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        # roll 0, crank 7, end 8, move 10-13, steal 20-23 (ids between are never legal).
        return STEAL_BASE + MAX_PLAYERS

    def chance_actions(self) -> tuple[int, ...]:
        # Die faces 1-6, a firing stage works/jams, then (first_player="random") who opens.
        first = (
            tuple(FIRST_BASE + s for s in range(self.players))
            if self.options["first_player"] == "random"
            else ()
        )
        return DIE_FACES + (WORKS, JAMS) + first

    def max_game_length(self) -> int | None:
        if self.turn_limit is None:
            return None
        # A turn is at most: roll, die, a crank decision, paid moves (each: choice + die) while
        # cheese lasts, the firing chain, and steals; a generous bound so that the game's own
        # turn limit, not the simulator's action cap, ends long games.
        per_turn = 8 + 2 * (self.supply + 1) + len(FIRING_CHAIN) + 3 * MAX_PLAYERS
        return self.turn_limit * per_turn + 1

    def new_initial_state(self, seed: int | None = None) -> MouseTrapState:
        return MouseTrapState(self, seed=seed)

    def new_initial_state_from(self, rng: random.Random) -> MouseTrapState:
        """Nothing to draw: the setup is fixed, who starts is a chance node (as in the engine)."""
        return MouseTrapState(self)

    def play_batch(
        self, agents: Sequence[str], seeds: Sequence[int], moves: bool = False
    ) -> list[dict[str, Any]]:
        """Whole games in the compiled engine (batch.py), one per seed: the rows of stats.game_stats
        with "winners", "returns", "length", "actions" and "truncated"; with `moves`, each game's
        action ids. See batch.py for the random stream."""
        if not self.batched_agents:
            raise NotImplementedError("batched Mouse Trap needs numba (pip install trapworks[fast])")
        from .batch import play_batch

        return play_batch(self, agents, seeds, moves=moves)

    def help_text(self) -> str:
        return (
            "Actions: 'roll' to throw the die for your mouse; on Turn Crank: 'crank' (fire the trap at "
            "the mice on the Cheese Wheel), 'move:P' (pay 1 cheese and roll for player P's mouse), or "
            "'end'"
            + (" (but when the crank can be turned it must be)" if self.crank_required else "")
            + ("; on a Build space: 'build' or 'end' (no build)" if self.build_optional else "")
            + "; on a tie for the most cheese: 'steal:P' (take from player P). Chance outcomes are "
            "written die:N, works/jams (a stage of the trap) and first:P."
        )


class MouseTrapState(State):
    game: MouseTrapGame  # this game's own type (the kernel only knows Game)

    def __init__(self, game: MouseTrapGame, seed: int | None = None, start: str | None = None):
        super().__init__(game, seed=seed, start=start)
        n = game.players
        self.mice: list[int | None] = [START] * n  # None: caught
        self.cheese: list[int] = [0] * n
        self.pile: int = game.supply
        self.parts: int = 0
        fp = game.options["first_player"]
        self.to_move: int = 0 if fp == "random" else fp
        self.turn: int = 1
        self.phase: int = P_FIRST if fp == "random" else P_ROLL
        self.push_target: int | None = None
        self.steal_owed: int = 0
        self.steal_from: tuple[int, ...] = ()
        self.steal_divide: bool = False
        self.stage: int = 0  # index of the pending firing stage
        self.winner: int | None = None
        self.truncated: bool = False
        self.last_die: int | None = None
        self.last_firing: dict[str, Any] | None = None  # {"stages": k passed, "jammed": id or None}
        # (ply, crank choices) made when the crank decision came up (see _enter_crank); set here
        # so that every state has the same attributes (CPython's attribute caches rely on it).
        self._crank_cache: tuple[int, list[int]] | None = None

    # --- who moves ---------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == P_OVER:
            return TERMINAL
        if _IS_CHANCE[ph]:
            return CHANCE
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def is_chance_node(self) -> bool:
        return _IS_CHANCE[self.phase]

    def is_truncated(self) -> bool:
        return self.truncated

    def trap_complete(self) -> bool:
        return self.parts >= NUM_PARTS

    def active_seats(self) -> list[int]:
        return [s for s, m in enumerate(self.mice) if m is not None]

    def on_wheel(self) -> list[int]:
        """Opponents of the player to move whose mice are on the Cheese Wheel."""
        return [s for s, m in enumerate(self.mice) if m == CHEESE_WHEEL and s != self.to_move]

    # --- actions ------------------------------------------------------------------
    # legal_actions, apply_action and chance_table have fast paths for what every turn does
    # (roll, then the die); everything else goes through the kernel's checked path.
    def legal_actions(self, player: int | None = None) -> list[int]:
        ph = self.phase
        if player is None or player == self.to_move:
            if ph == P_ROLL:
                return [ROLL]
            if ph == P_CRANK:
                return self._current_crank_choices()[:]
            if ph == P_BUILD:
                return [BUILD, END]
            if ph == P_STEAL:
                return [STEAL_BASE + s for s in self.steal_from if self.cheese[s] > 0]
        return super().legal_actions(player)

    def _fast_apply(self, action: int) -> int:
        # A legal action of the phase goes straight to its rule, each phase's legality tested
        # once; anything else (a refusal, the first player's draw) through the kernel's checked
        # path. The kernel appends every action to the history after its rule ran (_enter_crank
        # relies on it); Mouse Trap's revealed outcomes are read from the history (revealed_upto).
        if action.__class__ is int:
            ph = self.phase
            if ph == P_DIE:  # every turn's die: _own_move, inlined
                if 1 <= action <= 6:
                    me = self.to_move
                    mice = self.mice
                    start = mice[me]
                    dest = _ADVANCE[start][action]
                    events = self._events = [(_move_event, me, action, start, dest)]
                    self.last_die = action
                    mice[me] = dest
                    game = self.game
                    code = game.land_codes[dest]
                    # _land's most frequent cases, inlined: nothing, a build, cheese taken.
                    if code == L_NOTHING:
                        self._end_turn()
                    elif code == L_BUILD:
                        if self.parts >= NUM_PARTS:  # the trap is complete
                            events.append((_nothing_event, me))
                            self._end_turn()
                        elif game.build_optional:
                            self.phase = P_BUILD
                        elif not self._build(me, dest):
                            self._end_turn()
                    elif code == L_TAKE:
                        if not self._take(me, _AMOUNT_AT[dest]):
                            self._end_turn()
                    elif code == L_CRANK:
                        if self.parts >= NUM_PARTS and self._enter_crank() != _END_ONLY:
                            self.phase = P_CRANK
                        else:  # an incomplete trap, or nothing to do but end
                            self._end_turn()
                    else:
                        self._land(me, dest, None)
                    return FAST_APPLIED
            elif ph == P_ROLL:  # every turn's decision
                if action == ROLL:
                    if self._events:
                        self._events = []
                    self.phase = P_DIE
                    return FAST_APPLIED
            elif ph == P_FIRE:
                stage = self.stage
                game = self.game
                if action in game.fire_tables[stage][0]:
                    if action == WORKS and stage + 1 < len(game.stage_odds):
                        # A stage that works with more to come (_fire_stage's first case).
                        self._events = [(_stage_event, stage, True)]
                        self.stage = stage = stage + 1
                        self.last_firing["stages"] = stage
                    else:
                        if self._events:
                            self._events = []
                        self._fire_stage(action == WORKS)
                    return FAST_APPLIED
            elif ph == P_BUILD:
                if action == BUILD or action == END:  # _decide_build, inlined
                    me = self.to_move
                    if action == END:
                        self._events = [(_no_build_event, me)]
                        self._end_turn()
                    else:
                        self._events = []
                        if not self._build(me, self.mice[me]):
                            self._end_turn()
                    return FAST_APPLIED
            elif ph == P_CRANK:
                if action in self._current_crank_choices():
                    if self._events:
                        self._events = []
                    self._crank(action)
                    return FAST_APPLIED
            elif ph == P_PUSH:
                if 1 <= action <= 6:
                    if self._events:
                        self._events = []
                    self._push(action)
                    return FAST_APPLIED
            elif (
                ph == P_STEAL
                and STEAL_BASE <= action < STEAL_BASE + MAX_PLAYERS
                and action - STEAL_BASE in self.steal_from
                and self.cheese[action - STEAL_BASE] > 0
            ):
                if self._events:
                    self._events = []
                self._steal_pick(action - STEAL_BASE)
                return FAST_APPLIED
        return FAST_DECLINED

    # Chance action ids are never a seat's (die faces, works/jams, first:P), so the last revealed
    # outcome is the last chance id in the history: nothing to keep up to date per action.
    def revealed_upto(self) -> int:
        history = self._history
        for i in range(len(history) - 1, -1, -1):
            if history[i] in _CHANCE_IDS:
                return i + 1
        return 0

    def chance_table(self) -> tuple[Sequence[int], Sequence[float]]:
        ph = self.phase
        if ph == P_DIE or ph == P_PUSH:
            return _DIE_TABLE
        if ph == P_FIRE:
            return self.game.fire_tables[self.stage]
        return super().chance_table()

    def _legal_actions(self) -> list[int]:
        ph = self.phase
        if ph == P_ROLL:
            return [ROLL]
        if ph == P_CRANK:
            return self._crank_choices()
        if ph == P_BUILD:
            return [BUILD, END]
        if ph == P_STEAL:
            return [STEAL_BASE + s for s in self.steal_from if self.cheese[s] > 0]
        return []

    def _enter_crank(self) -> list[int]:
        """The crank choices of the state this action leaves (called within apply_action, before
        the action joins the history), kept so that the decision does not list them again."""
        choices = self._crank_choices()
        self._crank_cache = (len(self._history) + 1, choices)
        return choices

    def _current_crank_choices(self) -> list[int]:
        cache = self._crank_cache
        if cache is not None and cache[0] == len(self._history):
            return cache[1]
        return self._crank_choices()

    def _crank_choices(self) -> list[int]:
        # One pass over the mice: is an opponent on the Cheese Wheel (on_wheel), and which may
        # be moved by paying (not caught, not on Safe, not already on the Cheese Wheel).
        me = self.to_move
        wheel = False
        movable = []
        for s, m in enumerate(self.mice):
            if s == me or m is None:
                continue
            if m == CHEESE_WHEEL:
                wheel = True
            elif m != SAFE:
                movable.append(MOVE_BASE + s)
        out = [CRANK] if wheel and self.trap_complete() else []
        if movable and self.cheese[me] > 0 and (not wheel or self.game.pay_while_on_wheel):
            out += movable
        if not (self.game.crank_required and CRANK in out):
            out.append(END)  # crank_required (000: "turn the crank"): no ending the turn instead
        return out

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self.phase
        if ph in (P_DIE, P_PUSH):
            return list(DIE_OUTCOMES)
        if ph == P_FIRE:
            p = self.game.stage_odds[self.stage]
            if p >= 1.0:
                return [(WORKS, 1.0)]
            if p <= 0.0:
                return [(JAMS, 1.0)]
            return [(WORKS, p), (JAMS, 1.0 - p)]
        if ph == P_FIRST:
            n = self.game.players
            return [(FIRST_BASE + s, 1 / n) for s in range(n)]
        return []

    def _why_illegal(self, action: int) -> str | None:
        ph = self.phase
        # Fast paths for the common actions (a die face, a roll).
        if ph == P_ROLL and action == ROLL:
            return None
        if (ph == P_DIE or ph == P_PUSH) and 1 <= action <= 6:
            return None
        if ph in CHANCE_PHASES:
            if action in [a for a, _ in self._chance_outcomes()]:
                return None
            return told(
                type(self.game), "mouse_trap.illegal.chance_pending", phase=self._phase_message(), move=action
            )
        if action in self._legal_actions():
            return None
        return self._explain_illegal(action)

    def _explain_illegal(self, action: int) -> str:
        # Each reason a message of the game's catalog (issue 37): English here and at the
        # terminal, the page words it in the viewer's language.
        def said(msg: str, **args: Any) -> str:
            return told(type(self.game), f"mouse_trap.illegal.{msg}", **args)

        ph = self.phase
        if ph == P_ROLL:
            return said("roll_first")
        if ph == P_STEAL:
            return said(
                "choose_rival",
                choices=", ".join(f"steal:{s + 1}" for s in self.steal_from if self.cheese[s] > 0),
            )
        if action == CRANK:
            if not self.trap_complete():
                return said("crank_incomplete")
            return said("crank_nobody")
        if MOVE_BASE <= action < MOVE_BASE + MAX_PLAYERS:
            s = action - MOVE_BASE
            if s >= self.game.players or s == self.to_move:
                return said("not_opponent", who=s)
            if self.mice[s] is None:
                return said("caught", whom=s)
            if self.mice[s] == SAFE:
                return said("on_safe", whom=s)
            if self.mice[s] == CHEESE_WHEEL:
                return said("on_wheel", whom=s)
            if self.cheese[self.to_move] <= 0:
                return said("no_cheese")
            return said("pay_blocked")
        return said("not_legal", legal=", ".join(self.action_to_string(a) for a in self._legal_actions()))

    # --- the log in players' words ------------------------------------------------------
    def describe_action(self, action: int) -> str:
        if action == ROLL:
            return "Roll the die"
        if action == CRANK:
            return "Turn the crank to spring the trap on the mouse on the Cheese Wheel"
        if action == END:
            return "End your turn"
        if MOVE_BASE <= action < MOVE_BASE + MAX_PLAYERS:
            return f"Pay 1 cheese to roll for player {action - MOVE_BASE + 1}'s mouse"
        if STEAL_BASE <= action < STEAL_BASE + MAX_PLAYERS:
            return f"Take the cheese from player {action - STEAL_BASE + 1}"
        return self.action_to_string(action)

    def describe_message(self, action: int) -> dict[str, Any] | None:
        if action == ROLL:
            return {"msg": "mouse_trap.do.roll", "args": {}}
        if action == CRANK:
            return {"msg": "mouse_trap.do.crank", "args": {}}
        if action == END:
            return {"msg": "mouse_trap.do.end", "args": {}}
        if action == BUILD:
            return {"msg": "mouse_trap.do.build", "args": {}}
        if MOVE_BASE <= action < MOVE_BASE + MAX_PLAYERS:
            return {"msg": "mouse_trap.do.pay_roll", "args": {"whom": action - MOVE_BASE}}
        if STEAL_BASE <= action < STEAL_BASE + MAX_PLAYERS:
            return {"msg": "mouse_trap.do.take", "args": {"whom": action - STEAL_BASE}}
        return None

    def story_owner(self, action: int) -> int | None:
        # The die, a paid roll and the trap's stages belong to the turn of the player to move.
        if self.phase in (P_DIE, P_PUSH, P_FIRE):
            return self.to_move
        return super().story_owner(action)

    def story(self, action: int) -> list[dict[str, Any]]:
        # The working stages of a firing are the animation; a jam is told by trap_failed.
        return [{"msg": e["msg"], "args": e["args"]} for e in self.all_events() if e["type"] != "trap_stage"]

    def _event(self, kind: str, msg: str, args: dict[str, Any], **data: Any) -> None:
        # A typed event: its message id and arguments (the catalog words it, i18n/*.po).
        data["type"] = kind
        data["msg"] = msg
        data["args"] = args
        self._events.append(data)

    def __getstate__(self) -> dict[str, Any]:
        self.all_events()  # lazy events are functions: made into dicts before pickling
        return super().__getstate__()

    def all_events(self) -> list[dict[str, Any]]:
        # The most frequent events are kept as (function, its arguments) or a function, made
        # only when read: playouts and search never read them. Such functions read only values
        # fixed when the event happened (locals, never the state).
        events = self._events
        for i, e in enumerate(events):
            if e.__class__ is tuple:  # (function, its arguments)
                events[i] = e[0](*e[1:])
            elif e.__class__ is not dict:
                events[i] = e()  # made once, kept
        return events

    def _apply_action(self, action: int) -> None:
        ph = self.phase
        if ph == P_ROLL:
            self.phase = P_DIE
            return
        if ph == P_DIE:
            self._own_move(action)
            return
        if ph == P_CRANK:
            self._crank(action)
            return
        if ph == P_BUILD:
            self._decide_build(action)
            return
        if ph == P_PUSH:
            self._push(action)
            return
        if ph == P_FIRE:
            self._fire_stage(action == WORKS)
            return
        if ph == P_STEAL:
            self._steal_pick(action - STEAL_BASE)
            return
        if ph == P_FIRST:
            self.to_move = action - FIRST_BASE
            self.phase = P_ROLL
            self._event("first", "mouse_trap.goes_first", {"who": self.to_move}, player=self.to_move)
            return
        raise AssertionError(f"no action expected in phase {ph}")

    def _crank(self, action: int) -> None:
        """A crank decision: end the turn, crank, or pay to roll for a rival's mouse."""
        me = self.to_move
        if action == END:
            self._events.append((_end_event, me))
            self._end_turn()
        elif action == CRANK:
            self._event(
                "crank",
                "mouse_trap.turns_crank",
                {"who": me},
                player=me,
                targets=self.on_wheel(),
            )
            self.phase = P_FIRE
            self.stage = 0
            self.last_firing = {"stages": 0, "jammed": None, "targets": self.on_wheel()}
        else:
            target = action - MOVE_BASE
            self.cheese[me] -= 1
            self.pile += 1
            self.push_target = target
            self.phase = P_PUSH
            self._events.append((_pay_event, me, target))

    def _decide_build(self, action: int) -> None:
        me = self.to_move
        if action == END:
            self._events.append((_no_build_event, me))
            self._end_turn()
        elif not self._build(me, self.mice[me]):
            self._end_turn()

    # --- movement -------------------------------------------------------------------
    @staticmethod
    def advance(position: int, steps: int) -> int:
        """Move forward `steps` spaces; the Loop is circular (after the Cheese Wheel comes Safe)."""
        p = position + steps
        if p >= LOOP_START:
            p = LOOP_START + (p - LOOP_START) % LOOP_LENGTH
        return p

    def _own_move(self, die: int) -> None:
        me = self.to_move
        self.last_die = die
        start = self.mice[me]
        dest = _ADVANCE[start][die]
        self.mice[me] = dest
        # ("to" would mark an event private, so the destination is "dest".)
        self._events.append((_move_event, me, die, start, dest))
        self._land(me, dest, None)

    def _land(self, me: int, pos: int, seen: set[int] | None) -> None:
        """Carry out the space `pos` for the player to move, then end the turn unless a decision
        is pending."""
        kind = _KINDS[pos]
        if kind is None:  # start, dog_bone, safe: nothing happens
            self._end_turn()
            return
        game = self.game
        space = SPACES[pos]
        if kind == "build" or kind == "loop_build":
            if not game.builds_here[pos]:
                self._end_turn()
                return
            if self.parts >= NUM_PARTS:  # the trap is complete
                self._events.append((_nothing_event, me))
                self._end_turn()
                return
            if game.build_optional:
                # 000 "you may build", 003 "may add one part": the player's decision.
                self.phase = P_BUILD
                return
            if self._build(me, pos):
                return
        elif kind in ("take", "cheese_wheel"):
            if self._take(me, space["amount"]):
                return
        elif kind == "lose":
            lost = min(space["amount"], self.cheese[me])
            self.cheese[me] -= lost
            self.pile += lost
            self._events.append(
                lambda: {
                    "player": me,
                    "amount": lost,
                    "type": "lose",
                    "msg": "mouse_trap.returns_cheese",
                    "args": {"who": me, "n": lost},
                }
            )
        elif kind == "steal_most":
            if self._steal_most(me, space["amount"]):
                return
        elif kind in ("go_back", "move_ahead", "go_to"):
            if kind == "go_back":
                dest = max(START, pos - space["amount"])
            elif kind == "move_ahead":
                dest = self.advance(pos, space["amount"])
            else:
                dest = space["target"]
            self.mice[me] = dest
            # 000: "you must go to the space indicated, but do not follow any message printed in
            # that space!": say so, or a player wonders why e.g. nothing was built there.
            carried = game.follow_destination and dest not in (seen or set()) | {pos}
            msg = "mouse_trap.goes_to" if carried else "mouse_trap.goes_to_unfollowed"
            self._events.append(
                lambda: {
                    "player": me,
                    "start": pos,
                    "dest": dest,
                    "type": "jump",
                    "msg": msg,
                    "args": {"who": me, "dest": dest, "space": SPACE_MSG[dest]},
                }
            )
            seen = seen or set()
            seen.add(pos)
            if game.follow_destination and dest not in seen:
                self._land(me, dest, seen)
                return
        elif kind == "turn_crank":
            if self.parts >= NUM_PARTS and self._enter_crank() != _END_ONLY:
                self.phase = P_CRANK
                return
        # start, dog_bone, safe, and an incomplete trap on Turn Crank: nothing happens.
        self._end_turn()

    def _build(self, me: int, pos: int) -> bool:
        """Build the space's parts and take a cheese per part; True if a decision is now pending
        (a steal tie), else the caller ends the turn."""
        want = _PARTS_AT[pos]
        built = min(want, NUM_PARTS - self.parts)
        first = self.parts + 1
        self.parts += built
        self._events.append((_build_event, me, first, self.parts))
        if self.parts >= NUM_PARTS:
            self._event("complete", "mouse_trap.complete", {}, player=me)
        # One cheese per part built ("take one Cheese Card" per part; two for the Loop's two).
        return self._take(me, built)

    # --- cheese -------------------------------------------------------------------
    def _eligible_rivals(self, me: int) -> list[int]:
        protect = self.game.safe_protects_cheese
        return [
            s for s, m in enumerate(self.mice) if s != me and m is not None and not (protect and m == SAFE)
        ]

    def _take(self, me: int, amount: int) -> bool:
        """Take `amount` cheese, from the pile first; when it runs out, from a rival.
        Returns True when a decision (whom to take from) is pending."""
        pile = self.pile
        if pile >= amount:  # all from the pile
            self.pile = pile - amount
            self.cheese[me] += amount
            if amount:
                self._events.append((_take_event, me, amount))
            return False
        from_pile = pile  # less than the amount
        self.pile = 0
        self.cheese[me] += from_pile
        if from_pile:
            self._events.append((_take_event, me, from_pile))
        owed = amount - from_pile
        if owed <= 0:
            return False
        game = self.game
        if game.pile_from_most:
            rivals = self._richest(me)
            if len(rivals) == 1:  # the usual case: one rival has the most (_start_steal's first case)
                giver = rivals[0]
                cheese = self.cheese
                got = min(owed, cheese[giver])
                cheese[giver] -= got
                cheese[me] += got
                self._events.append((_steal_event, me, giver, got))
                return False
        else:
            rivals = [s for s in self._eligible_rivals(me) if self.cheese[s] > 0]
        if not rivals:
            self._event(
                "no_cheese",
                "mouse_trap.pile_empty",
                {"who": me, "n": owed},
                player=me,
                amount=owed,
            )
            return False
        if game.pile_from_most:
            return self._start_steal(me, owed, rivals, game.divide_ties)
        return self._start_steal(me, owed, rivals, False)

    def _richest(self, me: int) -> list[int]:
        """The eligible rivals (_eligible_rivals) holding the most cheese, in seat order; empty
        when none holds any. One pass over the mice."""
        protect = self.game.safe_protects_cheese
        cheese = self.cheese
        most = 0
        group: list[int] = []
        for s, m in enumerate(self.mice):
            if s == me or m is None or (protect and m == SAFE):
                continue
            c = cheese[s]
            if c > most:
                most = c
                group = [s]
            elif c == most and c:
                group.append(s)
        return group

    def _steal_most(self, me: int, amount: int) -> bool:
        group = self._richest(me)
        if not group:
            self._event("no_cheese", "mouse_trap.no_rival_cheese", {"who": me}, player=me, amount=0)
            return False
        return self._start_steal(me, amount, group, self.game.divide_ties)

    def _start_steal(self, me: int, owed: int, group: list[int], divide: bool) -> bool:
        if len(group) == 1:
            self._transfer(group[0], me, min(owed, self.cheese[group[0]]))
            return False
        self.steal_owed = owed
        self.steal_from = tuple(group)
        self.steal_divide = divide
        self.phase = P_STEAL
        return True

    def _steal_pick(self, victim: int) -> None:
        me = self.to_move
        if not self.steal_divide:
            self._transfer(victim, me, min(self.steal_owed, self.cheese[victim]))
            self.steal_owed = 0
        else:
            self._transfer(victim, me, 1)
            self.steal_owed -= 1
            left = [s for s in self.steal_from if self.cheese[s] > 0]
            self.steal_from = tuple(left)  # a rival taken bare is out of the tie (and of the position)
            if self.steal_owed > 0 and len(left) == 1:
                # Only one rival of the tie still holds cheese: the rest can only come from them.
                self._transfer(left[0], me, min(self.steal_owed, self.cheese[left[0]]))
                self.steal_owed = 0
            elif not left:
                self.steal_owed = 0
        if self.steal_owed == 0:
            self.steal_from = ()
            self.steal_divide = False
            self._end_turn()

    def _transfer(self, giver: int, taker: int, amount: int) -> None:
        if amount <= 0:
            return
        self.cheese[giver] -= amount
        self.cheese[taker] += amount
        self._events.append((_steal_event, taker, giver, amount))

    # --- the crank ------------------------------------------------------------------
    def _push(self, die: int) -> None:
        target = self.push_target
        start = self.mice[target]
        dest = _ADVANCE[start][die]
        self.mice[target] = dest
        self.push_target = None
        self.last_die = die
        self._events.append((_push_event, self.to_move, target, die, start, dest))
        if self.game.paid_move_follows:
            dest = self._pushed_lands(target, dest)
        if dest != CHEESE_WHEEL and self.game.pay_miss_ends_turn:
            self._end_turn()
            return
        if self._enter_crank() == _END_ONLY:
            self._end_turn()
            return
        self.phase = P_CRANK

    def _pushed_lands(self, owner: int, pos: int) -> int:
        """paid_move_follows: the space a mouse moved by a paid roll lands on acts on it (000 "When
        you land on one of these spaces, you must go to the space indicated"; 003 "follow the
        instructions for the space they land on"): a Go back / Move ahead / Go to space sends it on
        (and on again where follow_destination says), and the Cheese Wheel gives its owner the
        wheel's cheese. Other spaces do nothing to it: building, taking and losing belong to a
        player's own move. Returns where the mouse ends."""
        game = self.game
        seen: set[int] = set()
        while True:
            kind = _KINDS[pos]
            space = SPACES[pos]
            if kind == "cheese_wheel":
                # From the pile (the payer has just put a card there): the owner is not on turn,
                # so there is no choice of rival to make for a shortfall; they get what it holds.
                got = min(space["amount"], self.pile)
                self.pile -= got
                self.cheese[owner] += got
                self._event(
                    "pushed_take",
                    "mouse_trap.pushed_takes",
                    {"whom": owner, "n": got},
                    player=owner,
                    amount=got,
                )
                return pos
            if kind not in ("go_back", "move_ahead", "go_to"):
                return pos
            if kind == "go_back":
                dest = max(START, pos - space["amount"])
            elif kind == "move_ahead":
                dest = self.advance(pos, space["amount"])
            else:
                dest = space["target"]
            seen.add(pos)
            self.mice[owner] = dest
            carried = game.follow_destination and dest not in seen
            self._event(
                "pushed_jump",
                "mouse_trap.pushed_on" if carried else "mouse_trap.pushed_on_unfollowed",
                {"whom": owner, "dest": dest, "space": SPACE_MSG[dest]},
                player=owner,
                start=pos,
                dest=dest,
            )
            if not carried:
                return dest
            pos = dest

    def _fire_stage(self, works: bool) -> None:
        game = self.game
        info = FIRING_CHAIN[self.stage]
        if not works:
            targets = self.on_wheel()
            for s in targets:
                self.mice[s] = SAFE
            self.last_firing = {"stages": self.stage, "jammed": info["id"], "targets": targets}
            self._events.append((_stage_event, self.stage, False))
            self._events.append((_trap_failed_event, self.stage, targets))
            self.stage = 0
            self._end_turn()
            return
        self._events.append((_stage_event, self.stage, True))
        self.stage += 1
        if self.stage < len(game.stage_odds):
            self.last_firing["stages"] = self.stage
            return
        me = self.to_move
        caught = self.on_wheel()
        loot = 0
        for s in caught:
            loot += self.cheese[s]
            self.cheese[me] += self.cheese[s]
            self.cheese[s] = 0
            self.mice[s] = None
        self.last_firing = {"stages": self.stage, "jammed": None, "targets": caught}
        self._event(
            "caught",
            "mouse_trap.cage_falls",
            {"seats": list(caught), "loot": {"msg": "mouse_trap.collects", "args": {"who": me, "n": loot}}},
            player=me,
            caught=caught,
            cheese=loot,
        )
        self.stage = 0
        active = self.active_seats()
        if len(active) == 1:
            self.winner = active[0]
            self.phase = P_OVER
            self._event(
                "win",
                "mouse_trap.last_mouse",
                {"who": self.winner},
                player=self.winner,
            )
            return
        self._end_turn()

    # --- turns ------------------------------------------------------------------------
    def _end_turn(self) -> None:
        # (The firing stage is back at 0 here: a firing resets it when it ends.)
        mice = self.mice
        game = self.game
        s = self.to_move
        for s in game.seat_order[self.to_move]:  # the next seats in turn, this one last
            if mice[s] is not None:
                break
        self.to_move = s
        if self.turn >= game.turn_cap:
            limit = game.turn_limit
            self.truncated = True
            self.phase = P_OVER
            self._event("truncated", "mouse_trap.turn_limit", {"limit": limit})
            return
        self.turn += 1
        self.phase = P_ROLL

    # --- notation ---------------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        if action == ROLL:
            return "roll"
        if 1 <= action <= 6:
            return f"die:{action}"
        if action == CRANK:
            return "crank"
        if action == END:
            return "end"
        if action == BUILD:
            return "build"
        if MOVE_BASE <= action < MOVE_BASE + MAX_PLAYERS:
            return f"move:{action - MOVE_BASE + 1}"
        if STEAL_BASE <= action < STEAL_BASE + MAX_PLAYERS:
            return f"steal:{action - STEAL_BASE + 1}"
        if action == WORKS:
            return "works"
        if action == JAMS:
            return "jams"
        if FIRST_BASE <= action < FIRST_BASE + MAX_PLAYERS:
            return f"first:{action - FIRST_BASE + 1}"
        raise IllegalActionError(action, "no such Mouse Trap action id")

    _ACTION_RE = re.compile(r"^(roll|crank|end|build|works|jams|(die|move|steal|first)\s*[: ]\s*(\S+))$")

    def _said(self, msg: str, **args: Any) -> str:
        # Why an action is illegal, a message of the game's catalog (issue 37).
        return told(type(self.game), f"mouse_trap.illegal.{msg}", **args)

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalActionError(text, self._said("not_text"))
        if self.phase == P_OVER:
            raise IllegalActionError(text, self._said("game_over"))
        t = text.strip().lower()
        m = self._ACTION_RE.match(t)
        if not m:
            # The notation is the same in every language: the message's arguments.
            moves, outcomes = "roll, crank, end, build, move:P, steal:P", "die:N, works, jams, first:P"
            raise IllegalActionError(text, self._said("syntax", moves=moves, outcomes=outcomes))
        word = m.group(2)
        if word is None:
            words = {"roll": ROLL, "crank": CRANK, "end": END, "build": BUILD, "works": WORKS, "jams": JAMS}
            action = words[m.group(1)]
        else:
            arg = m.group(3)
            if not arg.isdigit():
                raise IllegalActionError(text, self._said("not_number", text=repr(arg)))
            k = int(arg)
            if word == "die":
                if k not in DIE_FACES:
                    raise IllegalActionError(text, self._said("die_faces", face=k))
                action = k
            else:
                if not 1 <= k <= self.game.players:
                    raise IllegalActionError(text, self._said("no_player", player=k, last=self.game.players))
                action = {"move": MOVE_BASE, "steal": STEAL_BASE, "first": FIRST_BASE}[word] + k - 1
        reason = self._why_illegal(action)
        if reason:
            raise IllegalActionError(text, reason)
        return action

    def _phase_words(self) -> str:
        ph = self.phase
        p = f"player {self.to_move + 1}"
        if ph == P_FIRST:
            return "drawing who goes first"
        if ph == P_ROLL:
            return f"{p} to roll"
        if ph == P_DIE:
            return f"the die for {p}'s mouse"
        if ph == P_CRANK:
            return f"{p} on Turn Crank: crank, pay to move a mouse, or end"
        if ph == P_BUILD:
            return f"{p} on a Build space: build, or end the turn without building"
        if ph == P_PUSH:
            return f"the die for player {self.push_target + 1}'s mouse (paid by {p})"
        if ph == P_STEAL:
            return f"{p} chooses whom to take {self.steal_owed} cheese from"
        if ph == P_FIRE:
            return f"the trap is firing: stage {FIRING_CHAIN[self.stage]['letter']}"
        if self.truncated:
            return "stopped at the turn limit"
        return f"player {self.winner + 1} has won"

    def _phase_message(self) -> dict[str, Any]:
        """The turn's phase as a typed message (i18n/*.po, mouse_trap.phase.*): the page words it
        in the viewer's language, "you" for the viewer; `_phase_words` is its English for the CLI."""
        ph, p = self.phase, self.to_move
        if ph == P_FIRST:
            return {"msg": "mouse_trap.phase.first", "args": {}}
        if ph == P_ROLL:
            return {"msg": "mouse_trap.phase.roll", "args": {"who": p}}
        if ph == P_DIE:
            return {"msg": "mouse_trap.phase.die", "args": {"whom": p}}
        if ph == P_CRANK:
            return {"msg": "mouse_trap.phase.crank", "args": {"who": p}}
        if ph == P_BUILD:
            return {"msg": "mouse_trap.phase.build", "args": {"who": p}}
        if ph == P_PUSH:
            return {"msg": "mouse_trap.phase.push", "args": {"whom": self.push_target, "who": p}}
        if ph == P_STEAL:
            return {"msg": "mouse_trap.phase.steal", "args": {"who": p, "n": self.steal_owed}}
        if ph == P_FIRE:
            return {"msg": "mouse_trap.phase.fire", "args": {"letter": FIRING_CHAIN[self.stage]["letter"]}}
        if self.truncated:
            return {"msg": "mouse_trap.phase.stopped", "args": {}}
        return {"msg": "mouse_trap.phase.won", "args": {"who": self.winner}}

    def _action_message(self, a: int) -> dict[str, Any]:
        """An action's button as a typed message (mouse_trap.action.*); `_action_label` is its English."""
        if a == ROLL:
            return {"msg": "mouse_trap.action.roll", "args": {}}
        if a == CRANK:
            return {"msg": "mouse_trap.action.crank", "args": {}}
        if a == END:
            return {
                "msg": "mouse_trap.action.skip_build" if self.phase == P_BUILD else "mouse_trap.action.end",
                "args": {},
            }
        if a == BUILD:
            return {"msg": "mouse_trap.action.build", "args": {}}
        if MOVE_BASE <= a < MOVE_BASE + MAX_PLAYERS:
            return {"msg": "mouse_trap.action.pay_roll", "args": {"whom": a - MOVE_BASE}}
        if STEAL_BASE <= a < STEAL_BASE + MAX_PLAYERS:
            s = a - STEAL_BASE
            n = 1 if self.steal_divide else min(self.steal_owed, self.cheese[s])
            return {"msg": "mouse_trap.action.take", "args": {"n": n, "whom": s}}
        raise ValueError(f"action {a} is no player's choice")

    # --- information ---------------------------------------------------------------------
    def _view(self, seat: int | None = None) -> dict[str, Any]:
        game = self.game
        legal = []
        if not self.is_chance_node() and self.phase != P_OVER:
            for a in self._legal_actions():
                legal.append(
                    {
                        "id": a,
                        "text": self.action_to_string(a),
                        "label": self._action_label(a),
                        "label_msg": self._action_message(a),
                    }
                )
        player = self.current_player()
        return {
            "game": game.game_id,
            "seat": seat,
            "variant": game.options["variant"],
            "players": game.players,
            "position": self.position(),
            "phase": PHASE_NAMES[self.phase],
            "phase_text": self._phase_words(),
            "phase_msg": self._phase_message(),
            "to_move": player if player >= 0 else None,
            "turn_player": self.to_move,
            "turn": self.turn,
            "turn_limit": game.turn_limit,
            "mice": list(self.mice),
            "cheese": list(self.cheese),
            "pile": self.pile,
            "supply": game.supply,
            "parts_built": self.parts,
            "parts": list(PARTS),
            # the parts' names as typed messages (the page words them in its language)
            "part_msgs": [{"msg": f"mouse_trap.part.{p}", "args": {}} for p in PART_IDS],
            # for drawing: every part's stable id, and those built so far (always in order)
            "part_ids": list(PART_IDS),
            "built_parts": list(PART_IDS[: self.parts]),
            "trap_complete": self.trap_complete(),
            "firing_chain": [
                {
                    "letter": s["letter"],
                    "id": s["id"],
                    "text": s["text"],
                    "text_msg": {**STAGE_MSG[k], "args": {}},
                    "odds": p,
                }
                for k, (s, p) in enumerate(zip(FIRING_CHAIN, game.stage_odds, strict=False))
            ],
            "firing_stage": self.stage if self.phase == P_FIRE else None,
            "last_firing": dict(self.last_firing) if self.last_firing else None,
            "capture_chance": game.capture_chance,
            "push_target": self.push_target,
            "steal": (
                {"owed": self.steal_owed, "from": list(self.steal_from), "divide": self.steal_divide}
                if self.phase == P_STEAL
                else None
            ),
            "last_die": self.last_die,
            "track": [
                {
                    "index": s["index"],
                    "kind": s["kind"],
                    "text": s["text"],
                    "text_msg": {**SPACE_MSG[s["index"]], "args": {}},
                    "builds": game.builds_here[s["index"]],
                    # how many spaces or cheese, and where a Go to space sends (for the drawing)
                    "amount": s.get("amount"),
                    "target": s.get("target"),
                }
                for s in SPACES
            ],
            "terminal": self.phase == P_OVER,
            "truncated": self.truncated,
            "winner": self.winner,
            "legal_actions": legal,
            "moves_made": len(self._history),
        }

    def _action_label(self, a: int) -> str:
        if a == ROLL:
            return "Roll the die"
        if a == CRANK:
            return "Turn the crank"
        if a == END:
            return "Do not build: end the turn" if self.phase == P_BUILD else "End the turn"
        if a == BUILD:
            return "Build (and take a cheese per part)"
        if MOVE_BASE <= a < MOVE_BASE + MAX_PLAYERS:
            return f"Pay 1 cheese: roll for player {a - MOVE_BASE + 1}'s mouse"
        if STEAL_BASE <= a < STEAL_BASE + MAX_PLAYERS:
            s = a - STEAL_BASE
            what = "1 cheese" if self.steal_divide else f"{min(self.steal_owed, self.cheese[s])} cheese"
            return f"Take {what} from player {s + 1}"
        return self.action_to_string(a)

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != P_OVER or self.winner is None:
            return [0.0] * n
        lose = -1.0 / (n - 1)
        return [1.0 if s == self.winner else lose for s in range(n)]

    # --- copying ------------------------------------------------------------------------
    def clone(self) -> MouseTrapState:
        new = MouseTrapState.__new__(MouseTrapState)
        new.__dict__.update(self.__dict__)
        new.mice = self.mice[:]
        new.cheese = self.cheese[:]
        new._history = self._history[:]
        new._events = [dict(e) if e.__class__ is dict else e for e in self._events]
        new.last_firing = dict(self.last_firing) if self.last_firing else None
        return new
