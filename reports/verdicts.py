"""Why a scenario failed, in the scorer's own check kinds: the line is scored again against its
scenario (never read back from the issue sentences).

A failed turn is split by its recorded cause, so harness and backend errors stay apart from the
model's own failures (a round limit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from formats.errors import FormatError
from formats.scenario import Expect, Scenario
from reports.runs import Entry
from scoring import expected_for, score

# Kinds a report adds to the scorer's: a turn that failed for a reason outside the model, and
# lines that could not be scored again.
TURN_FAILURE_KINDS = {"harness": "harness-error", "backend": "backend-error"}
UNSCORED = "no-scenario"
SCENARIO_ERROR = "scenario-error"
RESCORED_PASS = "passes-when-rescored"


class FailureKinds:
    """``kinds(entry)``: the failed check kinds of a failed scenario run, each kind once, in the
    scorer's order. Verdicts are computed once per entry."""

    def __init__(self, scenarios: Mapping[str, Scenario]):
        self.scenarios = scenarios
        self._passed: dict[tuple, bool] = {}
        self._kinds: dict[tuple, tuple[str, ...]] = {}
        self._expect: dict[str, Expect] = {}
        self.errors: list[str] = []

    def __call__(self, entry: Entry) -> tuple[str, ...]:
        if entry.line.passed:
            return ()
        self._score(entry)
        # A failed line the current scorer passes still needs a row in the taxonomy.
        return self._kinds[_key(entry)] or (RESCORED_PASS,)

    def rescored_passed(self, entry: Entry) -> bool | None:
        """The current scorer's verdict, or None without the scenario."""
        self._score(entry)
        return self._passed.get(_key(entry))

    def changed(self, entries: Iterable[Entry]) -> list[Entry]:
        """Entries whose recorded verdict the current scorer would change."""
        return [e for e in entries if self.rescored_passed(e) not in (None, e.line.passed)]

    def _score(self, entry: Entry) -> None:
        key = _key(entry)
        if key in self._kinds:
            return
        scenario = self.scenarios.get(entry.line.id)
        if scenario is None:
            self._kinds[key] = (UNSCORED,)
            return
        try:
            if scenario.id not in self._expect:  # tokens expanded once per scenario
                self._expect[scenario.id] = expected_for(scenario)
            verdict = score(scenario, entry.line, expect=self._expect[scenario.id])
        except FormatError as e:  # a broken scenario is reported, never stops the report
            self.errors.append(str(e))
            self._kinds[key] = (SCENARIO_ERROR,)
            return
        self._passed[key] = verdict.passed
        self._kinds[key] = tuple(dict.fromkeys(_refined(c.kind, entry) for c in verdict.checks))


def _refined(kind: str, entry: Entry) -> str:
    failure = entry.line.failure
    if kind == "failed-turn" and failure is not None:
        return TURN_FAILURE_KINDS.get(failure.kind, kind)
    return kind


def _key(entry: Entry) -> tuple[str, str, str, int]:
    return (*entry.key, entry.line.model, entry.line.seed)
