"""Ratings with OpenSkill's Weng-Lin Plackett-Luce model (openskill): one rating per game and
player count, for 2 to 6 players, from the ranks of a finished game.

A rating is (mu, sigma): the skill estimate and its uncertainty. The number shown to players is the
estimate, `DISPLAY_BASE + DISPLAY_SCALE * (mu - MU0)`, as lichess shows Glicko's rating: a new player
shows 1500, a win over an equal gains what the loser loses, and a draw between equals moves nobody.
(The conservative mu - 3 sigma rose for both players of a drawn game, +48 each: every game inflated
it.) A rating is provisional, shown with a "?" and not ranked, until PROVISIONAL_GAMES rated games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 60.0
PROVISIONAL_GAMES = 5

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
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
