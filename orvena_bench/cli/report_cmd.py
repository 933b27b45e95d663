"""``orvena-bench report RESULTS... --out report.html``: one self-contained HTML page with the
summary tables, charts per category and language, the comparison when two models are given
(the first is A, the baseline), the failure taxonomy and a scenario browser."""

from __future__ import annotations

import argparse
from pathlib import Path

from orvena_bench.cli.summary_cmd import add_inputs, read_inputs
from orvena_bench.reports.build import build_tables, compare_runs, seed_reports
from orvena_bench.reports.html import ReportInput, render


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("report", help="write a self-contained HTML report of runs",
                              description=__doc__)
    add_inputs(p)
    p.add_argument("--out", type=Path, default=Path("report.html"),
                   help="the HTML file to write (default report.html)")
    p.add_argument("--title", default="Orvena bench report")
    p.add_argument("--reps", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = read_inputs(args.results, args)
    tables = build_tables(inputs)
    results = inputs.results
    comparison = None
    if len(results.models) == 2:
        a, b = (results.main_run(m) for m in results.models)
        comparison = compare_runs(a, b, reps=args.reps)
    page = render(ReportInput(
        title=args.title, results=results, scenarios=inputs.scenarios, card=tables.card,
        by_category=tables.by_category, by_language=tables.by_language,
        taxonomy=tables.taxonomy, kinds_of=inputs.kinds, comparison=comparison,
        seeds=seed_reports(inputs), sources=inputs.sources))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(args.out)
    runs = sum(len(results.main_run(m).entries) for m in results.models)
    models = len(results.models)
    print(f"wrote {args.out} ({len(page.encode()) / 1e6:.1f} MB; {models} model"
          f"{'s' if models != 1 else ''}, {runs} scenario runs)")
    return 0
