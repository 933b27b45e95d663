"""The world one scenario run acts on: its simulated phone (simphone) and its scripted
connections (mcpmock): where the loop sends a turn's native and MCP calls. The routing also asks
simphone whether native arguments are valid (harness/routing.py) and the loaders read the
connections' fixtures (harness/loaders.py); neither runs a tool."""

from __future__ import annotations

from typing import Any

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.clock import Clock
from orvena_bench.formats.scenario import Scenario
from orvena_bench.formats.tooling import ToolOutcome
from harness.loaders import McpDirectory
from mcpmock import Responder
from simphone import Phone, run_tool


class ScenarioHost:
    """Serves one turn's native calls from the phone and MCP calls from the responder; both keep
    the turn's state (writes, per-operation call counts), so make one per run."""

    def __init__(self, phone: Phone, responder: Responder, catalog: Catalog):
        self.phone, self.responder, self.catalog = phone, responder, catalog

    def native(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        return run_tool(self.phone, name, arguments, self.catalog)

    def mcp(self, connection: str, operation: str, arguments: dict[str, Any]) -> ToolOutcome:
        return self.responder.call(connection, operation, arguments)


def scenario_world(scenario: Scenario, clock: Clock, catalog: Catalog) -> tuple[ScenarioHost, McpDirectory]:
    """A fresh phone and responder for one run, and the directory of its connections' tools."""
    phone = Phone.from_scenario(scenario.phone, clock)
    responder = Responder(scenario, clock, catalog=catalog)
    return ScenarioHost(phone, responder, catalog), McpDirectory.from_fixtures(responder.fixtures)
