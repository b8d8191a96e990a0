"""Small games built on the kernel, for testing the generic search agents.

- `TreeGame`: a random finite game tree (seeded) with decision nodes for 2 or 3 seats and
  chance nodes with uneven probabilities; `exact_values` solves it (max^n with expectation at
  chance nodes), so a test can check that MCTS finds the best move.
- `MiniPoker`: two seats, a 6-card deck; chance deals each seat one private card, seat 0
  checks (showdown for 0.5) or raises; after a raise seat 1 calls (showdown for 2) or folds
  (seat 0 wins 1). Each seat sees only its own card, so it tests IS-MCTS and no peeking.
"""

from __future__ import annotations

import random
from typing import Any

from trapworks.core import CHANCE, TERMINAL, Agent, Game, State
from trapworks.core.spec import AgentSpec, GameSpec


# --- a random game tree with chance nodes --------------------------------------------------
class TreeGame(Game):
    game_id = "toy-tree"
    title = "Random game tree"
    default_options = {"tree_seed": 0, "players": 2, "depth": 4, "branching": 3}
    has_chance = True

    def __init__(self, **options: Any):
        super().__init__(**options)
        rng = random.Random(self.options["tree_seed"])
        self.players = self.options["players"]
        self.root = self._build(rng, self.options["depth"], 0)

    def _build(self, rng: random.Random, depth: int, player: int) -> dict:
        if depth == 0:
            if self.players == 2:
                v = round(rng.uniform(-1, 1), 2)
                return {"kind": "terminal", "returns": [v, -v]}
            return {"kind": "terminal", "returns": [round(rng.random(), 2) for _ in range(self.players)]}
        if depth < self.options["depth"] and rng.random() < 0.35:
            k = rng.randint(2, 3)
            weights = [rng.uniform(0.05, 1.0) for _ in range(k)]
            total = sum(weights)
            return {
                "kind": "chance",
                "outcomes": [(100 + i, w / total) for i, w in enumerate(weights)],
                "children": {100 + i: self._build(rng, depth - 1, player) for i in range(k)},
            }
        k = rng.randint(2, self.options["branching"])
        return {
            "kind": "decision",
            "player": player,
            "children": {i: self._build(rng, depth - 1, (player + 1) % self.players) for i in range(k)},
        }

    def num_players(self) -> int:
        return self.players

    def new_initial_state(self, seed=None) -> TreeState:
        return TreeState(self)


class TreeState(State):
    def __init__(self, game: TreeGame):
        super().__init__(game)
        self.node = game.root

    def current_player(self) -> int:
        kind = self.node["kind"]
        return TERMINAL if kind == "terminal" else CHANCE if kind == "chance" else self.node["player"]

    def _legal_actions(self):
        return list(self.node["children"])

    def _chance_outcomes(self):
        return list(self.node["outcomes"])

    def _apply_action(self, action):
        self.node = self.node["children"][action]

    def returns(self):
        return list(self.node["returns"]) if self.node["kind"] == "terminal" else [0.0] * self.game.players

    def action_to_string(self, action, player=None):
        return f"a{action}"

    def _view(self, seat):
        return {"history": list(self._history)}  # perfect information: the path taken

    def clone(self):
        new = TreeState.__new__(TreeState)
        new.__dict__.update(self.__dict__)
        new._history = self._history[:]
        new._events = []
        return new


def node_value(node: dict) -> list[float]:
    """Exact value vector: the mover maximises its own component, chance averages."""
    if node["kind"] == "terminal":
        return node["returns"]
    if node["kind"] == "chance":
        vals = [node_value(node["children"][a]) for a, _ in node["outcomes"]]
        return [
            sum(p * v[i] for (_, p), v in zip(node["outcomes"], vals, strict=True))
            for i in range(len(vals[0]))
        ]
    p = node["player"]
    return max((node_value(c) for c in node["children"].values()), key=lambda v: v[p])


def exact_values(game: TreeGame) -> dict[int, float]:
    """Root action -> value for the seat to move at the root."""
    root = game.root
    return {a: node_value(c)[root["player"]] for a, c in root["children"].items()}


# --- a tiny hidden-information game -------------------------------------------------------
CHECK, RAISE, CALL, FOLD = 0, 1, 2, 3
DECK = tuple(range(6))
NAMES = {CHECK: "check", RAISE: "raise", CALL: "call", FOLD: "fold"}


class MiniPoker(Game):
    game_id = "toy-poker"
    title = "Mini poker"
    has_chance = True
    has_hidden_information = True

    def num_players(self) -> int:
        return 2

    def new_initial_state(self, seed=None) -> PokerState:
        return PokerState(self)


class PokerState(State):
    def __init__(self, game: MiniPoker):
        super().__init__(game)
        self.cards: list = []  # cards[seat]; hidden from the other seat
        self.bets: list[int] = []  # public

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if not self.bets:
            return 0
        if self.bets == [RAISE]:
            return 1
        return TERMINAL

    def _chance_outcomes(self):
        rest = [c for c in DECK if c not in self.cards]
        return [(100 + c, 1 / len(rest)) for c in rest]

    def _legal_actions(self):
        return [CHECK, RAISE] if not self.bets else [CALL, FOLD]

    def _apply_action(self, action):
        if action >= 100:
            self.cards.append(action - 100)
            self._events.append({"type": "deal", "text": "a card is dealt", "to": [len(self.cards) - 1]})
        else:
            self.bets.append(action)

    def returns(self):
        if self.current_player() != TERMINAL:
            return [0.0, 0.0]
        if self.bets == [RAISE, FOLD]:
            return [1.0, -1.0]
        stake = 0.5 if self.bets == [CHECK] else 2.0
        win = 1 if self.cards[0] > self.cards[1] else -1
        return [win * stake, -win * stake]

    def action_to_string(self, action, player=None):
        return f"deal {action - 100}" if action >= 100 else NAMES[action]

    def view(self, seat=None):
        return {
            "my_card": self.cards[seat] if seat is not None and seat < len(self.cards) else None,
            "bets": [NAMES[b] for b in self.bets],
        }

    def _resample(self, seat, rng):
        # Keep what `seat` knows (its own card, the public bets); re-deal the other card
        # from the cards `seat` has not seen. The other seat's card is never read.
        new = PokerState(self.game)
        new.bets = list(self.bets)
        new._history = []
        dealt = len(self.cards)
        own = self.cards[seat] if seat < dealt else None
        unseen = [c for c in DECK if c != own]
        cards = []
        for s in range(dealt):
            if s == seat:
                cards.append(own)
            else:
                c = unseen[rng.randrange(len(unseen))]
                unseen.remove(c)
                cards.append(c)
        new.cards = cards
        return new

    def clone(self):
        new = PokerState.__new__(PokerState)
        new.__dict__.update(self.__dict__)
        new.cards = list(self.cards)
        new.bets = list(self.bets)
        new._history = self._history[:]
        new._events = []
        return new


class PokerHeuristic(Agent):
    """Raises and calls with a high card (3 or more); counts its calls for the tests."""

    name = "heuristic"
    calls = 0

    def step(self, state):
        PokerHeuristic.calls += 1
        high = state.view(self.seat)["my_card"] >= 3
        if state.current_player() == 0:
            return RAISE if high else CHECK
        return CALL if high else FOLD


class Poison:
    """Stands in for a secret: any use of it fails the test loudly."""

    def _boom(self, *args, **kwargs):
        raise AssertionError("the search read a hidden part of the true state")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = __int__ = __index__ = _boom
    __add__ = __sub__ = __bool__ = __deepcopy__ = __copy__ = __reduce_ex__ = _boom


def dealt_poker(own: int, other: Any) -> PokerState:
    """A state where seat 0 holds `own`, seat 1 holds `other`, seat 0 to act."""
    s = MiniPoker().new_initial_state()
    s.apply_action(100 + own)
    s.cards.append(other)  # set directly so that `other` may be a Poison
    return s


class FirstActionHeuristic(Agent):
    """Always the first legal action (a heuristic the tests can predict)."""

    name = "heuristic"

    def step(self, state):
        return state.legal_actions()[0]


def with_heuristic(
    game_cls: type[Game], state_cls: type[State], heuristic: type[Agent], **fields: Any
) -> GameSpec:
    """Declare a toy game's spec with `heuristic` as its own agent and its rollout agent (the
    search finds it through the spec, never by a name)."""
    return GameSpec(
        game=game_cls,
        state=state_cls,
        agents=(AgentSpec("heuristic", heuristic, "A toy's rule of thumb"),),
        rollout_agent="heuristic",
        **fields,
    )


MINI_POKER_SPEC = with_heuristic(MiniPoker, PokerState, PokerHeuristic)
