"""``orvena-bench validate [FILES]``: prove scenario files well formed and solvable."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.validation.composition import render
from harness.validation.report import validate_files


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("validate", help="check scenario files: schema, ids, tokens, tools, privacy, "
                                        "the reference agent's run, and the composition")
    p.add_argument("files", nargs="*", type=Path,
                   help="scenario JSONL files (default: scenarios/*.jsonl)")
    p.add_argument("--static", action="store_true",
                   help="static checks and lints only (skip the reference agent's run and the behaviours)")
    p.add_argument("--behaviours", nargs="*", type=Path, default=None, metavar="FILE",
                   help="alternative-behaviour files to play (default: scenarios/behaviours/*.jsonl; "
                        "with no FILE, none)")
    p.add_argument("--no-composition", action="store_true",
                   help="do not print the composition table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    files = args.files or sorted(scenarios_dir().glob("*.jsonl"))
    if not files:
        print(f"orvena-bench validate: no scenario files in {scenarios_dir()}", file=sys.stderr)
        return 2
    behaviours = args.behaviours
    if behaviours is None:
        behaviours = sorted((scenarios_dir() / "behaviours").glob("*.jsonl"))
    catalog = load_catalog(catalog_path())
    # Validating a part of the sets: behaviours of scenarios outside it are left out.
    report = validate_files(files, catalog, reference=not args.static, behaviour_files=behaviours,
                            only_loaded=bool(args.files))
    for problem in report.problems:
        print(problem)
    for warning in report.warnings:
        print(f"warning: {warning}")
    cov = report.coverage
    if cov is not None and behaviours:
        for verdict, ids in (("pass", cov.without_pass), ("fail", cov.without_fail)):
            if ids:
                print(f"warning: {len(ids)} scenarios have no {verdict} behaviour: {', '.join(ids)}")
    for sentence in report.not_run:
        print(f"not run: {sentence}")
    if not args.no_composition:
        print(render(report.composition))
    if not args.static and behaviours:
        print(f"{report.behaviours_as_expected}/{len(report.played)} alternative behaviours "
              f"scored as expected ({len(behaviours)} file{'s' if len(behaviours) != 1 else ''})")
    print(f"{len(report.scenarios)} scenarios in {len(files)} files: "
          f"{len(report.problems)} problems, {len(report.warnings)} warnings")
    return 0 if report.ok else 1
