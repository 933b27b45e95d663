"""Two runs side by side: flips, deltas per group, an exact McNemar test and a paired bootstrap
interval, stated in one plain sentence.

The comparison is over the scenarios both runs hold (paired by set and id); scenarios only one
run holds are counted, never compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from orvena_bench.reports.groups import Group
from orvena_bench.reports.runs import Key, Run
from orvena_bench.reports.stats import Interval, mcnemar_exact, paired_bootstrap_ci


@dataclass(frozen=True)
class Delta:
    """One group's pass counts in A and B over the same paired scenarios."""

    name: str
    total: int
    a_passed: int
    b_passed: int

    @property
    def points(self) -> float:
        """B minus A in percentage points."""
        return 100 * (self.b_passed - self.a_passed) / self.total if self.total else 0.0


@dataclass(frozen=True)
class Comparison:
    a: str
    b: str
    paired: tuple[Key, ...]
    only_a: tuple[Key, ...]  # passed in A only
    only_b: tuple[Key, ...]  # passed in B only
    unpaired_a: int  # scenarios only A ran
    unpaired_b: int
    a_passed: int
    b_passed: int
    p_value: float
    ci: Interval  # of B - A, as fractions
    # Per section ("category", "language", ...): one Delta per group with a paired scenario.
    deltas: dict[str, tuple[Delta, ...]]

    @property
    def points(self) -> float:
        return 100 * (self.b_passed - self.a_passed) / len(self.paired)

    def sentence(self) -> str:
        """The result in one sentence, e.g. "B is better by 4.2 points, 95% CI 1.1 to 7.3,
        p = 0.01"."""
        n = len(self.paired)
        rates = (f"{100 * self.b_passed / n:.1f}% against {100 * self.a_passed / n:.1f}% "
                 f"on {n} paired scenarios")
        if self.b_passed == self.a_passed:
            head = f"{self.b} and {self.a} pass the same share ({rates})"
        else:
            word = "better" if self.points > 0 else "worse"
            head = f"{self.b} is {word} than {self.a} by {abs(self.points):.1f} points ({rates})"
        level = round(self.ci.level * 100)
        tail = (f"{level}% CI {100 * self.ci.low:.1f} to {100 * self.ci.high:.1f}, "
                f"{format_p(self.p_value)}")
        flips = (f"{len(self.only_b)} scenarios pass only in {self.b}, "
                 f"{len(self.only_a)} only in {self.a}")
        verdict = ("" if self.p_value < 0.05
                   else "; the difference is not significant at the 5% level")
        return f"{head}, {tail} ({flips}){verdict}."


def format_p(p: float) -> str:
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def compare(a: Run, b: Run, sections: Mapping[str, Sequence[Group]], *,
            label_a: str | None = None, label_b: str | None = None, reps: int = 10_000,
            seed: int = 0) -> Comparison:
    """Compare run B against run A on the scenarios both ran. Each section's deltas cover its
    groups with at least one paired scenario."""
    paired = tuple(k for k in a.entries if k in b.entries)
    if not paired:
        raise ValueError(f"{label_a or a.model} and {label_b or b.model} share no scenario")
    va = [a.passed(k) for k in paired]
    vb = [b.passed(k) for k in paired]
    only_a = tuple(k for k, x, y in zip(paired, va, vb, strict=True) if x and not y)
    only_b = tuple(k for k, x, y in zip(paired, va, vb, strict=True) if y and not x)
    deltas = {name: tuple(_deltas(a, b, paired, groups)) for name, groups in sections.items()}
    return Comparison(
        a=label_a or a.model, b=label_b or b.model, paired=paired, only_a=only_a, only_b=only_b,
        unpaired_a=len(a.entries) - len(paired), unpaired_b=len(b.entries) - len(paired),
        a_passed=sum(va), b_passed=sum(vb),
        p_value=mcnemar_exact(len(only_a), len(only_b)),
        ci=paired_bootstrap_ci(va, vb, reps=reps, seed=seed), deltas=deltas)


def _deltas(a: Run, b: Run, paired: Sequence[Key], groups: Sequence[Group]) -> Iterator[Delta]:
    for group in groups:
        members = [k for k in paired if group.contains(a.entries[k])]
        if members:
            yield Delta(group.heading, len(members), sum(a.passed(k) for k in members),
                        sum(b.passed(k) for k in members))
