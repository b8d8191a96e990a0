"""The log in players' words (State.story_owner / State.story): every ply of every game is told
without engine notation, chance folded into the turn it belongs to, private lines only to their
seats, seats as seat numbers that a front end names (typed messages)."""

import random
import re

import pytest

import trapworks
from trapworks.core import CHANCE, sample_chance, story_entry, story_for
from trapworks.core.messages import SEAT_ARGS, format_message

CASES = [
    ("mouse-trap", {"players": 3, "trap_reliability": 0.6}),
    ("mouse-trap", {"variant": "original"}),
    ("last-mouse-lost", {"rules": "advanced", "first_player": "random"}),
    ("booby-trap", {"players": 3}),
    ("dead-end-drive", {}),
]
# Engine notation that must never reach a player: action ids, "die:5", chance outcomes, arrows.
NOTATION = re.compile(
    r"\b(die|first|portrait|roll|touch|move|steal):\s?\d|→|\bworks\b|\bjams\b|\(hidden\)|Chance"
)


def english(line, viewer=None):
    """A log line in English, as `viewer` reads it (the game of the last play())."""
    return format_message(line, english.game, "en", viewer)


def play(gid, options, seed, limit=4000):
    game = trapworks.make(gid, **options)
    english.game = type(game)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    entries, texts = [], []
    while not state.is_terminal() and len(entries) < limit:
        player = state.current_player()
        action = sample_chance(state, rng) if player == CHANCE else rng.choice(state.legal_actions())
        texts.append(state.action_to_string(action))
        owner = state.story_owner(action)
        chance = player == CHANCE
        state.apply_action(action)
        entries.append((chance, player, story_entry(owner, state, action)))
    return game, entries, texts


@pytest.mark.parametrize(("gid", "options"), CASES)
def test_every_ply_is_told_in_words_without_notation(gid, options):
    game, entries, texts = play(gid, options, seed=5)
    n = game.num_players()
    told = 0
    for chance, player, entry in entries:
        for viewer in [None, *range(n)]:
            for line in story_for(entry, viewer)["lines"]:
                text = english(line, viewer)
                told += 1
                assert not NOTATION.search(text), text
                # Seats are seat numbers in the arguments (the front end names them).
                for key in SEAT_ARGS & set(line["args"]):
                    seats = line["args"][key]
                    for seat in seats if isinstance(seats, list) else [seats]:
                        assert 0 <= seat < n
        if not chance:
            assert entry["seat"] == player, "a decision belongs to the seat that made it"
    assert told > len(entries) // 3


@pytest.mark.parametrize(("gid", "options"), CASES[:1] + CASES[-1:])
def test_dice_are_folded_into_the_turn_of_the_player_who_rolled(gid, options):
    _game, entries, _ = play(gid, options, seed=7)
    rolls = [
        e
        for chance, _p, e in entries
        if chance and any(re.search(r"roll(s|ed) \d", english(ln)) for ln in e["lines"])
    ]
    assert rolls
    for entry in rolls:
        assert entry["seat"] is not None
        assert any(line["args"].get("who") == entry["seat"] for line in entry["lines"])


def test_a_firing_of_the_trap_is_at_most_two_lines_not_one_per_stage():
    jams = 0
    for seed in range(4):
        _game, entries, _ = play("mouse-trap", {"players": 2, "trap_reliability": 0.3}, seed=seed)
        lines = [english(ln) for _c, _p, e in entries for ln in e["lines"]]
        assert not any(re.match(r"^[A-P]: ", t) for t in lines), "a stage of the firing chain told on its own"
        fired = [t for t in lines if "turns the crank" in t]
        outcome = [t for t in lines if t.startswith(("The trap jammed at ", "The cage falls on "))]
        assert fired and len(outcome) == len(fired)
        jams += sum(
            bool(re.match(r"The trap jammed at stage [A-P-]+ \(.+\): .+ escaped to Safe\.$", t))
            for t in outcome
        )
    assert jams, "a jam is told in words"


def test_private_lines_reach_only_their_seat():
    # Booby Trap: the feel of a touched piece is the toucher's alone; the touch itself is public.
    _game, entries, _ = play("booby-trap", {"players": 2}, seed=2, limit=40)
    for _chance, player, entry in entries:
        for viewer in (None, 0, 1):
            lines = [english(ln) for ln in story_for(entry, viewer)["lines"]]
            if any("feel" in t for t in lines):
                assert viewer == player
        public = [english(ln) for ln in story_for(entry, None)["lines"]]
        assert public, "every Booby Trap action is public: the board shows it"
