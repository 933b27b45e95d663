"""The summary, compare and report commands end to end on hand-made result and scenario files."""

from __future__ import annotations

import csv

import pytest
from reports_data import line, synthetic_line, synthetic_scenario, write_jsonl

from orvena_bench.cli.main import main

IDS = ["en-contacts-sister", "de-contacts-bruder", "fi-contacts-sisko", "en-contacts-mum",
       "en-contacts-sister-conn"]


@pytest.fixture
def files(tmp_path):
    """Two models over five bench scenarios and one ask scenario; the new one also under seed 8.
    old fails two ways, new one way; new seed 8 fails one more."""
    scenarios = write_jsonl(tmp_path / "scenarios" / "bench.jsonl",
                            [synthetic_scenario(i) for i in IDS])
    ask = write_jsonl(tmp_path / "scenarios" / "ask.jsonl",
                      [synthetic_scenario("en-followup-which")])
    old_failures = {"de-contacts-bruder": "wrong-arguments", "fi-contacts-sisko": "failed-turn"}
    new_failures = {"fi-contacts-sisko": "missing-answer"}
    old = write_jsonl(tmp_path / "results" / "bench" / "old.jsonl",
                      [synthetic_line(i, "old", old_failures.get(i)) for i in IDS])
    new = write_jsonl(tmp_path / "results" / "bench" / "new.jsonl",
                      [synthetic_line(i, "new", new_failures.get(i)) for i in IDS]
                      + [synthetic_line(i, "new", new_failures.get(i) or
                                        ("forbidden-tool" if i == "en-contacts-mum" else None),
                                        seed=8) for i in IDS])
    write_jsonl(tmp_path / "results" / "ask" / "old.jsonl",
                [synthetic_line("en-followup-which", "old", None)])
    return {"scenarios": ["--scenarios", str(scenarios), "--scenarios", str(ask)],
            "old": old, "new": new, "results": tmp_path / "results", "tmp": tmp_path}


def test_summary_prints_the_card_rows_categories_languages_and_failure_kinds(files, capsys):
    assert main(["summary", str(files["results"]), *files["scenarios"]]) == 0
    out = capsys.readouterr().out
    assert "new seed 7: bench 5" in out and "new seed 8: bench 5" in out
    rows = {ln.split("  ")[0]: " ".join(ln.split()) for ln in out.splitlines()}
    # Columns in the order the models first appear: results/ask/old.jsonl, then bench/new.
    assert rows["All bench scenarios (5)"] == ("All bench scenarios (5) 3 (60.0%) 4 (80.0%) "
                                               "(seed 8: 3)")
    assert rows["Asking for a missing detail, diagnostic (1)"].endswith("1 (100.0%) not run")
    assert rows["contacts (4)"] == "contacts (4) 2 (50.0%) 3 (75.0%) (seed 8: 2)"  # no -conn
    assert rows["fi (1)"] == "fi (1) 0 (0.0%) 0 (0.0%) (seed 8: 0)"
    # The taxonomy comes from re-scoring: old failed one call's arguments and one turn.
    assert "wrong-arguments" in out and "failed-turn" in out and "missing-answer" in out


def test_summary_writes_the_tables_as_csv(files, capsys, tmp_path):
    out_dir = tmp_path / "csv"
    main(["summary", str(files["results"]), *files["scenarios"], "--csv", str(out_dir)])
    with open(out_dir / "summary.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    # The scorer's CSV, from the recorded verdicts: every model and seed.
    mine = {(r["row"], r["model"], r["seed"]): r for r in rows}
    new7 = mine[("all bench scenarios", "new", "7")]
    assert (new7["passed"], new7["total"], new7["percent"]) == ("4", "5", "80.0")
    assert mine[("all bench scenarios", "new", "8")]["passed"] == "3"
    with open(out_dir / "failures.csv", newline="") as f:
        failures = {(r["model"], r["group"]): r for r in csv.DictReader(f)}
    assert failures[("old", "contacts")]["wrong-arguments"] == "1"
    assert failures[("old", "contacts")]["failed-turn"] == "1"
    assert {p.name for p in out_dir.iterdir()} == {"summary.csv", "by_category.csv",
                                                   "by_language.csv", "failures.csv"}


def test_compare_states_b_against_a_and_lists_the_flips(files, capsys):
    assert main(["compare", str(files["old"]), str(files["new"]), *files["scenarios"],
                 "--reps", "500"]) == 0
    out = capsys.readouterr().out
    assert "A = old (seed 7), B = new (seed 7)" in out
    assert ("new is better than old by 20.0 points (80.0% against 60.0% on 5 paired scenarios)"
            in out)
    assert "p = 1.00" in out and "not significant" in out  # one discordant pair
    assert "Passed in new only (1)\n  de-contacts-bruder" in out
    assert "Passed in old only (0)\n  (none)" in out
    # new ran two seeds: pass@k and pass^k follow.
    assert ("new: 2 seeds over the 5 scenarios every seed ran (seed 7 80.0%, seed 8 60.0%); "
            "run-to-run spread (sample SD) 14.1 points") in out
    # Per scenario (n = 2): three pass twice, fi-contacts-sisko never, en-contacts-mum once.
    assert "pass@k  70.0%  80.0%" in out and "pass^k  70.0%  60.0%" in out


def test_compare_of_one_file_with_two_seeds_gives_the_seed_report(files, capsys):
    assert main(["compare", str(files["new"]), *files["scenarios"]]) == 0
    assert "run-to-run spread (sample SD) 14.1 points" in capsys.readouterr().out


def test_compare_explains_what_is_missing(files, capsys):
    assert main(["compare", str(files["old"]), *files["scenarios"]]) == 2
    assert "one run under one seed" in capsys.readouterr().err
    assert main(["compare", str(files["results"]), str(files["new"]), *files["scenarios"]]) == 2
    assert "holds 2 models (old, new)" in capsys.readouterr().err


def test_a_scenario_missing_from_the_scenario_files_is_noted_not_fatal(files, capsys):
    extra = write_jsonl(files["tmp"] / "more" / "x.jsonl", [line("en-calendar-new", "x", False)])
    assert main(["summary", str(extra), *files["scenarios"]]) == 0
    captured = capsys.readouterr()
    assert "1 scenario(s) not in the scenario files (e.g. en-calendar-new)" in captured.err
    assert "no-scenario" in captured.out


def test_report_writes_one_self_contained_page(files, capsys, tmp_path):
    out = tmp_path / "site" / "report.html"
    assert main(["report", str(files["old"]), str(files["new"]), *files["scenarios"],
                 "--out", str(out), "--reps", "500"]) == 0
    page = out.read_text()
    assert "wrote" in capsys.readouterr().out
    # Nothing is fetched: no external script, style, image or font.
    for needle in ('src="http', "href=\"http", "@import", "url(http"):
        assert needle not in page
    assert "new is better than old by 20.0 points" in page
    assert page.count('class="bar"') == 2 * (1 + 3)  # 2 models x (1 category + 3 languages)
    assert 'id="details-data"' in page and "de-contacts-bruder" in page
