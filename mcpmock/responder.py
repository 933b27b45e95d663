"""The scripted MCP connections of one scenario turn (card: "Each entry in tools is a list of
rules ...").

A call is answered in this order:
1. a connection the scenario does not install, or an operation its fixture does not have, is an
   error (no rule is consulted);
2. the arguments are validated against the fixture's inputSchema; a violation is an error
   naming the field;
3. the first rule whose match strings all appear in the call's arguments (case- and
   accent-insensitive, the scorer's matcher) and whose optional nth equals the call's count for
   that operation answers: its result text, isError when error is true, structuredContent from
   structured;
4. otherwise the call gets a not-found error.

The count for nth is 1-based and counts every call of the operation in the turn, this one
included, whatever its outcome. Tokens in match strings, result text and structured values are
expanded with the run's clock when the responder is built, so a bad token fails early.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import best_match
from mcp_types import CallToolResult, TextContent

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.clock import Clock
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.scenario import Scenario
from orvena_bench.formats.textmatch import Folded, arguments_json
from orvena_bench.formats.tooling import ToolOutcome
from mcpmock.fixtures import Fixture, fixture_for
from mcpmock.ids import split_public
from mcpmock.render import outcome

NOT_FOUND = "Not found: nothing matches these arguments."
# Schema messages quote the offending value; a long value is cut so the error stays readable.
_MAX_VIOLATION = 300


@dataclass(frozen=True)
class Rule:
    """One scripted answer with its tokens expanded."""

    match: tuple[str, ...]
    nth: int | None
    result: str
    error: bool
    structured: Any

    def answers(self, arguments: Folded, count: int) -> bool:
        return (self.nth is None or self.nth == count) and all(arguments.has(m) for m in self.match)

    def call_result(self) -> CallToolResult:
        content = [TextContent(type="text", text=self.result)] if self.result else []
        if self.structured is None:
            return CallToolResult(content=content, is_error=self.error)
        return CallToolResult(content=content, structured_content=self.structured,
                              is_error=self.error)


def compile_rules(scenario: Scenario, clock: Clock) -> dict[tuple[str, str], list[Rule]]:
    """The scenario's rules by (connection, operation), tokens expanded; a malformed key or
    token is a FormatError naming the scenario and field."""
    rules: dict[tuple[str, str], list[Rule]] = {}
    for key, entries in scenario.tools.items():
        parts = split_public(key)
        if parts is None:
            raise FormatError(f"scenario {scenario.id}: scripted answers are keyed "
                              f"<connection>/<operation>, not {key!r}", field=f"tools.{key}")
        compiled = []
        for i, rule in enumerate(entries):
            where = f"tools.{key}[{i}]"
            try:
                compiled.append(Rule(
                    match=tuple(clock.expand_data(list(rule.match), f"{where}.match")),
                    nth=rule.nth,
                    result=clock.expand_data(rule.result, f"{where}.result"),
                    error=rule.error,
                    structured=clock.expand_data(rule.structured, f"{where}.structured"),
                ))
            except ValueError as e:
                raise FormatError(f"scenario {scenario.id}: {e}") from e
        rules[parts] = compiled
    return rules


def unreachable_rules(scenario: Scenario, fixtures: Mapping[str, Fixture]) -> list[str]:
    """Keys of scripted answers no call can reach: the connection is not installed, or its
    fixture has no such operation. For scenario checks; the responder itself ignores them."""
    problems = []
    for key in scenario.tools:
        parts = split_public(key)
        if parts is None:
            problems.append(f"tools.{key}: not a <connection>/<operation> key")
        elif parts[0] not in scenario.connections:
            problems.append(f"tools.{key}: connection {parts[0]!r} is not installed")
        elif parts[0] in fixtures and fixtures[parts[0]].tool(parts[1]) is None:
            problems.append(f"tools.{key}: {parts[0]} has no operation {parts[1]!r}")
    return problems


def _error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def unknown_tool(name: str) -> CallToolResult:
    """The error of a call to a tool the connection does not have."""
    return _error(f"Unknown tool: {name}")


def _violation(operation: str, error: Any) -> str:
    where = error.json_path.removeprefix("$").removeprefix(".") or "arguments"
    message = error.message
    if len(message) > _MAX_VIOLATION:
        message = message[:_MAX_VIOLATION] + "..."
    return f"Invalid arguments for {operation}: {where}: {message}"


class Responder:
    """Answers one turn's MCP calls from the scenario's rules.

    Holds the turn's state (call counts per operation), so make one per scenario run.
    ``fixtures`` overrides the connection fixtures (else ``fixture_for``, with the catalog's
    paths when given).
    """

    def __init__(self, scenario: Scenario, clock: Clock, *,
                 fixtures: Mapping[str, Fixture] | None = None, catalog: Catalog | None = None):
        self.scenario = scenario
        self.clock = clock
        given = fixtures or {}
        self.fixtures: dict[str, Fixture] = {
            c: given[c] if c in given else fixture_for(c, catalog) for c in scenario.connections
        }
        self._rules = compile_rules(scenario, clock)
        self._counts: Counter[tuple[str, str]] = Counter()

    def count(self, connection: str, operation: str) -> int:
        """How many calls of the operation the turn has made so far."""
        return self._counts[(connection, operation)]

    def answer(self, connection: str, operation: str,
               arguments: Any) -> tuple[CallToolResult, bool]:
        """(the MCP result, whether a rule answered)."""
        self._counts[(connection, operation)] += 1
        count = self._counts[(connection, operation)]
        fixture = self.fixtures.get(connection)
        if fixture is None:
            return _error(f"Connection {connection} is not installed."), False
        validator = fixture.validator(operation)
        if validator is None:
            return unknown_tool(operation), False
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return _error(f"Invalid arguments for {operation}: arguments must be an object"), False
        violation = best_match(validator.iter_errors(arguments))
        if violation is not None:
            return _error(_violation(operation, violation)), False
        folded = Folded(arguments_json(arguments))
        for rule in self._rules.get((connection, operation), ()):
            if rule.answers(folded, count):
                return rule.call_result(), True
        return _error(NOT_FOUND), False

    def call_result(self, connection: str, operation: str, arguments: Any) -> CallToolResult:
        """The MCP CallToolResult of a call."""
        return self.answer(connection, operation, arguments)[0]

    def call(self, connection: str, operation: str, arguments: Any) -> ToolOutcome:
        """The call's outcome as the loop records it (text, failed, matched, structured)."""
        result, matched = self.answer(connection, operation, arguments)
        return outcome(result, matched=matched)
