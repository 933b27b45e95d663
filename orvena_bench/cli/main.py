"""``orvena-bench``: one sub-command per module of this package.

Each command module has ``register(subparsers)``, which adds its parser and sets ``func``.
Bad input raises FormatError, printed here as one line per problem (exit 2).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.paths import ROOT_VARIABLE

# Sub-command modules, in the order `--help` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "orvena_bench.cli.validate_cmd",
    "orvena_bench.cli.scenarios_cmd",
    "orvena_bench.cli.mcp_cmd",
    "orvena_bench.cli.run_cmd",
    "orvena_bench.cli.check_model_cmd",
    "orvena_bench.cli.show_cmd",
    "orvena_bench.cli.score_cmd",
    "orvena_bench.cli.merge_cmd",
    "orvena_bench.cli.summary_cmd",
    "orvena_bench.cli.compare_cmd",
    "orvena_bench.cli.report_cmd",
    "orvena_bench.cli.tiny_cmd",
    "orvena_bench.cli.data_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orvena-bench",
        description="Run, score and compare language models as phone-assistant agents.",
    )
    parser.add_argument("--data", type=Path, metavar="DIR",
                        help=f"the data folder every command reads: scenarios/, fixtures/mcp/, "
                             f"catalog/ (default: ${ROOT_VARIABLE}, else the bundled data)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    before = os.environ.get(ROOT_VARIABLE)
    try:
        if args.data is not None:
            if not args.data.is_dir():
                raise FormatError("no such data folder", file=str(args.data))
            # The environment, not a global: MCP servers started by the command read it too.
            os.environ[ROOT_VARIABLE] = str(args.data.resolve())
        return int(args.func(args) or 0)
    except FormatError as e:
        print(f"orvena-bench: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("orvena-bench: interrupted; recorded lines are kept (rerun with --resume)",
              file=sys.stderr)
        return 130
    finally:
        if args.data is not None:
            if before is None:
                os.environ.pop(ROOT_VARIABLE, None)
            else:
                os.environ[ROOT_VARIABLE] = before


if __name__ == "__main__":
    sys.exit(main())
