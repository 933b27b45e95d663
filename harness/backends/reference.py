"""The reference agent: makes a scenario's expected calls, one per round, then answers. It checks
that a scenario pack is solvable through the real loop and tools, and demos the pipeline without
model weights.

What it plays, in order:
1. when the plan has MCP operations: ``load_connectors`` with their connections, then
   ``load_tools`` with their ``<connection>/<operation>`` names (one round each), as a model
   following the prompt's guidance would;
2. each call of the scenario's ``reference.calls`` (an extra scenario field,
   ``{"calls": [{"tool": ..., "arguments": {...}}], "answer": "..."}``), MCP operations under their
   internal id; tokens in arguments are expanded with the run's clock;
3. ``reference.answer``.

A scenario without a ``reference`` field gets the expected calls (``expect.calls``, else the first
alternative of ``anyOf``) with arguments built from the substring expectations, and an answer made
of the required strings (``answer``, the first of ``answerAny``, the first of each
``answerGroups``). Substrings are not arguments, so this is a best effort (see ``build_arguments``):
a call that needs an id from an earlier result, or a string split over two fields, cannot be
built, which is why scenario packs carry ``reference``.

The calls are written as raw text in the JSON tool format and parsed back by the loop's parser, so
a reference run records and replays like a model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from orvena_bench.formats.clock import Clock, clock_for
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.scenario import ExpectedCall, Scenario
from harness.backend import Generation, ParsedCall, SessionContext
from harness.loaders import LOADER_ARGUMENT
from harness.toolcalls import DEFAULT_FORMAT, parse_text, render_calls
from mcpmock import internal_id, split_public

_TEMPORAL_VALUE = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}\b|^P(T?\d)")
_TEMPORAL_NAME = re.compile(r"date|time|start|end|due|when|from|until|at$|duration|^at")
_NUMBER_VALUE = re.compile(r"^\+?[\d\s()./-]{6,}$")
_NUMBER_NAME = re.compile(r"phone|number|to$|recipient")
_TEXT_NAMES = ("query", "title", "text", "content", "name", "message", "body", "task", "label",
               "prompt", "subject", "q")


@dataclass(frozen=True)
class Step:
    """One planned call: concrete arguments, or an expectation to build them from."""

    name: str  # the name the reference agent writes (internal id for MCP)
    arguments: dict[str, Any] | None = None
    expected: ExpectedCall | None = None


def _model_name(tool: str) -> str:
    """The name a model writes for a scenario's tool name: MCP operations by internal id."""
    parts = split_public(tool)
    return internal_id(*parts) if parts else tool


def _loader_steps(tools: list[str]) -> list[Step]:
    mcp = [t for t in dict.fromkeys(tools) if split_public(t)]
    if not mcp:
        return []
    connections = list(dict.fromkeys(split_public(t)[0] for t in mcp))
    return [Step("load_connectors", {LOADER_ARGUMENT["load_connectors"]: connections}),
            Step("load_tools", {LOADER_ARGUMENT["load_tools"]: mcp})]


def _json_fragment(text: str) -> dict[str, Any] | None:
    """``"mode":"transit"`` style expectations, which are arguments already."""
    if ":" not in text or not text.lstrip().startswith('"'):
        return None
    try:
        value = orjson.loads("{" + text + "}")
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _placeholder(schema: dict[str, Any], clock: Clock, request: str) -> Any:
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {}
    if schema.get("format") == "date":
        return clock.now.date().isoformat()
    if schema.get("format") == "date-time":
        return clock.iso_local(clock.now)
    return request


def build_arguments(expected: ExpectedCall, parameters: dict[str, Any], clock: Clock,
                    request: str) -> dict[str, Any]:
    """Concrete arguments from substring expectations, best effort.

    The strings used: every ``args``, the first of ``argsAny`` and of each ``argsGroups``, tokens
    expanded. A string written as a JSON member (``"mode":"transit"``) is taken as it is; a date,
    time or ISO duration goes to the first free property whose name or format is temporal; a phone
    number to a number-like property; other text to the first free text property (query, title,
    text, ...), joined with a space when two land in one. Required properties still missing get
    their enum's first value, default, or a neutral value of their type.
    """
    strings = [*expected.args, *expected.argsAny[:1], *(g[0] for g in expected.argsGroups if g)]
    strings = [clock.expand(s) for s in strings]
    properties: dict[str, Any] = parameters.get("properties", {}) or {}
    required: list[str] = list(parameters.get("required", []) or [])
    args: dict[str, Any] = {}

    def pick(accept) -> str | None:
        order = required + [k for k in properties if k not in required]
        for key in order:
            schema = properties.get(key, {})
            if key not in args and accept(key, schema):
                return key
        return None

    def textual(key: str, schema: dict[str, Any]) -> bool:
        kind = schema.get("type", "string")
        return (kind == "string" or (isinstance(kind, list) and "string" in kind)) and "enum" not in schema

    loose_text = []
    for s in strings:
        fragment = _json_fragment(s)
        if fragment is not None:
            args.update(fragment)
            continue
        key = None
        if _TEMPORAL_VALUE.search(s):
            key = pick(lambda k, sc: textual(k, sc) and (
                _TEMPORAL_NAME.search(k.lower()) or sc.get("format") in ("date", "date-time", "duration")))
        elif _NUMBER_VALUE.match(s):
            key = pick(lambda k, sc: textual(k, sc) and _NUMBER_NAME.search(k.lower()))
        if key is not None:
            args[key] = s
        else:
            loose_text.append(s)
    if loose_text:
        key = next((k for k in _TEXT_NAMES if k in properties and k not in args), None) or pick(textual)
        if key is not None:
            args[key] = " ".join(loose_text)
        elif not properties:
            args["query"] = " ".join(loose_text)
    for key in required:
        if key not in args:
            args[key] = _placeholder(properties.get(key, {}), clock, request)
    return args


def required_answer(scenario: Scenario, clock: Clock) -> str:
    """The required strings of the answer checks, as one answer."""
    e = scenario.expect
    parts = [*e.answer, *e.answerAny[:1], *(g[0] for g in e.answerGroups if g)]
    return " ".join(clock.expand(p) for p in parts) or "OK."


def plan(scenario: Scenario, clock: Clock, played: dict[str, Any] | None = None) -> tuple[list[Step], str]:
    """The reference agent's calls and answer for a scenario.

    played: a behaviour to play instead of the scenario's ``reference`` (the same shape,
    ``{"calls": [...], "answer": "..."}``), as the validator plays alternative behaviours; the
    scenario itself is not changed.
    """
    reference = played if played is not None else (scenario.model_extra or {}).get("reference")
    if reference is not None:
        if not isinstance(reference, dict):
            raise FormatError(f"{scenario.id}: reference must be an object", field="reference")
        calls = reference.get("calls") or []
        for i, c in enumerate(calls):
            if not isinstance(c, dict) or not isinstance(c.get("tool"), str) or not isinstance(
                    c.get("arguments", {}), dict):
                raise FormatError(f"{scenario.id}: each reference call is "
                                  '{"tool": name, "arguments": {...}}', field=f"reference.calls[{i}]")
        steps = _loader_steps([c["tool"] for c in calls]) + [
            Step(_model_name(c["tool"]), clock.expand_data(c.get("arguments", {}), "reference.arguments")) for c in calls]
        answer = reference.get("answer")
        if not isinstance(answer, str) or (played is None and not answer.strip()):
            # A played behaviour's empty answer is played as it is (an empty answer is a behaviour).
            answer = required_answer(scenario, clock) if played is None else ""
        return steps, clock.expand(answer)
    expected = scenario.expect.calls or (scenario.expect.anyOf[0] if scenario.expect.anyOf else [])
    steps = _loader_steps([c.tool for c in expected]) + [
        Step(_model_name(c.tool), expected=c) for c in expected]
    return steps, required_answer(scenario, clock)


class ReferenceSession:
    def __init__(self, scenario: Scenario, clock: Clock, played: dict[str, Any] | None = None):
        self.scenario, self.clock = scenario, clock
        self.steps, self.answer = plan(scenario, clock, played)
        self.round = 0

    def _arguments(self, step: Step, tools: list[dict[str, Any]]) -> dict[str, Any]:
        if step.arguments is not None:
            return step.arguments
        parameters = next((t["function"].get("parameters") or {} for t in tools
                           if t["function"]["name"] == step.name), {})
        return build_arguments(step.expected, parameters, self.clock, self.scenario.request)

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        if self.round < len(self.steps):
            step = self.steps[self.round]
            text = render_calls([ParsedCall(step.name, self._arguments(step, tools))], DEFAULT_FORMAT)
        else:
            text = self.answer
        self.round += 1
        return parse_text(text, DEFAULT_FORMAT, tools)

    def close(self) -> None:
        pass


class ReferenceBackend:
    """played: a behaviour (``{"calls": [...], "answer": "..."}``) every session plays instead of
    its scenario's ``reference``; None plays the scenario's own."""

    name = "reference"

    def __init__(self, played: dict[str, Any] | None = None):
        self.played = played

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "model": "reference", "toolFormat": DEFAULT_FORMAT}

    def open(self, context: SessionContext) -> ReferenceSession:
        scenario = context.scenario
        return ReferenceSession(scenario, clock_for(scenario.phone, scenario.language), self.played)
