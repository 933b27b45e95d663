"""The tables as CSV files: the scorer's three (summary, by_category, by_language, written by
scoring.tables from the recorded verdicts) and the failure taxonomy."""

from __future__ import annotations

from pathlib import Path

from orvena_bench.reports.groups import scored
from orvena_bench.reports.runs import Results
from orvena_bench.reports.taxonomy import Taxonomy
from scoring.tables import write_csv, write_tables


def write_all(folder: Path, results: Results, taxonomy: Taxonomy) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = write_tables(folder, [scored(e) for e in results.all_entries()])
    columns = ["model", "group", "ran", "failed", *taxonomy.kinds]
    rows = [{"model": r.model, "group": r.group, "ran": r.scenarios, "failed": r.failed,
             **{k: r.kinds.get(k, 0) for k in taxonomy.kinds}} for r in taxonomy.rows]
    write_csv(folder / "failures.csv", rows, columns)
    return [*written, folder / "failures.csv"]
