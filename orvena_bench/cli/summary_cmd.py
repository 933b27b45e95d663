"""``orvena-bench summary RESULTS...``: the card's Results table, the by-category and by-language
tables and the failure taxonomy, per model; ``--csv DIR`` writes the same as CSV files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from orvena_bench.reports import text
from orvena_bench.reports.build import build_tables
from orvena_bench.reports.csvfiles import write_all
from orvena_bench.reports.inputs import Inputs, load_inputs
from orvena_bench.reports.runs import describe


def add_inputs(parser: argparse.ArgumentParser, *, results: bool = True) -> None:
    """The arguments the report commands share: the result files (unless the command names its
    own) and the scenario files."""
    if results:
        parser.add_argument("results", nargs="+", metavar="RESULTS",
                            help="result files, or folders of them (e.g. results/)")
    parser.add_argument("--scenarios", action="append", metavar="FILE",
                        help="scenario file (repeatable; default: the project's scenarios/*.jsonl)")


def read_inputs(results: list[str], args: argparse.Namespace, *, rescore: bool = True) -> Inputs:
    inputs = load_inputs(results, args.scenarios, rescore=rescore)
    for warning in inputs.warnings():
        print(f"orvena-bench: note: {warning}", file=sys.stderr)
    return inputs


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("summary", help="pass counts per model: the card's Results table",
                              description=__doc__)
    add_inputs(p)
    p.add_argument("--csv", metavar="DIR", type=Path,
                   help="also write summary.csv, by_category.csv, by_language.csv (the scorer's "
                        "tables, every seed) and failures.csv (the failure taxonomy)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    inputs = read_inputs(args.results, args)
    tables = build_tables(inputs)
    models = inputs.results.models
    print(describe(inputs.results))
    print()
    print(text.results_table(tables.card, models, title="Results"))
    print()
    print(text.results_table(tables.by_category, models,
                             title="By category (bench, without the -conn copies)"))
    print()
    print(text.results_table(tables.by_language, models, title="By language (bench)"))
    print()
    print(text.taxonomy(tables.taxonomy, models))
    if args.csv:
        for path in write_all(args.csv, inputs.results, tables.taxonomy):
            print(f"wrote {path}")
    return 0
