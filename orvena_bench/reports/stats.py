"""The statistics a checkpoint comparison needs, with the standard library only.

Every function is pure. Definitions are the ones written in docs/metrics.md; the tests check them
against hand-computed cases.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant pairs.

    ``only_a`` scenarios passed in A only, ``only_b`` in B only. Under the null hypothesis each
    discordant pair is a fair coin, so the p-value is the two-sided binomial tail at 1/2:
    min(1, 2 * P[X <= min(b, c)]) with X ~ Binomial(b + c, 1/2). No discordant pair gives 1.
    """
    if only_a < 0 or only_b < 0:
        raise ValueError("discordant counts cannot be negative")
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1))
    # Integer arithmetic up to the last step keeps the tail exact for any n.
    return min(1.0, 2 * tail / 2**n)


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    level: float


def paired_bootstrap_ci(a: Sequence[bool], b: Sequence[bool], *, reps: int = 10_000,
                        level: float = 0.95, seed: int = 0) -> Interval:
    """Percentile bootstrap interval of pass rate(B) - pass rate(A), as fractions.

    ``a[i]`` and ``b[i]`` are the verdicts of the same scenario: scenarios are resampled with
    replacement and each keeps both verdicts, so the interval accounts for the pairing. Seeded,
    so the same inputs always give the same interval.
    """
    if len(a) != len(b):
        raise ValueError("paired verdict lists differ in length")
    n = len(a)
    if n == 0:
        raise ValueError("no paired scenarios")
    diffs = [int(y) - int(x) for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    totals = sorted(sum(rng.choices(diffs, k=n)) for _ in range(reps))
    alpha = (1 - level) / 2
    return Interval(_quantile(totals, alpha) / n, _quantile(totals, 1 - alpha) / n, level)


def _quantile(ordered: Sequence[int], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default, type 7)."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate that at least one of k runs passes, from c passes in n runs:
    1 - C(n-c, k) / C(n, k)."""
    _check_counts(n, c, k)
    return 1 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate that all of k runs pass (pass^k), from c passes in n runs:
    C(c, k) / C(n, k)."""
    _check_counts(n, c, k)
    return math.comb(c, k) / math.comb(n, k)


def _check_counts(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")


def spread(rates: Sequence[float]) -> float:
    """Run-to-run spread: the sample standard deviation (n - 1) of per-seed pass rates."""
    if len(rates) < 2:
        raise ValueError("the spread needs at least two seeds")
    return statistics.stdev(rates)
