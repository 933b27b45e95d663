"""``orvena-bench merge``: join the shard files of a run (``<model>.shard-<i>-of-<n>.jsonl``) into
one result file, with their manifests' runs."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from harness.manifest import add_run, read_manifest
from orvena_bench.formats.result_files import last_per_key, read_file, write_file

_SHARD = re.compile(r"^(?P<model>.+)\.shard-(?P<i>\d+)-of-(?P<n>\d+)\.jsonl$")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("merge", help="join shard result files into one",
                       description="Join result files (normally the shards of one run). Lines are "
                                   "keyed by (model, id, seed); a key in several files keeps the "
                                   "last given. Each line is written as it was read. Writes "
                                   "atomically.")
    p.add_argument("files", nargs="+", type=Path, help="result files to join, in order")
    p.add_argument("--out", type=Path,
                   help="merged file (default: the shards' <model>.jsonl beside them)")
    p.add_argument("--partial", action="store_true",
                   help="allow a shard set with missing shards")
    p.set_defaults(func=run)


def default_output(files: list[Path], partial: bool) -> Path:
    """``<model>.jsonl`` beside shard files of one model, after checking every shard is there."""
    shards = [(_SHARD.match(f.name), f) for f in files]
    if not all(m for m, _ in shards):
        raise FormatError("--out is needed unless every file is a <model>.shard-<i>-of-<n>.jsonl")
    models = {(m["model"], m["n"], f.parent) for m, f in shards}
    if len(models) != 1:
        raise FormatError("the shard files belong to different runs; pass --out")
    model, n, folder = models.pop()
    present = {int(m["i"]) for m, _ in shards}
    missing = sorted(set(range(1, int(n) + 1)) - present)
    if missing and not partial:
        raise FormatError(f"missing shards {missing} of {n} (pass --partial to merge anyway)")
    return folder / f"{model}.jsonl"


def run(args: argparse.Namespace) -> int:
    out = args.out or default_output(args.files, args.partial)
    lines, runs = [], []
    for f in args.files:
        lines.extend(read_file(f))
        runs.extend(read_manifest(f))
    if out.exists():
        if out.resolve() not in {f.resolve() for f in args.files}:
            raise FormatError("exists; pass it as an input too to merge into it", file=str(out))
    merged = last_per_key(lines)
    if len(merged) != len(lines):
        print(f"orvena-bench merge: {len(lines) - len(merged)} lines had a (model, id, seed) already "
              "seen; the last given was kept", file=sys.stderr)
    write_file(out, merged)
    known = read_manifest(out)
    for entry in runs:
        if entry not in known:
            add_run(out, entry)
            known.append(entry)
    print(f"merged {len(merged)} lines from {len(args.files)} files -> {out}")
    return 0
