"""The result line of the card's "Result files" section: one JSON object per scenario run."""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import Field

from orvena_bench.formats.scenario import Open


class CallRecord(Open):
    """One tool call as scored. MCP calls are named ``<connection>/<operation>``."""

    tool: str
    # An object, or the JSON string the model wrote; both read the same in scoring.
    arguments: Any = Field(default_factory=dict)
    failed: bool = False
    # Whether a scripted rule (MCP) or the phone answered it; False for unknown tools,
    # invalid arguments and MCP calls no rule matched.
    matched: bool = False

    def arguments_object(self) -> Any:
        """The arguments as data: a JSON string is parsed, anything else returned as is."""
        if isinstance(self.arguments, str):
            try:
                return orjson.loads(self.arguments)
            except orjson.JSONDecodeError:
                return self.arguments
        return self.arguments


class RoundTiming(Open):
    promptTokens: int = 0
    cachedTokens: int = 0
    generatedTokens: int = 0
    prefillSeconds: float = 0.0
    decodeSeconds: float = 0.0
    peakMemoryGB: float = 0.0


class RoundCall(Open):
    """A call as parsed in one round, before routing: the name the model wrote."""

    name: str
    arguments: Any = Field(default_factory=dict)


class Round(Open):
    """One model call: what it was given, what it wrote, and what that cost."""

    system: str = ""
    tools: list[str] = Field(default_factory=list)
    text: str = ""
    reasoning: str = ""
    calls: list[RoundCall] = Field(default_factory=list)
    # Call text that could not be parsed; counted apart from model answers.
    parseErrors: list[str] = Field(default_factory=list)
    timing: RoundTiming = Field(default_factory=RoundTiming)


class Message(Open):
    """A transcript message as the model saw it (content cut at 4,000 characters)."""

    role: str
    content: str = ""
    # Assistant calls: [{"name": internal id, "arguments": {...}}].
    calls: list[RoundCall] = Field(default_factory=list)
    # Tool messages: the internal tool id the result answers, and whether it failed.
    name: str | None = None
    failed: bool | None = None


class TurnFailure(Open):
    """Why a turn ended without an answer. ``harness`` and ``backend`` failures are kept apart
    from the model's own (``round-limit``) in reports."""

    kind: Literal["round-limit", "harness", "backend"]
    message: str = ""


class ResultLine(Open):
    id: str
    language: str
    category: str
    model: str
    seed: int = 7
    passed: bool = False
    issues: list[str] = Field(default_factory=list)
    answer: str = ""
    calls: list[CallRecord] = Field(default_factory=list)
    transcript: list[Message] = Field(default_factory=list)
    seconds: float = 0.0
    reasoningCharacters: int = 0
    rounds: list[Round] = Field(default_factory=list)
    # Set when the turn did not end with an answer: a failed turn fails the scenario.
    failure: TurnFailure | None = None

    def tool_outputs(self) -> list[str]:
        """Every tool result text of the turn, in order."""
        return [m.content for m in self.transcript if m.role == "tool"]

    def without_timings(self) -> dict:
        """The line as JSON data less what changes from run to run of the same scenario (wall
        time, round timings): two runs that agree here wrote the same line."""
        data = self.model_dump(mode="json", exclude={"seconds"})
        for r in data.get("rounds", []):
            r.pop("timing", None)
        return data
