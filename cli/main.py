"""``orvena-bench``: one sub-command per module of this package.

Each command module has ``register(subparsers)``, which adds its parser and sets ``func``.
Bad input raises FormatError, printed here as one line per problem (exit 2).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from formats.errors import FormatError

# Sub-command modules, in the order `--help` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "cli.validate_cmd",
    "cli.scenarios_cmd",
    "cli.mcp_cmd",
    "cli.run_cmd",
    "cli.show_cmd",
    "cli.score_cmd",
    "cli.merge_cmd",
    "cli.summary_cmd",
    "cli.compare_cmd",
    "cli.report_cmd",
    "cli.tiny_cmd",
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
