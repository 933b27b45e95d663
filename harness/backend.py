"""The one interface every model backend implements.

A backend opens one session per scenario run; the loop calls ``generate`` once per round with
the whole conversation so far. A session may keep state across rounds (the MLX backend keeps
the conversation's KV cache, the replay backend its position in the recorded rounds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from orvena_bench.formats.result import ResultLine, RoundTiming
from orvena_bench.formats.scenario import Scenario


@dataclass(frozen=True)
class ParsedCall:
    """A tool call as the model wrote it: the declared name and its arguments."""

    name: str
    arguments: dict[str, Any]


@dataclass
class Generation:
    """One round's output."""

    text: str  # the raw model text, markers included, as generated
    content: str = ""  # the visible answer text (calls and reasoning removed)
    reasoning: str = ""
    calls: list[ParsedCall] = field(default_factory=list)
    # Call text that could not be parsed, one entry per failed call.
    parse_errors: list[str] = field(default_factory=list)
    timing: RoundTiming = field(default_factory=RoundTiming)


@dataclass(frozen=True)
class SessionContext:
    """What a backend may know about the run it serves."""

    scenario: Scenario
    seed: int
    # The recorded line of this scenario, for the replay backend.
    recorded: ResultLine | None = None


class ModelFailure(Exception):
    """Raised by a session when the model's turn ends in an outcome of the model's own that is not
    an answer (Apple's context-window overflow or guardrail refusal): recorded with its kind, as
    the model's failure, not as the backend's."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class Session(Protocol):
    # False where the backend has no per-call raw text to record (the card's rounds stay empty).
    records_rounds: bool

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        """Messages in the OpenAI chat form (system, user, assistant with tool_calls, tool);
        tools in the OpenAI function form."""
        ...

    def close(self) -> None: ...


class Backend(Protocol):
    name: str

    def describe(self) -> dict[str, Any]:
        """Provenance for the run manifest (model path, revision, template hash, ...)."""
        ...

    def open(self, context: SessionContext) -> Session: ...
