"""Where a parsed call goes: a loader (answered by the loop's toolset), a native tool (the
simulated phone), an MCP operation (the scripted responder), or nowhere (an unknown tool, which
answers as a failed result). The loop never knows a tool's internals: it hands a call here and
gets back the outcome and the names to record.

An MCP operation the model calls before loading it is routed anyway when its name resolves to an
installed connection's operation (the internal id, ``<connection>/<operation>`` or an unambiguous
bare operation name). The app would refuse it, but refusing would score the loaders instead of the
task; the call is recorded with ``declared: false`` so reports can count it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

from orvena_bench.formats.tooling import ToolOutcome
from harness.loaders import LOADER_FUNCTIONS, Toolset
from simphone.run import argument_problem

Kind = Literal["loader", "native", "mcp", "unknown"]


class ToolHost(Protocol):
    """The world a turn acts on: the phone and the scripted connections of one scenario."""

    def native(self, name: str, arguments: dict[str, Any]) -> ToolOutcome: ...

    def mcp(self, connection: str, operation: str, arguments: dict[str, Any]) -> ToolOutcome: ...


@dataclass(frozen=True)
class Routed:
    kind: Kind
    outcome: ToolOutcome
    # The name recorded in ``calls``: <connection>/<operation> for MCP, else as written.
    public: str
    # The name in the transcript: the internal id mcp.<uuid>.<operation> for MCP, else as written.
    internal: str
    # False for an MCP operation called before load_tools declared it.
    declared: bool = True


def unknown_tool(name: str) -> ToolOutcome:
    return ToolOutcome(
        f"Error: unknown tool {name!r}. Call only declared tools; a connected service's "
        "operations need load_connectors and load_tools first.",
        failed=True, matched=False)


def route(name: str, arguments: dict[str, Any], toolset: Toolset, host: ToolHost) -> Routed:
    """Run one call and say what answered it."""
    loader = LOADER_FUNCTIONS.get(name)
    if loader is not None:
        # Loaders are checked against their catalog schema like every native tool.
        entry = toolset.catalog.tool(name)
        problem = argument_problem(entry.parameters, arguments) if entry is not None else None
        if problem:
            return Routed("loader", ToolOutcome(f"Error: {problem}", failed=True, matched=False), name, name)
        return Routed("loader", loader(toolset, arguments), name, name)
    if toolset.catalog.tool(name) is not None:
        return Routed("native", host.native(name, arguments), name, name)
    tool = toolset.mcp.resolve(name)
    if tool is not None:
        outcome = host.mcp(tool.connection, tool.operation, arguments)
        return Routed("mcp", outcome, tool.public, tool.internal, declared=toolset.is_declared(tool))
    return Routed("unknown", unknown_tool(name), name, name)
