"""The validator's lints and the rules for scenarios written to the card alone: each lint names
the scenario and field, fires on the trap it is for and stays quiet on what a scenario writer
rightly writes."""

from __future__ import annotations

import json

import pytest

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from harness.validation.lints import lints, offset_operations
from harness.validation.report import validate_files

WEATHER = {
    "id": "en-weather-rain-tomorrow", "language": "en", "category": "weather",
    "request": "will it rain in Dublin tomorrow?",
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin"},
    "expect": {"calls": [{"tool": "get_weather", "args": ["Dublin"]}], "answerAny": ["rain"]},
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(catalog_path())


def scenario(**changes) -> Scenario:
    data = json.loads(json.dumps(WEATHER))
    for key, value in changes.items():
        data[key] = value
    return Scenario.model_validate(data)


def rules(found) -> list[tuple[str, str]]:
    return [(lint.rule, lint.field) for lint in found]


def reference(answer: str, outputs: list[str] = ()) -> ResultLine:
    return ResultLine.model_validate({
        "id": "x", "model": "reference", "seed": 7, "answer": answer,
        "transcript": [{"role": "tool", "name": "get_weather", "content": o} for o in outputs]})


def test_an_echo_of_the_request_passing_the_answer_checks_is_flagged():
    assert rules(lints(scenario(), None)) == [("echo", "expect.answerAny")]


def test_no_echo_when_the_answer_must_hold_more_than_the_request():
    s = scenario(expect={**WEATHER["expect"], "answerGroups": [["14:00", "2 pm"]]})
    assert "echo" not in [r for r, _ in rules(lints(s, None))]


def test_a_confirmation_of_a_write_call_may_repeat_the_request():
    s = scenario(request="remind me to call Anna", category="reminders", id="en-reminders-anna",
                 expect={"calls": [{"tool": "create_reminder", "args": ["Anna"]}], "answerAny": ["Anna"]})
    assert lints(s, None, writes={"create_reminder"}) == []
    # ...but not where a failed call counts (recovery): the answer alone must rule out invention.
    s = s.model_copy(update={"category": "recovery"})
    assert rules(lints(s, None, writes={"create_reminder"})) == [("echo", "expect.answerAny")]
    # ...where "ok": true says the call must succeed all the same, it is a confirmation again.
    s = Scenario.model_validate({**s.dump(), "expect": {
        "calls": [{"tool": "create_reminder", "args": ["Anna"], "ok": True}], "answerAny": ["Anna"]}})
    assert lints(s, None, writes={"create_reminder"}) == []


def test_a_time_inside_another_time_of_the_data_is_flagged():
    s = scenario(request="when am I free tomorrow afternoon?", category="calendar",
                 expect={"answerAny": ["4:30", "16:30"]},
                 phone={"locale": "en_IE", "timeZone": "Europe/Dublin",
                        "events": [{"title": "Dentist", "start": "+1d 14:30", "end": "+1d 16:30"}]})
    # Even where the reference answer states 14:30 itself, "4:30" in it is another value.
    found = lints(s, reference("You're free until 14:30 and from 16:30."))
    assert ("inside-value", "expect.answerAny") in rules(found)
    assert "'14:30'" in found[0].message and "another value" in found[0].message


def test_a_bare_year_inside_the_datas_dates_is_flagged_but_the_value_meant_is_not():
    outputs = ["3 photos: Sat 2025-12-13 18:02 | Strasbourg"]
    s = scenario(request="photos from the Strasbourg market?", category="photos",
                 expect={"answerAny": ["2025", "13 December"]})
    assert ("inside-value", "expect.answerAny") in rules(lints(s, reference("On 13 December.", outputs)))
    # A value the reference answer states ("13 December 2025") is the one meant.
    s = scenario(request="photos from the Strasbourg market?", category="photos",
                 expect={"answerAny": ["13"], "answer": ["December"]})
    assert lints(s, reference("3 photos on 13 December 2025.", outputs)) == []


def test_the_same_value_written_longer_is_no_trap():
    outputs = ["Due: 20.11.2026, amount 87,40 EUR; opens 8h00; event 2026-11-05T14:00:00+01:00"]
    s = scenario(request="when is the bill due and how much?", category="files",
                 expect={"answer": ["20.11", "87,4"], "answerAny": ["8h"], "answerGroups": [["14:00"]]})
    assert [r for r, _ in rules(lints(s, reference("x", outputs)))] == []


def test_a_required_time_lacking_the_locales_cldr_form_is_flagged():
    s = scenario(request="flyt mødet til kl. halv tre", language="da", category="calendar",
                 id="da-calendar-flyt", phone={"locale": "da_DK", "timeZone": "Europe/Copenhagen"},
                 expect={"calls": [{"tool": "update_event", "args": ["{+2d}T14:30"]}],
                         "answerAny": ["14:30", "halv tre"]})
    found = [lint for lint in lints(s, None) if lint.rule == "cldr-time"]
    assert [(f.field, "'14.30'" in f.message) for f in found] == [("expect.answerAny", True)]
    ok = s.model_copy(update={"expect": s.expect.model_copy(update={"answerAny": ["14:30", "14.30"]})})
    assert [lint for lint in lints(ok, None) if lint.rule == "cldr-time"] == []


def test_a_group_of_phrases_about_a_time_owes_no_cldr_form():
    # "Is there an hour free on Thursday?": the group says the slot is free; a bare "15:00" in it
    # would also pass "busy until 15:00", so only phrases carry the time.
    s = scenario(request="heb ik donderdagmiddag een uurtje vrij?", language="nl", category="calendar",
                 id="nl-calendar-vrij", phone={"locale": "nl_NL", "timeZone": "Europe/Amsterdam", "calendar": [
                     {"title": "Kwartaaloverleg", "start": "+1d 13:30", "end": "+1d 15:00"}]},
                 expect={"answerGroups": [["vrij", "15:00 tot", "tussen 15"]]})
    assert [lint for lint in lints(s, None) if lint.rule == "cldr-time"] == []
    timed = s.model_copy(update={"expect": s.expect.model_copy(update={"answerGroups": [["15:00 uur", "15 uur"]]})})
    assert [lint.field for lint in lints(timed, None) if lint.rule == "cldr-time"] == ["expect.answerGroups[0]"]


def test_a_timer_duration_is_not_taken_for_a_time_of_day():
    s = scenario(request="timer på fire et halvt minut", language="da", category="alarms",
                 id="da-alarms-timer", phone={"locale": "da_DK", "timeZone": "Europe/Copenhagen"},
                 expect={"calls": [{"tool": "start_timer", "args": ["PT4M30S"]}], "answerAny": ["4:30"]})
    assert [lint for lint in lints(s, None) if lint.rule == "cldr-time"] == []


def test_an_excluded_string_in_the_output_the_answer_reports_is_flagged():
    outputs = ["4 chargers nearest first: Petrol Šmartinska 0.8 km; BTC City 1.4 km"]
    s = scenario(request="najbližja polnilnica?", category="places",
                 expect={"answerAny": ["Šmartinsk"], "answerNot": ["BTC"]})
    assert ("answerNot-fact", "expect.answerNot[0]") in rules(lints(s, reference("Petrol Šmartinska.", outputs)))


def test_a_time_in_the_reference_answer_that_no_tool_gave_is_flagged():
    outputs = ["1 route: transit | 24 min | leave Thu 2026-11-05 13:29 | arrive Thu 2026-11-05 13:53"]
    s = scenario(category="travel", request="bus to the temple?", reference={"calls": [], "answer": "x"})
    said = "Take the 13:29 bus, there at 13:53. The next one, 13:41, is too late."
    assert ("reference-time", "reference.answer") in rules(lints(s, reference(said, outputs)))
    # what the tool gave, in another form or a 12-hour reading, is no fact of its own
    assert "reference-time" not in [r for r, _ in rules(lints(s, reference("13.29 bus, 1:53 there.", outputs)))]


def test_a_reference_answer_that_works_its_time_out_says_so_in_derived():
    s = scenario(category="travel", request="drive to the airport? my flight is at 2",
                 reference={"calls": [], "answer": "x", "derived": ["reference.answer"]})
    assert "reference-time" not in [r for r, _ in rules(lints(s, reference("Plenty of time for 14:00.")))]


def played(*messages: dict) -> ResultLine:
    return ResultLine.model_validate({"id": "x", "model": "reference", "seed": 7, "answer": "x",
                                      "transcript": list(messages)})


def test_a_reference_call_with_an_id_no_output_showed_is_flagged():
    s = scenario(category="media", request="play the album with Sephia on it",
                 phone={"locale": "en_IE", "music": {"songs": [{"title": "Sephia", "artist": "Sheila on 7",
                                                                "album": "Kisah Klasik"}]}},
                 reference={"calls": [], "answer": "x"})
    search = {"role": "tool", "name": "search_music", "content": "- id: song-1 | song | Sephia | Kisah Klasik"}
    guessed = {"role": "assistant", "calls": [{"name": "play_music", "arguments": {"query": "alb-1"}}]}
    assert ("reference-id", "reference.calls") in rules(lints(s, played(search, guessed)))
    # an id the output showed, or a longer id that merely contains it, is told apart
    looked_up = {"role": "assistant", "calls": [{"name": "play_music", "arguments": {"query": "song-1"}}]}
    assert "reference-id" not in [r for r, _ in rules(lints(s, played(search, looked_up)))]
    shown_longer = {"role": "tool", "name": "search_music", "content": "- id: alb-12 | album | Kisah Klasik"}
    assert ("reference-id", "reference.calls") in rules(lints(s, played(shown_longer, guessed)))


def test_a_date_time_check_without_offset_on_an_operation_taking_offsets_is_flagged():
    offsets = offset_operations({"google-calendar/update_event": {"properties": {"startTime": {
        "type": "string", "description": "Start, RFC 3339 date-time with offset"}}}})
    s = scenario(connections=["google-calendar"], category="calendar", request="flyt det til fredag kl. 14",
                 expect={"calls": [{"tool": "google-calendar/update_event", "args": ["{+2d}T14:00"]}],
                         "answerAny": ["14"]})
    assert ("untimed-arg", "expect.calls[0].args[0]") in rules(lints(s, None, offsets))
    pinned = [{"tool": "google-calendar/update_event",
               "argsAny": ["{iso:+2d 14:00}", "{utc:+2d 14:00}"]}]
    s = s.model_copy(update={"expect": s.expect.model_copy(update={"calls": s.expect.calls[:0]})})
    s = Scenario.model_validate({**s.dump(), "expect": {"calls": pinned, "answerAny": ["14"]}})
    assert "untimed-arg" not in [r for r, _ in rules(lints(s, None, offsets))]


def test_a_scenario_without_reference_is_no_error_and_says_what_could_not_run(tmp_path, catalog):
    card = {"id": "en-weather-umbrella", "language": "en", "category": "weather",
            "request": "do I need an umbrella on {+1d}? mail me at ops@bigcorp.com",
            "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin"},
            "expect": {"calls": [{"tool": "get_weather"}], "answerAny": ["Dublin"]}}
    path = tmp_path / "bench.jsonl"
    path.write_text(json.dumps(card) + "\n")
    report = validate_files([path], catalog, reference=True, behaviour_files=[])
    assert report.problems == []
    warnings = " | ".join(str(w) for w in report.warnings)
    assert "token {+1d} is not expanded in request" in warnings
    assert "ops@bigcorp.com must use the .example" in warnings
    assert any("1 scenarios have no reference" in s and "en-weather-umbrella" in s for s in report.not_run)
