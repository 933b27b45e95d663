"""``orvena-bench``: one sub-command per module of this package.

Each command module has ``register(subparsers)``, which adds its parser and sets ``func``.
Bad input raises FormatError, printed here as one line per problem (exit 2).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from orvena_bench.formats.errors import FormatError

# Sub-command modules, in the order `--help` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "orvena_bench.cli.validate_cmd",
    "orvena_bench.cli.scenarios_cmd",
    "orvena_bench.cli.mcp_cmd",
    "orvena_bench.cli.run_cmd",
    "orvena_bench.cli.show_cmd",
    "orvena_bench.cli.score_cmd",
    "orvena_bench.cli.merge_cmd",
    "orvena_bench.cli.summary_cmd",
    "orvena_bench.cli.compare_cmd",
    "orvena_bench.cli.report_cmd",
    "orvena_bench.cli.tiny_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orvena-bench",
        description="Run, score and compare language models as phone-assistant agents.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except FormatError as e:
        print(f"orvena-bench: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("orvena-bench: interrupted; recorded lines are kept (rerun with --resume)",
              file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
