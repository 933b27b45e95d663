"""The comparison statistics against cases worked out by hand."""

from __future__ import annotations

import math

import pytest

from orvena_bench.reports.stats import mcnemar_exact, paired_bootstrap_ci, pass_at_k, pass_hat_k, spread


def test_mcnemar_is_the_two_sided_binomial_tail_of_the_discordant_pairs():
    # 10 vs 2 discordant: 2 * (C(12,0) + C(12,1) + C(12,2)) / 2^12 = 2 * 79 / 4096.
    assert mcnemar_exact(10, 2) == pytest.approx(158 / 4096)
    assert mcnemar_exact(2, 10) == mcnemar_exact(10, 2)
    # 5 vs 0: 2 / 32.
    assert mcnemar_exact(5, 0) == pytest.approx(0.0625)


def test_mcnemar_caps_at_one_and_is_one_without_discordant_pairs():
    assert mcnemar_exact(3, 3) == 1.0  # 2 * 42 / 64 > 1
    assert mcnemar_exact(1, 0) == 1.0
    assert mcnemar_exact(0, 0) == 1.0


def test_mcnemar_stays_exact_for_many_pairs():
    # 300 vs 200: far beyond float range for 2^n, still a probability, and small.
    p = mcnemar_exact(300, 200)
    assert 0 < p < 1e-5
    with pytest.raises(ValueError):
        mcnemar_exact(-1, 2)


def test_pass_at_k_and_pass_hat_k_follow_the_written_estimators():
    # n = 5 runs, c = 2 passes, k = 2: 1 - C(3,2)/C(5,2) = 0.7 and C(2,2)/C(5,2) = 0.1.
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_hat_k(5, 2, 2) == pytest.approx(0.1)
    # k = 1 is the plain pass rate for both.
    assert pass_at_k(5, 2, 1) == pass_hat_k(5, 2, 1) == pytest.approx(0.4)
    # One pass in two runs: certain to pass at least once in 2, never twice in 2.
    assert pass_at_k(2, 1, 2) == 1.0
    assert pass_hat_k(2, 1, 2) == 0.0


def test_pass_at_k_rejects_impossible_counts():
    for n, c, k in ((2, 3, 1), (2, 1, 3), (2, 1, 0)):
        with pytest.raises(ValueError):
            pass_at_k(n, c, k)


def test_spread_is_the_sample_standard_deviation_of_the_seed_rates():
    assert spread([0.5, 0.7]) == pytest.approx(math.sqrt(0.02))
    with pytest.raises(ValueError):
        spread([0.5])


def test_bootstrap_interval_matches_the_exact_resampling_distribution():
    # 3 of 10 scenarios flip to B and none to A: resampled sums are Binomial(10, 0.3), whose
    # 2.5% quantile is 0 (P[0] = 0.028) and 97.5% quantile 6 (P[<=5] = 0.953, P[<=6] = 0.989).
    a = [False] * 10
    b = [True] * 3 + [False] * 7
    ci = paired_bootstrap_ci(a, b, reps=20_000, seed=1)
    assert (ci.low, ci.high, ci.level) == (0.0, 0.6, 0.95)


def test_bootstrap_interval_is_degenerate_when_every_pair_agrees_and_seeded():
    same = [True, False, True, True]
    ci = paired_bootstrap_ci(same, same, reps=500)
    assert (ci.low, ci.high) == (0.0, 0.0)
    a = [True, False] * 20
    b = [True, True] * 20
    assert paired_bootstrap_ci(a, b, reps=500, seed=3) == paired_bootstrap_ci(a, b, reps=500,
                                                                              seed=3)


def test_bootstrap_interval_holds_the_observed_difference_and_narrows_with_more_scenarios():
    a = [i % 2 == 0 for i in range(40)]
    b = [i % 4 != 3 for i in range(40)]  # +10 scenarios of 40: +25 points
    small = paired_bootstrap_ci(a, b, reps=2000)
    large = paired_bootstrap_ci(a * 10, b * 10, reps=2000)
    assert small.low < 0.25 < small.high
    assert large.low < 0.25 < large.high
    assert large.high - large.low < small.high - small.low


def test_bootstrap_needs_paired_verdicts():
    with pytest.raises(ValueError):
        paired_bootstrap_ci([True], [True, False])
    with pytest.raises(ValueError):
        paired_bootstrap_ci([], [])
