"""The flags that choose scenarios within the sets, the same for every command that plays them
(``run``, ``check-model``)."""

from __future__ import annotations

import argparse


def add_selection_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ids", help="comma-separated scenario ids")
    p.add_argument("--category", help="only this category")
    p.add_argument("--language", help="only this language")
    p.add_argument("--limit", type=int, help="at most this many scenarios per set")


def selected_ids(args: argparse.Namespace) -> frozenset[str]:
    return frozenset(i.strip() for i in (args.ids or "").split(",") if i.strip())
