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


# --- effect sizes ----------------------------------------------------------------------------
def diff_proportions(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float, float]:
    """k1/n1 - k2/n2 with its 95% interval (Newcombe's hybrid score interval, statsmodels)."""
    if n1 == 0 or n2 == 0:
        return 0.0, -1.0, 1.0
    from statsmodels.stats.proportion import confint_proportions_2indep

    lo, hi = confint_proportions_2indep(k1, n1, k2, n2, compare="diff", method="newcomb")
    return k1 / n1 - k2 / n2, float(lo), float(hi)


def diff_means(a: Any, b: Any) -> tuple[float, float, float]:
    """mean(a) - mean(b) with its 95% Welch interval (scipy); exact when both are constant."""
    import numpy as np
    from scipy.stats import ttest_ind

    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = float(a.mean() - b.mean())
    if len(a) < 2 or len(b) < 2 or (a.var() == 0 and b.var() == 0):
        return d, d, d
    ci = ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    return d, float(ci.low), float(ci.high)


def n_for_difference(p: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per cell for a two-sided z-test at `alpha` to find a change of `delta` in a
    proportion near `p` with probability `power` (statsmodels' NormalIndPower, Cohen's h)."""
    import math

    from statsmodels.stats.power import NormalIndPower
    from statsmodels.stats.proportion import proportion_effectsize

    p = min(max(p, 1e-6), 1 - 1e-6)
    q = min(max(p + delta, 1e-6), 1 - 1e-6)
    h = abs(float(proportion_effectsize(q, p)))
    if h == 0:
        return 0
    n = NormalIndPower().solve_power(effect_size=h, alpha=alpha, power=power, ratio=1.0)
    return int(math.ceil(float(n)))


def n_for_mean_difference(sd: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per cell to find a change of `delta` in a mean with standard deviation `sd`."""
    import math

    from statsmodels.stats.power import NormalIndPower

    if sd <= 0 or delta <= 0:
        return 0
    n = NormalIndPower().solve_power(effect_size=delta / sd, alpha=alpha, power=power, ratio=1.0)
    return int(math.ceil(float(n)))


def cramers_v(table: Any) -> float:
    """Cramér's V of a table of counts (0: independent, 1: fully dependent)."""
    import numpy as np
    from scipy.stats.contingency import association

    t = np.asarray(table)
    t = t[:, t.sum(axis=0) > 0]
    t = t[t.sum(axis=1) > 0]
    if t.shape[0] < 2 or t.shape[1] < 2:
        return 0.0
    return float(association(t, method="cramer"))


def verdict(significant: bool, lo: float, hi: float, threshold: float) -> str:
    """What a difference means for a designer, given its interval and the practical threshold:
    'practical' (significant and the whole interval beyond the threshold), 'negligible' (the
    whole interval within it), 'small' (significant, but it may be below the threshold),
    'unclear' (not significant and the interval reaches past the threshold: play more games)."""
    if significant and (lo > threshold or hi < -threshold):
        return "practical"
    if -threshold <= lo and hi <= threshold:
        return "negligible"
    return "small" if significant else "unclear"
