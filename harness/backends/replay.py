"""Replay: the raw model texts of a recorded run (``rounds[].text``) played again through the
current loop, parser and tools.

The texts are parsed with the tool format the original run used (its manifest's ``toolFormat``,
or ``--tool-format``), so with the harness unchanged a replay reproduces the recorded calls,
answer and verdict exactly; round timings are copied from the record, since no model ran. When
the harness changed, ``divergences`` says where the replayed line departs from the recorded one
(round N: recorded calls vs replayed), and a replay that needs more rounds than were recorded ends
as a backend failure naming the round.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.textmatch import arguments_json
from harness.backend import Generation, SessionContext
from harness.manifest import read_manifest
from harness.toolcalls import DEFAULT_FORMAT, THINK_MARKERS, parse_text


class ReplayExhausted(RuntimeError):
    """The current loop asked for a round the recorded run did not have."""


def starts_in_reasoning(text: str) -> bool:
    """Whether raw text began inside a think block (the prompt opened it): a closing marker
    comes before any opening one."""
    start, end = THINK_MARKERS
    close = text.find(end)
    return close >= 0 and (text.find(start) < 0 or close < text.find(start))


class ReplaySession:
    def __init__(self, recorded: ResultLine, tool_format: str, in_reasoning: bool | None):
        self.recorded, self.tool_format, self.in_reasoning = recorded, tool_format, in_reasoning
        self.round = 0

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        rounds = self.recorded.rounds
        if self.round >= len(rounds):
            raise ReplayExhausted(
                f"round {self.round + 1}: the recorded run of {self.recorded.id} has only {len(rounds)} rounds")
        recorded = rounds[self.round]
        self.round += 1
        in_reasoning = self.in_reasoning if self.in_reasoning is not None else starts_in_reasoning(recorded.text)
        generation = parse_text(recorded.text, self.tool_format, tools, in_reasoning=in_reasoning)
        generation.timing = recorded.timing
        return generation

    def close(self) -> None:
        pass


class ReplayBackend:
    name = "replay"

    def __init__(self, source: str | Path, *, tool_format: str | None = None,
                 in_reasoning: bool | None = None):
        self.source = Path(source)
        runs = read_manifest(self.source)
        original = runs[-1].get("backend", {}) if runs else {}
        self.original = original
        self.tool_format = tool_format or original.get("toolFormat") or DEFAULT_FORMAT
        # The mlx backend records whether its texts start inside a think block; without a record
        # the text itself tells (see starts_in_reasoning).
        self.in_reasoning = in_reasoning if in_reasoning is not None else original.get("startsInReasoning")

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "source": str(self.source), "toolFormat": self.tool_format,
                "original": self.original}

    def open(self, context: SessionContext) -> ReplaySession:
        if context.recorded is None:
            raise ReplayExhausted(f"{self.source} has no line for {context.scenario.id} seed {context.seed}")
        return ReplaySession(context.recorded, self.tool_format, self.in_reasoning)


def _calls_text(calls: list[Any]) -> str:
    return "[" + ", ".join(f"{c.name}({arguments_json(c.arguments)})" for c in calls) + "]"


def _records_text(calls: list[Any]) -> list[str]:
    return [f"{c.tool}({arguments_json(c.arguments)}) failed={c.failed} matched={c.matched}" for c in calls]


def divergences(recorded: ResultLine, replayed: ResultLine) -> list[str]:
    """Where a replayed line departs from the recorded one, first difference per part."""
    out: list[str] = []
    for n in range(max(len(recorded.rounds), len(replayed.rounds))):
        a = recorded.rounds[n] if n < len(recorded.rounds) else None
        b = replayed.rounds[n] if n < len(replayed.rounds) else None
        if a is None or b is None:
            out.append(f"round {n + 1}: {'not recorded' if a is None else 'not replayed'}")
            break
        if _calls_text(a.calls) != _calls_text(b.calls) or a.parseErrors != b.parseErrors:
            out.append(f"round {n + 1}: recorded calls {_calls_text(a.calls)} vs replayed {_calls_text(b.calls)}"
                       + (f"; parse errors {a.parseErrors} vs {b.parseErrors}" if a.parseErrors != b.parseErrors else ""))
        if a.tools != b.tools:
            added = [t for t in b.tools if t not in a.tools]
            gone = [t for t in a.tools if t not in b.tools]
            out.append(f"round {n + 1}: declared tools differ (added {added}, removed {gone})")
        if a.system != b.system:
            out.append(f"round {n + 1}: system prompt differs")
    ra, rb = _records_text(recorded.calls), _records_text(replayed.calls)
    if ra != rb:
        i = next((i for i, (x, y) in enumerate(zip(ra, rb)) if x != y), min(len(ra), len(rb)))
        out.append(f"call {i + 1}: recorded {ra[i] if i < len(ra) else 'none'} vs replayed {rb[i] if i < len(rb) else 'none'}")
    outputs_a, outputs_b = recorded.tool_outputs(), replayed.tool_outputs()
    if outputs_a != outputs_b:
        i = next((i for i, (x, y) in enumerate(zip(outputs_a, outputs_b)) if x != y),
                 min(len(outputs_a), len(outputs_b)))
        out.append(f"tool result {i + 1} differs")
    if recorded.answer != replayed.answer:
        out.append(f"answer: recorded {recorded.answer[:200]!r} vs replayed {replayed.answer[:200]!r}")
    if recorded.failure != replayed.failure:
        out.append(f"failure: recorded {recorded.failure} vs replayed {replayed.failure}")
    if (recorded.passed, recorded.issues) != (replayed.passed, replayed.issues):
        out.append(f"verdict: recorded passed={recorded.passed} {recorded.issues} "
                   f"vs replayed passed={replayed.passed} {replayed.issues}")
    return out
