"""Statistics from well-kept libraries: Wilson intervals and tests (statsmodels, scipy), Elo
ratings (OpenSpiel's `elo`, Bradley-Terry by Hunter's MM algorithm)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson score 95% interval for a proportion (statsmodels); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(successes, n, alpha=0.05, method="wilson")
    return float(lo), float(hi)


def elo_ratings(
    wins: dict[tuple[str, str], int], draws: dict[tuple[str, str], int], agents: Sequence[str]
) -> dict[str, float]:
    """Elo ratings (mean 1500) by OpenSpiel's `elo` from `wins[(a, b)]` (games a won against b)
    and `draws[(a, b)]`; OpenSpiel's smoothing keeps an unbeaten agent's rating finite."""
    import numpy as np
    from open_spiel.python.algorithms import elo

    index = {a: i for i, a in enumerate(agents)}
    w = np.zeros((len(agents), len(agents)), dtype=int)
    d = np.zeros_like(w)
    for (a, b), k in wins.items():
        w[index[a], index[b]] += k
    for (a, b), k in draws.items():
        d[index[a], index[b]] += k
        d[index[b], index[a]] += k
    ratings = elo.compute_ratings_from_matrices(w, d)
    shift = 1500 - float(np.mean(ratings))
    return {a: float(ratings[i]) + shift for a, i in index.items()}


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (statsmodels), for many comparisons at once."""
    if not pvalues:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(p) for p in multipletests(list(pvalues), method="holm")[1]]


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """p-value of a two-sided z-test that two proportions are equal (statsmodels)."""
    if n1 == 0 or n2 == 0 or (k1 + k2) in (0, n1 + n2):
        return 1.0
    from statsmodels.stats.proportion import proportions_ztest

    return float(proportions_ztest([k1, k2], [n1, n2])[1])


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> float:
    """p-value of a two-sided Mann-Whitney U test (scipy): do two samples differ in location?"""
    from scipy.stats import mannwhitneyu

    if len(a) == 0 or len(b) == 0 or (len(set(a)) == 1 and set(a) == set(b)):
        return 1.0
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def uniform_seats(wins: Sequence[float]) -> float:
    """p-value of a chi-square test that every seat wins equally often (scipy)."""
    from scipy.stats import chisquare

    if sum(wins) == 0:
        return 1.0
    return float(chisquare(list(wins)).pvalue)


def contingency(table: Any) -> float:
    """p-value of a chi-square test of independence on a table of counts (scipy)."""
    import numpy as np
    from scipy.stats import chi2_contingency

    t = np.asarray(table)
    t = t[:, t.sum(axis=0) > 0]
    t = t[t.sum(axis=1) > 0]
    if t.shape[0] < 2 or t.shape[1] < 2:
        return 1.0
    return float(chi2_contingency(t)[1])
