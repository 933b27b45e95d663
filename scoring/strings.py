"""The card's four string tests, shared by call arguments (args, argsAny, argsGroups, argsNot)
and the answer (answer, answerAny, answerGroups, answerNot): all of, at least one of, at least
one per group, none of. Every comparison is a case- and accent-insensitive substring test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from orvena_bench.formats.textmatch import Folded
from scoring.text import quoted, quoted_all


@dataclass(frozen=True)
class Miss:
    """One failed string test: a required string missing, no string of a list or group
    present, or an excluded string present."""

    rule: Literal["all", "any", "group", "not"]
    strings: tuple[str, ...]

    def phrase(self, subject: str, plural: bool = False) -> str:
        """The failure as a sentence about ``subject`` ("the answer"; "its arguments", plural)."""
        lacks, contains = ("lack", "contain") if plural else ("does not contain", "contains")
        if self.rule == "not":
            return f"{subject} {contains} the excluded {quoted(self.strings)}"
        if len(self.strings) == 1:
            return f"{subject} {lacks} {quoted(self.strings)}"
        if self.rule == "all":
            return f"{subject} {lacks} {quoted_all(self.strings)}"
        return f"{subject} {contains} none of {quoted(self.strings)}"


def string_misses(text: Folded, all_of: list[str], any_of: list[str],
                  groups: list[list[str]], none_of: list[str]) -> list[Miss]:
    """Every failed test, in the card's order; empty when all hold."""
    misses = [Miss("all", (s,)) for s in all_of if not text.has(s)]
    if any_of and not any(text.has(s) for s in any_of):
        misses.append(Miss("any", tuple(any_of)))
    misses += [Miss("group", tuple(g)) for g in groups if g and not any(text.has(s) for s in g)]
    misses += [Miss("not", (s,)) for s in none_of if s and text.has(s)]
    return misses
