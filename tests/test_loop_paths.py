"""Every path of the agent loop, driven by scripted model texts."""

from __future__ import annotations

from typing import Any

from orvena_bench.formats.result import TurnFailure
from harness.backend import Generation, SessionContext
from harness.loop import run_scenario
from harness.prompt import without_context
from harness.recording import MAX_MESSAGE_CHARS
from mcpmock import internal_id
from test_loop_support import call, catalog, run, scenario

TODOIST_ADD = internal_id("todoist", "add-tasks")


def mcp_scenario(**fields: Any):
    return scenario(
        id="en-mcp-todoist-passport", category="mcp",
        request="add renew passport to my todoist for monday",
        connections=["todoist", "github"],
        tools={"todoist/add-tasks": [{"match": ["passport"], "result": "Added task 8812: renew passport"}]},
        **fields)


def test_an_answer_without_calls_ends_the_turn_in_one_round():
    line, _, phone = run(scenario(), ["Nothing on tomorrow."])
    assert line.answer == "Nothing on tomorrow."
    assert line.failure is None and line.calls == [] and len(line.rounds) == 1
    assert [m.role for m in line.transcript] == ["user", "assistant"]
    assert phone.calls == []


def test_several_calls_in_one_round_run_in_the_order_written():
    text = call("list_events", start="2026-11-05", end="2026-11-06") + "\n" + call("get_weather", place="Dublin")
    line, backend, phone = run(scenario(), [text, "Two things."])
    assert [name for name, _ in phone.calls] == ["list_events", "get_weather"]
    assert [c.tool for c in line.calls] == ["list_events", "get_weather"]
    assert [m.role for m in line.transcript] == ["user", "assistant", "tool", "tool", "assistant"]
    assert [c.name for c in line.rounds[0].calls] == ["list_events", "get_weather"]
    # The second round sees both results, each answering its own call id.
    messages = backend.seen["en-calendar-test"][1][0]
    assistant = messages[-3]
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_1", "call_2"]
    assert [(m["tool_call_id"], m["name"]) for m in messages[-2:]] == [
        ("call_1", "list_events"), ("call_2", "get_weather")]
    assert line.answer == "Two things."


def test_malformed_call_text_is_a_parse_error_fed_back_as_a_failed_result():
    bad = '<tool_call>\n{"name": "list_events", "arguments": {"start": </tool_call>'
    line, backend, phone = run(scenario(), [bad, call("list_events", start="2026-11-05"), "Done."])
    first = line.rounds[0]
    assert first.calls == [] and len(first.parseErrors) == 1
    assert "list_events" in first.parseErrors[0]
    # Not a model answer: the turn went on, and the model read why its call failed.
    feedback = backend.seen["en-calendar-test"][1][0][-1]
    assert feedback["role"] == "tool" and "could not be read" in feedback["content"]
    assert line.transcript[2].role == "tool" and line.transcript[2].failed is True
    assert line.calls[0].tool == "list_events" and len(line.calls) == 1  # parse errors are not calls
    assert line.answer == "Done." and line.failure is None


def test_an_unterminated_call_block_is_recorded_not_dropped():
    line, _, _ = run(scenario(), ['<tool_call>\n{"name": "list_events"', "Sorry."])
    assert len(line.rounds[0].parseErrors) == 1
    assert line.answer == "Sorry."


def test_an_unknown_tool_answers_as_a_failed_unmatched_call():
    line, _, phone = run(scenario(), [call("order_uber", to="Heuston Station"), "I can't order a taxi."])
    assert phone.calls == []
    record = line.calls[0]
    assert (record.tool, record.failed, record.matched) == ("order_uber", True, False)
    assert "unknown tool" in line.transcript[2].content
    assert line.answer == "I can't order a taxi."


def test_invalid_arguments_to_an_mcp_operation_fail_without_ending_the_turn():
    s = mcp_scenario()
    texts = [call(TODOIST_ADD, tasks="renew passport"), call(TODOIST_ADD, tasks=[{"content": "renew passport"}]), "Added."]
    line, _, _ = run(s, texts)
    first, second = line.calls
    assert first.failed and not first.matched and "tasks" in line.transcript[2].content
    assert not second.failed and second.matched
    assert line.answer == "Added."


def test_invalid_loader_arguments_fail_with_the_reason():
    texts = [call("load_tools", names="todoist/add-tasks"), call("load_skills"),
             call("load_tools", names=["todoist/add-tasks"]), "ok"]
    line, _, _ = run(scenario(), texts)
    assert [(c.failed, c.matched) for c in line.calls] == [(True, False)] * 3
    # Checked against the loaders' catalog schemas, in the phone's error wording.
    assert line.transcript[2].content == "Error: field 'names': expected a list, got \"todoist/add-tasks\""
    assert line.transcript[4].content == "Error: missing required field 'skills'"
    # Well formed, but todoist is not installed in this scenario.
    assert "Unknown (not an installed connection's operation): todoist/add-tasks" in line.transcript[6].content


def test_reaching_the_round_limit_fails_the_turn():
    texts = [call("list_events", start="2026-11-05")] * 5
    line, _, _ = run(scenario(), texts, max_rounds=3)
    assert len(line.rounds) == 3 and line.answer == ""
    assert line.failure == TurnFailure(kind="round-limit", message="no answer without tool calls after 3 rounds")


def test_history_turns_come_before_the_request():
    history = [{"role": "user", "content": "dinner with Sam on Friday?"},
               {"role": "assistant", "content": "Friday 19:00 at Chapter One."}]
    line, backend, _ = run(scenario(request="invite Aoife too", history=history), ["Which Aoife?"])
    messages = backend.seen["en-calendar-test"][0][0]
    assert [(m["role"], without_context(m["content"])) for m in messages[1:]] == [
        ("user", "dinner with Sam on Friday?"), ("assistant", "Friday 19:00 at Chapter One."),
        ("user", "invite Aoife too")]
    assert messages[0]["role"] == "system"
    assert [m.role for m in line.transcript] == ["user", "assistant", "user", "assistant"]


def test_round_one_declares_the_natives_in_catalog_order_and_no_mcp_tools():
    line, backend, _ = run(mcp_scenario(), ["ok"])
    natives = [t.name for t in catalog().tools]
    assert line.rounds[0].tools == natives
    assert backend.seen["en-mcp-todoist-passport"][0][1] == natives
    system = line.rounds[0].system
    assert system.startswith(catalog().systemPrompt.strip())
    # The phone's moment and connections open the request, not the system prompt.
    request = backend.seen["en-mcp-todoist-passport"][0][0][1]["content"]
    assert "- todoist (Todoist)" in request and "- github (GitHub)" in request
    assert "Wednesday, 4 November 2026, 10:30" in request
    assert "Todoist" not in system and "4 November" not in system


def test_loaders_list_then_declare_mcp_tools_and_the_call_routes_to_the_responder():
    texts = [call("load_connectors", connections=["todoist"]),
             call("load_tools", names=["todoist/add-tasks"]),
             call(TODOIST_ADD, tasks=[{"content": "renew passport", "dueString": "monday"}]),
             "Added to Todoist."]
    line, _, _ = run(mcp_scenario(), texts)
    listing = line.transcript[2].content
    assert listing.startswith("todoist (Todoist): 47 operations.")
    assert "- add-tasks:" in listing and "inputSchema" not in listing
    # Declared from the round after load_tools, after the natives.
    assert TODOIST_ADD not in line.rounds[1].tools
    assert line.rounds[2].tools[-1] == TODOIST_ADD
    assert line.rounds[2].tools[:-1] == [t.name for t in catalog().tools]
    # Internal id in the transcript, <connection>/<operation> in calls.
    assert line.transcript[5].calls[0].name == TODOIST_ADD
    assert line.transcript[6].name == TODOIST_ADD
    mcp_call = line.calls[2]
    assert (mcp_call.tool, mcp_call.failed, mcp_call.matched) == ("todoist/add-tasks", False, True)
    assert "declared" not in mcp_call.model_extra
    assert line.transcript[6].content == "Added task 8812: renew passport"


def test_an_mcp_call_before_load_tools_is_routed_and_marked_undeclared():
    line, _, _ = run(mcp_scenario(), [call("todoist/add-tasks", tasks=[{"content": "renew passport"}]), "Done."])
    record = line.calls[0]
    assert (record.tool, record.matched, record.model_extra.get("declared")) == ("todoist/add-tasks", True, False)
    assert line.transcript[1].calls[0].name == TODOIST_ADD


def test_an_operation_of_a_connection_not_installed_is_unknown():
    line, _, _ = run(mcp_scenario(), [call("gmail/search_threads", query="passport"), "No."])
    assert (line.calls[0].failed, line.calls[0].matched) == (True, False)
    assert "unknown tool" in line.transcript[2].content


def test_load_skills_returns_the_guidance_and_leaves_the_system_prompt_as_it_was():
    guidance = next(s for s in catalog().skills if s.name == "calendar").guidance.strip()
    line, backend, _ = run(scenario(), [call("load_skills", skills=["calendar"]), "ok"])
    assert guidance in line.transcript[2].content
    assert guidance not in line.rounds[1].system and line.rounds[1].system == line.rounds[0].system
    # The second round's conversation is the first's with the call and its result appended.
    first, second = (messages for messages, _ in backend.seen["en-calendar-test"])
    assert second[:len(first)] == first and guidance in second[-1]["content"]


def test_a_skill_the_catalog_does_not_have_is_refused_by_its_schema():
    line, _, _ = run(scenario(), [call("load_skills", skills=["calendar", "astrology"]), "ok"])
    assert line.calls[0].failed and 'got "astrology"' in line.transcript[2].content
    assert line.rounds[1].system == line.rounds[0].system


def test_messages_are_cut_at_4000_characters_in_the_transcript_only():
    long_request = "x" * 5000
    line, backend, _ = run(scenario(request=long_request), ["ok"])
    assert len(line.transcript[0].content) == MAX_MESSAGE_CHARS
    assert without_context(backend.seen["en-calendar-test"][0][0][-1]["content"]) == long_request


def test_a_backend_exception_is_a_backend_failure_and_keeps_the_rounds_so_far():
    line, _, _ = run(scenario(), [call("list_events", start="2026-11-05")])  # the script runs out
    assert line.failure is not None and line.failure.kind == "backend"
    assert "ScriptExhausted" in line.failure.message
    assert len(line.rounds) == 1 and line.calls[0].tool == "list_events"


def test_a_crash_inside_the_harness_is_a_harness_failure():
    line, _, _ = run(scenario(), [call("list_events", start="2026-11-05"), "ok"], raise_on="list_events")
    assert line.failure is not None and line.failure.kind == "harness"
    assert "stub phone broke" in line.failure.message
    assert len(line.rounds) == 1


class _Opening:
    name = "broken"

    def describe(self) -> dict:
        return {}

    def open(self, context: SessionContext):
        raise OSError("model file missing")


def test_a_backend_that_cannot_open_fails_the_turn_as_backend():
    line = run_scenario(scenario(), _Opening(), catalog(), host=object(), mcp=object())
    assert line.failure.kind == "backend" and "model file missing" in line.failure.message
    assert line.rounds == []


class _Thinking:
    name = "thinking"

    def describe(self) -> dict:
        return {}

    def open(self, context: SessionContext):
        return self

    def generate(self, messages, tools) -> Generation:
        return Generation(text="<think>abc</think>Hi", content="Hi", reasoning="abc")

    def close(self) -> None:
        pass


def test_reasoning_characters_are_counted():
    from test_loop_support import StubPhone
    from harness.loaders import McpDirectory

    s = scenario()
    line = run_scenario(s, _Thinking(), catalog(), host=StubPhone(s), mcp=McpDirectory({}))
    assert line.reasoningCharacters == 3 and line.rounds[0].reasoning == "abc"
