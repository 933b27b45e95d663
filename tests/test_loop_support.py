"""Shared helpers of the loop tests (no tests here): scenarios, a stand-in phone that records
what the loop asked of it, and model texts in the JSON tool format. People are fictional."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson

from orvena_bench.formats.catalog import Catalog, load_catalog
from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from orvena_bench.formats.tooling import ToolOutcome
from harness.backends.scripted import ScriptedBackend
from harness.loaders import McpDirectory
from harness.loop import run_scenario
from mcpmock import Responder


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    return load_catalog(catalog_path())


def scenario(**fields: Any) -> Scenario:
    data: dict[str, Any] = {
        "id": "en-calendar-test", "language": "en", "category": "calendar",
        "request": "what's on tomorrow?",
        "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
                  "location": {"place": "Dublin, Ireland", "lat": 53.3498, "lon": -6.2603}},
    }
    data.update(fields)
    return Scenario.model_validate(data)


def call(name: str, **arguments: Any) -> str:
    """One call block as a Qwen3-style model writes it."""
    return "<tool_call>\n" + orjson.dumps({"name": name, "arguments": arguments}).decode() + "\n</tool_call>"


class StubPhone:
    """Stands in for the simulated phone so the loop's own paths are tested alone: answers every
    native call with a fixed text naming the call, and remembers the calls in order. MCP calls go
    to the real scripted responder."""

    def __init__(self, s: Scenario, *, raise_on: str | None = None):
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.responder = Responder(s, clock_for(s.phone, s.language), catalog=catalog())
        self.raise_on = raise_on

    def native(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if name == self.raise_on:
            raise RuntimeError(f"stub phone broke on {name}")
        self.calls.append((name, arguments))
        return ToolOutcome(f"{name} answered {orjson.dumps(arguments).decode()}")

    def mcp(self, connection: str, operation: str, arguments: dict[str, Any]) -> ToolOutcome:
        return self.responder.call(connection, operation, arguments)


def run(s: Scenario, texts: list[str], **options: Any) -> tuple[ResultLine, ScriptedBackend, StubPhone]:
    """Run a scenario with scripted texts against the stub phone."""
    backend = ScriptedBackend({s.id: texts})
    phone = StubPhone(s, raise_on=options.pop("raise_on", None))
    mcp = McpDirectory.from_fixtures(phone.responder.fixtures)
    line = run_scenario(s, backend, catalog(), host=phone, mcp=mcp, model="scripted", **options)
    return line, backend, phone
