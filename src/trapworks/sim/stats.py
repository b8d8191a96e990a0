"""Statistics from well-kept libraries: Wilson intervals and tests (statsmodels, scipy), Elo
ratings (OpenSpiel's `elo`, Bradley-Terry by Hunter's MM algorithm)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson score 95% interval for a proportion (statsmodels); (0, 1) when n is 0. The interval
    always holds successes/n; statsmodels' rounding does not (0 of 139: a low end of 1.7e-18,
    7 of 7: a high end of 0.9999999999999999), so the ends are brought back to the estimate."""
    if n <= 0:
        return 0.0, 1.0
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(successes, n, alpha=0.05, method="wilson")
    rate = successes / n
    return min(float(lo), rate), max(float(hi), rate)


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


def diff_means(a: Any, b: Any) -> tuple[float, float, float, float]:
    """mean(a) - mean(b) with its 95% interval and the p-value of the same test: Welch's t-test
    (scipy), so that the interval excludes 0 exactly when p < 0.05; exact when both are constant."""
    import numpy as np
    from scipy.stats import ttest_ind

    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = float(a.mean() - b.mean())
    if len(a) < 2 or len(b) < 2 or (a.var() == 0 and b.var() == 0):
        return d, d, d, (1.0 if d == 0 else 0.0)
    test = ttest_ind(a, b, equal_var=False)
    ci = test.confidence_interval(0.95)
    return d, float(ci.low), float(ci.high), float(test.pvalue)


def superiority(a: Any, b: Any) -> tuple[float, float, float, float]:
    """The probability of superiority P(a > b) + P(a = b)/2 with its 95% interval and the
    p-value of the same test, Brunner and Munzel's (its statistic is (p - 1/2) over the standard
    error used for the interval, with Welch-Satterthwaite's degrees of freedom; the p-value is
    scipy's `brunnermunzel`). A rank effect: it sees a change of shape that leaves the mean
    alone (a median of 4 against 1 with equal means), which a difference of means does not."""
    import numpy as np
    from scipy.stats import rankdata
    from scipy.stats import t as student

    x = np.asarray(b, dtype=float)  # scipy's x and y: P(y > x) is the effect
    y = np.asarray(a, dtype=float)
    nx, ny = len(x), len(y)
    if nx == 0 or ny == 0:
        return 0.5, 0.0, 1.0, 1.0
    ranks = rankdata(np.concatenate([x, y]))
    rx, ry = ranks[:nx], ranks[nx:]
    p = float((ry.mean() - rx.mean()) / (nx + ny) + 0.5)
    if nx < 2 or ny < 2:
        return p, 0.0, 1.0, 1.0
    sx = float(((rx - rankdata(x) - rx.mean() + (nx + 1) / 2) ** 2).sum() / (nx - 1))
    sy = float(((ry - rankdata(y) - ry.mean() + (ny + 1) / 2) ** 2).sum() / (ny - 1))
    var = nx * sx + ny * sy
    if var == 0:  # no overlap and no spread: the samples are separated (or equal constants)
        return p, p, p, (1.0 if p == 0.5 else 0.0)
    se = var**0.5 / (nx * ny)
    df = var**2 / ((nx * sx) ** 2 / (ny - 1) + (ny * sy) ** 2 / (nx - 1))
    q = float(student.ppf(0.975, df))
    pvalue = float(2 * student.sf(abs(p - 0.5) / se, df))
    return p, max(0.0, p - q * se), min(1.0, p + q * se), pvalue


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
