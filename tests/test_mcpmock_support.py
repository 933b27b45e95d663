"""Shared data of the mcpmock tests (no tests here): two small fixtures in wire shape and a
scenario that installs them. All people and accounts are fictional."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.scenario import Scenario

TODOIST = {"tools": [
    {"name": "add-tasks",
     "description": "Create tasks.",
     "inputSchema": {
         "$schema": "http://json-schema.org/draft-07/schema#",
         "type": "object",
         "properties": {"tasks": {"type": "array", "minItems": 1, "items": {
             "type": "object",
             "properties": {"content": {"type": "string", "minLength": 1},
                            "dueString": {"type": "string"},
                            "priority": {"enum": ["p1", "p2", "p3", "p4"]}},
             "required": ["content"]}}},
         "required": ["tasks"]},
     "annotations": {"readOnlyHint": False, "destructiveHint": False,
                     "idempotentHint": False, "openWorldHint": True}},
    {"name": "find-tasks",
     "description": "Search tasks.",
     "inputSchema": {"type": "object", "properties": {"searchText": {"type": "string"}}},
     "annotations": {"readOnlyHint": True}},
]}

GMAIL = {"tools": [
    {"name": "search_threads",
     "title": "Search threads",
     "description": "Search mail threads.",
     "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}},
                     "required": ["query"]},
     "outputSchema": {"type": "object", "properties": {"threads": {"type": "array"}},
                      "required": ["threads"]}},
]}

SCENARIO: dict[str, Any] = {
    "id": "en-mcp-renew-passport",
    "language": "en",
    "category": "mcp",
    "request": "add renew passport to my todoist for monday",
    "connections": ["todoist", "gmail"],
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin"},
    "tools": {
        "todoist/find-tasks": [
            {"match": ["passport"], "nth": 1, "result": "Temporary failure", "error": True},
            {"match": ["passport"], "result": "1 task: Renew passport, due {weekday+5d}"},
        ],
        "gmail/search_threads": [
            {"match": ["Zürich", "invoice"], "result": "1 thread: Invoice from Zürich office"},
            {"match": ["receipt"], "structured": {"threads": [{"id": "t-1", "date": "{+1d}"}]}},
        ],
    },
}


def write_root(root: Path, scenario: dict[str, Any] | None = None) -> Path:
    """A project root with both fixtures and one scenario file, for ORVENA_BENCH_ROOT."""
    (root / "fixtures" / "mcp").mkdir(parents=True, exist_ok=True)
    (root / "scenarios").mkdir(exist_ok=True)
    (root / "fixtures" / "mcp" / "todoist.json").write_bytes(orjson.dumps(TODOIST))
    (root / "fixtures" / "mcp" / "gmail.json").write_bytes(orjson.dumps(GMAIL))
    (root / "scenarios" / "bench.jsonl").write_bytes(orjson.dumps(scenario or SCENARIO) + b"\n")
    return root


def scenario(**changes: Any) -> Scenario:
    return Scenario.model_validate({**SCENARIO, **changes})


def clock_of(s: Scenario):
    return clock_for(s.phone, s.language)
