"""The card's scoring rules, one test per rule (the language check has its own file)."""

import pytest

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from scoring import CHECK_KINDS, score


def scenario(expect, category="calendar", language="en", **extra):
    return Scenario.model_validate({
        "id": f"{language}-{category}-test", "language": language, "category": category,
        "request": "...", "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin"},
        "expect": expect, **extra})


def call(tool, failed=False, **arguments):
    return {"tool": tool, "arguments": arguments, "failed": failed, "matched": True}


def result(calls=(), answer="Done.", **extra):
    return ResultLine.model_validate({"id": "en-calendar-test", "language": "en",
                                      "category": "calendar", "model": "m", "calls": list(calls),
                                      "answer": answer, **extra})


def verdict(expect, calls=(), answer="Done.", category="calendar", **extra):
    return score(scenario(expect, category), result(calls, answer, **extra), language_check=False)


def kinds(v):
    return [c.kind for c in v.checks]


# --- calls ----------------------------------------------------------------------------------------
LIST_THEN_UPDATE = {"calls": [{"tool": "list_events"}, {"tool": "update_event", "args": ["evt-7"]}]}


def test_expected_calls_pass_in_order_with_other_calls_in_between():
    v = verdict(LIST_THEN_UPDATE, [call("list_events"), call("search_contacts"),
                                   call("update_event", id="evt-7")])
    assert v.passed and v.issues == []


def test_expected_calls_out_of_order_fail_and_say_so():
    v = verdict(LIST_THEN_UPDATE, [call("update_event", id="evt-7"), call("list_events")])
    assert not v.passed
    assert v.issues == ["the expected call to update_event (2 of 2) was made only before "
                        "list_events, not after it as expected"]
    assert kinds(v) == ["wrong-or-missing-call"]


def test_out_of_order_names_the_last_expected_call_that_was_found():
    expect = {"calls": [{"tool": "list_events"}, {"tool": "search_contacts"}, {"tool": "update_event"}]}
    v = verdict(expect, [call("update_event"), call("list_events")])
    assert v.issues == ["the expected call to search_contacts (2 of 3) was not made",
                        "the expected call to update_event (3 of 3) was made only before "
                        "list_events, not after it as expected"]


def test_each_expected_call_needs_its_own_call():
    expect = {"calls": [{"tool": "send_message", "args": ["Anna"]},
                        {"tool": "send_message", "args": ["Anna"]}]}
    assert not verdict(expect, [call("send_message", to="Anna")]).passed
    assert verdict(expect, [call("send_message", to="Anna"), call("send_message", to="Anna")]).passed


def test_greedy_matching_finds_the_sequence_when_one_exists():
    # The first get_weather matches the first expected call only loosely; the right assignment
    # still exists and is found.
    expect = {"calls": [{"tool": "get_weather"}, {"tool": "get_weather", "args": ["Lyon"]}]}
    assert verdict(expect, [call("get_weather", city="Lyon"), call("get_weather", city="Lyon")]).passed
    assert not verdict(expect, [call("get_weather", city="Lyon"), call("get_weather", city="Paris")]).passed


def test_a_missing_call_is_named():
    v = verdict({"calls": [{"tool": "schedule_task"}]}, [call("create_reminder")])
    assert v.issues == ["the expected call to schedule_task was not made"]


def test_a_missing_call_with_unparsed_call_text_is_a_parse_failure():
    v = verdict({"calls": [{"tool": "schedule_task"}]}, [],
                rounds=[{"parseErrors": ["<tool_call>{bad json"]}])
    assert kinds(v) == ["parse-failure"]
    assert v.issues == ["the expected call to schedule_task was not made (1 tool call the model "
                        "wrote could not be parsed)"]


def test_the_cards_example_with_tokens_expanded_from_the_phone_clock():
    expect = {"calls": [{"tool": "schedule_task", "args": ["{+1d}T07:30", "DART"]}],
              "forbid": ["search_web", "fetch_url", "create_reminder", "schedule_alarm"],
              "answerAny": ["7:30", "07:30"]}
    good = [call("schedule_task", when="2026-11-05T07:30", task="check DART delays")]
    assert verdict(expect, good, "I'll check the DART at 7:30.").passed
    v = verdict(expect, [call("schedule_task", when="2026-11-05T08:30", task="DART")], "At 7:30.")
    assert v.issues == ['the expected call to schedule_task was made, but its arguments lack '
                        '"2026-11-05T07:30"']
    assert kinds(v) == ["wrong-arguments"]


# --- args, argsAny, argsGroups, argsNot ---------------------------------------------------------
def test_args_all_must_appear_in_the_json_arguments():
    expect = {"calls": [{"tool": "create_event", "args": ["Dentist", "2026-11-06"]}]}
    assert verdict(expect, [call("create_event", title="dentist", start="2026-11-06T09:00")]).passed
    v = verdict(expect, [call("create_event", title="Dentist")])
    assert v.issues == ['the expected call to create_event was made, but its arguments lack "2026-11-06"']


def test_args_match_case_and_accent_insensitively_and_in_json_strings():
    expect = {"calls": [{"tool": "get_weather", "args": ["ZURICH"]}]}
    assert verdict(expect, [{"tool": "get_weather", "arguments": '{"city": "Zürich"}'}]).passed


def test_args_any_needs_one_of_them():
    expect = {"calls": [{"tool": "start_timer", "argsAny": ["PT12M", "720"]}]}
    assert verdict(expect, [call("start_timer", seconds=720)]).passed
    v = verdict(expect, [call("start_timer", seconds=700)])
    assert v.issues == ['the expected call to start_timer was made, but its arguments contain '
                        'none of "PT12M" or "720"']


def test_args_groups_need_one_of_each_group():
    expect = {"calls": [{"tool": "send_message", "argsGroups": [["Anna", "+353 00"], ["on my way", "omw"]]}]}
    assert verdict(expect, [call("send_message", to="Anna", text="omw!")]).passed
    v = verdict(expect, [call("send_message", to="Anna", text="coming")])
    assert v.issues == ['the expected call to send_message was made, but its arguments contain '
                        'none of "on my way" or "omw"']


def test_args_not_must_not_appear():
    expect = {"calls": [{"tool": "send_message", "args": ["Anna"], "argsNot": ["Anna Berg"]}]}
    assert verdict(expect, [call("send_message", to="Anna Lind")]).passed
    v = verdict(expect, [call("send_message", to="Anna Berg")])
    assert v.issues == ['the expected call to send_message was made, but its arguments contain '
                        'the excluded "Anna Berg"']


def test_the_closest_of_several_calls_is_described():
    expect = {"calls": [{"tool": "get_weather", "args": ["Lyon", "{+3d}"]}]}
    v = verdict(expect, [call("get_weather", city="Paris"), call("get_weather", city="Lyon")])
    assert v.issues == ['the expected call to get_weather was made 2 times; in the closest call '
                        'its arguments lack "2026-11-07"']


# --- ok and the recovery/unsupported exception --------------------------------------------------
def test_a_failed_call_does_not_count_by_default():
    v = verdict({"calls": [{"tool": "search_contacts", "args": ["Jorg"]}]},
                [call("search_contacts", failed=True, query="Jorg")])
    assert kinds(v) == ["failed-call"]
    assert v.issues == ["the expected call to search_contacts was made, but it failed (a failed "
                        "call counts only in recovery and unsupported scenarios)"]


@pytest.mark.parametrize("category", ["recovery", "unsupported"])
def test_a_failed_call_counts_in_recovery_and_unsupported_scenarios(category):
    expect = {"calls": [{"tool": "search_contacts", "args": ["Jorg"]}]}
    assert verdict(expect, [call("search_contacts", failed=True, query="Jorg")], category=category).passed


def test_ok_true_requires_success_even_in_recovery():
    expect = {"calls": [{"tool": "search_contacts", "ok": True}]}
    v = verdict(expect, [call("search_contacts", failed=True)], category="recovery")
    assert v.issues == ["the expected call to search_contacts was made, but it failed"]
    assert verdict(expect, [call("search_contacts", failed=True), call("search_contacts")],
                   category="recovery").passed


def test_ok_false_requires_failure_in_any_category():
    expect = {"calls": [{"tool": "search_contacts", "args": ["Jorg"], "ok": False},
                        {"tool": "search_contacts", "args": ["Jörg"], "ok": True}]}
    calls = [call("search_contacts", failed=True, query="Jorg"), call("search_contacts", query="Jörg")]
    assert verdict(expect, calls, category="contacts").passed
    v = verdict({"calls": [{"tool": "search_contacts", "ok": False}]}, [call("search_contacts")])
    assert v.issues == ["the expected call to search_contacts was made, but it succeeded where it "
                        "was expected to fail"]


# --- anyOf --------------------------------------------------------------------------------------
ANY_OF = {"anyOf": [[{"tool": "search_contacts"}, {"tool": "send_message", "args": ["Marta"]}],
                    [{"tool": "send_message", "args": ["+34 00 123 456"]}]]}


def test_any_of_passes_when_one_alternative_appears():
    assert verdict(ANY_OF, [call("send_message", to="+34 00 123 456")]).passed
    assert verdict(ANY_OF, [call("search_contacts"), call("send_message", to="Marta")]).passed


def test_any_of_failing_names_the_closest_alternative():
    v = verdict(ANY_OF, [call("search_contacts"), call("send_message", to="Mario")])
    assert kinds(v) == ["wrong-arguments"]
    assert v.issues == ["none of the 2 alternative call sequences was made; in the closest "
                        "(search_contacts then send_message), the expected call to send_message "
                        '(2 of 2) was made, but its arguments lack "Marta"']


def test_calls_and_any_of_must_both_hold():
    expect = {"calls": [{"tool": "list_events"}], **ANY_OF}
    assert not verdict(expect, [call("send_message", to="+34 00 123 456")]).passed
    assert verdict(expect, [call("list_events"), call("send_message", to="+34 00 123 456")]).passed


# --- forbid and noTools -------------------------------------------------------------------------
def test_a_forbidden_tool_fails_even_when_it_failed():
    v = verdict({"forbid": ["schedule_alarm", "create_reminder"]},
                [call("schedule_alarm", failed=True), call("schedule_alarm")])
    assert v.issues == ["the forbidden tool schedule_alarm was called (2 times)"]
    assert kinds(v) == ["forbidden-tool"]


def test_forbid_names_tools_exactly_including_mcp_operations():
    expect = {"forbid": ["gmail/send_message"]}
    assert verdict(expect, [call("send_message"), call("gmail/search_threads")]).passed
    assert not verdict(expect, [call("gmail/send_message")]).passed


def test_no_tools_fails_on_any_call_loaders_included():
    # The card of the restraint set: "A call to any tool fails them".
    expect = {"noTools": True}
    assert verdict(expect, [], answer="Sorry, I can't order food.").passed
    v = verdict(expect, [call("load_connectors")])
    assert v.issues == ["no tool was needed, but the model called load_connectors"]
    v = verdict(expect, [call("get_weather"), call("search_web")])
    assert v.issues == ["no tool was needed, but the model called get_weather, search_web"]
    assert kinds(v) == ["tool-when-none-needed"]


def test_loader_calls_never_need_to_be_listed():
    assert verdict(LIST_THEN_UPDATE, [call("load_skills"), call("list_events"), call("load_tools"),
                                      call("update_event", id="evt-7")]).passed


# --- the answer ---------------------------------------------------------------------------------
def test_answer_needs_every_string():
    v = verdict({"answer": ["Lyon", "{weekday+3d}"]}, answer="Rain in Lyon on Saturday.")
    assert v.passed
    v = verdict({"answer": ["Lyon", "{weekday+3d}"]}, answer="Rain in Lyon.")
    assert v.issues == ['the answer does not contain "Saturday"']
    assert kinds(v) == ["missing-answer"]


def test_answer_any_and_groups():
    expect = {"answerAny": ["7:30", "07:30"], "answerGroups": [["sunny", "clear"], ["18", "18°"]]}
    assert verdict(expect, answer="Clear skies, 18°C, leave at 07:30.").passed
    v = verdict(expect, answer="Clear skies at 8:00.")
    assert v.issues == ['the answer contains none of "7:30" or "07:30"',
                        'the answer contains none of "18" or "18°"']


def test_answer_not_excludes_strings():
    v = verdict({"answerNot": ["+353 00 999"]}, answer="Call Jörg on +353 00 999 1234.")
    assert v.issues == ['the answer contains the excluded "+353 00 999"']
    assert kinds(v) == ["excluded-answer"]


def test_the_answer_is_read_without_markdown_emphasis():
    expect = {"answerAny": [" 5:30", "(5:30"], "answerNot": ["15:30"]}
    assert verdict(expect, answer="It is **5:30** in the morning in Willemstad.").passed
    assert verdict(expect, answer="It is `5:30` there.").passed
    assert not verdict(expect, answer="It is **15:30** there.").passed
    # an underscore inside a word or address is not emphasis
    assert verdict({"answer": ["anna_weber@"]}, answer="Sent to _anna_weber@mail.example_.").passed


def test_a_check_with_a_space_at_its_edge_holds_at_the_answers_first_and_last_word():
    expect = {"answerAny": [" -3 °C"], "answerNot": [" no ", " no,"]}
    assert verdict(expect, answer="-3 °C at 8 in the morning.").passed
    assert not verdict(expect, answer="-3 °C, so no").passed
    assert not verdict(expect, answer="No, -3 °C").passed
    # whitespace runs read as one space
    assert verdict({"answer": ["Yoga 8:00"]}, answer="Yoga\n  8:00").passed


def test_an_empty_answer_fails():
    v = verdict({}, answer="  \n ")
    assert v.issues == ["the final answer is empty"] and kinds(v) == ["empty-answer"]


def test_a_failed_turn_fails_and_says_why():
    v = verdict({}, answer="", failure={"kind": "round-limit", "message": "8 rounds without an answer"})
    assert v.issues == ["the turn failed (round-limit: 8 rounds without an answer)"]
    assert kinds(v) == ["failed-turn"]
    v = verdict({}, answer="partial", failure={"kind": "backend", "message": "out of memory"})
    assert not v.passed and kinds(v) == ["failed-turn"]


# --- the verdict ignores what was recorded, and bad expectations are errors ---------------------
def test_the_recorded_verdict_is_ignored():
    assert verdict({}, answer="Done.", passed=False, issues=["old"]).passed
    assert not verdict({"answer": ["x"]}, answer="Done.", passed=True).passed


def test_every_failed_check_is_listed_with_a_known_kind():
    expect = {"calls": [{"tool": "a"}], "forbid": ["b"], "answer": ["c"], "answerNot": ["Done"]}
    v = verdict(expect, [call("b")], answer="Done.")
    assert len(v.issues) == 4 and set(kinds(v)) <= set(CHECK_KINDS)


def test_a_malformed_token_in_an_expectation_names_the_scenario():
    s = scenario({"calls": [{"tool": "schedule_task", "args": ["{iso:tomorow}"]}]})
    with pytest.raises(FormatError, match=r"scenario en-calendar-test: expect\.calls\[0\]\.args\[0\]: bad token"):
        score(s, result(), language_check=False)
