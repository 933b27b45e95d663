"""The groups a report counts over: the card's Results rows, categories and languages.

A group is a predicate over scenario runs; a Tally counts passes among some of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from formats.languages import APPLE_LANGUAGES, CATEGORIES, LANGUAGES
from formats.scenario import Scenario
from reports.order import ordered
from reports.runs import Entry


def is_conn_copy(entry: Entry) -> bool:
    return entry.line.id.endswith("-conn")


def is_h3(entry: Entry) -> bool:
    return entry.line.id.endswith("-h3")


def expects_mcp(scenario: Scenario) -> bool:
    """Whether any expected call (in calls or an anyOf alternative) is an MCP operation."""
    expected = [*scenario.expect.calls, *(c for seq in scenario.expect.anyOf for c in seq)]
    return any("/" in call.tool for call in expected)


@dataclass(frozen=True)
class Group:
    name: str  # a short, stable name (CSV)
    label: str  # the card's wording
    contains: Callable[[Entry], bool]


def card_rows(scenarios: Mapping[str, Scenario]) -> list[Group]:
    """The rows of the card's Results table."""

    def bench(e: Entry) -> bool:
        return e.set == "bench"

    def mcp(e: Entry) -> bool:
        if not bench(e) or is_conn_copy(e) or is_h3(e):
            return False
        scenario = scenarios.get(e.line.id)
        return e.line.category == "mcp" or (scenario is not None and expects_mcp(scenario))

    return [
        Group("all", "All scenarios", bench),
        Group("apple-languages", "13 languages Apple's model supports",
              lambda e: bench(e) and e.line.language in APPLE_LANGUAGES),
        Group("conn", "Connections installed, -conn", lambda e: bench(e) and is_conn_copy(e)),
        Group("mcp", "MCP scenarios", mcp),
        Group("restraint", "Restraint, diagnostic", lambda e: e.set == "restraint"),
        Group("ask", "Asking for a missing detail, diagnostic", lambda e: e.set == "ask"),
    ]


def category_groups(entries: Iterable[Entry]) -> list[Group]:
    """Bench categories over the scenarios without the -conn copies (the card's grouping), in
    the card's order; categories the card does not name come last."""
    present = (e.line.category for e in entries if e.set == "bench" and not is_conn_copy(e))
    return [Group(c, c, _bench_category(c)) for c in ordered(present, CATEGORIES)]


def language_groups(entries: Iterable[Entry]) -> list[Group]:
    """Bench languages over every bench scenario, in the card's order."""
    present = (e.line.language for e in entries if e.set == "bench")
    return [Group(lang, lang, _bench_language(lang)) for lang in ordered(present, LANGUAGES)]


def _bench_category(category: str) -> Callable[[Entry], bool]:
    return lambda e: e.set == "bench" and not is_conn_copy(e) and e.line.category == category


def _bench_language(language: str) -> Callable[[Entry], bool]:
    return lambda e: e.set == "bench" and e.line.language == language


@dataclass(frozen=True)
class Tally:
    passed: int
    total: int

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> Tally:
        return cls(sum(e.line.passed for e in entries), len(entries))

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0
