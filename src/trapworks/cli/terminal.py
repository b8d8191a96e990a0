"""Terminal play and replay: a game-agnostic loop around `State`.

The loop reads lines through an `ask` callable and prints through a rich Console, so tests
drive it with a list of lines and read what it printed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from rich.console import Console

from trapworks.agents import hint_agent_name, make_agent
from trapworks.core import (
    CHANCE,
    Agent,
    Game,
    GameRecord,
    IllegalActionError,
    State,
    randomness,
    undo,
    undo_refusal,
)
from trapworks.core.messages import format_message
from trapworks.core.words import plural

COMMANDS_HELP = """Commands:
  <action>   play a move (see the notation below)
  moves      list the legal moves
  hint       suggest a move (and why, where the game can say)
  undo       take back your last move (and the replies to it); against AI not past a
             die, card or trap outcome already seen, unless the game is practice (--practice)
  board      draw the board again
  save FILE  save the game so far as a record
  help       this text
  quit       leave the game (it is saved as an unfinished record)
Anything else is read as a move (in 13 Dead End Drive 'exit' is a move, not a command)."""


class TerminalSession:
    def __init__(
        self,
        game: Game,
        seats: list[str],
        *,
        seed: int | None = None,
        ask: Callable[[str], str] | None = None,
        console: Console | None = None,
        save_dir: Path | None = None,
        save_path: Path | None = None,
        start: str | None = None,
        practice: bool = False,
    ):
        self.game = game
        self.practice = practice
        # Chance outcomes are fixed per ply by a secret per-game key (or the key standing for
        # --seed), so undo then the same moves replays the same dice, cards and trap stages.
        self.chance_key = randomness.seed_key(seed) if seed is not None else randomness.new_key()
        self.seat_names = seats
        self.console = console or Console(highlight=False)
        self.ask = ask or (lambda prompt: self.console.input(prompt))
        self.rng = random.Random(seed)
        self.save_dir = save_dir
        self.save_path = save_path  # where the record goes at the end (None: a new file in save_dir)
        self.state: State = game.state_from_position(start) if start else game.new_initial_state(seed=seed)
        self.agents: list[Agent | None] = [
            None if name == "human" else make_agent(name, game, seat, seed=self.rng.randrange(2**32))
            for seat, name in enumerate(seats)
        ]
        self.saved_path: Path | None = None

    # --- helpers ------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        self.console.print(text, markup=False)

    def label(self, seat: int) -> str:
        name = self.seat_names[seat]
        return f"Player {seat + 1}" + ("" if name == "human" else f" ({name})")

    def humans(self) -> list[int]:
        return [i for i, a in enumerate(self.agents) if a is None]

    def seat_position(self, seat: int) -> State:
        """The position as `seat` may know it (hidden parts re-drawn), for an agent playing it or
        hinting to it: like the server's SeatPlayer, no agent reads another seat's secret."""
        return self.state.resample(seat, self.rng)

    def hint(self) -> str:
        name = hint_agent_name(self.game)  # the server's choice of hint agent
        if name is None:
            return "No hint is available for this game."
        seat = self.state.current_player()
        agent = make_agent(name, self.game, seat, seed=0)
        position = self.seat_position(seat)
        move = self.state.action_to_string(agent.step(position.clone()))
        why = agent.explain(position)
        return f"Hint: {move}" + (f"\n{why}" if why else "")

    def take_back(self) -> None:
        """Undo to the previous decision of a human seat (one move with two humans)."""
        history = self.state.history()
        if not history:
            self.say("Nothing to undo yet.")
            return
        humans = set(self.humans())
        steps = 0
        probe = self.state
        # Take back actions until one human move has gone and a human is to move again.
        removed_human = False
        while steps < len(history):
            steps += 1
            probe = undo(self.state, steps)
            if probe.current_player() in humans:
                removed_human = True
                break
        if not removed_human:
            self.say("Nothing of yours to undo yet.")
            return
        against_ai = any(a is not None for a in self.agents)
        refusal = undo_refusal(self.state, steps, against_ai=against_ai, practice=self.practice)
        if refusal:
            self.say(f"Not undone: {refusal}.")
            return
        self.state = probe
        self.say(f"Took back {steps} {plural(steps, 'move')}.")

    def save(self, path: Path | None = None) -> Path:
        record = GameRecord.from_state(self.state, players=self.seat_names, practice=self.practice)
        if path is None:
            path = self.save_path
        if path is None:
            # A new file every time (never overwrites, even two saves in the same second).
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            self.saved_path = record.save_new(
                self.save_dir or Path("records"), f"{self.game.game_id}-{stamp}"
            )
        else:
            self.saved_path = record.save(path)
        return self.saved_path

    # --- the loop -----------------------------------------------------------------
    def run(self) -> State:
        self.say(f"{self.game.title}: " + ", ".join(self.label(i) for i in range(len(self.seat_names))))
        self.say(self.game.help_text())
        if self.practice:
            self.say("Practice game: undo may take back dice, cards and trap outcomes already seen.")
        self.say("Type 'help' for commands.")
        shown = None
        while not self.state.is_terminal():
            player = self.state.current_player()
            if player == CHANCE:
                action = randomness.chance_outcome(self.state, self.chance_key)
                # A hidden draw of the kernel's chance model (a card dealt or drawn, a touch's
                # noise: `chance_visible_to`) is not told: each seat reads its own in its view.
                visible = getattr(self.state, "chance_visible_to", None)
                if visible is None or visible() == -1:
                    self.say(f"Chance: {self.state.action_to_string(action)}")
                else:
                    self.say("Chance: a hidden draw")
                self._apply(action)
                continue
            agent = self.agents[player]
            if agent is not None:
                action = agent.step(self.seat_position(player))
                if action not in self.state.legal_actions():  # a resample keeps the seat's choices
                    raise RuntimeError(f"{self.label(player)} chose an illegal action")
                self.say(f"{self.label(player)} plays {self.state.action_to_string(action)}")
                self._apply(action)
                continue
            if shown != len(self.state.history()):
                self.say("")
                self.say(self.state.render_text(player))
                shown = len(self.state.history())
            try:
                line = self.ask(f"{self.label(player)}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                line = "quit"
            if not self._command(line):
                break
        self.say("")
        self.say(self.state.render_text())
        if self.state.is_terminal():
            winners = self.state.winners()
            if self.state.is_truncated() or not winners:
                self.say("The game ended without a winner.")
            else:
                self.say("Winner: " + ", ".join(self.label(w) for w in winners))
        path = self.save()
        self.say(f"Record saved to {path} (replay it with: trapworks replay {path})")
        return self.state

    def _apply(self, action: int) -> None:
        self.state.apply_action(action)
        for event in self.state.last_events():
            if event.get("msg"):
                self.say(format_message(event, type(self.state.game)))

    def _command(self, line: str) -> bool:
        """Handle one input line; False ends the session."""
        word = line.split(" ", 1)[0].lower()
        if not line:
            return True
        # 'exit' is not a way out: 13 Dead End Drive's help tells players to type it for the Game
        # Over square, so it is read as a move like any other text below.
        if word in ("quit", "resign"):
            self.say("Leaving the game.")
            return False
        if word in ("help", "?"):
            self.say(COMMANDS_HELP)
            self.say(self.game.help_text())
        elif word == "moves":
            self.say(
                "Legal moves: " + " ".join(self.state.action_to_string(a) for a in self.state.legal_actions())
            )
        elif word == "hint":
            self.say(self.hint())
        elif word == "undo":
            self.take_back()
        elif word == "board":
            self.say(self.state.render_text(self.state.current_player()))
        elif word == "save":
            arg = line[4:].strip()
            path = self.save(Path(arg) if arg else None)
            self.say(f"Saved to {path}")
        else:
            try:
                action = self.state.string_to_action(line)
            except IllegalActionError as e:
                leave = " ('quit' leaves the game)" if word == "exit" else ""
                self.say(f"Not played: {e.reason}. Type 'moves' for the legal moves or 'help'{leave}.")
                return True
            self._apply(action)
        return True


def replay_session(
    record: GameRecord, ask: Callable[[str], str] | None, console: Console, step_all: bool = False
) -> None:
    """Step through a record: Enter/n next, p previous, a number jumps, q quits."""
    states = list(record.states())
    game_title = states[0].game.title
    console.print(
        f"Replay of {game_title} ({len(record.actions)} moves; players: "
        f"{', '.join(record.players) or 'unknown'})",
        markup=False,
    )

    def show(i: int) -> None:
        console.print("", markup=False)
        if i == 0:
            console.print("Start", markup=False)
        else:
            console.print(f"Move {i}: {record.actions[i - 1]}", markup=False)
        console.print(states[i].render_text(), markup=False)

    if step_all or ask is None:
        for i in range(len(states)):
            show(i)
        return
    i = 0
    show(i)
    while True:
        try:
            line = ask("[Enter/n] next, p previous, NUMBER go to move, q quit> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if line in ("q", "quit"):
            return
        if line in ("", "n", "next"):
            if i == len(states) - 1:
                console.print("End of the record.", markup=False)
                continue
            i += 1
        elif line in ("p", "prev", "previous"):
            i = max(0, i - 1)
        elif line.isdigit() and int(line) < len(states):
            i = int(line)
        else:
            console.print(
                f"Unknown command {line!r}: Enter, n, p, a move number 0-{len(states) - 1}, or q",
                markup=False,
            )
            continue
        show(i)
