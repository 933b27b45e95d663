"""Replay: recorded raw texts through the current loop reproduce the line, and a changed harness
is reported where it diverges."""

from __future__ import annotations

from pathlib import Path

import orjson

from orvena_bench.formats.tooling import ToolOutcome
from harness.backends.replay import ReplayBackend, divergences, starts_in_reasoning
from harness.loaders import McpDirectory
from harness.loop import run_scenario
from harness.manifest import add_run
from mcpmock import internal_id
from test_loop_support import StubPhone, call, catalog, run, scenario

TEXTS = [
    call("load_connectors", connections=["todoist"]) + call("list_events", start="2026-11-05"),
    call("load_tools", names=["todoist/add-tasks"]) + '<tool_call>{"name": broken}</tool_call>',
    call(internal_id("todoist", "add-tasks"), tasks=[{"content": "renew passport"}]),
    "Added, and your calendar is clear.",
]


def recorded_scenario():
    return scenario(id="en-mcp-todoist-replay", category="mcp", request="add renew passport to todoist",
                    connections=["todoist"],
                    tools={"todoist/add-tasks": [{"match": ["passport"], "result": "Added task 8812"}]})


def replay(line, source: Path, phone_class=StubPhone):
    s = recorded_scenario()
    phone = phone_class(s)
    return run_scenario(s, ReplayBackend(source), catalog(), host=phone, recorded=line,
                        mcp=McpDirectory.from_fixtures(phone.responder.fixtures), model=line.model)


def comparable(line) -> dict:
    data = line.model_dump(mode="json")
    data.pop("seconds")
    return data


def test_replay_with_the_harness_unchanged_reproduces_the_line(tmp_path):
    original, _, _ = run(recorded_scenario(), TEXTS)
    assert original.failure is None and len(original.rounds) == 4  # the run covers calls, parse errors, MCP
    again = replay(original, tmp_path / "run.jsonl")
    assert comparable(again) == comparable(original)
    assert divergences(original, again) == []


class ChangedPhone(StubPhone):
    def native(self, name, arguments):
        return ToolOutcome("list_events: calendar unavailable", failed=True)


def test_a_changed_harness_is_reported_where_it_diverges(tmp_path):
    original, _, _ = run(recorded_scenario(), TEXTS)
    again = replay(original, tmp_path / "run.jsonl", ChangedPhone)
    found = divergences(original, again)
    assert any(d.startswith("call 2: recorded list_events") for d in found)
    assert "tool result 2 differs" in found


def test_a_replay_needing_more_rounds_than_recorded_fails_naming_the_round(tmp_path):
    original, _, _ = run(recorded_scenario(), TEXTS)
    cut = original.model_copy(update={"rounds": original.rounds[:2]})
    again = replay(cut, tmp_path / "run.jsonl")
    assert again.failure.kind == "backend" and "round 3" in again.failure.message
    assert divergences(cut, again)[-1].startswith("failure:")


def test_the_tool_format_comes_from_the_manifest_beside_the_results(tmp_path):
    source = tmp_path / "m.jsonl"
    add_run(source, {"backend": {"backend": "mlx", "toolFormat": "qwen3_coder"}})
    assert ReplayBackend(source).tool_format == "qwen3_coder"
    assert ReplayBackend(source, tool_format="json_tools").tool_format == "json_tools"
    assert orjson.loads((tmp_path / "m.manifest.json").read_bytes())["runs"][0]["backend"]["toolFormat"] == "qwen3_coder"


def test_text_that_closes_a_think_block_it_never_opened_started_in_reasoning():
    assert starts_in_reasoning("plan</think>\n\nHi")
    assert not starts_in_reasoning("<think>plan</think>Hi")
    assert not starts_in_reasoning("Hi")
