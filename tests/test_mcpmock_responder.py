"""The card's rules: the first rule whose match strings all appear in the call's arguments
(case- and accent-insensitive) and whose optional nth equals the call's count answers; an
operation without a matching rule is not found; arguments are validated first."""

import orjson
import pytest
from mcp.types import CallToolResult, ImageContent, TextContent
from test_mcpmock_support import GMAIL, TODOIST, clock_of, scenario

from orvena_bench.formats.errors import FormatError
from mcpmock.fixtures import Fixture
from mcpmock.render import result_text, tool_declaration
from mcpmock.responder import NOT_FOUND, Responder, unreachable_rules


@pytest.fixture
def fixtures(tmp_path):
    out = {}
    for name, data in (("todoist", TODOIST), ("gmail", GMAIL)):
        path = tmp_path / f"{name}.json"
        path.write_bytes(orjson.dumps(data))
        out[name] = Fixture.load(name, path)
    return out


def make(fixtures, **changes):
    s = scenario(**changes)
    return Responder(s, clock_of(s), fixtures=fixtures)


def test_the_first_matching_rule_answers(fixtures):
    r = make(fixtures)
    out = r.call("gmail", "search_threads", {"query": "Zürich invoice receipt"})
    assert out.text == "1 thread: Invoice from Zürich office"
    assert (out.failed, out.matched) == (False, True)


def test_every_match_string_must_appear(fixtures):
    r = make(fixtures)
    out = r.call("gmail", "search_threads", {"query": "invoice"})
    assert out.text == NOT_FOUND
    assert (out.failed, out.matched) == (True, False)


def test_match_ignores_case_and_accents(fixtures):
    r = make(fixtures)
    assert r.call("gmail", "search_threads", {"query": "ZURICH Invoice"}).matched
    assert r.call("gmail", "search_threads", {"query": "zürich INVOİCE"}).matched


def test_match_reads_the_whole_arguments_json(fixtures):
    # Strings are searched in the compact JSON, so they may span keys and nested values.
    r = make(fixtures, tools={"todoist/add-tasks": [
        {"match": ['"priority":"p1"', "dentist"], "result": "urgent"}]})
    args = {"tasks": [{"content": "Call the dentist", "priority": "p1"}]}
    assert r.call("todoist", "add-tasks", args).text == "urgent"


def test_nth_counts_the_calls_of_that_operation(fixtures):
    r = make(fixtures)
    first = r.call("todoist", "find-tasks", {"searchText": "passport"})
    assert first.text == "Temporary failure" and first.failed and first.matched
    second = r.call("todoist", "find-tasks", {"searchText": "passport"})
    # +5d from Wednesday 4 November 2026 is Monday 9 November, named in the phone's language.
    assert second.text == "1 task: Renew passport, due Monday"
    assert not second.failed and second.matched
    assert r.count("todoist", "find-tasks") == 2


def test_nth_counts_every_call_of_the_operation_even_unanswered_ones(fixtures):
    r = make(fixtures)
    assert r.call("todoist", "find-tasks", {"searchText": "milk"}).text == NOT_FOUND
    assert r.call("todoist", "find-tasks", {"searchText": 7}).failed  # invalid, still counted
    # Third call: the nth=1 rule no longer applies, the next rule answers.
    assert r.call("todoist", "find-tasks", {"searchText": "passport"}).text.startswith("1 task")


def test_counts_are_per_operation_and_per_responder(fixtures):
    r = make(fixtures)
    r.call("gmail", "search_threads", {"query": "x"})
    assert r.call("todoist", "find-tasks", {"searchText": "passport"}).failed  # its 1st call
    fresh = make(fixtures)
    assert fresh.call("todoist", "find-tasks", {"searchText": "passport"}).text == \
        "Temporary failure"


def test_error_rules_set_is_error(fixtures):
    r = make(fixtures)
    result = r.call_result("todoist", "find-tasks", {"searchText": "passport"})
    assert isinstance(result, CallToolResult)
    assert result.is_error is True
    assert result.content == [TextContent(type="text", text="Temporary failure")]


def test_structured_rules_give_structured_content_with_tokens_expanded(fixtures):
    r = make(fixtures)
    result = r.call_result("gmail", "search_threads", {"query": "receipt"})
    assert result.is_error is False
    assert result.structured_content == {"threads": [{"id": "t-1", "date": "2026-11-05"}]}
    # No result text: the model reads the structured content as compact JSON.
    assert result_text(result) == '{"threads":[{"id":"t-1","date":"2026-11-05"}]}'
    out = make(fixtures).call("gmail", "search_threads", {"query": "receipt"})
    assert out.structured == {"threads": [{"id": "t-1", "date": "2026-11-05"}]}


def test_tokens_use_the_phone_language_and_match_strings_expand_too(fixtures):
    s = scenario(phone={"locale": "fr_FR", "timeZone": "Europe/Paris"}, tools={
        "todoist/add-tasks": [{"match": ["{+5d}"], "result": "Tâche ajoutée pour {weekday+5d}"}]})
    r = Responder(s, clock_of(s), fixtures=fixtures)
    args = {"tasks": [{"content": "Passeport", "dueString": "2026-11-09"}]}
    assert r.call("todoist", "add-tasks", args).text == "Tâche ajoutée pour lundi"
    assert r.call("todoist", "add-tasks", {"tasks": [{"content": "x"}]}).text == NOT_FOUND


def test_an_operation_without_rules_is_not_found(fixtures):
    out = make(fixtures).call("todoist", "add-tasks", {"tasks": [{"content": "milk"}]})
    assert (out.text, out.failed, out.matched) == (NOT_FOUND, True, False)


def test_an_operation_the_fixture_lacks_is_an_unknown_tool(fixtures):
    out = make(fixtures).call("todoist", "delete-everything", {})
    assert out.text == "Unknown tool: delete-everything"
    assert (out.failed, out.matched) == (True, False)


def test_a_connection_not_installed_is_an_error(fixtures):
    s = scenario(connections=["todoist"])
    r = Responder(s, clock_of(s), fixtures=fixtures)
    out = r.call("gmail", "search_threads", {"query": "invoice"})
    assert out.failed and not out.matched
    assert "gmail" in out.text and "not installed" in out.text


@pytest.mark.parametrize(("arguments", "expected"), [
    ({}, "Invalid arguments for add-tasks: arguments: 'tasks' is a required property"),
    ({"tasks": []}, "Invalid arguments for add-tasks: tasks: [] should be non-empty"),
    ({"tasks": [{"dueString": "monday"}]},
     "Invalid arguments for add-tasks: tasks[0]: 'content' is a required property"),
    ({"tasks": [{"content": "x", "priority": "high"}]},
     "Invalid arguments for add-tasks: tasks[0].priority: 'high' is not one of "
     "['p1', 'p2', 'p3', 'p4']"),
    ("not an object", "Invalid arguments for add-tasks: arguments must be an object"),
])
def test_schema_violations_are_errors_naming_the_field(fixtures, arguments, expected):
    out = make(fixtures).call("todoist", "add-tasks", arguments)
    assert out.text == expected
    assert (out.failed, out.matched) == (True, False)


def test_arguments_are_validated_before_rules(fixtures):
    # The JSON holds both match strings, but query has the wrong type: no rule may answer.
    out = make(fixtures).call("gmail", "search_threads",
                              {"query": 5, "note": "Zürich invoice"})
    assert out.text.startswith("Invalid arguments for search_threads: query: 5 is not of type")
    assert not out.matched


def test_missing_arguments_read_as_an_empty_object(fixtures):
    assert make(fixtures).call("todoist", "find-tasks", None).text == NOT_FOUND


def test_a_bad_token_fails_when_the_responder_is_built(fixtures):
    with pytest.raises(FormatError) as e:
        make(fixtures, tools={"gmail/search_threads": [{"result": "on {weekday+1x}"}]})
    assert "tools.gmail/search_threads[0].result: bad token {weekday+1x}" in str(e.value)
    assert "en-mcp-renew-passport" in str(e.value)


def test_a_key_without_connection_is_a_format_error(fixtures):
    with pytest.raises(FormatError, match="<connection>/<operation>"):
        make(fixtures, tools={"search_threads": [{"result": "x"}]})


def test_unreachable_rules_are_reported(fixtures):
    s = scenario(connections=["todoist"], tools={
        "todoist/add-tasks": [{"result": "ok"}],
        "todoist/add-task": [{"result": "typo"}],
        "gmail/search_threads": [{"result": "not installed"}],
    })
    assert unreachable_rules(s, fixtures) == [
        "tools.todoist/add-task: todoist has no operation 'add-task'",
        "tools.gmail/search_threads: connection 'gmail' is not installed",
    ]


def test_result_text_joins_text_blocks_and_prefers_them_to_structured_content():
    result = CallToolResult(
        content=[TextContent(type="text", text="a"),
                 ImageContent(type="image", data="AA==", mime_type="image/png"),
                 TextContent(type="text", text="b")],
        structured_content={"x": 1})
    assert result_text(result) == "a\n[image: image/png]\nb"


def test_tool_declaration_uses_the_internal_id(fixtures):
    tool = fixtures["gmail"].tool("search_threads")
    declared = tool_declaration("gmail", tool)["function"]
    assert declared["name"].startswith("mcp.") and declared["name"].endswith(".search_threads")
    assert declared["parameters"] == GMAIL["tools"][0]["inputSchema"]
    assert declared["description"] == "Search mail threads."
