"""The ``-conn`` copies: an everyday original with 2 to 6 MCP connections installed that the
request does not need; the correct calls do not change.

Connections that overlap the scenario's own domain are never installed, so the copy keeps a
single right behaviour (a reminder with Todoist installed could fairly go either way)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from orvena_bench.formats.scenario import Scenario

EVERYDAY_CATEGORIES = (
    "calendar", "reminders", "alarms", "scheduled", "weather", "places", "travel", "contacts",
    "health", "photos", "files", "web", "media", "device", "chain",
)

# Connections a category's request could fairly be served by: never installed on its copy.
OVERLAPS: dict[str, frozenset[str]] = {
    "calendar": frozenset({"google-calendar"}),
    "reminders": frozenset({"todoist"}),
    "scheduled": frozenset({"zapier", "todoist"}),
    "contacts": frozenset({"gmail"}),
    "files": frozenset({"google-drive", "notion"}),
    "device": frozenset({"home-assistant"}),
    "chain": frozenset({"gmail", "google-calendar", "todoist", "google-drive"}),
}

SUFFIX = "-conn"


def _rank(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def pick_connections(original: Scenario, available: list[str]) -> list[str]:
    """2 to 6 connections, chosen deterministically from the id."""
    banned = OVERLAPS.get(original.category, frozenset()) | set(original.connections)
    pool = sorted((c for c in available if c not in banned), key=lambda c: _rank(original.id + c))
    count = 2 + _rank(original.id) % 5
    return pool[:count]


def make_copy(original: Scenario, available: list[str]) -> Scenario:
    data = original.dump()
    data["id"] = original.id + SUFFIX
    data["connections"] = list(original.connections) + pick_connections(original, available)
    return Scenario.model_validate(data)


def copy_problems(copy: Scenario, original: Scenario | None) -> Iterator[str]:
    if original is None:
        yield f"{copy.id}: no original {copy.id.removesuffix(SUFFIX)!r} to copy"
        return
    a, b = copy.dump(), original.dump()
    for key in sorted(set(a) | set(b)):
        if key not in ("id", "connections") and a.get(key) != b.get(key):
            yield f"{copy.id}: field {key} differs from its original"
    added = [c for c in copy.connections if c not in original.connections]
    if not 2 <= len(added) <= 6:
        yield f"{copy.id}: installs {len(added)} extra connections (2 to 6 expected)"
    overlap = set(added) & OVERLAPS.get(original.category, frozenset())
    if overlap:
        yield f"{copy.id}: installs {sorted(overlap)}, which could serve the request"


def choose_originals(originals: list[Scenario], count: int = 100,
                     from_languages: frozenset[str] | None = None, within: int = 0) -> Iterator[Scenario]:
    """``count`` everyday originals, spread over languages (round robin in a fixed order);
    ``within`` of them from ``from_languages`` and the rest from the others, when given."""
    by_language: dict[str, list[Scenario]] = {}
    for s in sorted(originals, key=lambda s: _rank(s.id)):
        if s.category in EVERYDAY_CATEGORIES and not s.connections and not s.id.endswith("-h3"):
            by_language.setdefault(s.language, []).append(s)
    if from_languages is None:
        yield from _round_robin(by_language, count)
        return
    inside = {k: v for k, v in by_language.items() if k in from_languages}
    outside = {k: v for k, v in by_language.items() if k not in from_languages}
    yield from _round_robin(inside, within)
    yield from _round_robin(outside, count - within)


def _round_robin(by_language: dict[str, list[Scenario]], count: int) -> Iterator[Scenario]:
    queues = [list(by_language[k]) for k in sorted(by_language)]
    taken = 0
    while taken < count and any(queues):
        for q in queues:
            if q and taken < count:
                yield q.pop(0)
                taken += 1
