"""The reference agent: a scenario's reference calls and answer, or what it can build from the
expectations."""

from __future__ import annotations

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.scenario import ExpectedCall
from harness.backends.reference import ReferenceBackend, build_arguments, plan
from harness.loaders import McpDirectory
from harness.loop import run_scenario
from mcpmock import internal_id
from test_loop_support import StubPhone, catalog, scenario

DUBLIN = {"locale": "en_IE", "timeZone": "Europe/Dublin"}


def run_reference(s):
    phone = StubPhone(s)
    line = run_scenario(s, ReferenceBackend(), catalog(), host=phone,
                        mcp=McpDirectory.from_fixtures(phone.responder.fixtures), model="reference")
    return line, phone


def test_reference_calls_play_one_per_round_with_tokens_expanded_then_the_answer():
    s = scenario(reference={"calls": [
        {"tool": "list_events", "arguments": {"start": "{+1d}", "end": "{+2d}"}},
        {"tool": "update_event", "arguments": {"id": "evt-2", "start": "{+2d}T09:00"}}],
        "answer": "Moved your dentist to {weekday+2d} at 9:00."})
    line, phone = run_reference(s)
    assert phone.calls == [("list_events", {"start": "2026-11-05", "end": "2026-11-06"}),
                           ("update_event", {"id": "evt-2", "start": "2026-11-06T09:00"})]
    assert len(line.rounds) == 3 and [len(r.calls) for r in line.rounds] == [1, 1, 0]
    assert line.answer == "Moved your dentist to Friday at 9:00."
    assert line.rounds[0].text.startswith("<tool_call>")  # raw text, so the run replays


def test_mcp_reference_calls_come_after_load_connectors_and_load_tools_under_internal_ids():
    s = scenario(id="en-mcp-todoist-passport", category="mcp", connections=["todoist"],
                 tools={"todoist/add-tasks": [{"match": ["passport"], "result": "Added task 8812"}]},
                 reference={"calls": [{"tool": "todoist/add-tasks",
                                       "arguments": {"tasks": [{"content": "renew passport", "dueString": "{+5d}"}]}}],
                            "answer": "Added."})
    line, _ = run_reference(s)
    assert [c.name for r in line.rounds for c in r.calls] == [
        "load_connectors", "load_tools", internal_id("todoist", "add-tasks")]
    assert [(c.tool, c.failed, c.matched) for c in line.calls] == [
        ("load_connectors", False, True), ("load_tools", False, True), ("todoist/add-tasks", False, True)]
    assert line.calls[2].arguments == {"tasks": [{"content": "renew passport", "dueString": "2026-11-09"}]}


def test_without_reference_the_expected_calls_and_required_strings_are_played():
    s = scenario(id="en-scheduled-dart-delays", category="scheduled",
                 request="at half 7 tomorrow morning check if there's any delays on the DART and let me know",
                 expect={"calls": [{"tool": "schedule_task", "args": ["{+1d}T07:30", "DART"]}],
                         "answerAny": ["7:30", "07:30"], "answer": ["DART"]})
    line, phone = run_reference(s)
    (name, arguments), = phone.calls
    assert name == "schedule_task"
    assert "2026-11-05T07:30" in arguments.values() and "DART" in " ".join(map(str, arguments.values()))
    assert line.answer == "DART 7:30"


def test_anyof_plays_its_first_alternative():
    s = scenario(expect={"anyOf": [[{"tool": "search_contacts", "args": ["Jörg"]}],
                                   [{"tool": "search_contacts", "args": ["Weber"]}]]})
    steps, _ = plan(s, clock_for(s.phone, s.language))
    assert [st.name for st in steps] == ["search_contacts"] and steps[0].expected.args == ["Jörg"]


def test_build_arguments_places_dates_numbers_text_and_json_members():
    clock = clock_for(DUBLIN, "en")
    schema = {"type": "object", "required": ["to", "text"], "properties": {
        "to": {"type": "string"}, "text": {"type": "string"}, "when": {"type": "string", "format": "date-time"},
        "mode": {"type": "string", "enum": ["driving", "transit"]}, "count": {"type": "integer"}}}
    expected = ExpectedCall(tool="x", args=["+353 00 123 4567", "on my way", "{+1d}T08:00", '"mode":"transit"'])
    assert build_arguments(expected, schema, clock, "req") == {
        "to": "+353 00 123 4567", "text": "on my way", "when": "2026-11-05T08:00", "mode": "transit"}


def test_build_arguments_fills_missing_required_properties_by_type():
    clock = clock_for(DUBLIN, "en")
    schema = {"type": "object", "required": ["kind", "minutes", "loud", "at"], "properties": {
        "kind": {"enum": ["a", "b"]}, "minutes": {"type": "integer", "minimum": 5},
        "loud": {"type": "boolean"}, "at": {"type": "string", "format": "date-time"}}}
    assert build_arguments(ExpectedCall(tool="x"), schema, clock, "req") == {
        "kind": "a", "minutes": 5, "loud": False, "at": "2026-11-04T10:30"}
