"""``orvena-bench compare A B``: B against A on the scenarios both ran (flips, deltas per
category and language, an exact McNemar test and a bootstrap interval); with several seeds of
one model, pass@k, pass^k and the run-to-run spread. ``compare A`` alone gives the seeds."""

from __future__ import annotations

import argparse

from orvena_bench.cli.summary_cmd import add_inputs, read_inputs
from orvena_bench.formats.errors import FormatError
from orvena_bench.reports import text
from orvena_bench.reports.build import compare_runs, seed_reports
from orvena_bench.reports.inputs import Inputs
from orvena_bench.reports.runs import Run


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("compare", help="compare two runs (checkpoints) scenario by scenario",
                              description=__doc__)
    p.add_argument("a", metavar="A", help="the baseline: a result file or a folder of them")
    p.add_argument("b", metavar="B", nargs="?", help="the candidate: a result file or folder")
    add_inputs(p, results=False)
    p.add_argument("--seed-a", type=int, help="A's seed to compare (default: its main seed)")
    p.add_argument("--seed-b", type=int, help="B's seed to compare (default: its main seed)")
    p.add_argument("--reps", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.add_argument("--flips", type=int, default=40, metavar="N",
                   help="flipped scenarios listed per side (default 40)")
    p.set_defaults(func=run)


def side_run(inputs: Inputs, path: str, seed: int | None) -> Run:
    """The one model of a side, under the seed asked for or its main seed."""
    models = inputs.results.models
    if len(models) != 1:
        raise FormatError(f"holds {len(models)} models ({', '.join(models)}); compare needs one "
                          "model per side", file=path)
    model = models[0]
    if seed is None:
        return inputs.results.main_run(model)
    if (model, seed) not in inputs.results.runs:
        raise FormatError(f"{model} has no run with seed {seed} (seeds: "
                          f"{', '.join(map(str, inputs.results.seeds(model)))})", file=path)
    return inputs.results.runs[(model, seed)]


def run(args: argparse.Namespace) -> int:
    # The recorded verdicts are compared as they are: no rescoring needed.
    sides = [read_inputs([args.a], args, rescore=False)]
    if args.b:
        sides.append(read_inputs([args.b], args, rescore=False))
    blocks = []
    if args.b:
        a = side_run(sides[0], args.a, args.seed_a)
        b = side_run(sides[1], args.b, args.seed_b)
        label_a, label_b = a.model, b.model
        if label_a == label_b:  # two checkpoints under one name: tell them apart by seed or file
            label_a, label_b = ((f"{a.model} seed {a.seed}", f"{b.model} seed {b.seed}")
                                if a.seed != b.seed else (f"A ({args.a})", f"B ({args.b})"))
        result = compare_runs(a, b, label_a=label_a, label_b=label_b, reps=args.reps)
        blocks.append(f"A = {label_a} (seed {a.seed}), B = {label_b} (seed {b.seed})\n"
                      + text.comparison(result, flips_shown=args.flips))
    for inputs in sides:
        blocks += [text.seeds(r) for r in seed_reports(inputs)]
    if not blocks:
        raise FormatError("one run under one seed: give B to compare against, or a file with "
                          "several seeds of the model", file=args.a)
    print("\n\n".join(blocks))
    return 0
