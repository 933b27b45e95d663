"""The card's order for sets, categories and languages, with unknown values kept."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def ordered(values: Iterable[str], canonical: Sequence[str]) -> list[str]:
    """The distinct values in the canonical order; values it does not name come last, sorted,
    so newer files still show every group."""
    present = set(values)
    return [v for v in canonical if v in present] + sorted(present - set(canonical))
