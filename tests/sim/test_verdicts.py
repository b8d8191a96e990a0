"""One verdict, one test (issue 42, item 4): every comparison of an explore report names its
effect, gives that effect's interval from the same test as its p-value, and reads its verdict
from that test alone. Before, a length or statistic had Welch's interval on the means beside a
Mann-Whitney p-value: Mouse Trap's steals (original against milton-bradley, 2 players) read
-0.251 [-0.657, +0.155] with p = 1.5e-82, "small (significant)"."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import brunnermunzel, ttest_ind

from trapworks.sim.explore import Thresholds, _mean_row, _rank_row
from trapworks.sim.stats import diff_means, superiority, wilson


def steals_like() -> tuple[np.ndarray, np.ndarray]:
    """Two samples with the same mean and different shapes: medians 1 and 4."""
    a = np.tile([0.0, 1.0, 1.0, 1.0, 12.0], 600)  # mean 3, median 1
    b = np.tile([2.0, 3.0, 4.0, 4.0, 2.0], 600)  # mean 3, median 4
    return a, b


def test_each_effect_comes_with_the_p_value_of_its_own_test():
    a, b = steals_like()
    d, lo, hi, p = diff_means(b, a)
    welch = ttest_ind(b, a, equal_var=False)
    assert p == pytest.approx(welch.pvalue) and (lo > 0 or hi < 0) == (p < 0.05)
    ps, plo, phi, pp = superiority(b, a)
    assert pp == pytest.approx(brunnermunzel(a, b).pvalue)
    assert plo < ps < phi and (plo > 0.5 or phi < 0.5) == (pp < 0.05)
    # The probability of superiority, counted directly.
    direct = (b[:, None] > a[None, :]).mean() + 0.5 * (b[:, None] == a[None, :]).mean()
    assert ps == pytest.approx(direct)


def test_a_change_of_shape_is_a_rank_effect_and_not_a_difference_of_means():
    a, b = steals_like()
    th = Thresholds()
    mean = _mean_row("base", "cell", "steals", a, b, th)
    rank = _rank_row("base", "cell", "steals", a, b, th)
    assert mean["test"] == "Welch t" and mean["effect"].startswith("difference of means")
    assert rank["test"] == "Brunner-Munzel" and rank["effect"].startswith("P(cell > baseline)")
    assert mean["lo"] < 0 < mean["hi"] and mean["p"] > 0.05  # the means do not differ...
    assert rank["lo"] > 0.55 and rank["p"] < 1e-10  # ...the shapes do, by far


@pytest.mark.parametrize("seed", range(5))
def test_intervals_and_p_values_agree_row_by_row(seed):
    rng = np.random.default_rng(seed)
    a = rng.poisson(3.0, 200).astype(float)
    b = rng.poisson(3.0 + 0.3 * seed, 200).astype(float)
    for row in (_mean_row("x", "y", "m", a, b, Thresholds()), _rank_row("x", "y", "m", a, b, Thresholds())):
        excludes_null = row["lo"] > row["null"] or row["hi"] < row["null"]
        assert excludes_null == (row["p"] < 0.05), row


def test_a_rates_interval_holds_the_rate_even_at_zero_and_at_all():
    """A Wilson interval always holds k/n; statsmodels' rounding put the low end of 0 jams in
    139 cranks at 1.7e-18, above the rate 0, and the explore plot's error bar was refused
    ("'xerr' must not contain negative values")."""
    assert wilson(0, 139)[0] == 0.0 and wilson(7, 7)[1] == 1.0
    for n in range(1, 300):
        for k in {0, 1, n // 2, n - 1, n}:
            lo, hi = wilson(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0, (k, n, lo, hi)
