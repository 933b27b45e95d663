"""The three loaders, which decide what a small model sees in a turn.

At round 1 the model is given the 38 native tools (catalog order, the same in every scenario) and,
in the phone's context that opens the first user message, the installed connections with one line
each. MCP schemas are declared on
demand, because six connections hold hundreds of tools (GitHub alone 131):

- ``load_connectors(connections)`` lists the operations of installed connections, one line each
  (name and the first sentence of its description, no schema);
- ``load_tools(names)`` declares the full schemas of the named operations from the next round on,
  after the natives, in load order; names may be ``<connection>/<operation>``, the internal id
  ``mcp.<uuid>.<operation>``, or a bare operation name that only one installed connection has;
  native names are accepted and reported as already declared;
- ``load_skills(skills)`` returns the skills' guidance text, as the tool result (the system prompt
  never changes within a turn).

A loader answers with a ToolOutcome like any tool; unknown names are listed in its text, and it
fails only when none of the names resolved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.tooling import ToolOutcome
from mcpmock import Fixture, public_name, tool_declaration

# Each loader's one argument: a list of names.
LOADER_ARGUMENT = {"load_connectors": "connections", "load_tools": "names", "load_skills": "skills"}
_SUMMARY_CHARS = 110
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def one_line(description: str) -> str:
    """The first sentence of a description, on one line and short."""
    text = " ".join((description or "").split())
    text = _SENTENCE_END.split(text, maxsplit=1)[0]
    return text if len(text) <= _SUMMARY_CHARS else text[: _SUMMARY_CHARS - 1].rstrip() + "…"


@dataclass(frozen=True)
class McpTool:
    """One operation of an installed connection, as the model can be given it."""

    connection: str
    operation: str
    description: str
    # The OpenAI function form under the internal id (mcpmock.tool_declaration).
    declaration: dict[str, Any]

    @property
    def internal(self) -> str:
        """``mcp.<uuid>.<operation>``: the name the model sees."""
        return self.declaration["function"]["name"]

    @property
    def public(self) -> str:
        """``<connection>/<operation>``: the name scenarios and recorded calls use."""
        return public_name(self.connection, self.operation)


class McpDirectory:
    """The operations of a scenario's installed connections, found by any of their names."""

    def __init__(self, tools_by_connection: dict[str, list[McpTool]]):
        self.connections = dict(tools_by_connection)
        self._by_name: dict[str, McpTool] = {}
        bare: dict[str, list[McpTool]] = {}
        for tools in self.connections.values():
            for t in tools:
                self._by_name[t.internal] = t
                self._by_name[t.public] = t
                bare.setdefault(t.operation, []).append(t)
        # A bare operation name resolves only when one installed connection has it.
        self._bare = {op: ts[0] for op, ts in bare.items() if len(ts) == 1}

    @classmethod
    def from_fixtures(cls, fixtures: Mapping[str, Fixture]) -> McpDirectory:
        """The directory of the installed connections' fixtures (e.g. ``Responder.fixtures``)."""
        return cls({
            connection: [McpTool(connection, tool.name, tool.description or "",
                                 tool_declaration(connection, tool)) for tool in fixture]
            for connection, fixture in fixtures.items()})

    def resolve(self, name: str) -> McpTool | None:
        name = name.strip()
        return self._by_name.get(name) or self._bare.get(name)


@dataclass
class Toolset:
    """What the model has been given so far in one turn."""

    catalog: Catalog
    mcp: McpDirectory
    mcp_tools: list[McpTool] = field(default_factory=list)

    def declared(self) -> list[dict[str, Any]]:
        """The tools of the next round, in the OpenAI function form: natives first."""
        return [t.openai_schema() for t in self.catalog.tools] + [t.declaration for t in self.mcp_tools]

    def declared_names(self) -> list[str]:
        return [t.name for t in self.catalog.tools] + [t.internal for t in self.mcp_tools]

    def is_declared(self, tool: McpTool) -> bool:
        return tool in self.mcp_tools


def _names(arguments: dict[str, Any], key: str) -> list[str] | str:
    """The list argument of a loader (the router has checked it against the catalog schema;
    this guards a catalog without one). Returns an error text when it is not a list of names."""
    value = arguments.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        return f"Error: field {key!r}: expected a non-empty list of names"
    return [v.strip() for v in value if v.strip()]


def load_connectors(toolset: Toolset, arguments: dict[str, Any]) -> ToolOutcome:
    ids = _names(arguments, LOADER_ARGUMENT["load_connectors"])
    if isinstance(ids, str):
        return ToolOutcome(ids, failed=True, matched=False)
    parts, found = [], 0
    for cid in dict.fromkeys(ids):
        tools = toolset.mcp.connections.get(cid)
        if tools is None:
            installed = ", ".join(toolset.mcp.connections) or "none"
            parts.append(f"{cid}: not installed (installed: {installed})")
            continue
        found += 1
        conn = toolset.catalog.connection(cid)
        title = conn.name if conn else cid
        lines = [f"{cid} ({title}): {len(tools)} operations. "
                 f"Declare the ones you need with load_tools, as {cid}/<operation>."]
        lines += [f"- {t.operation}: {one_line(t.description)}" for t in tools]
        parts.append("\n".join(lines))
    return ToolOutcome("\n\n".join(parts), failed=found == 0, matched=found > 0)


def load_tools(toolset: Toolset, arguments: dict[str, Any]) -> ToolOutcome:
    names = _names(arguments, LOADER_ARGUMENT["load_tools"])
    if isinstance(names, str):
        return ToolOutcome(names, failed=True, matched=False)
    declared, already, unknown = [], [], []
    for name in dict.fromkeys(names):
        if toolset.catalog.tool(name) is not None:
            already.append(name)
            continue
        tool = toolset.mcp.resolve(name)
        if tool is None:
            unknown.append(name)
        elif toolset.is_declared(tool):
            already.append(tool.internal)
        else:
            toolset.mcp_tools.append(tool)
            declared.append(tool)
    lines = []
    if declared:
        lines.append("Declared, callable from your next step:")
        lines += [f"- {t.internal} ({t.public})" for t in declared]
    if already:
        lines.append("Already declared: " + ", ".join(already))
    if unknown:
        lines.append("Unknown (not an installed connection's operation): " + ", ".join(unknown)
                     + ". Call load_connectors to list operations.")
    ok = bool(declared or already)
    return ToolOutcome("\n".join(lines), failed=not ok, matched=ok)


def load_skills(toolset: Toolset, arguments: dict[str, Any]) -> ToolOutcome:
    names = _names(arguments, LOADER_ARGUMENT["load_skills"])
    if isinstance(names, str):
        return ToolOutcome(names, failed=True, matched=False)
    by_name = {s.name: s for s in toolset.catalog.skills}
    parts, unknown = [], []
    for name in dict.fromkeys(names):
        skill = by_name.get(name) or by_name.get(name.lower())
        if skill is None:
            unknown.append(name)
            continue
        parts.append(f"# {skill.name}\n{skill.guidance.strip()}")
    if unknown:
        parts.append("Unknown skills: " + ", ".join(unknown) + ". Available: "
                     + ", ".join(by_name) + ".")
    ok = len(parts) > (1 if unknown else 0)
    return ToolOutcome("\n\n".join(parts), failed=not ok, matched=ok)


LOADER_FUNCTIONS = {
    "load_connectors": load_connectors,
    "load_tools": load_tools,
    "load_skills": load_skills,
}
