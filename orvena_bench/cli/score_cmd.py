"""``orvena-bench score RESULTS.jsonl... [--scenarios FILE]... [--write PATH]``

Recomputes ``passed`` and ``issues`` of every result line from its calls, answer and transcript
alone (the recorded verdict is ignored), prints the pass counts, and writes summary.csv,
by_category.csv and by_language.csv beside the results. With --write, the rescored lines are
written with every other field kept as it was read. Files are read by the one reader
(``formats.result_files``): the tables count the last line per (model, id, seed), and --write
rescores every line.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.result_files import entries, read_numbered, write_file
from orvena_bench.formats.scenario_files import default_files
from scoring.batch import Known, load_scenarios, score_lines
from scoring.tables import format_summary, summary_rows, uses_mcp, write_tables


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
    known = load_scenarios(default_files(args.scenarios), errors)

    files: list[tuple[Path, list[tuple[int, ResultLine]]]] = []
    unreadable: set[Path] = set()  # files with lines that did not load: never rewritten
    for path in args.results:
        found: list[FormatError] = []
        files.append((path, read_numbered(path, found)))
        if found:
            errors.extend(found)
            unreadable.add(path)

    pairs = [(known[line.id], line) for _, lines in files for _, line in lines if line.id in known]
    verdicts = iter(score_lines(pairs, language_check=not args.no_language_check))
    rescored: list[tuple[Path, list[ResultLine]]] = []
    changed = Counter()
    for path, lines in files:
        new = []
        for number, line in lines:
            if line.id not in known:
                errors.append(FormatError(f"no scenario with id {line.id!r} in the scenario files",
                                          file=str(path), line=number, field="id"))
                new.append(line)
                continue
            verdict = next(verdicts)
            changed[verdict.passed != line.passed] += 1
            new.append(line.model_copy(update={"passed": verdict.passed, "issues": verdict.issues}))
        rescored.append((path, new))

    sets = {i: k.set for i, k in known.items()}
    scored = entries([(p, [line for line in lines if line.id in known]) for p, lines in rescored],
                     sets, {i for i, k in known.items() if uses_mcp(k.expect)})
    rows = summary_rows(scored)
    if rows:
        print(format_summary(rows))
    print(f"\nscored {len(scored)} scenario runs; {changed[True]} verdicts differ from the "
          "recorded ones")
    for path in write_tables(args.tables or tables_dir(args.results, known), scored):
        print(f"wrote {path}")
    if args.write:
        if unreadable:
            errors.append(FormatError("nothing written: lines that did not load would be lost; "
                                      "fix them first", file=", ".join(map(str, sorted(unreadable)))))
        elif errors:  # a rewrite that exits 2 would contradict itself: all or nothing
            errors.append(FormatError("nothing written: some lines name no scenario; give their "
                                      "scenario files with --scenarios"))
        else:
            for path in _write(args.write, rescored):
                print(f"wrote {path}")
    for error in errors:
        print(f"orvena-bench: {error}", file=sys.stderr)
    return 2 if errors else 0


def tables_dir(results: list[Path], known: dict[str, Known]) -> Path:
    """Beside the results: their common folder, or its parent when the files sit in set folders
    (results/<set>/<model>.jsonl, tables in results/)."""
    common = Path(os.path.commonpath([p.resolve().parent for p in results]))
    return common.parent if common.name in {k.set for k in known.values()} else common


def _write(target: Path, files: list[tuple[Path, list[ResultLine]]]) -> list[Path]:
    if len(files) == 1:
        destinations = [target]
    else:
        destinations = [target / path.resolve().parent.name / path.name for path, _ in files]
        if len(set(destinations)) < len(destinations):
            raise FormatError("two results files would be written to the same place; "
                              "score them one at a time", file=str(target))
    for destination, (_, lines) in zip(destinations, files):
        write_file(destination, lines)  # atomic: a crash leaves the old file or the new one
    return destinations
