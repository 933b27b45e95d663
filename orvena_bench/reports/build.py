"""The tables every report command shows, built once from the inputs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orvena_bench.reports.compare import Comparison, compare
from orvena_bench.reports.groups import card_rows, category_groups, language_groups
from orvena_bench.reports.inputs import Inputs, entries_of
from orvena_bench.reports.runs import Run
from orvena_bench.reports.seeds import SeedReport, seed_report
from orvena_bench.reports.summary import Row, table
from orvena_bench.reports.taxonomy import Taxonomy, taxonomy


@dataclass(frozen=True)
class Tables:
    card: list[Row]
    by_category: list[Row]
    by_language: list[Row]
    taxonomy: Taxonomy


def build_tables(inputs: Inputs) -> Tables:
    kinds = inputs.kinds
    if kinds is None:
        raise ValueError("the failure taxonomy needs the lines scored again (rescore=True)")
    entries = entries_of(inputs.results)
    return Tables(
        card=table(inputs.results, card_rows()),
        by_category=table(inputs.results, category_groups(entries)),
        by_language=table(inputs.results, language_groups(entries)),
        taxonomy=taxonomy(inputs.results, kinds),
    )


def seed_reports(inputs: Inputs) -> list[SeedReport]:
    """One report per model run under two or more seeds that share scenarios."""
    results, out = inputs.results, []
    for model in results.models:
        runs = [results.runs[(model, s)] for s in results.seeds(model)]
        if len(runs) > 1 and set.intersection(*(set(r.entries) for r in runs)):
            out.append(seed_report(runs))
    return out


def compare_runs(a: Run, b: Run, **options: Any) -> Comparison:
    """B against A with deltas by Results row, by category and by language."""
    entries = [*a.entries.values(), *b.entries.values()]
    sections = {"Results row": card_rows(), "category": category_groups(entries),
                "language": language_groups(entries)}
    return compare(a, b, sections, **options)
