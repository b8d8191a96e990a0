"""13 Dead End Drive (Milton Bradley, 1993), seed 004: rules, notation, views.

A turn, as a sequence of kernel actions:
  chance `roll a-b` -> (doubles) `change portrait` | `keep portrait` [chance `portrait X` after a change]
  -> `S4` (pick a pawn and a die count) -> `to j12` (where it ends) -> on a trap: `play stairs` |
  `play wild` | `draw` -> after a draw that is not a Detective card: `spring` | `keep`
  -> the second pawn the same way -> next player.

Randomness that everyone sees (dice, who starts, the portrait revealed) is a chance node. What
only some seats may know (the deal of Character cards, the order of the trap pile) is drawn from
the state's own seeded generator, so no action text ever names a hidden card: the seed decides
the deal and the pile, records replay from the seed, and `_resample` redraws both for search.
With the option deal=chance they are chance nodes too (chance_layer.KernelChance, the OpenSpiel
tree's: one node per Character or secret card dealt, one per card drawn from the trap pile,
a reshuffle's cards included): `deal S` and `top card stairs`, secret texts (the spec's
`secret_action_texts`) left out of `public_history`; a seat learns its cards from its view.

Where the rulebook is silent the behaviour is a named option (see `DeadEndDriveGame.default_options`
and docs/dead-end-drive.md).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from trapworks.core import CHANCE, TERMINAL, Game, IllegalActionError, Option, OptionError, State
from trapworks.core.game import FAST_APPLIED, FAST_DECLINED, FAST_REVEALED
from trapworks.core.messages import told
from trapworks.core.randomness import new_seed, stream_seed

from .board import TABLE_DEPTH, Mansion, MoveTables, load_mansion, squares_of
from .chance_layer import DeadEndDriveChance, KernelChance
from .components import (
    CARD_NAMES,
    CHANCE_PHASES,
    CHARACTERS,
    DEST,
    DETECTIVE,
    DRAWN,
    FIRST,
    HAND_SIZE,
    LETTERS,
    NAMES,
    NUM_PAWNS,
    OFF,
    OVER,
    PORTRAIT,
    REVEAL,
    ROLL,
    ROLLS,
    SECRET_CARDS_2P,
    SELECT,
    TOTAL_TRAP_PILE,
    TRAP,
    TRAP_KINDS,
    WILD,
    build_trap_pile,
    pawn_index,
)
from .drawing import mansion_drawing

# OFF (a knocked-off pawn's square) and the phases of a turn live in components.py.
# What happens after a portrait is revealed.
RESUME_ROLL, RESUME_SELECT, RESUME_CONTINUE = "roll", "select", "continue"


BLOCKED_DIE_RULES = ("forfeit", "lose-turn")
DEAL_RULES = ("seeded", "chance")
AFTER_DRAW_RULES = ("drawn-only", "none")

WIN_ESCAPE, WIN_LAST_ALIVE, WIN_DETECTIVE = "escape", "last-alive", "detective"

try:
    import numba  # noqa: F401  (the batched engine's compiler)

    _BATCHED_AGENTS: frozenset[str] = frozenset({"random", "heuristic"})
except ImportError:
    _BATCHED_AGENTS = frozenset()


class DeadEndDriveGame(Game):
    game_id = "dead-end-drive"
    title = "13 Dead End Drive"
    # The options, declared once (trapworks.core.options): kernel, CLI and lobby all read this.
    options_schema = (
        Option.integer("players", 4, 2, 4, label="Players", help="How many players share the heirs."),
        Option.choice(
            "first_player",
            "random",
            ["random", 1, 2, 3, 4],
            labels={
                "random": "the highest dice roll",
                1: "Player 1",
                2: "Player 2",
                3: "Player 3",
                4: "Player 4",
            },
            label="Who starts",
            help="Who takes the first turn.",
            source="'The player with the highest roll goes first.'",
        ),
        Option.integer(
            "traps_per_kind",
            3,
            1,
            label="Trap cards per trap",
            help="Cards of each of the five traps in the trap pile.",
            source="'29 Trap cards'",
            advanced=True,
        ),
        Option.integer(
            "wild_cards", 4, 0, label="Wild cards", help="Wild cards in the trap pile.", advanced=True
        ),
        Option.integer(
            "detective_cards",
            10,
            0,
            label="Detective cards",
            help="Detective cards in the trap pile.",
            advanced=True,
        ),
        Option.choice(
            "blocked_die",
            "forfeit",
            BLOCKED_DIE_RULES,
            labels={"forfeit": "lose that die only", "lose-turn": "lose the whole turn"},
            label="A die no pawn can use",
            help="What happens when no pawn can move by one of your dice.",
            source="silent on what a die no pawn can use costs",
        ),
        Option.choice(
            "after_draw",
            "drawn-only",
            AFTER_DRAW_RULES,
            labels={"drawn-only": "cards drawn this turn", "none": "no card"},
            label="Cards you may play after drawing",
            help="After you drew this turn, which cards you may still play (cards held before may not).",
            source="silent on which cards may be played after a draw",
        ),
        Option.integer(
            "passage_hops",
            1,
            0,
            5,
            label="Secret passages per move",
            help="How many secret passages a pawn may use in one move.",
            source="no limit on passages per move",
            advanced=True,
        ),
        Option.boolean(
            "passage_start_hop",
            False,
            label="Hop from a passage you start on",
            help="A pawn already standing on a secret passage may hop at the start of its move.",
            source="'move any pawn onto a Secret Passage space and then move it to one other' "
            "(Figure 10): the pawn moves onto the passage first",
            advanced=True,
        ),
        Option.choice(
            "deal",
            "seeded",
            DEAL_RULES,
            labels={
                "seeded": "Dealt from the game's seed",
                "chance": "Chance nodes (for tree search)",
            },
            label="Hidden deal and draws",
            help=(
                "Where the hidden cards come from: the deal of Character cards (and the 2-player "
                "secret cards) and the order of the trap pile and of every reshuffle are drawn from "
                "the game's seed, or are chance nodes, one card at a time, whose outcomes only the "
                "seat that may know them sees: the OpenSpiel tree's with seed=-1, in the kernel's "
                "own chance model."
            ),
            source="'Shuffle the 12 Character cards and deal them out face down'",
            advanced=True,
        ),
        Option.integer(
            "turn_limit",
            3000,
            1,
            label="Turn limit",
            help="Turns before the game is stopped with no winner.",
            advanced=True,
        ),
    )
    has_hidden_information = True
    has_chance = True
    # Agents, levels, hints, encoder and analysis hooks: the package's SPEC (__init__.py).
    # The agents the compiled engine plays (batch.py), where numba is installed.
    batched_agents = _BATCHED_AGENTS  # none for deal=chance (the engine deals from its own stream)
    batched_engine_jit = True

    def _validate_options(self, options: dict[str, Any]) -> dict[str, Any]:
        # The schema has checked each value; left: the cross-checks.
        n = options["players"]
        fp = options["first_player"]
        if fp != "random" and fp > n:
            raise OptionError(f'first_player {fp!r}: "random" (roll the dice) or a seat 1 to {n}')
        t, w, d = options["traps_per_kind"], options["wild_cards"], options["detective_cards"]
        if 5 * t + w + d != TOTAL_TRAP_PILE:
            raise OptionError(
                f"the trap pile has {TOTAL_TRAP_PILE} cards: "
                "5 x traps_per_kind + wild_cards + detective_cards "
                f"must be {TOTAL_TRAP_PILE}, not 5 x {t} + {w} + {d} = {5 * t + w + d}"
            )
        return options

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.mansion: Mansion = load_mansion()
        self.players: int = self.options["players"]
        self.deck: tuple[int, ...] = tuple(
            build_trap_pile(
                self.options["traps_per_kind"], self.options["wild_cards"], self.options["detective_cards"]
            )
        )
        n_sq = self.mansion.width * self.mansion.height
        # Action numbering.
        self.SELECT_BASE = 0  # pawn * 12 + count - 1
        self.DEST_BASE = NUM_PAWNS * 12  # + square
        self.CHANGE = self.DEST_BASE + n_sq
        self.KEEP_PORTRAIT = self.CHANGE + 1
        self.PLAY_TRAP = self.CHANGE + 2
        self.PLAY_WILD = self.CHANGE + 3
        self.DRAW = self.CHANGE + 4
        self.SPRING = self.CHANGE + 5
        self.KEEP_CARD = self.CHANGE + 6
        self.ROLL_BASE = self.CHANGE + 7
        self.FIRST_BASE = self.ROLL_BASE + len(ROLLS)
        self.REVEAL_BASE = self.FIRST_BASE + 4
        self.NUM_ACTIONS = self.REVEAL_BASE + NUM_PAWNS
        # deal=chance: the hidden chance outcomes (chance_layer: a pawn's card dealt, then the
        # kind of card on top of the trap pile), after every other id.
        self.HIDDEN_BASE = self.NUM_ACTIONS
        self.hidden_chance: bool = self.options["deal"] == "chance"
        self.hidden_chance_in_kernel = self.hidden_chance  # the OpenSpiel adapter adds no layer
        if self.hidden_chance:
            self.NUM_ACTIONS += DeadEndDriveChance.num_outcomes
            setattr(self, "batched_agents", frozenset())  # noqa: B010 (a ClassVar, per game here)
        # The movement tables for these passage rules (board.MoveTables: shared by every game
        # with the same options, filled square by square as moves are asked).
        self.moves: MoveTables = self.mansion.tables(
            self.options["passage_hops"], self.options["passage_start_hop"]
        )
        # The dice as `chance_table` gives them (the kernel's own computation, made once).
        roll = [(self.ROLL_BASE + i, (1 if a == b else 2) / 36) for i, (a, b) in enumerate(ROLLS)]
        self.roll_table: tuple[list[int], list[float]] = (
            [a for a, _ in roll],
            list(accumulate(q for _, q in roll)),
        )

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        # Player actions come first; the dice, the roll-off and the portraits after them.
        return self.ROLL_BASE

    def chance_actions(self) -> tuple[int, ...]:
        first = (
            tuple(range(self.FIRST_BASE, self.FIRST_BASE + self.players))
            if self.options["first_player"] == "random"
            else ()
        )
        rolls = tuple(range(self.ROLL_BASE, self.ROLL_BASE + len(ROLLS)))
        hidden = tuple(range(self.HIDDEN_BASE, self.NUM_ACTIONS))  # deal=chance only
        return rolls + first + tuple(range(self.REVEAL_BASE, self.REVEAL_BASE + NUM_PAWNS)) + hidden

    def max_game_length(self) -> int:
        # Per turn at most: roll, portrait (+reveal), 2 x (select, dest, trap, drawn, reveal).
        # deal=chance: the deal (12 cards at most) and per draw a card, or more after Detective
        # cards (at most one per step of the track over the game).
        extra = 12 + 2 * self.options["turn_limit"] + len(self.mansion.track) if self.hidden_chance else 0
        return 16 * self.options["turn_limit"] + 64 + extra

    def new_initial_state(self, seed: int | None = None) -> DeadEndDriveState:
        if seed is None:
            seed = new_seed()  # a record must replay: keep the seed that was used
        return DeadEndDriveState(self, seed=seed)

    def new_initial_state_from(self, rng: random.Random) -> DeadEndDriveState:
        """Dealt from `rng` itself, as the batched engine deals from its stream: the Character
        cards shuffled first, then the trap pile, and every reshuffle later (the state's `rng`)."""
        if self.hidden_chance:  # chance nodes deal: only the seed's trap-pile stream is left
            return self.new_initial_state(seed=rng.getrandbits(63))
        state = DeadEndDriveState(self, deal=False)
        state.rng = rng
        state._deal()
        return state

    def play_batch(
        self, agents: Sequence[str], seeds: Sequence[int], moves: bool = False
    ) -> list[dict[str, Any]]:
        """Whole games in the compiled engine (batch.py), one per seed: the rows of stats.game_stats
        with "winners", "returns", "length", "actions" and "truncated"; with `moves`, each game's
        action ids. See batch.py for the random stream and the deal."""
        if not _BATCHED_AGENTS:  # (deal=chance is refused by name in batch.engine_tables)
            raise NotImplementedError("batched 13 Dead End Drive needs numba (pip install trapworks[fast])")
        from .batch import play_batch

        return play_batch(self, agents, seeds, moves=moves)

    def help_text(self) -> str:
        return (
            "A move takes two actions: pick a pawn and a count, e.g. S4 (Smothers, 4 squares; pawn letters "
            "are on the map), then where it ends, e.g. to j12 (column letter, row number; 'exit' for the "
            "Game Over square). On doubles first: change portrait / keep portrait; a pawn may take the "
            "total (S8). On a trap: play stairs (or the trap's name) / play wild / draw; after drawing: "
            "spring or keep. Type 'moves' to list what is legal now."
        )


def board_view(game: DeadEndDriveGame) -> dict[str, Any]:
    """The mansion as every view shows it (squares, traps, passages, the track and, when the
    package has bound it, the drawing): the same for every seat and every state of a game, so it
    is the static part of the view (the spec's `static_view`), sent once with the game's info.
    Made once per game; each call returns a new top-level dict over shared, read-only parts."""
    board = game.__dict__.get("_board_view")
    if board is None:
        m = game.mansion
        board = {
            "width": m.width,
            "height": m.height,
            "grid": list(m.grid),
            "traps": {m.name(sq): kind for sq, kind in m.trap_kind.items()},
            "passages": [m.name(sq) for sq in m.passages],
            "door": m.name(m.door),
            "game_over": m.name(m.game_over),
            "track": [m.name(sq) for sq in m.track],
        }
        board["drawing"] = mansion_drawing(m)
        game.__dict__["_board_view"] = board
    return dict(board)


def static_view(game: DeadEndDriveGame) -> dict[str, Any]:
    """The part of every view that never changes during a game: the board."""
    return {"board": board_view(game)}


class DeadEndDriveState(State):
    game: DeadEndDriveGame

    def __init__(
        self, game: DeadEndDriveGame, seed: int | None = None, start: str | None = None, deal: bool = True
    ):
        super().__init__(game, seed=seed, start=start)
        m = game.mansion
        n = game.players
        # The trap pile's own stream; the Character deal has another (see _deal).
        self.rng = random.Random(stream_seed(seed, "pile") if seed is not None else None)
        self.pos: list[int] = list(m.chair_order)  # pawn i on chair i
        self.detective = 0
        self.portrait: int | None = None  # pawn whose portrait shows (None: Aunt Agatha)
        self.unseen: set[int] = set(range(NUM_PAWNS))  # portraits not yet shown (order unknown to all)
        self.cycle: list[int] = []  # portraits shown and moved to the back, in order
        self.removed_portraits: list[int] = []  # knocked-off pawns' portraits taken out
        self.chars: list[list[int]] = [[] for _ in range(n)]
        self.secret: list[list[int]] = [[] for _ in range(n)]
        self.revealed: dict[
            int, int | None
        ] = {}  # knocked-off pawn -> seat that held its card (None: secret)
        # Trap hands: entries [card, epoch, turn drawn]; epoch = how many reshuffles before the draw.
        self.hands: list[list[list[int]]] = [[] for _ in range(n)]
        self.pile: list[int] = []  # top = end of the list
        self.discard: list[int] = []
        self.epoch = 0
        self.out = [False] * n
        # Turn.
        fp = game.options["first_player"]
        self.phase = FIRST if fp == "random" else REVEAL
        self.resume = RESUME_ROLL
        self.to_move = 0 if fp == "random" else fp - 1
        self.dice: list[int] = []
        self.total_ok = False
        self.moved: list[int] = []
        self.selected: tuple[int, int] | None = None
        self.trap_pawn: int | None = None
        self.drawn: int | None = None
        self.drew = False
        self.opening = True
        self.turns = 0
        self.winner_pawn: int | None = None
        self.win_reason: str | None = None
        self.truncated = False
        self._dest_cache: dict[Any, Any] = {}  # destinations, chair rules and "occupied", by key
        # deal=chance: the deal's and the trap pile's chance nodes (None: the seed decides them).
        # A position (deal=False) keeps its cards; its draws are chance nodes all the same.
        self.hidden: KernelChance | None = KernelChance() if game.hidden_chance else None
        if deal:
            self._deal()
            if self.hidden is not None:
                # The cards just put in the hands in order are taken out, to be dealt by chance.
                self.hidden.start(self)

    def _deal(self) -> None:
        """Seed 004 'The Cards': shuffle the Character cards and deal them; shuffle the trap pile."""
        n = self.game.players
        chars = list(range(NUM_PAWNS))
        chance = self.game.hidden_chance  # the hands' sizes only: chance nodes deal the cards
        deal_rng = random.Random(stream_seed(self.seed, "deal")) if self.seed is not None else self.rng
        if not chance:
            deal_rng.shuffle(chars)
        size = HAND_SIZE[n]
        for seat in range(n):
            self.chars[seat] = sorted(chars[seat * size : (seat + 1) * size])
        if n == 2:
            rest = chars[2 * size :]
            for seat in range(2):
                self.secret[seat] = sorted(rest[seat * SECRET_CARDS_2P : (seat + 1) * SECRET_CARDS_2P])
        self.pile = list(self.game.deck)
        if not chance:  # deal=chance: every card drawn is a chance node; the order is never drawn
            self.rng.shuffle(self.pile)

    # --- queries --------------------------------------------------------------------
    def current_player(self) -> int:
        ph = self.phase
        if ph == OVER:
            return TERMINAL
        if ph == ROLL or ph == REVEAL or ph == FIRST:
            return CHANCE
        if self.hidden is not None and self.hidden.pending():
            return CHANCE  # deal=chance: a card drawn from the trap pile
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        ph = self.phase
        return (
            ph == ROLL or ph == REVEAL or ph == FIRST or (self.hidden is not None and self.hidden.pending())
        )

    def hidden_pending(self) -> bool:
        """deal=chance: a hidden chance node (a card dealt or drawn) comes before anything else."""
        return self.hidden is not None and self.hidden.pending()

    def chance_visible_to(self) -> int:
        """Who sees the outcome of this chance node: -1 everybody, -2 nobody, or one seat (a
        Character card dealt: its seat; a secret card: nobody; a card drawn: the drawer)."""
        if self.hidden_pending():
            assert self.hidden is not None
            return self.hidden.visible_to(self)
        return -1

    def public_history(self) -> list[int]:
        """The actions every seat has seen: deal=chance's hidden outcomes left out."""
        base = self.game.HIDDEN_BASE
        return [a for a in self._history if a < base]

    def is_truncated(self) -> bool:
        return self.truncated

    def alive(self, pawn: int) -> bool:
        return self.pos[pawn] != OFF

    def live_pawns(self) -> list[int]:
        return [p for p in range(NUM_PAWNS) if self.pos[p] != OFF]

    def occupied(self) -> int:
        got = self._dest_cache.get("occupied")  # cleared with the cache whenever a pawn moves
        if got is None:
            got = 0
            for sq in self.pos:
                if sq != OFF:
                    got |= 1 << sq
            self._dest_cache["occupied"] = got
        return got

    def holder(self, pawn: int) -> int | None:
        """Seat holding the pawn's Character card in hand (None: nobody, or a 2-player secret card)."""
        for seat, hand in enumerate(self.chars):
            if pawn in hand:
                return seat
        return None

    def secret_holder(self, pawn: int) -> int | None:
        for seat, cards in enumerate(self.secret):
            if pawn in cards:
                return seat
        return None

    def frame_live(self) -> list[int]:
        """Live pawns whose portraits are still in the frame behind the one showing."""
        return [p for p in list(self.unseen) + self.cycle if self.alive(p)]

    def destinations(self, pawn: int, count: int) -> int:
        """Bitmask of squares where `pawn` may end a move of `count` now (public information only).

        Seed 004 rules 3-6 and Figure 8: no square twice, no pawns/furniture/walls, Red Chairs only
        when other pawns block every chair-free move; during the opening no pawn may end on a trap.
        """
        key = (pawn, count)
        got = self._dest_cache.get(key)
        if got is not None:
            return got
        g = self.game
        m = g.mansion
        start = self.pos[pawn]
        hops = g.options["passage_hops"]
        sh = g.options["passage_start_hop"]
        exit_ok = pawn == self.portrait
        blocked = self.occupied() & ~(1 << start)
        keep = ~m.traps if self.opening else -1
        if 1 <= count <= 2 * TABLE_DEPTH:
            dest = g.moves.destinations(start, count, blocked, exit_ok) & keep
        else:
            dest = (
                m.destinations(
                    start, count, blocked, chairs=False, exit_ok=exit_ok, max_hops=hops, start_hop=sh
                )
                & keep
            )
        if not dest:
            # Figure 8: the chairs open only when pawns are what blocks the way.
            unblocked = (
                m.destinations(start, count, 0, chairs=False, exit_ok=exit_ok, max_hops=hops, start_hop=sh)
                & keep
            )
            if unblocked:
                dest = (
                    m.destinations(
                        start, count, blocked, chairs=True, exit_ok=exit_ok, max_hops=hops, start_hop=sh
                    )
                    & keep
                )
        self._dest_cache[key] = dest
        return dest

    def can_move(self, pawn: int, count: int) -> bool:
        """Whether `pawn` has any legal move of `count` now (the same rules as `destinations`)."""
        key = (pawn, count)
        got = self._dest_cache.get(key)
        if got is not None:
            return bool(got)
        return self._chair_rule(pawn, count) is not None

    def _chair_rule(self, pawn: int, count: int) -> bool | None:
        """None: no legal move; False: moves without crossing chairs; True: chairs may be crossed."""
        key = ("rule", pawn, count)
        if key in self._dest_cache:
            return self._dest_cache[key]
        rule = self._dest_cache[key] = self._find_chair_rule(pawn, count)
        return rule

    def _find_chair_rule(self, pawn: int, count: int) -> bool | None:
        g = self.game
        m = g.mansion
        start = self.pos[pawn]
        hops = g.options["passage_hops"]
        sh = g.options["passage_start_hop"]
        exit_ok = pawn == self.portrait
        blocked = self.occupied() & ~(1 << start)
        ends = ~m.traps if self.opening else -1
        if 1 <= count <= 2 * TABLE_DEPTH:
            moves = g.moves
            if moves.can_move(start, count, blocked, exit_ok, ends):
                return False
            if moves.can_move(start, count, 0, exit_ok, ends) and m.can_move(
                start, count, blocked, chairs=True, exit_ok=exit_ok, max_hops=hops, ends=ends, start_hop=sh
            ):
                return True
            return None
        if m.can_move(
            start, count, blocked, chairs=False, exit_ok=exit_ok, max_hops=hops, ends=ends, start_hop=sh
        ):
            return False
        if m.can_move(
            start, count, 0, chairs=False, exit_ok=exit_ok, max_hops=hops, ends=ends, start_hop=sh
        ) and m.can_move(
            start, count, blocked, chairs=True, exit_ok=exit_ok, max_hops=hops, ends=ends, start_hop=sh
        ):
            return True
        return None

    def counts_available(self) -> list[int]:
        counts = sorted(set(self.dice))
        if self.total_ok and len(self.dice) == 2:
            counts.append(self.dice[0] + self.dice[1])
        return counts

    def movable_pawns(self) -> list[int]:
        """Pawns rule 2 lets move first: while any pawn is on a Red Chair, only those (and not
        one moved this turn). `freed_pawns` are the others a die nobody here can use may move."""
        m = self.game.mansion
        out = []
        for p in range(NUM_PAWNS):
            sq = self.pos[p]
            if sq == OFF or p in self.moved:
                continue
            if self.opening and not (m.chairs >> sq & 1):
                continue
            out.append(p)
        return out

    def freed_pawns(self) -> list[int]:
        """During the opening, the pawns that have left the Red Chairs (not moved this turn).

        Rule 2 read literally can stop the game for good: a pawn still on a chair boxed in by
        pawns that have left can never move, so no die could ever be used again. The rule is
        there to clear the chairs, not to stop the game: a die that no pawn on a chair can use
        may move one of these instead (still not onto a trap). docs/dead-end-drive.md."""
        if not self.opening:
            return []
        m = self.game.mansion
        return [
            p
            for p in range(NUM_PAWNS)
            if self.pos[p] != OFF and p not in self.moved and not (m.chairs >> self.pos[p] & 1)
        ]

    def select_actions(self) -> list[int]:
        return list(self._select_choices())

    def _select_choices(self) -> tuple[int, ...]:
        # Asked twice per decision (legal_actions, then apply_action's check): kept in the cache
        # that every pawn move and portrait change clears, keyed by the turn's other inputs.
        key = ("select", tuple(self.dice), self.total_ok, tuple(self.moved), self.opening)
        got: tuple[int, ...] | None = self._dest_cache.get(key)
        if got is not None:
            return got
        counts = self.counts_available()
        out = self._pawn_counts(self.movable_pawns(), counts)
        if self.opening:
            # Rule 2 lifted for a die no pawn on a chair can use (freed_pawns).
            # A doubles total uses both dice: it is freed only when the die itself is.
            used = {a % 12 + 1 for a in out}
            stuck = [c for c in counts if c not in used and (c in self.dice or self.dice[0] not in used)]
            if stuck:
                out = sorted(out + self._pawn_counts(self.freed_pawns(), stuck))
        got = self._dest_cache[key] = tuple(out)
        return got

    def _pawn_counts(self, pawns: list[int], counts: list[int]) -> list[int]:
        """The pick actions (pawn * 12 + count - 1) of `pawns` that have a legal move of a count."""
        out = []
        g = self.game
        moves = g.moves
        tables = moves._start
        occupied = self.occupied()
        which = 1 if self.opening else 0  # the opening: no move may end on a trap (rule 2)
        for p in pawns:
            start = self.pos[p]
            blocked = occupied & ~(1 << start)
            tab = tables[start] or moves.start(start)
            for c in counts:
                if c <= TABLE_DEPTH:
                    # The common case read straight from the tables: a path that crosses no
                    # chair, holds no pawn and ends inside the mansion. Else the full rule.
                    for path in tab[c][which]:
                        if not path & blocked:
                            out.append(p * 12 + c - 1)
                            break
                    else:
                        if self.can_move(p, c):
                            out.append(p * 12 + c - 1)
                elif self.can_move(p, c):
                    out.append(p * 12 + c - 1)
        return out

    def die_usable(self, count: int) -> bool:
        """Whether some pawn may move `count` now (rule 2 and its lift included)."""
        return any(a % 12 + 1 == count for a in self._select_choices())

    def playable_cards(self, seat: int) -> list[int]:
        """Card kinds `seat` may play now (after a draw this turn only cards drawn this turn, by option)."""
        hand = self.hands[seat]
        if not self.drew:
            return [c for c, _, _ in hand]
        if self.game.options["after_draw"] == "none":
            return []
        return [c for c, _, t in hand if t == self.turns]

    def trap_kind_index(self, pawn: int) -> int:
        m = self.game.mansion
        return TRAP_KINDS.index(m.trap_kind[self.pos[pawn]])

    # --- legal actions ----------------------------------------------------------------
    # legal_actions, apply_action and chance_table have fast paths for what every turn does (the
    # dice, a pawn and a count, where it ends); everything else goes through the kernel's path.
    def legal_actions(self, player: int | None = None) -> list[int]:
        ph = self.phase
        if (ph == SELECT or ph == DEST) and (player is None or player == self.to_move):
            return self._legal_actions()
        return super().legal_actions(player)

    def chance_table(self) -> tuple[Sequence[int], Sequence[float]]:
        if self.phase == ROLL:
            return self.game.roll_table
        return super().chance_table()

    def _fast_apply(self, action: int) -> int:
        # The turn's common actions straight to their rules (the kernel keeps the history);
        # anything else through the kernel's checked path.
        ph = self.phase
        g = self.game
        if self.hidden is not None and self.hidden.pending():
            return FAST_DECLINED
        if ph == ROLL:
            if 0 <= action - g.ROLL_BASE < len(ROLLS):
                if self._events:
                    self._events = []
                self._roll(action)
                return FAST_REVEALED  # the dice are seen
        elif ph == SELECT:
            if action in self._select_choices():
                if self._events:
                    self._events = []
                pawn, c = divmod(action, 12)
                self.selected = (pawn, c + 1)
                self.phase = DEST
                self._events.append((_select_event, self.to_move, pawn, c + 1))
                return FAST_APPLIED
        elif ph == DEST:
            sq = action - g.DEST_BASE
            if 0 <= sq < g.CHANGE - g.DEST_BASE and self.destinations(*self.selected) >> sq & 1:
                if self._events:
                    self._events = []
                self._move(sq)
                return FAST_APPLIED
        return FAST_DECLINED

    def _legal_actions(self) -> list[int]:
        g = self.game
        ph = self.phase
        if ph == PORTRAIT:
            return [g.CHANGE, g.KEEP_PORTRAIT]
        if ph == SELECT:
            return self.select_actions()
        if ph == DEST:
            pawn, count = self.selected
            return [g.DEST_BASE + sq for sq in squares_of(self.destinations(pawn, count))]
        if ph == TRAP:
            out = []
            playable = self.playable_cards(self.to_move)
            if self.trap_kind_index(self.trap_pawn) in playable:
                out.append(g.PLAY_TRAP)
            if WILD in playable:
                out.append(g.PLAY_WILD)
            if self.pile or self.discard:
                out.append(g.DRAW)
            return out
        if ph == DRAWN:
            return ([g.SPRING] if self._drawn_matches() else []) + [g.KEEP_CARD]
        return []

    def _drawn_matches(self) -> bool:
        return self.drawn == WILD or self.drawn == self.trap_kind_index(self.trap_pawn)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        g = self.game
        if self.hidden is not None and self.hidden.pending():
            base = g.HIDDEN_BASE
            return [(base + o, p) for o, p in self.hidden.outcomes(self)]
        if self.phase == ROLL:
            return [(g.ROLL_BASE + i, (1 if a == b else 2) / 36) for i, (a, b) in enumerate(ROLLS)]
        if self.phase == FIRST:
            n = g.players
            return [(g.FIRST_BASE + s, 1 / n) for s in range(n)]
        if self.phase == REVEAL:
            # Every card not yet shown may come up next, a knocked-off pawn's too (004: it is
            # then removed, and the next card comes up).
            cards = sorted(self.unseen)
            return [(g.REVEAL_BASE + p, 1 / len(cards)) for p in cards]
        return []

    def _said(self, msg: str, **args: Any) -> str:
        # Why an action is illegal, a message of the game's catalog (issue 37): English here and
        # at the terminal, the page words it in the viewer's language.
        return told(type(self.game), f"dead_end_drive.illegal.{msg}", **args)

    def _why_illegal(self, action: int) -> str | None:
        g = self.game
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < g.NUM_ACTIONS:
            return self._said("no_action", last=g.NUM_ACTIONS - 1)
        if self.phase in CHANCE_PHASES or self.hidden_pending():
            if action in [a for a, _ in self._chance_outcomes()]:
                return None
            return self._said(f"chance_due.{self._chance_phase()}", move=self.action_to_string(action))
        if action in self._legal_actions():
            return None
        return self._explain_illegal(action)

    def _chance_phase(self) -> str:
        if self.hidden is not None and self.hidden.pending():
            return "deal" if self.hidden.hands else "trap_card"
        return self.phase

    def _explain_illegal(self, action: int) -> str:
        g = self.game
        ph = self.phase
        want = {"msg": f"dead_end_drive.illegal.want.{ph}", "args": {}}
        if action < g.DEST_BASE:
            if ph != SELECT:
                return self._said("no_pawn_now", want=want)
            pawn, count = divmod(action, 12)
            count += 1
            if not self.alive(pawn):
                return self._said("knocked_off", pawn=NAMES[pawn])
            if pawn in self.moved:
                return self._said("moved_already", pawn=NAMES[pawn])
            if count not in self.counts_available():
                return self._said("no_die", count=count, dice=", ".join(map(str, self.dice)))
            if self.opening and not (g.mansion.chairs >> self.pos[pawn] & 1) and self.can_move(pawn, count):
                return self._said("leave_chairs_first", pawn=NAMES[pawn])
            return self._said("cannot_move", pawn=NAMES[pawn], n=count, square=g.mansion.name(self.pos[pawn]))
        if action < g.CHANGE:
            if ph != DEST:
                return self._said("no_pawn_yet", want=want)
            sq = action - g.DEST_BASE
            pawn, count = self.selected
            m = g.mansion
            if sq == m.game_over and pawn != self.portrait:
                return self._said("not_portrait", pawn=NAMES[pawn])
            if m.traps >> sq & 1 and self.opening:
                return self._said("trap_in_opening")
            if m.chairs >> sq & 1:
                return self._said("ends_on_chairs")
            return self._said("cannot_end", pawn=NAMES[pawn], n=count, square=m.name(sq))
        if ph == TRAP and action in (g.PLAY_TRAP, g.PLAY_WILD):
            kind = "wild" if action == g.PLAY_WILD else TRAP_KINDS[self.trap_kind_index(self.trap_pawn)]
            if self.drew and kind in [CARD_NAMES[c] for c, _, _ in self.hands[self.to_move]]:
                return self._said("drew_then_played")
            return self._said("no_card", card={"msg": f"dead_end_drive.card.{kind}", "args": {}})
        if ph == TRAP and action == g.DRAW:
            return self._said("piles_empty")
        if ph == DRAWN and action == g.SPRING:
            return self._said(
                "no_match", card={"msg": f"dead_end_drive.card.{CARD_NAMES[self.drawn]}", "args": {}}
            )
        return self._said("not_now", want=want)

    # --- applying ----------------------------------------------------------------
    def _say(
        self, kind: str, msg: str, args: dict[str, Any], to: list[int] | None = None, **data: Any
    ) -> None:
        # A typed event: its message id and arguments (the catalog words it, i18n/*.po).
        event = {"type": kind, "msg": msg, "args": args, **data}
        if to is not None:
            event["to"] = to
        self._events.append(event)

    def all_events(self) -> list[dict[str, Any]]:
        events = self._events
        for i, e in enumerate(events):
            if e.__class__ is not dict:
                events[i] = e[0](*e[1:])  # a lazy event, (function, its values): made once, kept
        return events

    def stat_events(self) -> list[dict[str, Any]]:
        # A move's path (and whether it crossed chairs) is for drawing it: the statistics never
        # read it, and finding it was about 30% of a simulated game's CPU. Made here without it,
        # and not kept, so all_events still draws the move.
        return [
            e
            if e.__class__ is dict
            else _move_event(*e[1:], drawn=False)
            if e[0] is _move_event
            else e[0](*e[1:])
            for e in self._events
        ]

    def __getstate__(self) -> dict[str, Any]:
        self.all_events()  # lazy events are functions: made into dicts before pickling
        return super().__getstate__()

    def seat_name(self, seat: int) -> str:
        return f"Player {seat + 1}"

    def describe_action(self, action: int) -> str:
        g = self.game
        if action < g.DEST_BASE:
            pawn, c = divmod(action, 12)
            return f"Move {NAMES[pawn]} {c + 1} {'square' if c == 0 else 'squares'}"
        if action < g.CHANGE:
            who = NAMES[self.selected[0]] if self.selected is not None else "the pawn"
            return f"Move {who} to {g.mansion.name(action - g.DEST_BASE)}"
        words = {
            g.CHANGE: "Change the portrait",
            g.KEEP_PORTRAIT: "Keep the portrait",
            g.PLAY_WILD: "Play a wild card to spring the trap",
            g.DRAW: "Draw a card from the trap pile",
            g.SPRING: "Spring the trap with the card you drew",
            g.KEEP_CARD: "Keep the card you drew",
        }
        if action == g.PLAY_TRAP:
            return f"Play your {self.action_to_string(action).removeprefix('play ')} card to spring the trap"
        return words.get(action, self.action_to_string(action))

    def describe_message(self, action: int) -> dict[str, Any] | None:
        g = self.game
        if action < g.DEST_BASE:
            pawn, c = divmod(action, 12)
            return {"msg": "dead_end_drive.do.move", "args": {"pawn": NAMES[pawn], "n": c + 1}}
        if action < g.CHANGE:
            square = g.mansion.name(action - g.DEST_BASE)
            if self.selected is None:
                return {"msg": "dead_end_drive.do.move_pawn_to", "args": {"square": square}}
            return {
                "msg": "dead_end_drive.do.move_to",
                "args": {"pawn": NAMES[self.selected[0]], "square": square},
            }
        plain = {
            g.CHANGE: "change_portrait",
            g.KEEP_PORTRAIT: "keep_portrait",
            g.PLAY_WILD: "play_wild",
            g.DRAW: "draw",
            g.SPRING: "spring_drawn",
            g.KEEP_CARD: "keep_card",
        }
        if action in plain:
            return {"msg": f"dead_end_drive.do.{plain[action]}", "args": {}}
        if action == g.PLAY_TRAP:
            card = self.action_to_string(action).removeprefix("play ")
            return {
                "msg": "dead_end_drive.do.play_card",
                "args": {"card": {"msg": f"dead_end_drive.card.{card}", "args": {}}},
            }
        return None

    def story(self, action: int) -> list[dict[str, Any]]:
        # Picking a pawn and a count is half a move: the line of the square it reaches tells it.
        lines = super().story(action)
        told = [e for e in self.all_events() if e.get("msg")]
        return [line for line, e in zip(lines, told, strict=True) if e["type"] != "select"]

    def story_owner(self, action: int) -> int | None:
        # The dice belong to the turn of the player who rolls them; the roll-off for who starts
        # and a portrait revealed belong to nobody's turn.
        if self.phase == ROLL:
            return self.to_move
        if self.hidden is not None and self.hidden.draw is not None:
            return self.to_move  # deal=chance: a card drawn belongs to the drawer's turn
        return super().story_owner(action)

    def _apply_action(self, action: int) -> None:
        g = self.game
        ph = self.phase
        hidden = self.hidden
        if hidden is not None and hidden.pending():
            # deal=chance: a card dealt, or a card on top of the trap pile (the draw's rule runs
            # once chance has chosen every card it needs: KernelChance._apply_draw).
            hidden.apply(self, action - g.HIDDEN_BASE)
            return
        if ph == FIRST:
            self.to_move = action - g.FIRST_BASE
            self._say(
                "first_player",
                "dead_end_drive.goes_first",
                {"who": self.to_move},
                seat=self.to_move,
            )
            self.phase = REVEAL
            self.resume = RESUME_ROLL
        elif ph == REVEAL:
            self._reveal(action - g.REVEAL_BASE)
        elif ph == ROLL:
            self._roll(action)
        elif ph == PORTRAIT:
            if action == g.CHANGE:
                self._say(
                    "portrait_change",
                    "dead_end_drive.changes_portrait",
                    {"who": self.to_move},
                    seat=self.to_move,
                )
                self.cycle.append(self.portrait)
                self.portrait = None
                self._next_portrait(RESUME_SELECT)
            else:
                self._say(
                    "portrait_keep", "dead_end_drive.keeps_portrait", {"who": self.to_move}, seat=self.to_move
                )
                self._enter_select()
        elif ph == SELECT:
            pawn, c = divmod(action, 12)
            self.selected = (pawn, c + 1)
            self.phase = DEST
            self._events.append((_select_event, self.to_move, pawn, c + 1))
        elif ph == DEST:
            self._move(action - g.DEST_BASE)
        elif ph == TRAP:
            self._trap_choice(action)
        elif ph == DRAWN:
            self._drawn_choice(action)

    def _roll(self, action: int) -> None:
        a, b = ROLLS[action - self.game.ROLL_BASE]
        self.dice = [a, b]
        self.total_ok = a == b
        self.moved = []
        self._events.append((_roll_event, self.to_move, a, b))
        if a == b and self.frame_live():
            self.phase = PORTRAIT
        else:
            self._enter_select()

    def _reveal(self, pawn: int) -> None:
        self.unseen.discard(pawn)
        if not self.alive(pawn):
            # 004: 'when the "knocked-off" pawn's matching Portrait card appears in the frame,
            # remove the card'; the next card comes up.
            self._remove_portrait(pawn)
            self._next_portrait(self.resume)
            return
        self.portrait = pawn
        self._say("portrait", "dead_end_drive.portrait_shows", {"pawn": NAMES[pawn]}, pawn=LETTERS[pawn])
        resume = self.resume
        if resume == RESUME_ROLL:
            self.phase = ROLL
        elif resume == RESUME_SELECT:
            self._enter_select()
        else:
            self._continue_turn()

    def _remove_portrait(self, p: int) -> None:
        self.removed_portraits.append(p)
        self._say(
            "portrait_removed",
            "dead_end_drive.portrait_out",
            {"pawn": NAMES[p]},
            pawn=LETTERS[p],
        )

    def _next_portrait(self, resume: str) -> None:
        """Show the next portrait: an unseen one is a chance node; else the next in the known cycle."""
        self._dest_cache.clear()  # who may leave the mansion changes
        if any(self.alive(p) for p in self.unseen):
            self.phase = REVEAL
            self.resume = resume
            return
        # Only knocked-off pawns' cards are left unshown: they come up before the shown ones
        # (which went to the back) and are removed, whatever their order.
        for p in sorted(self.unseen):
            self.unseen.discard(p)
            self._remove_portrait(p)
        while self.cycle:
            p = self.cycle.pop(0)
            if self.alive(p):
                self.portrait = p
                self._say("portrait", "dead_end_drive.portrait_shows", {"pawn": NAMES[p]}, pawn=LETTERS[p])
                break
            self._remove_portrait(p)
        self.resume = resume
        if resume == RESUME_SELECT:
            self._enter_select()
        elif resume == RESUME_CONTINUE:
            self._continue_turn()
        else:
            self.phase = ROLL

    def _enter_select(self) -> None:
        self.phase = SELECT
        self.selected = None
        self._dest_cache.clear()
        if not self.dice:
            self._end_turn()
            return
        if self.game.options["blocked_die"] == "lose-turn" and not self.moved:
            for d in sorted(set(self.dice)):
                if not self.die_usable(d):
                    self._say(
                        "blocked_die",
                        "dead_end_drive.blocked_loses_turn",
                        {"who": self.to_move, "die": d},
                        seat=self.to_move,
                        die=d,
                    )
                    self._end_turn()
                    return
        if not self._select_choices():
            # The counts nobody can move: one die, two dice, or on doubles the die and the total.
            self._say(
                "blocked_die",
                *_forfeit_message(self.dice, self.counts_available()),
                seat=self.to_move,
                dice=list(self.dice),
            )
            self._end_turn()

    def _move(self, sq: int) -> None:
        g = self.game
        m = g.mansion
        pawn, count = self.selected
        start = self.pos[pawn]
        blocked = self.occupied() & ~(1 << start)
        # The event (its path search and text) is made only when read: playouts and search never
        # read it. It holds only values fixed now, never the state.
        event = (
            _move_event,
            g,
            pawn,
            count,
            start,
            sq,
            blocked,
            pawn == self.portrait,
            self.opening,
            self.to_move,
        )
        self.pos[pawn] = sq
        self._dest_cache.clear()
        if (
            self.total_ok
            and len(self.dice) == 2
            and count == self.dice[0] + self.dice[1]
            and count not in self.dice
        ):
            self.dice = []
        else:
            self.dice.remove(count)
        self.total_ok = False
        self.moved.append(pawn)
        self.selected = None
        self._events.append(event)
        # Told after the move that emptied the last chair (it is that move that ends the opening).
        if self.opening and not any(m.chairs >> p & 1 for p in self.pos if p != OFF):
            self.opening = False
            self._say("opening_over", "dead_end_drive.opening_over", {})
        if sq == m.game_over:
            self._win(pawn, WIN_ESCAPE)
            return
        if m.traps >> sq & 1:
            self.trap_pawn = pawn
            self.phase = TRAP
            if not self._legal_actions():
                self._say("no_cards", "dead_end_drive.no_cards", {})
                self.trap_pawn = None
                self._continue_turn()
            return
        self._continue_turn()

    def _trap_choice(self, action: int) -> None:
        g = self.game
        seat = self.to_move
        if action == g.DRAW:
            if self.hidden is not None:
                # deal=chance: chance nodes choose the cards, then the draw runs (or at once when
                # every card is forced).
                self.hidden.intercept(self, action)
            else:
                self._draw()
            return
        kind = WILD if action == g.PLAY_WILD else self.trap_kind_index(self.trap_pawn)
        hand = self.hands[seat]
        # Play a card drawn this turn when the rule requires it (it is the only kind allowed then).
        idx = next(i for i, (c, _, t) in enumerate(hand) if c == kind and (not self.drew or t == self.turns))
        hand.pop(idx)
        self.discard.append(kind)
        self._say(
            "play",
            "dead_end_drive.plays_card",
            {"who": seat, "card": _card(kind)},
            seat=seat,
            card=CARD_NAMES[kind],
        )
        self._spring(self.trap_pawn)

    def _draw(self) -> None:
        seat = self.to_move
        m = self.game.mansion
        while True:
            if not self.pile:
                if not self.discard:
                    self._say("no_cards", "dead_end_drive.piles_empty", {})
                    self.trap_pawn = None
                    self._continue_turn()
                    return
                self.pile = self.discard
                self.discard = []
                self.rng.shuffle(self.pile)
                self.epoch += 1
                self._say("reshuffle", "dead_end_drive.reshuffle", {})
            card = self.pile.pop()
            if card == DETECTIVE:
                self.discard.append(card)
                self.detective += 1
                self._say(
                    "detective",
                    "dead_end_drive.detective",
                    {"who": seat, "step": self.detective, "total": len(m.track) - 1},
                    seat=seat,
                    step=self.detective,
                )
                if self.detective >= len(m.track) - 1:
                    self._win(self.portrait, WIN_DETECTIVE)
                    return
                continue
            self.drawn = card
            self.drew = True
            self._say("draw", "dead_end_drive.draws", {"who": seat}, seat=seat)
            self._say(
                "drawn_card",
                "dead_end_drive.drew_card",
                {"who": seat, "card": _card(card)},
                to=[seat],
                card=CARD_NAMES[card],
                matches=self._drawn_matches(),  # only the drawer sees it: a keep after True is a bluff
            )
            self.phase = DRAWN
            return

    def _drawn_choice(self, action: int) -> None:
        seat = self.to_move
        card = self.drawn
        self.drawn = None
        if action == self.game.SPRING:
            self.discard.append(card)
            self._say(
                "play",
                "dead_end_drive.plays_drawn",
                {"who": seat, "card": _card(card)},
                seat=seat,
                card=CARD_NAMES[card],
            )
            self._spring(self.trap_pawn)
            return
        self.hands[seat].append([card, self.epoch, self.turns])
        # The same words whether the card did not match or the player bluffs (seed 004, Bluffing).
        self._say(
            "keep",
            "dead_end_drive.keeps_card",
            {"who": seat},
            seat=seat,
        )
        self.trap_pawn = None
        self._continue_turn()

    def _spring(self, pawn: int) -> None:
        m = self.game.mansion
        seat = self.to_move
        trap = m.trap_kind[self.pos[pawn]]
        self.pos[pawn] = OFF
        self.trap_pawn = None
        self._dest_cache.clear()
        owner = self.holder(pawn)
        if owner is not None:
            self.chars[owner].remove(pawn)
            self.revealed[pawn] = owner
            whose = {"msg": "dead_end_drive.owner_lays_down", "args": {"who": owner, "pawn": NAMES[pawn]}}
        else:
            self.revealed[pawn] = None
            whose = {"msg": "dead_end_drive.secret_card", "args": {"pawn": NAMES[pawn]}}
        self._say(
            "spring",
            "dead_end_drive.sprung",
            {"trap": _trap(trap), "pawn": NAMES[pawn], "whose": whose},
            seat=seat,
            pawn=LETTERS[pawn],
            trap=trap,
            owner=owner,
        )
        live = self.live_pawns()
        if owner is not None and not self.chars[owner] and self.game.players > 2:
            self.out[owner] = True
            cards = [c for c, _, _ in self.hands[owner]]
            self.discard.extend(cards)
            self.hands[owner] = []
            self._say(
                "out",
                "dead_end_drive.out_discarding" if cards else "dead_end_drive.out",
                {
                    "who": owner,
                    "cards": [{"msg": "dead_end_drive.a_card", "args": {"card": _card(c)}} for c in cards],
                },
                seat=owner,
                discarded=[CARD_NAMES[c] for c in cards],
            )
        if len(live) == 1:
            self._win(live[0], WIN_LAST_ALIVE)
            return
        if self.portrait == pawn:
            self.removed_portraits.append(pawn)
            self.portrait = None
            self._say(
                "portrait_removed",
                "dead_end_drive.portrait_removed",
                {"pawn": NAMES[pawn]},
                pawn=LETTERS[pawn],
            )
            self._next_portrait(RESUME_CONTINUE)
            return
        self._continue_turn()

    def _continue_turn(self) -> None:
        if self.out[self.to_move]:
            self._end_turn()
            return
        self._enter_select()

    def _end_turn(self) -> None:
        self.dice = []
        self.total_ok = False
        self.moved = []
        self.selected = None
        self.trap_pawn = None
        self.drawn = None
        self.drew = False
        self.turns += 1
        self._dest_cache.clear()
        if self.turns >= self.game.options["turn_limit"]:
            self.phase = OVER
            self.truncated = True
            self._say("truncated", "dead_end_drive.turn_limit", {"n": self.turns})
            return
        n = self.game.players
        seat = self.to_move
        for _ in range(n):
            seat = (seat + 1) % n
            if not self.out[seat]:
                break
        self.to_move = seat
        self.phase = ROLL

    def _win(self, pawn: int, reason: str) -> None:
        self.winner_pawn = pawn
        self.win_reason = reason
        self.phase = OVER
        self.dice = []
        seat = self.winner_seat()
        secret = self.game.players == 2 and self.holder(pawn) is None
        why = {"msg": f"dead_end_drive.why.{reason}", "args": {"pawn": NAMES[pawn]}}
        self._say(
            "game_over",
            "dead_end_drive.wins_secret" if secret else "dead_end_drive.wins",
            {"why": why, "who": seat, "pawn": NAMES[pawn]},
            pawn=LETTERS[pawn],
            reason=reason,
            winner=seat,
        )

    def winner_seat(self) -> int | None:
        if self.winner_pawn is None:
            return None
        seat = self.holder(self.winner_pawn)
        if seat is None:
            seat = self.secret_holder(self.winner_pawn)  # 2-player: "turn over their secret Character cards"
        return seat

    def returns(self) -> list[float]:
        n = self.game.players
        if self.phase != OVER or self.truncated:
            return [0.0] * n
        w = self.winner_seat()
        return [1.0 if s == w else -1.0 / (n - 1) for s in range(n)]

    # --- notation -----------------------------------------------------------------
    def action_to_string(self, action: int, player: int | None = None) -> str:
        g = self.game
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < g.NUM_ACTIONS:
            raise IllegalActionError(action, "no such action id")
        if action < g.DEST_BASE:
            pawn, c = divmod(action, 12)
            return f"{LETTERS[pawn]}{c + 1}"
        if action < g.CHANGE:
            sq = action - g.DEST_BASE
            return f"to {g.mansion.name(sq)}"
        if action >= g.HIDDEN_BASE:
            return KernelChance().outcome_string(action - g.HIDDEN_BASE)  # deal Smothers, top card wild
        if action >= g.REVEAL_BASE:
            return f"portrait {LETTERS[action - g.REVEAL_BASE]}"
        if action >= g.FIRST_BASE:
            return f"first {action - g.FIRST_BASE + 1}"
        if action >= g.ROLL_BASE:
            a, b = ROLLS[action - g.ROLL_BASE]
            return f"roll {a}-{b}"
        if action == g.PLAY_TRAP:
            if self.phase == TRAP and self.trap_pawn is not None:
                return f"play {TRAP_KINDS[self.trap_kind_index(self.trap_pawn)]}"
            return "play trap"
        return {
            g.CHANGE: "change portrait",
            g.KEEP_PORTRAIT: "keep portrait",
            g.PLAY_WILD: "play wild",
            g.DRAW: "draw",
            g.SPRING: "spring",
            g.KEEP_CARD: "keep",
        }[action]

    _SELECT_RE = re.compile(r"^(?:move\s+)?([a-z][a-z .]*?)\s*(\d{1,2})$")

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalActionError(text, self._said("not_text"))
        t = " ".join(text.strip().lower().split())
        if not t:
            raise IllegalActionError(text, self._said("empty"))
        if self.phase == OVER:
            raise IllegalActionError(text, self._said("game_over"))
        action = self._parse(t, text)
        reason = self._why_illegal(action)
        if reason:
            raise IllegalActionError(text, reason)
        return action

    def _parse(self, t: str, text: str) -> int:
        g = self.game
        m = g.mansion
        ph = self.phase
        if self.hidden is not None and self.hidden.pending():
            return self._parse_hidden(t, text)
        if ph == ROLL:
            mt = re.fullmatch(r"roll (\d)\s*[-, ]\s*(\d)", t)
            if not mt:
                raise IllegalActionError(text, self._said("write_roll"))
            a, b = sorted((int(mt.group(1)), int(mt.group(2))))
            if (a, b) not in ROLLS:
                raise IllegalActionError(text, self._said("die_faces"))
            return g.ROLL_BASE + ROLLS.index((a, b))
        if ph == FIRST:
            mt = re.fullmatch(r"first (?:player )?(\d)", t)
            if not mt or not 1 <= int(mt.group(1)) <= g.players:
                raise IllegalActionError(text, self._said("write_first", last=g.players))
            return g.FIRST_BASE + int(mt.group(1)) - 1
        if ph == REVEAL:
            mt = re.fullmatch(r"portrait (.+)", t)
            if not mt:
                raise IllegalActionError(text, self._said("write_portrait"))
            return g.REVEAL_BASE + self._pawn_named(mt.group(1), text)
        if ph == PORTRAIT:
            if t in ("change portrait", "change"):
                return g.CHANGE
            if t in ("keep portrait", "keep", "no change"):
                return g.KEEP_PORTRAIT
            raise IllegalActionError(text, self._said("write_change"))
        if ph == SELECT:
            mt = self._SELECT_RE.match(t)
            if not mt:
                raise IllegalActionError(text, self._said("write_select"))
            pawn = self._pawn_named(mt.group(1), text)
            count = int(mt.group(2))
            if not 1 <= count <= 12:
                raise IllegalActionError(text, self._said("count_range", count=count))
            return pawn * 12 + count - 1
        if ph == DEST:
            target = t[3:] if t.startswith("to ") else t
            if target in ("exit", "game over", "out", "door"):
                return g.DEST_BASE + m.game_over
            try:
                return g.DEST_BASE + m.square(target)
            except ValueError:
                raise IllegalActionError(text, self._said("not_square", square=repr(target))) from None
        if ph == TRAP:
            if t == "draw":
                return g.DRAW
            if t in ("play wild", "wild"):
                return g.PLAY_WILD
            kind = TRAP_KINDS[self.trap_kind_index(self.trap_pawn)]
            if t in ("play", "play trap", f"play {kind}", kind):
                return g.PLAY_TRAP
            trap = {"msg": f"dead_end_drive.trap.{kind}", "args": {}}
            if t.startswith("play "):
                raise IllegalActionError(text, self._said("write_trap_play", trap=trap, kind=kind))
            raise IllegalActionError(text, self._said("write_trap", trap=trap, kind=kind))
        if ph == DRAWN:
            if t == "spring":
                return g.SPRING
            if t in ("keep", "keep card", "pass"):
                return g.KEEP_CARD
            raise IllegalActionError(text, self._said("write_drawn"))
        raise IllegalActionError(text, self._said("nothing_now"))

    def _pawn_named(self, name: str, text: str) -> int:
        """The pawn a move's text names (a letter or a name), or the move refused with the reason."""
        try:
            return pawn_index(name)
        except ValueError:
            choices = ", ".join(f"{letter} {pawn}" for letter, pawn in CHARACTERS)
            raise IllegalActionError(text, self._said("not_pawn", name=repr(name), pawns=choices)) from None

    def _parse_hidden(self, t: str, text: str) -> int:
        g = self.game
        if self.hidden is not None and self.hidden.hands:
            mt = re.fullmatch(r"deal (.+)", t)
            if not mt:
                raise IllegalActionError(text, self._said("write_deal"))
            return g.HIDDEN_BASE + self._pawn_named(mt.group(1), text)
        mt = re.fullmatch(r"top card (.+)", t)
        if not mt or mt.group(1) not in CARD_NAMES:
            raise IllegalActionError(text, self._said("write_top_card", cards=", ".join(CARD_NAMES)))
        return g.HIDDEN_BASE + DeadEndDriveChance.CARD_BASE + CARD_NAMES.index(mt.group(1))

    # --- information ------------------------------------------------------------------
    def _view(self, seat: int | None = None) -> dict[str, Any]:
        g = self.game
        m = g.mansion
        n = g.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat {seat!r} does not exist; seats are 0..{n - 1}")
        to_move = self.current_player()
        mine = seat is not None
        v: dict[str, Any] = {
            "game": g.game_id,
            "seat": seat,
            "players": n,
            "board": board_view(g),
            "pawns": self._pawns_view(),
            "detective": {
                "step": self.detective,
                "steps": len(m.track) - 1,
                "square": m.name(m.track[self.detective]),
            },
            "portrait": None if self.portrait is None else LETTERS[self.portrait],
            "portrait_name": "Aunt Agatha" if self.portrait is None else NAMES[self.portrait],
            "frame": {"behind": len(self.unseen) + len(self.cycle), "never_shown": len(self.unseen)},
            "removed_portraits": [LETTERS[p] for p in self.removed_portraits],
            "seats": [
                {
                    "seat": s,
                    "character_cards": len(self.chars[s]),
                    "trap_cards": len(self.hands[s]),
                    "secret_cards": len(self.secret[s]),
                    "out": self.out[s],
                }
                for s in range(n)
            ],
            "discard": [CARD_NAMES[c] for c in self.discard],
            "pile": len(self.pile),
            "phase": self.phase,
            "to_move": to_move if to_move >= 0 else None,
            "turn_of": self.to_move,
            "turn": self.turns + 1,
            "dice": list(self.dice),
            "doubles_total": self.dice[0] + self.dice[1] if self.total_ok and len(self.dice) == 2 else None,
            "moved": [LETTERS[p] for p in self.moved],
            "selected": (
                {"pawn": LETTERS[self.selected[0]], "count": self.selected[1]} if self.selected else None
            ),
            "trap_pawn": None if self.trap_pawn is None else LETTERS[self.trap_pawn],
            "trap": (m.trap_kind[self.pos[self.trap_pawn]] if self.trap_pawn is not None else None),
            "drew_this_turn": self.drew,
            "opening": self.opening,
            **self._own_cards_view(seat),
            "terminal": self.phase == OVER,
            "truncated": self.truncated,
            "winner": self.winner_seat() if self.phase == OVER else None,
            "winning_pawn": None if self.winner_pawn is None else LETTERS[self.winner_pawn],
            "win_reason": self.win_reason,
            "legal_actions": self._legal_view() if mine and to_move == seat else [],
        }
        if self.phase == OVER:
            # The game is over: every secret is shown to every seat and the spectator alike (the
            # end-of-game screen); never before, so resample(seat) can leave a live view unchanged.
            v["revealed"] = self._revealed_view()
        return v

    def _pawns_view(self) -> list[dict[str, Any]]:
        """Every pawn: where it is, and whose card it was where that has been shown."""
        m = self.game.mansion
        pawns = []
        for p in range(NUM_PAWNS):
            sq = self.pos[p]
            status = "knocked off" if sq == OFF else "escaped" if sq == m.game_over else "in play"
            entry: dict[str, Any] = {
                "letter": LETTERS[p],
                "name": NAMES[p],
                "square": None if sq == OFF else m.name(sq),
                "status": status,
            }
            if sq != OFF:
                entry["feature"] = m.feature(sq)
                entry["room"] = m.room(sq)
            if p in self.revealed:
                entry["owner"] = self.revealed[p]  # seat, or None for a 2-player secret card
            pawns.append(entry)
        return pawns

    def _own_cards_view(self, seat: int | None) -> dict[str, Any]:
        """The cards only `seat` may see (its Character and Trap cards, what it just drew); none
        for a spectator."""
        mine = seat is not None
        drew_now = mine and seat == self.to_move and self.drawn is not None
        return {
            "my_characters": [LETTERS[p] for p in self.chars[seat]] if mine else [],
            "my_trap_cards": sorted(CARD_NAMES[c] for c, _, _ in self.hands[seat]) if mine else [],
            "my_cards_drawn_this_turn": (
                sorted(CARD_NAMES[c] for c, _, t in self.hands[seat] if t == self.turns)
                if mine and self.drew
                else []
            ),
            "drawn_card": CARD_NAMES[self.drawn] if drew_now else None,
        }

    def _revealed_view(self) -> dict[str, Any]:
        return {
            "hands": [
                {
                    "seat": s,
                    "characters": [LETTERS[p] for p in self.chars[s]],
                    "secret_cards": [LETTERS[p] for p in self.secret[s]],
                    "trap_cards": sorted(CARD_NAMES[c] for c, _, _ in self.hands[s]),
                }
                for s in range(self.game.players)
            ],
            # The frame from front to back: the portraits shown and sent to the back, in order,
            # then those never shown (their order was never drawn, so it is no secret and given sorted).
            "portrait_cycle": [LETTERS[p] for p in self.cycle],
            "portraits_never_shown": sorted(LETTERS[p] for p in self.unseen),
            "pile": [CARD_NAMES[c] for c in reversed(self.pile)],  # top first
        }

    def _legal_view(self) -> list[dict[str, Any]]:
        g = self.game
        m = g.mansion
        out = []
        for a in self._legal_actions():
            entry: dict[str, Any] = {"id": a, "text": self.action_to_string(a)}
            if a < g.DEST_BASE:
                pawn, c = divmod(a, 12)
                entry.update(kind="select", pawn=LETTERS[pawn], count=c + 1)
                # Where the move may end (public: the board and the pawns), so that a page can
                # offer pawn-then-square in two clicks (issue 27); the dest phase still decides.
                dest = self.destinations(pawn, c + 1)
                entry["to"] = [m.name(sq) for sq in range(dest.bit_length()) if dest >> sq & 1]
            elif a < g.CHANGE:
                sq = a - g.DEST_BASE
                entry.update(kind="dest", square=m.name(sq))
            else:
                entry["kind"] = entry["text"].split()[0]
                # The button's words, typed (issue 37): the page says them in its language.
                entry["label_msg"] = self.describe_message(a)
            out.append(entry)
        return out

    def _resample(self, seat: int, rng: random.Random) -> DeadEndDriveState:
        from .hidden import resample

        return resample(self, seat, rng)

    # --- copying ----------------------------------------------------------------------
    def clone(self) -> DeadEndDriveState:
        new = DeadEndDriveState.__new__(DeadEndDriveState)
        new.__dict__.update(self.__dict__)
        new.rng = type(self.rng)()  # a random.Random, or an environment's stream (SharedStream)
        new.rng.setstate(self.rng.getstate())
        new.pos = self.pos[:]
        new.unseen = set(self.unseen)
        new.cycle = self.cycle[:]
        new.removed_portraits = self.removed_portraits[:]
        new.chars = [h[:] for h in self.chars]
        new.secret = [h[:] for h in self.secret]
        new.revealed = dict(self.revealed)
        new.hands = [[e[:] for e in h] for h in self.hands]
        new.pile = self.pile[:]
        new.discard = self.discard[:]
        new.out = self.out[:]
        new.dice = self.dice[:]
        new.moved = self.moved[:]
        new._history = self._history[:]
        # Lazy events are functions of fixed values: shared; dicts are copied.
        new._events = [dict(e) if e.__class__ is dict else e for e in self._events]
        new._dest_cache = dict(self._dest_cache)
        if self.hidden is not None:
            new.hidden = self.hidden.copy()
        return new


# --- lazy events: (function, values) in `_events`, made into dicts by `all_events()` -------------
def _slug_msg(kind: str, words: str) -> dict[str, Any]:
    """A name of the board (a room, a feature) as a message of the catalog."""
    return {"msg": f"dead_end_drive.{kind}.{words.lower().replace(' ', '_')}"}


def _card(kind: int) -> dict[str, Any]:
    return {"msg": f"dead_end_drive.card.{CARD_NAMES[kind]}"}


def _trap(trap: str) -> dict[str, Any]:
    return {"msg": f"dead_end_drive.trap.{trap}"}


def _feature(m: Any, sq: int) -> dict[str, Any]:
    trap = m.trap_kind.get(sq)
    return _trap(trap) if trap else _slug_msg("feature", m.feature(sq))


def _forfeit_message(dice: list[int], counts: list[int]) -> tuple[str, dict[str, Any]]:
    """The dice no pawn can move (`counts`: what they offer, a double's die and its total)."""
    if len(dice) == 1:
        return "dead_end_drive.forfeit_die", {"die": counts[0]}
    return "dead_end_drive.forfeit_dice", {"a": counts[0], "b": counts[-1]}


def _roll_event(seat: int, a: int, b: int) -> dict[str, Any]:
    return {
        "type": "roll",
        "msg": "dead_end_drive.rolls_double" if a == b else "dead_end_drive.rolls",
        "args": {"who": seat, "a": a, "b": b},
        "seat": seat,
        "dice": [a, b],
    }


def _select_event(seat: int, pawn: int, count: int) -> dict[str, Any]:
    return {
        "type": "select",
        "msg": "dead_end_drive.picks",
        "args": {"who": seat, "pawn": NAMES[pawn], "n": count},
        "seat": seat,
        "pawn": LETTERS[pawn],
        "count": count,
    }


def _move_event(
    g: DeadEndDriveGame,
    pawn: int,
    count: int,
    start: int,
    sq: int,
    blocked: int,
    exit_ok: bool,
    opening: bool,
    seat: int,
    drawn: bool = True,
) -> dict[str, Any]:
    """The move's event; `drawn=False` leaves out its path (the statistics' copy, stat_events)."""
    m = g.mansion
    hops = g.options["passage_hops"]
    start_hop = g.options["passage_start_hop"]
    path = None
    if drawn:
        # Whether the move crossed chairs (Figure 8): it did when no chair-free move of this count
        # was open (the move was legal, so one that crosses chairs was).
        ends = ~m.traps if opening else -1
        chairs = not m.can_move(
            start,
            count,
            blocked,
            chairs=False,
            exit_ok=exit_ok,
            max_hops=hops,
            ends=ends,
            start_hop=start_hop,
        )
        path = m.path(
            start, count, sq, blocked, chairs=chairs, exit_ok=exit_ok, max_hops=hops, start_hop=start_hop
        ) or [sq]
    where = (
        {"msg": "dead_end_drive.game_over_square"}
        if sq == m.game_over
        # The front door is its own room: said once.
        else {
            "msg": "dead_end_drive.square_alone",
            "args": {"square": m.name(sq), "feature": _feature(m, sq)},
        }
        if m.feature(sq).lower() == m.room(sq).lower()
        else {
            "msg": "dead_end_drive.square",
            "args": {"square": m.name(sq), "feature": _feature(m, sq), "room": _slug_msg("room", m.room(sq))},
        }
    )
    event = {
        "type": "move",
        "msg": "dead_end_drive.moves",
        "args": {"pawn": NAMES[pawn], "n": count, "where": where},
        "seat": seat,
        "pawn": LETTERS[pawn],
        "count": count,
    }
    if path is not None:
        event["path"] = [m.name(s) for s in [start] + path]
    return event
