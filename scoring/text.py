"""Small text helpers shared by the checks: quoting expected strings in sentences."""

from __future__ import annotations

from collections.abc import Iterable


def quoted(items: Iterable[str]) -> str:
    """'"a", "b" and "c"' for a sentence."""
    items = [f'"{x}"' for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def quoted_all(items: Iterable[str]) -> str:
    items = [f'"{x}"' for x in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
