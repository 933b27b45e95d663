"""The result line of the card's "Result files" section: one JSON object per scenario run.

Result files may come from other harnesses, so a line is typed only as far as scoring needs it:
id, model, seed, calls, answer, the transcript's tool outputs (for the language check) and the
failure and unparsed calls that fail a turn. Every other field reads leniently: a value of
another shape (``null`` timings, ``"content": null``, a number where text was expected) reads as
the field's default. Calls in the transcript may be keyed ``name`` or ``tool``, or written as
OpenAI ``tool_calls``. A line read from a file keeps the JSON it came as (``ResultLine.read``),
and ``data()`` writes that back with only the verdict changed, so a rescore, merge or rerun loses
nothing that was recorded, in whatever form.
"""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from pydantic import Field, PrivateAttr, StrictBool, ValidationError, WrapValidator, model_validator

from orvena_bench.formats.scenario import Open


def lenient(default: Any) -> WrapValidator:
    """Validate as the annotation says, else take ``default`` (a value or a factory)."""
    def validate(value: Any, handler: Any) -> Any:
        if value is None:
            return default() if callable(default) else default
        try:
            return handler(value)
        except ValidationError:
            return default() if callable(default) else default
    return WrapValidator(validate)


def _text(value: Any) -> Any:
    """Message text: OpenAI content parts joined, other scalars as their JSON."""
    if isinstance(value, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in value)
    if value is None or isinstance(value, str):
        return value or ""
    return orjson.dumps(value).decode()


def objects_only() -> WrapValidator:
    """A list of objects: items of another shape are left out (the raw line keeps them)."""
    def keep(value: Any, handler: Any) -> Any:
        if isinstance(value, list):
            value = [v for v in value if isinstance(v, (dict, Open))]
        return handler(value)
    return WrapValidator(keep)


def text_validator() -> WrapValidator:
    return WrapValidator(lambda value, handler: handler(_text(value)))


Text = Annotated[str, text_validator()]
LenientText = Annotated[str, lenient(""), text_validator()]
LenientInt = Annotated[int, lenient(0)]
LenientFloat = Annotated[float, lenient(0.0)]
LenientBool = Annotated[bool, lenient(False)]


class CallRecord(Open):
    """One tool call as scored. MCP calls are named ``<connection>/<operation>``."""

    tool: str
    # An object, or the JSON string the model wrote; both read the same in scoring.
    arguments: Any = Field(default_factory=dict)
    failed: LenientBool = False
    # Whether a scripted rule (MCP) or the phone answered it; False for unknown tools,
    # invalid arguments and MCP calls no rule matched.
    matched: LenientBool = False

    @model_validator(mode="before")
    @classmethod
    def _named(cls, data: Any) -> Any:
        # The card keys a call by ``tool``; a call keyed ``name`` means the same.
        if isinstance(data, dict) and "tool" not in data and "name" in data:
            data = {**data, "tool": data["name"]}
        return data

    def arguments_object(self) -> Any:
        """The arguments as data: a JSON string is parsed, anything else returned as is."""
        if isinstance(self.arguments, str):
            try:
                return orjson.loads(self.arguments)
            except orjson.JSONDecodeError:
                return self.arguments
        return self.arguments


class RoundTiming(Open):
    promptTokens: LenientInt = 0
    cachedTokens: LenientInt = 0
    generatedTokens: LenientInt = 0
    prefillSeconds: LenientFloat = 0.0
    decodeSeconds: LenientFloat = 0.0
    peakMemoryGB: LenientFloat = 0.0


class RoundCall(Open):
    """A call as parsed in one round, or as the transcript gives it: the name the model wrote
    (or the internal id). ``tool`` and OpenAI's ``{"function": {"name", "arguments"}}`` read
    the same as ``name``."""

    name: LenientText = ""
    arguments: Any = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _named(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "name" in data:
            return data
        function = data.get("function")
        if isinstance(function, dict):
            return {**data, "name": function.get("name"), "arguments": function.get("arguments", {})}
        return {**data, "name": data.get("tool")} if "tool" in data else data


Calls = Annotated[list[RoundCall], lenient(list), objects_only()]


class Round(Open):
    """One model call: what it was given, what it wrote, and what that cost."""

    system: LenientText = ""
    tools: Annotated[list[str], lenient(list)] = Field(default_factory=list)
    text: LenientText = ""
    reasoning: LenientText = ""
    calls: Calls = Field(default_factory=list)
    # Call text that could not be parsed; counted apart from model answers.
    parseErrors: Annotated[list[str], lenient(list)] = Field(default_factory=list)
    timing: Annotated[RoundTiming, lenient(RoundTiming)] = Field(default_factory=RoundTiming)


class Message(Open):
    """A transcript message as the model saw it (content cut at 4,000 characters)."""

    role: LenientText = ""
    content: LenientText = ""
    # Assistant calls: [{"name": internal id, "arguments": {...}}]; OpenAI's ``tool_calls``
    # read the same.
    calls: Calls = Field(default_factory=list)
    # Tool messages: the internal tool id the result answers, and whether it failed.
    name: Annotated[str | None, lenient(None)] = None
    failed: Annotated[bool | None, lenient(None)] = None

    @model_validator(mode="before")
    @classmethod
    def _openai_calls(cls, data: Any) -> Any:
        if isinstance(data, dict) and "calls" not in data and isinstance(data.get("tool_calls"), list):
            return {**data, "calls": data["tool_calls"]}
        return data


class TurnFailure(Open):
    """Why a turn ended without an answer. ``harness`` and ``backend`` failures are kept apart
    from the model's own (``round-limit``) in reports; other harnesses may name other kinds."""

    kind: LenientText = "harness"
    message: LenientText = ""


def _failure(value: Any) -> Any:
    # A failure written as plain text is still a failure.
    return {"kind": "harness", "message": value} if isinstance(value, str) and value else value


class ResultLine(Open):
    id: str
    language: LenientText = ""
    category: LenientText = ""
    model: str
    seed: int = 7
    # Only JSON true passes: "yes" or 1 is not a verdict (a bool would coerce it to true).
    passed: Annotated[StrictBool, lenient(False)] = False
    issues: Annotated[list[str], lenient(list)] = Field(default_factory=list)
    answer: Text = ""
    calls: list[CallRecord] = Field(default_factory=list)
    transcript: Annotated[list[Message], lenient(list), objects_only()] = Field(default_factory=list)
    seconds: LenientFloat = 0.0
    reasoningCharacters: LenientInt = 0
    rounds: Annotated[list[Round], lenient(list), objects_only()] = Field(default_factory=list)
    # Set when the turn did not end with an answer: a failed turn fails the scenario.
    failure: Annotated[TurnFailure | None, WrapValidator(lambda v, h: h(_failure(v)))] = None

    # The JSON the line was read from (``read``); None for a line built here.
    _raw: dict[str, Any] | None = PrivateAttr(default=None)

    @classmethod
    def read(cls, data: Any) -> ResultLine:
        """A line from its JSON, keeping that JSON for ``data()``."""
        line = cls.model_validate(data)
        line._raw = data
        return line

    def data(self) -> dict[str, Any]:
        """The line as JSON to write: as it was read, with this verdict; a line built here as
        its fields."""
        if self._raw is None:
            return self.model_dump(mode="json", by_alias=True)
        return {**self._raw, "passed": self.passed, "issues": list(self.issues)}

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
