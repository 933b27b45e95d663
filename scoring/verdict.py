"""What scoring returns: the verdict, and one check per failed rule with a plain sentence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

# Why a scenario failed, one kind per failed check. Reports count these.
CheckKind = Literal[
    "wrong-or-missing-call",   # an expected call was not made (or not in order)
    "wrong-arguments",         # the expected tool was called, but its arguments miss the checks
    "failed-call",             # the expected call was made, but failed (or succeeded when ok: false)
    "parse-failure",           # an expected call is missing and the model wrote calls that did not parse
    "forbidden-tool",
    "tool-when-none-needed",
    "missing-answer",          # the answer lacks a required string
    "excluded-answer",         # the answer holds an excluded string
    "language",
    "failed-turn",
    "empty-answer",
]

CHECK_KINDS: tuple[str, ...] = CheckKind.__args__


@dataclass(frozen=True)
class Check:
    """One failed check: its kind, the sentence ``issues`` holds, and what it is about (a tool
    name, an expected string or a language code)."""

    kind: CheckKind
    message: str
    subject: str = ""


@dataclass(frozen=True)
class Verdict:
    passed: bool
    checks: list[Check] = field(default_factory=list)

    @property
    def issues(self) -> list[str]:
        return [c.message for c in self.checks]

    @classmethod
    def of(cls, checks: list[Check]) -> Verdict:
        return cls(passed=not checks, checks=checks)
