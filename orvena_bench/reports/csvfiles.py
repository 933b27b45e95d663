"""The tables as CSV files: the scorer's three (summary, by_category, by_language, written by
scoring.tables from the recorded verdicts) and the failure taxonomy."""

from __future__ import annotations

from pathlib import Path

from orvena_bench.reports.inputs import load_inputs
from orvena_bench.reports.runs import Results
from orvena_bench.reports.taxonomy import Taxonomy
from scoring.tables import write_csv, write_tables


def write_all(folder: Path, results: Results, taxonomy: Taxonomy) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = write_tables(folder, results.all_entries())
    columns = ["model", "group", "ran", "failed", *taxonomy.kinds]
    rows = [{"model": r.model, "group": r.group, "ran": r.scenarios, "failed": r.failed,
             **{k: r.kinds.get(k, 0) for k in taxonomy.kinds}} for r in taxonomy.rows]
    write_csv(folder / "failures.csv", rows, columns)
    return [*written, folder / "failures.csv"]


def write_tables_of(folder: Path, scenario_files: list[Path] | None = None) -> list[Path]:
    """summary.csv, by_category.csv and by_language.csv in ``folder``, over every result file
    under it, from the verdicts recorded in the lines (what ``run`` writes at its end)."""
    inputs = load_inputs([folder], scenario_files, rescore=False)
    return write_tables(folder, inputs.results.all_entries())
