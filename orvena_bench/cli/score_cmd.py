"""``orvena-bench score RESULTS.jsonl... [--scenarios FILE]... [--write PATH]``

Recomputes ``passed`` and ``issues`` of every result line from its calls, answer and transcript
alone (the recorded verdict is ignored), prints the pass counts, and writes summary.csv,
by_category.csv and by_language.csv beside the results. With --write, the rescored lines are
written with every other field kept.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

import orjson
from pydantic import ValidationError

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import iter_lines, line_errors, write_models
from orvena_bench.formats.paths import scenarios_dir
from orvena_bench.formats.result import ResultLine
from scoring.batch import Known, load_scenarios, score_lines
from scoring.tables import Scored, format_summary, summary_rows, uses_mcp, write_tables


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("score", help="rescore result files and write the pass-count tables",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", nargs="+", type=Path, metavar="RESULTS.jsonl")
    p.add_argument("--scenarios", action="append", type=Path, metavar="FILE",
                   help="scenario file (repeatable; default: the project's scenarios/*.jsonl)")
    p.add_argument("--write", type=Path, metavar="PATH",
                   help="write the rescored lines: to PATH for one results file (it may be the "
                        "file itself), else into folder PATH as <set folder>/<file name>")
    p.add_argument("--tables", type=Path, metavar="DIR",
                   help="where the CSVs go (default: beside the results, e.g. results/)")
    p.add_argument("--no-language-check", action="store_true",
                   help="skip the language check (for comparing; verdicts then differ from the card's)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    errors: list[FormatError] = []
    scenario_files = args.scenarios or sorted(scenarios_dir().glob("*.jsonl"))
    if not scenario_files:
        raise FormatError("no scenario files (give --scenarios FILE)", file=str(scenarios_dir()))
    for path in [*scenario_files, *args.results]:
        if not Path(path).is_file():
            raise FormatError("no such file", file=str(path))
    known = load_scenarios(scenario_files, errors)

    # Every line, raw, so that --write keeps each field as it was.
    files: list[tuple[Path, list[dict]]] = []
    unreadable: set[Path] = set()  # files with lines that did not load: never rewritten
    pairs: list[tuple[Known, ResultLine]] = []
    where: list[tuple[int, int]] = []  # (file index, line index) of each pair
    for f, path in enumerate(args.results):
        raws = []
        for number, raw in iter_lines(path):
            try:
                data = orjson.loads(raw)
                line = ResultLine.model_validate(data)
            except orjson.JSONDecodeError as e:
                errors.append(FormatError(f"not valid JSON ({e})", file=str(path), line=number))
                unreadable.add(path)
                continue
            except ValidationError as e:
                errors.extend(line_errors(e, str(path), number))
                unreadable.add(path)
                continue
            raws.append(data)
            scenario = known.get(line.id)
            if scenario is None:
                errors.append(FormatError(f"no scenario with id {line.id!r} in "
                                          f"{', '.join(map(str, scenario_files))}",
                                          file=str(path), line=number, field="id"))
                continue
            pairs.append((scenario, line))
            where.append((f, len(raws) - 1))
        files.append((path, raws))

    verdicts = score_lines(pairs, language_check=not args.no_language_check)
    scored, changed = [], Counter()
    for (scenario, line), verdict, (f, i) in zip(pairs, verdicts, where):
        raw = files[f][1][i]
        changed[verdict.passed != raw.get("passed")] += 1
        raw["passed"], raw["issues"] = verdict.passed, verdict.issues
        scored.append(Scored(scenario.set, line.model, line.seed, line.id, line.language,
                             line.category, verdict.passed, uses_mcp(scenario.expect)))

    rows = summary_rows(scored)
    if rows:
        print(format_summary(rows))
    print(f"\nscored {len(scored)} lines; {changed[True]} verdicts differ from the recorded ones")
    for path in write_tables(args.tables or tables_dir(args.results, known), scored):
        print(f"wrote {path}")
    if args.write:
        if unreadable:
            errors.append(FormatError("nothing written: lines that did not load would be lost; "
                                      "fix them first", file=", ".join(map(str, sorted(unreadable)))))
        else:
            for path in _write(args.write, files):
                print(f"wrote {path}")
    for error in errors:
        print(f"orvena-bench: {error}", file=sys.stderr)
    return 2 if errors else 0


def tables_dir(results: list[Path], known: dict[str, Known]) -> Path:
    """Beside the results: their common folder, or its parent when the files sit in set folders
    (results/<set>/<model>.jsonl, tables in results/)."""
    common = Path(os.path.commonpath([p.resolve().parent for p in results]))
    return common.parent if common.name in {k.set for k in known.values()} else common


def _write(target: Path, files: list[tuple[Path, list[dict]]]) -> list[Path]:
    if len(files) == 1:
        destinations = [target]
    else:
        destinations = [target / path.resolve().parent.name / path.name for path, _ in files]
        if len(set(destinations)) < len(destinations):
            raise FormatError("two results files would be written to the same place; "
                              "score them one at a time", file=str(target))
    for destination, (_, raws) in zip(destinations, files):
        destination.parent.mkdir(parents=True, exist_ok=True)
        write_models(destination, raws)  # atomic: a crash leaves the old file or the new one
    return destinations
