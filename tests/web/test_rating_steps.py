"""A new player's first rated games (judge 5: "a first game moves a rating by 158", shown as 1500 ->
1658): the model's prior is narrower than openskill's default, so a first step is gentler, the
rating still moves more while provisional than after, and every number is the model's own."""

from __future__ import annotations

from openskill.models import PlackettLuce

from trapworks.server.accounts import ratings

NEW = ratings.Skill(ratings.MU0, ratings.SIGMA0)


def test_a_first_game_between_new_players_moves_them_under_a_hundred_points():
    winner, loser = ratings.rate([NEW, NEW], [1.0, 0.0])
    step = ratings.display(winner.mu) - 1500
    assert 50 <= step < 100, step  # was 158 with openskill's default sigma 25/3
    assert ratings.display(loser.mu) - 1500 == -step


def test_the_steps_shrink_as_the_rating_settles():
    # Wins over new players, one after another: each step smaller than the one before.
    me, shown = NEW, [1500]
    for _ in range(ratings.PROVISIONAL_GAMES + 3):
        me, _ = ratings.rate([me, NEW], [1.0, 0.0])
        shown.append(ratings.display(me.mu))
    steps = [b - a for a, b in zip(shown, shown[1:], strict=False)]
    assert all(later < earlier for earlier, later in zip(steps, steps[1:], strict=False)), steps


def test_the_numbers_are_openskills_own_with_the_narrower_prior():
    model = PlackettLuce(sigma=ratings.SIGMA0)
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    winner, loser = ratings.rate([NEW, NEW], [1.0, 0.0])
    assert (winner.mu, winner.sigma, loser.mu, loser.sigma) == (a.mu, a.sigma, b.mu, b.sigma)
    assert ratings.describe(NEW.mu, NEW.sigma, 0)["provisional"] is True
