"""The summary tables as CSV files: one row per (table row, model, seed)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from reports.build import Tables
from reports.runs import Results
from reports.summary import Row

COUNT_COLUMNS = ["group", "label", "model", "seed", "passed", "total", "percent"]


def count_rows(rows: Sequence[Row], results: Results) -> list[list[object]]:
    out: list[list[object]] = []
    for row in rows:
        for model, cell in row.cells.items():
            for seed, t in ((results.main_seed(model), cell.tally), *cell.others):
                out.append([row.group.name, row.group.label, model, seed, t.passed, t.total,
                            f"{100 * t.rate:.1f}"])
    return out


def write_tables(folder: Path, tables: Tables, results: Results) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    files = {
        "summary.csv": (COUNT_COLUMNS, count_rows(tables.card, results)),
        "by_category.csv": (COUNT_COLUMNS, count_rows(tables.by_category, results)),
        "by_language.csv": (COUNT_COLUMNS, count_rows(tables.by_language, results)),
        "failures.csv": (["model", "group", "ran", "failed", *tables.taxonomy.kinds],
                         [[r.model, r.group, r.scenarios, r.failed,
                           *(r.kinds.get(k, 0) for k in tables.taxonomy.kinds)]
                          for r in tables.taxonomy.rows]),
    }
    written = []
    for name, (header, rows) in files.items():
        path = folder / name
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows(rows)
        written.append(path)
    return written
