"""The failure taxonomy: which kinds of check failed, counted per model and category.

A failed scenario counts once under every kind of check it failed, so a row's kinds can add up
to more than its failed scenarios. Rows are bench categories (the -conn copies included: their
failures are as worth training on as any), then the diagnostic sets by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from orvena_bench.formats.languages import CATEGORIES
from orvena_bench.reports.order import ordered
from orvena_bench.reports.runs import SETS, Entry, Results

# The order: the calls, then the answer, then the turn.
KIND_ORDER: tuple[str, ...] = (
    "wrong-or-missing-call", "wrong-arguments", "failed-call", "parse-failure", "forbidden-tool",
    "tool-when-none-needed", "missing-answer", "excluded-answer", "language", "empty-answer",
    "failed-turn", "harness-error", "backend-error", "passes-when-rescored", "no-scenario",
    "scenario-error",
)


@dataclass(frozen=True)
class TaxonomyRow:
    model: str
    group: str  # a bench category, or a diagnostic set's name
    scenarios: int
    failed: int
    kinds: Counter[str]


@dataclass(frozen=True)
class Taxonomy:
    kinds: tuple[str, ...]  # the columns: every kind seen, in KIND_ORDER first
    rows: tuple[TaxonomyRow, ...]

    def totals(self, model: str) -> TaxonomyRow:
        mine = [r for r in self.rows if r.model == model]
        return TaxonomyRow(model, "all", sum(r.scenarios for r in mine),
                           sum(r.failed for r in mine), sum((r.kinds for r in mine), Counter()))


def group_of(entry: Entry) -> str:
    return entry.line.category if entry.set == "bench" else entry.set


def taxonomy(results: Results, kinds_of: Callable[[Entry], Sequence[str]]) -> Taxonomy:
    """Count the failed check kinds of every model's main run. ``kinds_of(entry)`` gives the
    kinds of a failed scenario's failed checks."""
    rows, seen = [], set()
    for model in results.models:
        by_group: dict[str, list[Entry]] = {}
        for entry in results.main_run(model).entries.values():
            by_group.setdefault(group_of(entry), []).append(entry)
        for group in ordered(by_group, [*CATEGORIES, *SETS[1:]]):
            entries = by_group[group]
            counts: Counter[str] = Counter()
            for e in entries:
                if not e.line.passed:
                    counts.update(set(kinds_of(e)))
            seen.update(counts)
            rows.append(TaxonomyRow(model, group, len(entries),
                                    sum(not e.line.passed for e in entries), counts))
    return Taxonomy(tuple(ordered(seen, KIND_ORDER)), tuple(rows))
