"""``orvena-bench scenarios assemble``: fold per-language part files into the sets and regenerate
the ``-conn`` copies."""

from __future__ import annotations

import argparse
from pathlib import Path

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.validation.assemble import assemble


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("scenarios", help="maintain the scenario sets")
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    a = actions.add_parser("assemble", help="merge scenarios/parts/<language>/<set>.jsonl into "
                                            "scenarios/<set>.jsonl and regenerate the -conn copies")
    a.add_argument("--dir", type=Path, default=None, help="the scenarios folder (default: scenarios/)")
    a.add_argument("--conn", type=int, default=100, help="how many -conn copies (default 100)")
    a.set_defaults(func=run_assemble)


def run_assemble(args: argparse.Namespace) -> int:
    catalog = load_catalog(catalog_path())
    counts = assemble(args.dir or scenarios_dir(), [c.id for c in catalog.connections], args.conn)
    for set_name, n in counts.items():
        print(f"{set_name}: {n} scenarios")
    return 0
