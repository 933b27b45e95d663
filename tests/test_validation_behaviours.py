"""Alternative behaviours: read from their files, played through the real
loop instead of the scenario's reference, scored by the real scorer, and compared with the verdict
their line gives."""

from __future__ import annotations

import json

import pytest

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path
from harness.validation.behaviours import load_behaviours
from harness.validation.conn_copies import make_copy
from harness.validation.report import validate_files
from orvena_bench.formats.scenario import Scenario

DART = {
    "id": "en-scheduled-dart-delays", "language": "en", "category": "scheduled",
    "request": "at half 7 tomorrow morning check if there's any delays on the DART and let me know",
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
              "location": {"place": "Dublin, Ireland", "lat": 53.3331, "lon": -6.2489}},
    "expect": {"calls": [{"tool": "schedule_task", "args": ["{+1d}T07:30", "DART"]}],
               "forbid": ["search_web"], "answerAny": ["7:30", "07:30", "half 7"]},
    "reference": {"calls": [{"tool": "schedule_task", "arguments": {
        "time": "{+1d}T07:30", "instruction": "Check the DART for delays and tell me"}}],
        "answer": "Grand, I'll check the DART for delays tomorrow at 7:30 and let you know."},
}
TASK = {"tool": "schedule_task", "arguments": {"time": "{+1d}T07:30", "instruction": "DART delays"}}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(catalog_path())


def lines(*items) -> str:
    return "".join((json.dumps(i, ensure_ascii=False) if isinstance(i, dict) else i) + "\n" for i in items)


def validate(tmp_path, catalog, *behaviours, scenarios=(DART,)):
    (tmp_path / "bench.jsonl").write_text(lines(*scenarios))
    (tmp_path / "en.jsonl").write_text(lines(*behaviours))
    return validate_files([tmp_path / "bench.jsonl"], catalog, reference=True,
                          behaviour_files=[tmp_path / "en.jsonl"])


def test_behaviours_get_the_verdict_their_line_gives(tmp_path, catalog):
    report = validate(tmp_path, catalog,
                      {"id": DART["id"], "name": "other-wording", "verdict": "pass", "calls": [TASK],
                       "answer": "Sure, at half 7 tomorrow I'll look at the DART for you."},
                      {"id": DART["id"], "name": "no-call", "verdict": "fail", "calls": [],
                       "answer": "I'll check at 7:30.", "issue": "schedule_task was not made"},
                      {"id": DART["id"], "name": "wrong-time", "verdict": "fail",
                       "calls": [{"tool": "schedule_task", "arguments": {"time": "{+1d}T19:30",
                                                                         "instruction": "DART"}}],
                       "answer": "Done, 7:30 it is."})
    assert [p.as_expected for p in report.played] == [True, True, True]
    assert report.problems == [] and report.coverage.without_pass == report.coverage.without_fail == []


def test_a_misjudged_behaviour_is_a_problem_naming_file_line_behaviour_and_issues(tmp_path, catalog):
    report = validate(tmp_path, catalog,
                      {"id": DART["id"], "name": "forbidden", "verdict": "pass",
                       "calls": [TASK, {"tool": "search_web", "arguments": {"query": "DART"}}],
                       "answer": "Done for 7:30."},
                      {"id": DART["id"], "name": "no-call", "verdict": "fail", "calls": [],
                       "answer": "I'll check at 7:30.", "issue": "answer contains"})
    found = [str(p) for p in report.problems]
    assert found[0].startswith(f"{tmp_path}/en.jsonl:1: {DART['id']} [forbidden]: want pass, got fail; issues: ")
    assert "search_web" in found[0]
    assert found[1].startswith(f"{tmp_path}/en.jsonl:2: {DART['id']} [no-call]: want fail with an issue "
                               "containing 'answer contains', got fail for other reasons")


def test_a_behaviour_of_an_original_is_played_on_its_conn_copy_too(tmp_path, catalog):
    copy = make_copy(Scenario.model_validate(DART), ["notion", "github", "linear"]).dump()
    report = validate(tmp_path, catalog,
                      {"id": DART["id"], "name": "other-wording", "verdict": "pass", "calls": [TASK],
                       "answer": "Okay, 7:30 tomorrow."}, scenarios=(DART, copy))
    assert [p.scenario_id for p in report.played] == [DART["id"], DART["id"] + "-conn"]
    # Nothing was changed on the scenario: its own reference still plays.
    assert report.problems == []


def test_bad_behaviour_lines_are_one_error_each_naming_file_line_and_field(tmp_path):
    path = tmp_path / "en.jsonl"
    path.write_text(lines({"id": "x", "name": "Other Wording", "verdict": "pass"},
                          {"id": "x", "name": "a", "verdict": "maybe"},
                          "{not json",
                          {"id": "x", "name": "b", "verdict": "pass", "calls": [{"tool": "t"}]},
                          {"id": "x", "name": "b", "verdict": "fail"}))
    items, errors = load_behaviours(path)
    assert [i.line for i in items] == [4]
    assert [(e.line, e.field) for e in errors] == [(1, "name"), (2, "verdict"), (3, None), (5, "name")]
    assert str(errors[0]).startswith(f"{path}:1: field name: ")


def test_coverage_names_scenarios_without_a_pass_or_a_fail_behaviour(tmp_path, catalog):
    report = validate(tmp_path, catalog,
                      {"id": DART["id"], "name": "other-wording", "verdict": "pass", "calls": [TASK],
                       "answer": "Okay, 7:30 tomorrow."})
    assert report.coverage.without_pass == [] and report.coverage.without_fail == [DART["id"]]


def test_a_behaviour_for_no_scenario_is_a_problem(tmp_path, catalog):
    report = validate(tmp_path, catalog, {"id": "en-scheduled-nothing", "name": "a", "verdict": "pass"})
    assert [str(p).split(": ", 2)[-1] for p in report.problems] == ["en-scheduled-nothing: no such scenario"]


def test_the_validate_command_prints_the_behaviour_figure_and_fails_on_a_mismatch(tmp_path, capsys):
    from orvena_bench.cli.main import main

    (tmp_path / "bench.jsonl").write_text(lines(DART))
    good = {"id": DART["id"], "name": "other-wording", "verdict": "pass", "calls": [TASK],
            "answer": "Okay, 7:30 tomorrow."}
    (tmp_path / "en.jsonl").write_text(lines(good, {**good, "name": "said-fail", "verdict": "fail"}))
    code = main(["validate", str(tmp_path / "bench.jsonl"), "--no-composition",
                 "--behaviours", str(tmp_path / "en.jsonl")])
    out = capsys.readouterr().out
    assert code == 1
    assert "1/2 alternative behaviours scored as expected (1 file)" in out
    assert f"en.jsonl:2: {DART['id']} [said-fail]: want fail, got pass" in out
