"""Helpers every tool module shares: finding an item by id and writing result lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from orvena_bench.formats.textmatch import fold
from simphone.errors import ToolError


class HasId(Protocol):
    id: str | None


Item = TypeVar("Item", bound=HasId)


def by_id(items: Sequence[Item], item_id: str, noun: str, finder: str) -> Item:
    """The item with this id (case and spaces ignored), or a failure saying how to find it."""
    wanted = fold(item_id.strip())
    for item in items:
        if item.id is not None and fold(item.id) == wanted:
            return item
    raise ToolError(f"no {noun} with id {item_id!r}; call {finder} to find its id")


def take(items: list[Item], item_id: str, noun: str, finder: str) -> Item:
    """Remove the item with this id from its list (a delete or cancel) and return it."""
    item = by_id(items, item_id, noun, finder)
    items.remove(item)
    return item


def line(*parts: str | None) -> str:
    """One result line: "- id: evt-1 | Thu 2026-11-05 10:00-11:00 | Dentist"."""
    return "- " + " | ".join(p for p in parts if p)


def count(n: int, singular: str, plural: str | None = None) -> str:
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def quoted(text: str) -> str:
    return f'"{text}"'


def labelled(label: str, value: object) -> str | None:
    """"label: value", or None when there is no value."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, list):
        value = ", ".join(map(str, value))
    return f"{label}: {value}"


def more(shown: int, total: int) -> list[str]:
    return [f"... and {total - shown} more"] if total > shown else []
