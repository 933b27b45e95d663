"""Raw model text to answer, reasoning, calls and parse errors, with mlx-lm's parsers."""

from __future__ import annotations

import pytest

from harness.backend import ParsedCall
from harness.toolcalls import parse_text, render_calls

TWO_CALLS = ('Checking.\n<tool_call>\n{"name": "list_events", "arguments": {"start": "2026-11-05"}}\n</tool_call>\n'
             '<tool_call>\n{"name": "get_weather", "arguments": "{\\"place\\": \\"Cork\\"}"}\n</tool_call>')


def test_two_json_calls_and_the_text_around_them():
    g = parse_text(TWO_CALLS, "json_tools")
    assert g.calls == [ParsedCall("list_events", {"start": "2026-11-05"}),
                       ParsedCall("get_weather", {"place": "Cork"})]  # a JSON-string object reads as the object
    assert g.content == "Checking." and g.parse_errors == [] and g.text == TWO_CALLS


def test_each_unreadable_block_is_one_parse_error_and_good_blocks_still_parse():
    text = ('<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>{oops}</tool_call>'
            '<tool_call>{"arguments": {}}</tool_call><tool_call>{"name": "b", "arguments": [1]}</tool_call>')
    g = parse_text(text, "json_tools")
    assert g.calls == [ParsedCall("a", {})]
    assert len(g.parse_errors) == 3
    assert "{oops}" in g.parse_errors[0] and "name" in g.parse_errors[1] and "object" in g.parse_errors[2]


def test_reasoning_is_split_off_whether_the_text_opens_the_think_block_or_the_prompt_did():
    assert parse_text("<think>plan</think>\n\nHello", "json_tools").reasoning == "plan"
    g = parse_text("plan</think>\n\nHello", "json_tools", in_reasoning=True)
    assert (g.reasoning, g.content) == ("plan", "Hello")


@pytest.mark.parametrize("fmt", ["json_tools", "qwen3_coder"])
def test_calls_written_by_render_calls_parse_back(fmt):
    calls = [ParsedCall("create_event", {"title": "Dentist", "start": "2026-11-06T09:00"}),
             ParsedCall("mcp.0541a296-35f5-5422-ba82-fdad44f2ed8b.add-tasks", {"tasks": [{"content": "x"}]})]
    tools = [{"type": "function", "function": {"name": calls[1].name, "parameters": {
        "type": "object", "properties": {"tasks": {"type": "array"}}}}}]
    assert parse_text(render_calls(calls, fmt), fmt, tools).calls == calls


def test_an_unknown_format_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown tool format 'hermes9'"):
        parse_text("x", "hermes9")


SETTING = [{"type": "function", "function": {"name": "set_device_setting", "parameters": {
    "type": "object", "properties": {"setting": {"type": "string"},
                                     "value": {"type": ["string", "integer", "boolean"]}}}}}]


def _setting_call(value: str) -> str:
    return ("<tool_call>\n<function=set_device_setting>\n<parameter=setting>\nlowPower\n</parameter>\n"
            f"<parameter=value>\n{value}\n</parameter>\n</function>\n</tool_call>")


@pytest.mark.parametrize("written, meant", [("true", True), ("True", True), ("false", False),
                                            ("30", 30), ("on", "on")])
def test_a_union_typed_value_is_read_as_the_model_meant_it(written, meant):
    (call,) = parse_text(_setting_call(written), "qwen3_coder", SETTING).calls
    assert call.arguments["value"] == meant and type(call.arguments["value"]) is type(meant)


def test_render_calls_writes_qwen3_coder_values_as_the_template_does():
    text = render_calls([ParsedCall("set_device_setting", {"setting": "lowPower", "value": True}),
                         ParsedCall("x", {"items": [{"a": 7.2, "b": "é"}]})], "qwen3_coder")
    assert "\nTrue\n" in text and '[{"a": 7.2, "b": "é"}]' in text


def test_an_unreadable_block_stays_in_the_turns_text_as_written():
    broken = "<tool_call>\n<function=list_events>\n<parameter=start>\n2026-11-06\n</parameter>\n</tool_call>"
    g = parse_text("Checking.\n\n" + broken, "qwen3_coder")
    assert g.calls == [] and len(g.parse_errors) == 1
    assert g.content == "Checking.\n\n" + broken
    unterminated = '<tool_call>\n{"name": "a", "arguments": {'
    assert parse_text(unterminated, "json_tools").content == unterminated


def test_a_call_whose_argument_holds_the_end_marker_reads_back_as_written():
    from harness.backend import ParsedCall
    from harness.toolcalls import parse_text, render_calls

    calls = [ParsedCall("send_message", {"to": "Aoife", "text": "type </tool_call> to end", "n": 10**24})]
    parsed = parse_text(render_calls(calls, "json_tools"), "json_tools")
    assert parsed.parse_errors == [] and parsed.calls == calls
