"""Pass-count tables from verdicts: the card's Results rows (summary.csv), counts per category
over the bench without the -conn copies (by_category.csv) and per language over the whole bench
(by_language.csv). Pure functions of the entries (``formats.result_files.Entry``, the one row
type) to rows, and one writer; reading the files is the reader's job."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from orvena_bench.formats.failures import not_run
from orvena_bench.formats.languages import APPLE_LANGUAGES
from orvena_bench.formats.result_files import Entry

BENCH = "bench"


# The card's Results rows: (label, which lines count).
SUMMARY_ROWS: tuple[tuple[str, Callable[[Entry], bool]], ...] = (
    ("all bench scenarios", lambda s: s.set == BENCH),
    ("13 languages Apple's model supports", lambda s: s.set == BENCH and s.language in APPLE_LANGUAGES),
    ("connections installed, -conn", lambda s: s.set == BENCH and s.is_conn_copy),
    # The card's 62: originals that use MCP connections (-conn copies install unused ones).
    ("MCP scenarios", lambda s: s.set == BENCH and s.mcp and not s.is_conn_copy),
    ("restraint, diagnostic", lambda s: s.set == "restraint"),
    ("asking for a missing detail, diagnostic", lambda s: s.set == "ask"),
)


def _percent(passed: int, total: int) -> str:
    return f"{100.0 * passed / total:.1f}" if total else ""


def _counts(chosen: list[Entry]) -> dict[str, object]:
    """passed and total over the lines that are a verdict on the model; lines whose turn failed
    outside it (backend, harness, broken scenario: ``formats.failures``) count apart, as not run."""
    ran = [s for s in chosen if not not_run(s.line)]
    passed = sum(s.passed for s in ran)
    return {"passed": passed, "total": len(ran), "percent": _percent(passed, len(ran)),
            "notRun": len(chosen) - len(ran)}


def _runs(lines: Iterable[Entry]) -> dict[tuple[str, int], list[Entry]]:
    runs: dict[tuple[str, int], list[Entry]] = {}
    for line in lines:
        runs.setdefault((line.model, line.seed), []).append(line)
    return dict(sorted(runs.items()))


def summary_rows(lines: Iterable[Entry]) -> list[dict[str, object]]:
    """Per model and seed, one row per Results row of the card that has any lines."""
    rows = []
    for (model, seed), run in _runs(lines).items():
        for label, counts in SUMMARY_ROWS:
            chosen = [s for s in run if counts(s)]
            if chosen:
                rows.append({"model": model, "seed": seed, "row": label, **_counts(chosen)})
    return rows


def _by(lines: Iterable[Entry], key: str, keep: Callable[[Entry], bool]) -> list[dict[str, object]]:
    rows = []
    for (model, seed), run in _runs(lines).items():
        groups: dict[str, list[Entry]] = {}
        for s in run:
            if keep(s):
                groups.setdefault(getattr(s, key), []).append(s)
        for value, chosen in sorted(groups.items()):
            rows.append({"model": model, "seed": seed, key: value, **_counts(chosen)})
    return rows


def by_category_rows(lines: Iterable[Entry]) -> list[dict[str, object]]:
    """Per model, seed and category, over the bench without the -conn copies (as the card)."""
    return _by(lines, "category", lambda s: s.set == BENCH and not s.is_conn_copy)


def by_language_rows(lines: Iterable[Entry]) -> list[dict[str, object]]:
    """Per model, seed and language, over the whole bench."""
    return _by(lines, "language", lambda s: s.set == BENCH)


def write_csv(path: str | Path, rows: list[dict[str, object]], columns: list[str]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def write_tables(directory: str | Path, lines: list[Entry]) -> list[Path]:
    """summary.csv, by_category.csv and by_language.csv in directory; returns their paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, rows, key in (("summary.csv", summary_rows(lines), "row"),
                            ("by_category.csv", by_category_rows(lines), "category"),
                            ("by_language.csv", by_language_rows(lines), "language")):
        write_csv(directory / name, rows, ["model", "seed", key, "passed", "total", "percent", "notRun"])
        out.append(directory / name)
    return out


def format_summary(rows: list[dict[str, object]]) -> str:
    """The summary rows as a plain-text table: one line per row, one column per model and seed."""
    runs = list(dict.fromkeys((r["model"], r["seed"]) for r in rows))
    labels = list(dict.fromkeys(r["row"] for r in rows))
    cell = {(r["row"], r["model"], r["seed"]): f"{r['passed']}/{r['total']} ({r['percent']}%)"
            + (f", {r['notRun']} not run" if r.get("notRun") else "") for r in rows}
    header = [""] + [f"{m} (seed {s})" for m, s in runs]
    body = [[label] + [cell.get((label, m, s), "-") for m, s in runs] for label in labels]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
                     for row in [header, *body])


def uses_mcp(expect: Any) -> bool:
    """Whether a scenario's expected calls (calls or any anyOf sequence) include an MCP
    operation, ``<connection>/<operation>``. Takes the model or its raw JSON."""
    if not isinstance(expect, dict):
        expect = expect.model_dump() if expect is not None else {}
    calls = list(expect.get("calls") or []) + [c for seq in expect.get("anyOf") or [] for c in seq]
    return any("/" in str(c.get("tool", "")) for c in calls if isinstance(c, dict))
