"""Recording a turn as the card's result line, and the result files of a run.

A result file holds one line per (scenario id, seed). Lines are appended, flushed and fsynced as
each scenario ends, under a lock, through the one line writer (``formats.jsonl.appending``), so a
killed run keeps every finished scenario and a torn last line is set aside, never glued onto. When a file holds several lines
for one (id, seed) (a ``--rerun`` that was killed before it compacted the file), the last one is
the run's line: readers here always take the last. Until a rerun has replaced every line it
was asked to, ``<file>.rerun`` says which (``PendingRerun``), so ``--resume`` can finish it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result_files import read_file, write_file
from orvena_bench.formats.result import CallRecord, Message, ResultLine, Round, RoundCall, TurnFailure
from orvena_bench.formats.scenario import Scenario
from harness.backend import Generation
from harness.routing import Routed

MAX_MESSAGE_CHARS = 4000


def cut(text: str) -> str:
    """A transcript message's content, cut at the card's 4,000 characters."""
    return text[:MAX_MESSAGE_CHARS]


@dataclass
class TurnRecord:
    """Everything one scenario run records, filled as the loop goes."""

    scenario: Scenario
    model: str
    seed: int
    transcript: list[Message] = field(default_factory=list)
    calls: list[CallRecord] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    answer: str = ""
    reasoning_characters: int = 0
    failure: TurnFailure | None = None

    def message(self, role: str, content: str) -> None:
        self.transcript.append(Message(role=role, content=cut(content)))

    def round(self, system: str, tool_names: list[str], generation: Generation) -> None:
        self.reasoning_characters += len(generation.reasoning)
        self.rounds.append(Round(
            system=system,
            tools=list(tool_names),
            text=generation.text,
            reasoning=generation.reasoning,
            calls=[RoundCall(name=c.name, arguments=c.arguments) for c in generation.calls],
            parseErrors=list(generation.parse_errors),
            timing=generation.timing,
        ))

    def assistant(self, generation: Generation, internal_names: list[str]) -> None:
        """The assistant message, its calls under the names the transcript uses."""
        self.transcript.append(Message(
            role="assistant", content=cut(generation.content),
            calls=[RoundCall(name=n, arguments=c.arguments)
                   for n, c in zip(internal_names, generation.calls, strict=True)]))

    def tool_result(self, routed: Routed, arguments: dict[str, Any]) -> None:
        outcome = routed.outcome
        self.transcript.append(Message(role="tool", content=cut(outcome.text),
                                       name=routed.internal, failed=outcome.failed))
        record = CallRecord(tool=routed.public, arguments=arguments, failed=outcome.failed,
                            matched=outcome.matched)
        if not routed.declared:
            record.declared = False  # an extra field: an MCP call made before load_tools
        self.calls.append(record)

    def parse_failure(self, text: str) -> None:
        self.transcript.append(Message(role="tool", content=cut(text), failed=True))

    def line(self, seconds: float) -> ResultLine:
        s = self.scenario
        return ResultLine(
            id=s.id, language=s.language, category=s.category, model=self.model, seed=self.seed,
            passed=False, issues=[], answer=self.answer, calls=self.calls,
            transcript=self.transcript, seconds=round(seconds, 3),
            reasoningCharacters=self.reasoning_characters, rounds=self.rounds,
            failure=self.failure)


# --- result files ----------------------------------------------------------------------------

def results_path(out: str | Path, set_name: str, model: str, shard: tuple[int, int] | None = None) -> Path:
    """``<out>/<set>/<model>.jsonl``; a shard writes ``<model>.shard-<i>-of-<n>.jsonl``. The set
    and model names must be plain file names, so a run never writes outside ``out``."""
    for what, value in (("set", set_name), ("model", model)):
        if not value or value.strip(".") == "" or "/" in value or "\\" in value:
            raise FormatError(f"{what} name {value!r} cannot name a results file (a scenario "
                              "file's name, less .jsonl, is its set's name)")
    name = model if shard is None else f"{model}.shard-{shard[0]}-of-{shard[1]}"
    return Path(out) / set_name / f"{name}.jsonl"


def line_key(line: ResultLine) -> tuple[str, int]:
    return (line.id, line.seed)


def read_results(path: str | Path) -> list[ResultLine]:
    """Every line of a result file, each keeping the JSON it came as (the one reader,
    ``formats.result_files``); a missing file has none."""
    return read_file(path) if Path(path).exists() else []


def last_per_key(lines: Iterable[ResultLine]) -> list[ResultLine]:
    """One line per (id, seed), the last written, in the order of first appearance."""
    latest: dict[tuple[str, int], ResultLine] = {}
    for line in lines:
        latest[line_key(line)] = line
    return list(latest.values())


def compact(path: str | Path) -> int:
    """Rewrite a result file atomically with one line per (id, seed), the last written; returns
    how many older lines were dropped."""
    lines = read_results(path)
    kept = last_per_key(lines)
    if len(kept) != len(lines):
        write_file(path, kept)  # each line as it was read: a rerun loses nothing recorded
    return len(lines) - len(kept)


@dataclass
class PendingRerun:
    """The reruns a result file still owes: per seed, the ids asked for and the number of lines
    the file held when that rerun began, so an id without a line after that point is still owed.
    Kept beside the file as ``<file>.rerun`` from a rerun's start until it has finished."""

    path: Path
    seeds: dict[int, tuple[frozenset[str], int]] = field(default_factory=dict)

    @classmethod
    def of(cls, results: str | Path) -> PendingRerun:
        path = Path(f"{results}.rerun")
        try:
            raw = orjson.loads(path.read_bytes())
            seeds = {int(seed): (frozenset(entry["ids"]), int(entry["fromLine"]))
                     for seed, entry in raw.items()}
        except FileNotFoundError:
            seeds = {}
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as e:
            raise FormatError(f"not a record of a pending rerun ({e}); delete it to give the rerun up",
                              file=str(path)) from None
        return cls(path, seeds)

    def owed(self, seed: int, lines: list[ResultLine]) -> frozenset[str]:
        """The ids of a rerun with this seed that have no line since it began."""
        ids, start = self.seeds.get(seed, (frozenset(), 0))
        return ids - {line.id for line in lines[start:] if line.seed == seed}

    def begin(self, seed: int, ids: Iterable[str], lines: list[ResultLine]) -> None:
        """Record a rerun of ids starting now, keeping what an earlier one still owes."""
        self.seeds[seed] = (frozenset(ids) | self.owed(seed, lines), len(lines))
        self._save()

    def settle(self, seed: int, lines: list[ResultLine]) -> bool:
        """Forget this seed's rerun if it owes nothing more; True when no rerun is owed at all
        (the file may then be compacted: the positions recorded here would no longer hold)."""
        if seed in self.seeds and not self.owed(seed, lines):
            del self.seeds[seed]
            self._save()
        return not self.seeds

    def _save(self) -> None:
        if not self.seeds:
            self.path.unlink(missing_ok=True)
            return
        data = {str(seed): {"ids": sorted(ids), "fromLine": start} for seed, (ids, start) in self.seeds.items()}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(orjson.dumps(data))
        tmp.replace(self.path)


def write_results(path: str | Path, lines: Iterable[ResultLine]) -> None:
    write_file(path, lines)
