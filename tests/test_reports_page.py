"""What the HTML page embeds for a run: each round with the tool results it got, or the
transcript when a backend records no rounds; and nothing that would end the script early."""

from __future__ import annotations

from reports_data import line

from orvena_bench.formats.result import ResultLine
from orvena_bench.reports.html import run_details, script_json


def run(**options) -> dict:
    calls = [{"tool": "search_contacts", "arguments": {"query": "Aoife"}},
             {"tool": "send_message", "arguments": {"to": "+353 00 123 4567"}}]
    return run_details(ResultLine.model_validate(line("en-contacts-a", "m", True, calls=calls,
                                                       rounds=3, **options)))


def test_each_round_carries_the_tool_results_that_answered_it():
    details = run()
    rounds = details["rounds"]
    assert [len(r["calls"]) for r in rounds] == [1, 1, 0]
    assert [[m["name"] for m in r["results"]] for r in rounds] == [["search_contacts"],
                                                                  ["send_message"], []]
    assert rounds[0]["promptTokens"] == 2400 and rounds[1]["cachedTokens"] == 2400
    assert rounds[0]["systemChars"] > 0 and "system" not in rounds[0]  # size only, not the text
    assert details["transcript"] is None  # the rounds already show it


def test_without_recorded_rounds_the_transcript_after_the_request_is_shown():
    raw = line("en-contacts-a", "apple", True, calls=[{"tool": "search_contacts"}], rounds=2)
    raw["rounds"] = []
    raw["transcript"] = [{"role": "user", "content": "earlier"},
                         {"role": "assistant", "content": "sure"}, *raw["transcript"]]
    details = run_details(ResultLine.model_validate(raw))
    assert details["rounds"] == []
    assert [m["role"] for m in details["transcript"]] == ["assistant", "tool", "assistant"]


def test_embedded_json_cannot_close_the_script_element():
    text = script_json({"answer": "</script><script>alert(1)</script>"})
    assert "<" not in text and "\\u003c/script>" in text
