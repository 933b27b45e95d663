"""Several seeds of one model: pass@k, pass^k and the run-to-run spread (docs/metrics.md).

All three are computed over the scenarios every seed ran, so each scenario has the same number
of runs n and the columns for k = 1..n describe the same scenarios.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean

from orvena_bench.reports.runs import Run
from orvena_bench.reports.stats import pass_at_k, pass_hat_k, spread


@dataclass(frozen=True)
class SeedReport:
    model: str
    seeds: tuple[int, ...]
    scenarios: int  # run under every seed
    rates: tuple[float, ...]  # per seed, over those scenarios
    pass_at: tuple[float, ...]  # index k - 1
    pass_hat: tuple[float, ...]
    spread: float  # sample standard deviation of the per-seed rates

    @property
    def n(self) -> int:
        return len(self.seeds)


def seed_report(runs: Sequence[Run]) -> SeedReport:
    """The report over two or more runs of one model."""
    if len(runs) < 2:
        raise ValueError("pass@k and the spread need at least two seeds")
    models = {r.model for r in runs}
    if len(models) != 1:
        raise ValueError(f"seeds of different models: {', '.join(sorted(models))}")
    common = [k for k in runs[0].entries if all(k in r.entries for r in runs[1:])]
    if not common:
        raise ValueError(f"the seeds of {runs[0].model} share no scenario")
    n = len(runs)
    passes = [sum(r.passed(k) for r in runs) for k in common]
    rates = tuple(sum(r.passed(k) for k in common) / len(common) for r in runs)
    return SeedReport(
        model=runs[0].model, seeds=tuple(r.seed for r in runs), scenarios=len(common),
        rates=rates,
        pass_at=tuple(fmean(pass_at_k(n, c, k) for c in passes) for k in range(1, n + 1)),
        pass_hat=tuple(fmean(pass_hat_k(n, c, k) for c in passes) for k in range(1, n + 1)),
        spread=spread(rates))
