"""Pig, a tiny dice game: the rules (the example game of docs/adding-a-game.md).

On your turn roll the die as often as you like, adding each roll to the turn's points; a 1
loses them and ends your turn; hold to bank them. The first to `target` points wins. A roll that
could only overshoot the target is not offered: with enough points you hold and win.
"""

from __future__ import annotations

from typing import Any

from trapworks.core import CHANCE, TERMINAL, Game, Option, State

ROLL, HOLD = 0, 1
DIE = 2  # chance actions DIE+0 .. DIE+5: the die shows 1..6
NAMES = {ROLL: "roll", HOLD: "hold"}


class PigGame(Game):
    game_id = "pig"
    title = "Pig"
    options_schema = (
        Option.integer("players", 2, 2, 4, label="Players", help="How many race to the target."),
        Option.integer("target", 20, 5, 100, label="Target", help="Points that win the game."),
        Option.integer("turn_limit", 100, 1, 10_000, label="Turn limit", help="Turns before a draw."),
    )
    has_chance = True

    def num_players(self) -> int:
        n: int = self.options["players"]
        return n

    def new_initial_state(self, seed: int | None = None) -> PigState:
        return PigState(self, seed)

    def num_distinct_actions(self) -> int:
        return 2

    def chance_actions(self) -> tuple[int, ...]:
        return tuple(range(DIE, DIE + 6))

    def max_game_length(self) -> int:
        # A turn: at most target/2 scoring rolls (two actions each), a last roll and a hold.
        per_turn = 2 * (self.options["target"] // 2 + 1) + 1
        return int(self.options["turn_limit"]) * per_turn

    def utility_sum(self) -> float:
        return 0.0

    def help_text(self) -> str:
        return "Type roll or hold."


class PigState(State):
    def __init__(self, game: PigGame, seed: int | None = None):
        super().__init__(game, seed)
        n = game.num_players()
        self.scores = [0] * n
        self.turn_total = 0
        self.player = 0
        self.rolling = False  # the die is in the air (a chance node)
        self.turns = 0
        self.last_roll: int | None = None
        self.winner: int | None = None

    @property
    def target(self) -> int:
        t: int = self.game.options["target"]
        return t

    def current_player(self) -> int:
        if self.winner is not None or self.turns >= self.game.options["turn_limit"]:
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def is_truncated(self) -> bool:
        return self.is_terminal() and self.winner is None

    def _legal_actions(self) -> list[int]:
        if self.scores[self.player] + self.turn_total >= self.target:
            return [HOLD]
        return [ROLL, HOLD]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / 6) for a in range(DIE, DIE + 6)]

    def _next_turn(self) -> None:
        self.turn_total = 0
        self.player = (self.player + 1) % self.num_players()
        self.turns += 1

    def _apply_action(self, action: int) -> None:
        p = self.player
        if self.rolling:
            self.rolling = False
            face = action - DIE + 1
            self.last_roll = face
            if face == 1:
                self._events.append({"type": "bust", "msg": "pig.bust", "args": {"who": p}})
                self._next_turn()
            else:
                self.turn_total += face
                self._events.append({"type": "roll", "msg": "pig.rolls", "args": {"who": p, "face": face}})
        elif action == ROLL:
            self.rolling = True
        else:
            self.scores[p] += self.turn_total
            self._events.append(
                {"type": "hold", "msg": "pig.banks", "args": {"who": p, "n": self.turn_total}}
            )
            if self.scores[p] >= self.target:
                self.winner = p
                self._events.append(
                    {"type": "win", "msg": "pig.reaches_target", "args": {"who": p, "n": self.target}}
                )
            else:
                self._next_turn()

    def action_to_string(self, action: int, player: int | None = None) -> str:
        if DIE <= action < DIE + 6:
            return f"die:{action - DIE + 1}"
        return NAMES[action]

    def _view(self, seat: int | None = None) -> dict[str, Any]:
        to_move = self.current_player()
        return {
            "game": "pig",
            "seat": seat,
            "scores": list(self.scores),
            "turn_total": self.turn_total,
            "to_move": to_move if to_move >= 0 else None,
            "awaiting_die": self.rolling,
            "last_roll": self.last_roll,
            "target": self.target,
            "terminal": self.is_terminal(),
            # The generic web renderer offers a button per legal action text.
            "legal_actions": [self.action_to_string(a) for a in self.legal_actions()] if to_move >= 0 else [],
        }

    def returns(self) -> list[float]:
        n = self.num_players()
        if self.winner is None:
            return [0.0] * n
        return [1.0 if s == self.winner else -1.0 / (n - 1) for s in range(n)]
