"""Why a scenario failed, in the scorer's own check kinds: every line is scored again against its
scenario (never read back from the issue sentences), in one batch so the language recognizer
runs over all answers at once.

A failed turn is split by its recorded cause, so harness and backend errors stay apart from the
model's own failures (a round limit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from orvena_bench.reports.runs import Entry
from scoring.batch import Known, score_lines

# Kinds a report adds to the scorer's: a turn that failed for a reason outside the model, a
# line whose scenario is not in the scenario files, and a failed line the scorer now passes.
TURN_FAILURE_KINDS = {"harness": "harness-error", "backend": "backend-error", "scenario": "scenario-error"}
UNSCORED = "no-scenario"
RESCORED_PASS = "passes-when-rescored"


class FailureKinds:
    """``kinds(entry)``: the failed check kinds of a failed scenario run, each kind once, in the
    scorer's order."""

    def __init__(self, known: Mapping[str, Known], entries: Iterable[Entry]):
        scorable = [e for e in entries if e.line.id in known]
        verdicts = score_lines([(known[e.line.id], e.line) for e in scorable])
        self._verdicts = {_key(e): v for e, v in zip(scorable, verdicts, strict=True)}
        self._entries = scorable

    def __call__(self, entry: Entry) -> tuple[str, ...]:
        if entry.line.passed:
            return ()
        verdict = self._verdicts.get(_key(entry))
        if verdict is None:
            return (UNSCORED,)
        kinds = tuple(dict.fromkeys(_refined(c.kind, entry) for c in verdict.checks))
        return kinds or (RESCORED_PASS,)

    def changed(self) -> list[Entry]:
        """Entries whose recorded verdict the current scorer would change."""
        return [e for e in self._entries if self._verdicts[_key(e)].passed != e.line.passed]


def _refined(kind: str, entry: Entry) -> str:
    failure = entry.line.failure
    if kind == "failed-turn" and failure is not None:
        return TURN_FAILURE_KINDS.get(failure.kind, kind)
    return kind


def _key(entry: Entry) -> tuple[str, str, str, int]:
    return (*entry.key, entry.line.model, entry.line.seed)
