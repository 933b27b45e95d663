"""The groups a report counts over: the card's Results rows, categories and languages.

The Results rows are the scorer's own (scoring.tables.SUMMARY_ROWS), so the report and the CSV
files of ``orvena-bench score`` always count the same scenarios. Categories are counted over
the bench without the -conn copies and languages over the whole bench, as the card does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from orvena_bench.formats.failures import not_run
from orvena_bench.formats.languages import CATEGORIES, LANGUAGES
from orvena_bench.reports.order import ordered
from orvena_bench.reports.runs import Entry
from scoring.tables import BENCH, SUMMARY_ROWS


@dataclass(frozen=True)
class Group:
    name: str
    contains: Callable[[Entry], bool]
    label: str = ""  # shown in tables; the name when empty

    @property
    def heading(self) -> str:
        return self.label or self.name


def card_rows() -> list[Group]:
    """The rows of the card's Results table."""
    return [Group(name, counts, name[:1].upper() + name[1:])
            for name, counts in SUMMARY_ROWS]


def in_categories(entry: Entry) -> bool:
    return entry.set == BENCH and not entry.is_conn_copy


def category_groups(entries: Iterable[Entry]) -> list[Group]:
    """Categories present, in the card's order (unknown ones last)."""
    present = (e.line.category for e in entries if in_categories(e))
    return [Group(c, lambda e, c=c: in_categories(e) and e.line.category == c)
            for c in ordered(present, CATEGORIES)]


def language_groups(entries: Iterable[Entry]) -> list[Group]:
    """Languages present in the bench, in the card's order."""
    present = (e.line.language for e in entries if e.set == BENCH)
    return [Group(lang, lambda e, lang=lang: e.set == BENCH and e.line.language == lang)
            for lang in ordered(present, LANGUAGES)]


@dataclass(frozen=True)
class Tally:
    passed: int
    total: int

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> Tally:
        """Over the lines that are a verdict on the model: a turn that failed outside it
        (``formats.failures``) is not run, so a dead server shows as "3 of 30 run"."""
        ran = [e for e in entries if not not_run(e.line)]
        return cls(sum(e.line.passed for e in ran), len(ran))

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0
