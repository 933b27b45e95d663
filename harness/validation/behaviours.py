"""Alternative behaviours: what a model could do on a scenario, with the verdict the checks must
give it, stored as data (``scenarios/behaviours/<language>.jsonl``) and played by ``validate``.

One line is one behaviour: ``{"id", "name", "verdict": "pass"|"fail", "calls", "answer",
"issue"?, "why"?}``; ``calls`` and ``answer`` have the shape of a scenario's ``reference`` and are
played the same way (the reference backend plays them instead of ``reference``). A behaviour of an
original is also played on its ``-conn`` copy; a line whose id ends in ``-conn`` is for that copy
only. ``issue``, on a fail line, is a substring one of the scorer's issues must contain, so a wrong
behaviour fails for the right reason."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import iter_lines, line_errors
from orvena_bench.formats.scenario import Scenario
from harness.backends.reference import ReferenceBackend
from harness.loop import run_scenario
from harness.runner import score_line
from harness.validation.conn_copies import SUFFIX

_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class BehaviourCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Behaviour(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str = Field(pattern=_NAME.pattern)
    verdict: Literal["pass", "fail"]
    calls: list[BehaviourCall] = Field(default_factory=list)
    answer: str = ""
    issue: str | None = None
    why: str | None = None

    def played(self) -> dict[str, Any]:
        """What the reference backend plays: the shape of a scenario's ``reference``."""
        return {"calls": [c.model_dump() for c in self.calls], "answer": self.answer}


@dataclass(frozen=True)
class LocatedBehaviour:
    behaviour: Behaviour
    file: str
    line: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def load_behaviours(path: str | Path) -> tuple[list[LocatedBehaviour], list[FormatError]]:
    """Every well-formed behaviour of a file, and one error per bad line (file, line, field);
    a name used twice for one id is an error on the second line."""
    items: list[LocatedBehaviour] = []
    errors: list[FormatError] = []
    seen: dict[tuple[str, str], int] = {}
    for number, raw in iter_lines(path):
        try:
            b = Behaviour.model_validate(orjson.loads(raw))
        except orjson.JSONDecodeError as e:
            errors.append(FormatError(f"not valid JSON ({e})", file=str(path), line=number))
            continue
        except ValidationError as e:
            errors.extend(line_errors(e, str(path), number))
            continue
        first = seen.setdefault((b.id, b.name), number)
        if first != number:
            errors.append(FormatError(f"{b.id}: behaviour name {b.name!r} also used at line {first}",
                                      file=str(path), line=number, field="name"))
            continue
        items.append(LocatedBehaviour(b, str(path), number))
    return items, errors


def targets(behaviour: Behaviour, scenario_ids: Iterable[str]) -> list[str]:
    """The scenarios a behaviour is played on: its id, and the id's -conn copy for an original."""
    ids = set(scenario_ids)
    wanted = [behaviour.id] if behaviour.id.endswith(SUFFIX) else [behaviour.id, behaviour.id + SUFFIX]
    return [i for i in wanted if i in ids]


@dataclass(frozen=True)
class Played:
    """One behaviour played on one scenario."""

    located: LocatedBehaviour
    scenario_id: str
    got: Literal["pass", "fail"]
    issues: tuple[str, ...]
    failure: str | None = None

    @property
    def want(self) -> str:
        return self.located.behaviour.verdict

    @property
    def as_expected(self) -> bool:
        if self.got != self.want:
            return False
        wanted = self.located.behaviour.issue
        return self.want == "pass" or not wanted or any(wanted.lower() in i.lower() for i in self.issues)

    def problem(self) -> FormatError:
        b = self.located.behaviour
        if self.got == self.want:
            detail = f"want fail with an issue containing {b.issue!r}, got fail for other reasons"
        else:
            detail = f"want {self.want}, got {self.got}"
        issues = "; ".join(self.issues) or "no issues"
        failure = f" (turn failed: {self.failure})" if self.failure else ""
        return FormatError(f"{self.scenario_id} [{b.name}]: {detail}{failure}; issues: {issues}",
                           file=self.located.file, line=self.located.line)


def play(located: LocatedBehaviour, scenario: Scenario, catalog: Catalog) -> Played:
    """The behaviour through the real loop, phone and scripted rules, scored by the real scorer."""
    line = score_line(scenario, run_scenario(scenario, ReferenceBackend(located.behaviour.played()),
                                             catalog, model="behaviour"))
    failure = f"{line.failure.kind}: {line.failure.message}" if line.failure else None
    return Played(located, scenario.id, "pass" if line.passed else "fail", tuple(line.issues), failure)


@dataclass
class Coverage:
    """Scenarios with no pass or no fail behaviour played on them (the reference is not counted)."""

    without_pass: list[str]
    without_fail: list[str]


def coverage(scenario_ids: Iterable[str], played: Iterable[Played]) -> Coverage:
    verdicts: dict[str, set[str]] = {}
    for p in played:
        verdicts.setdefault(p.scenario_id, set()).add(p.want)
    ids = list(scenario_ids)
    return Coverage([i for i in ids if "pass" not in verdicts.get(i, ())],
                    [i for i in ids if "fail" not in verdicts.get(i, ())])
