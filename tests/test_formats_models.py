"""Scenario and result files: the card's fields, unknown fields kept, every bad line reported."""

import json

import pytest
from pydantic import ValidationError

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors, append_line, read_models, write_models
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario

CARD_EXAMPLE = {
    "id": "en-scheduled-dart-delays", "language": "en", "category": "scheduled",
    "request": "at half 7 tomorrow morning check if there's any delays on the DART and let me know",
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
              "location": {"place": "Dublin, Ireland", "lat": 53.3331, "lon": -6.2489}},
    "expect": {"calls": [{"tool": "schedule_task", "args": ["{+1d}T07:30", "DART"]}],
               "forbid": ["search_web", "fetch_url", "create_reminder", "schedule_alarm"],
               "answerAny": ["7:30", "07:30"]},
}


def write_lines(path, lines):
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)
                              for x in lines) + "\n", encoding="utf-8")
    return path


def test_the_cards_example_scenario_loads():
    s = Scenario.model_validate(CARD_EXAMPLE)
    assert s.expect.calls[0].tool == "schedule_task"
    assert s.expect.calls[0].args == ["{+1d}T07:30", "DART"]
    assert s.expect.forbid[-1] == "schedule_alarm"
    assert (s.locale, s.time_zone, s.expected_language) == ("en_IE", "Europe/Dublin", "en")
    assert s.expect.noTools is False and s.expect.calls[0].ok is None


def test_every_expectation_key_of_the_card_is_a_field():
    s = Scenario.model_validate({**CARD_EXAMPLE, "expect": {
        "calls": [{"tool": "a", "args": "x", "argsAny": ["y"], "argsGroups": [["p", "q"], "r"],
                   "argsNot": ["z"], "ok": False}],
        "anyOf": [[{"tool": "b"}], [{"tool": "c"}, {"tool": "d"}]],
        "forbid": "e", "noTools": True, "answer": "1", "answerAny": ["2"],
        "answerGroups": [["3", "4"]], "answerNot": ["5"], "language": "de"}})
    call = s.expect.calls[0]
    # A single string is read as a one-item list, in lists and in groups.
    assert (call.args, call.argsGroups, call.ok) == (["x"], [["p", "q"], ["r"]], False)
    assert [[c.tool for c in seq] for seq in s.expect.anyOf] == [["b"], ["c", "d"]]
    assert (s.expect.forbid, s.expect.answer, s.expected_language) == (["e"], ["1"], "de")


def test_unknown_fields_are_kept_and_written_back():
    data = {**CARD_EXAMPLE, "futureField": {"x": 1},
            "expect": {**CARD_EXAMPLE["expect"], "newKey": [1, 2]}}
    s = Scenario.model_validate(data)
    assert s.dump() == data


def test_mcp_rules_load_with_match_nth_result_error_and_structured():
    s = Scenario.model_validate({**CARD_EXAMPLE, "connections": ["todoist"], "tools": {
        "todoist/find-tasks": [{"match": "passport", "nth": 2, "result": "[]", "error": True,
                                "structured": {"tasks": []}}]}})
    rule = s.tools["todoist/find-tasks"][0]
    assert (rule.match, rule.nth, rule.error, rule.structured) == (["passport"], 2, True, {"tasks": []})


RESULT = {
    "id": "en-scheduled-dart-delays", "language": "en", "category": "scheduled",
    "model": "orvena-4b", "seed": 7, "passed": True, "issues": [],
    "answer": "I'll check the DART at 7:30 tomorrow.",
    "calls": [{"tool": "schedule_task", "arguments": '{"when": "2026-11-05T07:30"}',
               "failed": False, "matched": True},
              {"tool": "gmail/search_threads", "arguments": {"q": "DART"}}],
    "transcript": [{"role": "user", "content": "..."},
                   {"role": "assistant", "content": "", "calls": [
                       {"name": "mcp.1234.search_threads", "arguments": {"q": "DART"}}]},
                   {"role": "tool", "name": "mcp.1234.search_threads", "content": "no threads"}],
    "seconds": 3.2, "reasoningCharacters": 0, "rounds": [],
}


def test_a_result_line_loads_with_calls_transcript_and_tool_outputs():
    line = ResultLine.model_validate(RESULT)
    assert line.calls[0].arguments_object() == {"when": "2026-11-05T07:30"}
    assert line.calls[1].tool == "gmail/search_threads" and line.calls[1].failed is False
    assert line.tool_outputs() == ["no threads"]
    assert line.failure is None
    assert line.dump() == RESULT


def test_a_failed_turn_records_its_kind():
    line = ResultLine.model_validate({**RESULT, "failure": {"kind": "round-limit", "message": "8 rounds"}})
    assert line.failure.kind == "round-limit"
    # Another harness's kind is kept as written: the turn still failed.
    assert ResultLine.model_validate({**RESULT, "failure": {"kind": "gave-up"}}).failure.kind == "gave-up"


def test_every_bad_line_is_reported_with_file_line_and_field(tmp_path):
    path = write_lines(tmp_path / "bench.jsonl", [
        CARD_EXAMPLE,
        "{not json",
        {**CARD_EXAMPLE, "id": "x"},
        {k: v for k, v in CARD_EXAMPLE.items() if k != "request"},
        {**CARD_EXAMPLE, "expect": {"calls": [{"args": ["x"]}]}},
    ])
    with pytest.raises(FormatErrors) as raised:
        read_models(path, Scenario)
    messages = [str(e) for e in raised.value.errors]
    assert len(messages) == 3
    assert messages[0].startswith(f"{path}:2: not valid JSON")
    assert messages[1].startswith(f"{path}:4: field request: ")
    assert messages[2].startswith(f"{path}:5: field expect.calls[0].tool: ")


def test_bad_lines_can_be_collected_so_the_good_ones_still_load(tmp_path):
    path = write_lines(tmp_path / "bench.jsonl", [CARD_EXAMPLE, "[]", {**CARD_EXAMPLE, "id": "b"}])
    errors: list[FormatError] = []
    good = read_models(path, Scenario, errors=errors)
    assert [s.id for s in good] == ["en-scheduled-dart-delays", "b"]
    assert len(errors) == 1 and errors[0].line == 2


def test_appended_and_rewritten_lines_read_back_the_same(tmp_path):
    path = tmp_path / "run.jsonl"
    line = ResultLine.model_validate(RESULT)
    with open(path, "ab") as handle:
        append_line(handle, line)
        append_line(handle, {**RESULT, "id": "second", "note": "Zürich 東京"})
    back = read_models(path, ResultLine)
    assert back[0] == line and back[1].id == "second" and back[1].note == "Zürich 東京"
    assert "Zürich 東京" in path.read_text(encoding="utf-8")  # no ASCII escaping
    write_models(path, [back[1]])
    assert [r.id for r in read_models(path, ResultLine)] == ["second"]
    assert not (tmp_path / "run.jsonl.tmp").exists()


def test_format_error_names_file_line_and_field_in_one_line():
    error = FormatError("expected a list", file="scenarios/bench.jsonl", line=12, field="expect.forbid")
    assert str(error) == "scenarios/bench.jsonl:12: field expect.forbid: expected a list"


def test_a_line_from_another_harness_reads_as_the_card_defines_it_and_writes_back_as_it_came():
    raw = {**RESULT, "answer": None, "seconds": None, "x-run": {"gpu": "none"},
           "transcript": [
               {"role": "user", "content": "hi"},
               {"role": "assistant", "content": None, "tool_calls": [
                   {"id": "c1", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\"place\": \"Lyon\"}"}}]},
               {"role": "assistant", "calls": [{"tool": "search_web", "arguments": {}}]},
               {"role": "tool", "content": [{"type": "text", "text": "18 degrees"}], "x": 1}],
           "rounds": [{"timing": None}, {"timing": {"promptTokens": None}, "text": 5}],
           "failure": None}
    line = ResultLine.read(raw)
    assert line.answer == "" and line.seconds == 0.0
    assert [c.name for m in line.transcript for c in m.calls] == ["get_weather", "search_web"]
    assert line.tool_outputs() == ["18 degrees"]
    assert [r.timing.promptTokens for r in line.rounds] == [0, 0]
    rescored = line.model_copy(update={"passed": True, "issues": []})
    assert rescored.data() == {**raw, "passed": True, "issues": []}


def test_what_scoring_needs_is_still_required():
    for field in ("id", "model"):
        with pytest.raises(ValidationError, match=field):
            ResultLine.read({k: v for k, v in RESULT.items() if k != field})
    with pytest.raises(ValidationError, match="calls.0.tool"):
        ResultLine.read({**RESULT, "calls": [{"arguments": {}}]})
