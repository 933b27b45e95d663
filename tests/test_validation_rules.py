"""The scenario validator: each rule (docs/scenarios.md) rejects what it should and accepts good data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.scenario import Scenario
from harness.validation.composition import composition
from harness.validation.conn_copies import OVERLAPS, copy_problems, make_copy
from harness.validation.privacy import email_problems, phone_number_problems
from harness.validation.report import validate_files
from harness.validation.solvable import reference_problems
from harness.validation.static import load_located

DART = {
    "id": "en-scheduled-dart-delays", "language": "en", "category": "scheduled",
    "request": "at half 7 tomorrow morning check if there's any delays on the DART and let me know",
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
              "location": {"place": "Dublin, Ireland", "lat": 53.3331, "lon": -6.2489}},
    "expect": {"calls": [{"tool": "schedule_task", "args": ["{+1d}T07:30", "DART"]}],
               "forbid": ["search_web", "create_reminder"], "answerAny": ["7:30", "07:30"]},
    "reference": {"calls": [{"tool": "schedule_task", "arguments": {
        "time": "{+1d}T07:30", "instruction": "Check the DART for delays and tell me"}}],
        "answer": "Grand, I'll check the DART for delays tomorrow at 7:30 and let you know."},
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(catalog_path())


def write(tmp_path: Path, *scenarios: dict, name: str = "bench.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in scenarios))
    return path


def variant(**changes) -> dict:
    data = json.loads(json.dumps(DART))
    for dotted, value in changes.items():
        target, *path = dotted.split("__")
        node = data
        for key in [target, *path][:-1]:
            node = node[key]
        node[[target, *path][-1]] = value
    return data


def messages(tmp_path, catalog, *scenarios, solvable=False) -> list[str]:
    check = (lambda item: reference_problems(item, catalog)) if solvable else None
    return [str(p) for p in validate_files([write(tmp_path, *scenarios)], catalog, solvable=check).problems]


def test_a_phone_number_needs_a_national_part_starting_with_00():
    assert list(phone_number_problems("+353 00 123 4567, +1 (00) 555-0123")) == []
    assert len(list(phone_number_problems("call +49 30 1234567"))) == 1


def test_an_email_address_needs_the_example_domain():
    assert list(email_problems("anna@mail.example")) == []
    assert len(list(email_problems("anna@gmail.com"))) == 1


def test_a_good_scenario_has_no_static_problem(tmp_path, catalog):
    assert messages(tmp_path, catalog, DART) == []


@pytest.mark.parametrize("change, expected", [
    ({"id": "en-calendar-dart"}, "id must start with 'en-scheduled-'"),
    ({"id": "en-scheduled-DART"}, "lowercase ASCII"),
    ({"language": "xx"}, "not one of the 30 bench languages"),
    ({"category": "banking"}, "not one of the 20 categories"),
    ({"expect__calls": [{"tool": "book_taxi"}]}, "unknown tool 'book_taxi'"),
    ({"expect__calls": [{"tool": "todoist/add-tasks"}]}, "connection 'todoist' is not installed"),
    ({"expect__answerAny": ["{+1q}"]}, "bad token {+1q}"),
    ({"expect__answer": [" "]}, "an empty string matches everything"),
    ({"expect__forbid": ["schedule_task"]}, "both expected and forbidden"),
    ({"request": "text +49 30 1234567"}, "national part must start with 00"),
])
def test_static_rules_name_the_problem(tmp_path, catalog, change, expected):
    found = messages(tmp_path, catalog, variant(**change))
    assert any(expected in m for m in found), found


def test_ids_are_unique_across_files(tmp_path, catalog):
    a = write(tmp_path, DART, name="bench.jsonl")
    b = write(tmp_path, DART, name="ask.jsonl")
    found = [str(p) for p in validate_files([a, b], catalog).problems]
    assert any("id also used at" in m for m in found)


def test_a_bad_line_names_file_line_and_field(tmp_path, catalog):
    bad = variant()
    del bad["request"]
    path = write(tmp_path, DART | {"id": "en-scheduled-other"}, bad)
    found = [str(p) for p in validate_files([path], catalog).problems]
    assert found == [f"{path}:2: field request: Field required"]


@pytest.mark.slow
def test_the_reference_agent_solves_a_good_scenario(tmp_path, catalog):
    assert messages(tmp_path, catalog, DART, solvable=True) == []


@pytest.mark.slow
def test_a_reference_call_the_tool_rejects_is_reported(tmp_path, catalog):
    bad = variant(reference__calls=[{"tool": "schedule_task", "arguments": {"when": "{+1d}T07:30"}}])
    found = messages(tmp_path, catalog, bad, solvable=True)
    assert any("the reference call schedule_task failed" in m for m in found), found


@pytest.mark.slow
def test_an_answer_string_nothing_grounds_is_reported(tmp_path, catalog):
    bad = variant(expect__answer=["Connolly"],
                  reference__answer="I'll check the DART at 7:30 from Connolly and let you know.")
    found = messages(tmp_path, catalog, bad, solvable=True)
    assert any("'Connolly' appears in no request" in m for m in found), found


@pytest.mark.slow
def test_a_token_in_an_answer_string_is_grounded_as_expanded(tmp_path, catalog):
    # schedule_task's confirmation names the date, so {+1d} is grounded once expanded.
    ok = variant(expect__answer=["{+1d}"],
                 reference__answer="Grand, I'll check the DART on {+1d} at 7:30 and let you know.")
    assert messages(tmp_path, catalog, ok, solvable=True) == []


@pytest.mark.slow
def test_a_reference_answer_the_checks_reject_is_reported(tmp_path, catalog):
    bad = variant(reference__answer="Grand, I'll check the DART for delays tomorrow morning.")
    found = messages(tmp_path, catalog, bad, solvable=True)
    assert any("the reference run fails a check" in m for m in found), found


def test_a_conn_copy_keeps_everything_but_id_and_connections():
    original = Scenario.model_validate(DART)
    copy = make_copy(original, ["gmail", "github", "notion", "linear", "zapier", "todoist", "airtable"])
    assert copy.id == "en-scheduled-dart-delays-conn"
    assert 2 <= len(copy.connections) <= 6
    assert not set(copy.connections) & OVERLAPS["scheduled"]
    assert list(copy_problems(copy, original)) == []
    changed = Scenario.model_validate(copy.dump() | {"request": "something else"})
    assert list(copy_problems(changed, original)) == [f"{copy.id}: field request differs from its original"]


def test_the_composition_counts_sets_languages_and_suffixes(tmp_path):
    items, _ = load_located(write(tmp_path, DART, variant(id="en-scheduled-dart-delays-conn",
                                                          connections=["gmail", "github"])))
    rows = {r.what: r for r in composition(items)}
    assert rows["bench scenarios"].ours == "2"
    assert rows["bench originals"].ours == "1"
    assert rows["bench -conn"].ours == "1"
    assert rows["-conn with 2 to 6 connections"].ours == "1"
    assert not rows["bench scenarios"].ok


def test_assemble_folds_parts_in_language_order_and_adds_conn_copies(tmp_path, catalog):
    parts = tmp_path / "parts"
    (parts / "fr").mkdir(parents=True)
    (parts / "en").mkdir()
    fr = variant(id="fr-scheduled-rer-retards", language="fr", phone={"locale": "fr_FR",
                 "timeZone": "Europe/Paris"})
    write(parts / "fr", fr)
    write(parts / "en", DART)
    from harness.validation.assemble import assemble

    counts = assemble(tmp_path, [c.id for c in catalog.connections], conn_count=1)
    assert counts == {"bench": 3, "restraint": 0, "ask": 0}
    lines = [json.loads(x)["id"] for x in (tmp_path / "bench.jsonl").read_text().splitlines()]
    assert lines[:2] == ["en-scheduled-dart-delays", "fr-scheduled-rer-retards"]
    assert lines[2].endswith("-conn")
    report = validate_files([tmp_path / "bench.jsonl"], catalog)
    assert [str(p) for p in report.problems] == []


def test_validate_checks_a_conn_copy_against_its_original(tmp_path, catalog):
    copy = variant(id="en-scheduled-dart-delays-conn", connections=["gmail", "github"],
                   request="something else")
    found = messages(tmp_path, catalog, DART, copy)
    assert any("field request differs from its original" in m for m in found), found
