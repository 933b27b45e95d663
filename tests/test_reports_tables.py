"""Reading runs, the card's tables, the comparison, seeds and the failure taxonomy, on result
files written by hand."""

from __future__ import annotations

import pytest
from reports_data import line, write_jsonl

from orvena_bench.formats.errors import FormatError
from orvena_bench.reports.build import compare_runs
from orvena_bench.reports.groups import card_rows, category_groups, language_groups
from orvena_bench.reports.runs import load_results
from orvena_bench.reports.seeds import seed_report
from orvena_bench.reports.summary import table
from orvena_bench.reports.taxonomy import taxonomy

BENCH = ["en-calendar-move", "en-calendar-list", "de-weather-rain", "fi-mcp-todo",
         "en-calendar-move-conn", "de-chain-text-h3"]


def test_the_set_comes_from_the_field_then_the_scenario_file_then_the_folder(tmp_path):
    write_jsonl(tmp_path / "restraint" / "m.jsonl", [line("en-unsupported-uber", "m", True)])
    write_jsonl(tmp_path / "mixed" / "m.jsonl", [
        line("en-followup-x", "m", True, set="ask"),
        line("en-calendar-y", "m", True),
        line("en-no-tool-z", "m", True)])
    results = load_results([tmp_path], {"en-no-tool-z": "restraint"})
    keys = set(results.runs[("m", 7)].entries)
    assert keys == {("restraint", "en-unsupported-uber"), ("ask", "en-followup-x"),
                    ("bench", "en-calendar-y"), ("restraint", "en-no-tool-z")}


def test_a_rerun_line_replaces_the_earlier_one_of_the_same_file(tmp_path):
    path = write_jsonl(tmp_path / "bench" / "m.jsonl", [line("en-calendar-a", "m", False),
                                                         line("en-calendar-a", "m", True)])
    run = load_results([path]).runs[("m", 7)]
    assert [e.line.passed for e in run.entries.values()] == [True]


def test_two_different_runs_of_one_scenario_model_and_seed_in_two_files_are_an_error(tmp_path):
    a = write_jsonl(tmp_path / "a" / "m.jsonl", [line("en-calendar-a", "m", True, answer="one")])
    b = write_jsonl(tmp_path / "b" / "m.jsonl", [line("en-calendar-a", "m", False, answer="two")])
    with pytest.raises(FormatError, match=r"b/m\.jsonl: field id: en-calendar-a of model m"):
        load_results([a, b])


def test_a_merged_file_and_its_shards_count_each_run_once_with_the_merged_verdict(tmp_path):
    shard = write_jsonl(tmp_path / "bench" / "m.shard-1-of-2.jsonl", [line("en-calendar-a", "m", False)])
    write_jsonl(tmp_path / "bench" / "m.jsonl", [line("en-calendar-a", "m", True),
                                                 line("en-calendar-b", "m", True)])
    run = load_results([tmp_path]).runs[("m", 7)]
    assert {k: e.line.passed for k, e in run.entries.items()} == {
        ("bench", "en-calendar-a"): True, ("bench", "en-calendar-b"): True}
    assert run.entries[("bench", "en-calendar-a")].source != str(shard)


def test_two_models_in_one_file_are_two_runs(tmp_path):
    path = write_jsonl(tmp_path / "bench" / "both.jsonl", [line("en-calendar-a", "m", True),
                                                           line("en-calendar-a", "n", False)])
    assert sorted(load_results([path]).runs) == [("m", 7), ("n", 7)]


def test_a_bad_line_names_file_line_and_field(tmp_path):
    path = tmp_path / "bench" / "m.jsonl"
    write_jsonl(path, [line("en-calendar-a", "m", True), {"id": "x", "language": "en"}])
    with pytest.raises(FormatError, match=r"m\.jsonl:2: field model"):
        load_results([path])


def test_a_missing_path_is_an_error(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        load_results([tmp_path / "nope.jsonl"])


ALL, APPLE, CONN, MCP = ("all bench scenarios", "13 languages Apple's model supports",
                         "connections installed, -conn", "MCP scenarios")


def card(tmp_path, lines, mcp_ids=frozenset()):
    write_jsonl(tmp_path / "bench" / "runs.jsonl", lines)
    results = load_results([tmp_path], mcp_ids=mcp_ids)
    return results, {r.group.name: r for r in table(results, card_rows())}


def test_card_rows_count_all_apple_languages_conn_and_mcp(tmp_path):
    verdicts = {"en-calendar-move": True, "en-calendar-list": False, "de-weather-rain": True,
                "fi-mcp-todo": True, "en-calendar-move-conn": False, "de-chain-text-h3": True,
                "fi-mcp-gmail": False}
    # The MCP row counts the originals whose scenarios expect an MCP call (known from the
    # scenario files), whatever their category.
    _, rows = card(tmp_path, [line(i, "m", v) for i, v in verdicts.items()],
                   mcp_ids={"fi-mcp-todo", "fi-mcp-gmail"})
    text = {name: row.text("m") for name, row in rows.items()}
    assert text[ALL] == "4 (57.1%)"
    assert text[APPLE] == "3 (60.0%)"  # en and de, not fi
    assert text[CONN] == "0 (0.0%)"
    assert rows[MCP].total == 2 and text[MCP] == "1 (50.0%)"
    assert rows[ALL].group.heading == "All bench scenarios"
    assert not any("restraint" in name for name in rows)  # no model ran it: no row


def test_a_partial_run_shows_passed_of_ran_and_a_missing_one_not_run(tmp_path):
    lines = [line(i, "full", True) for i in BENCH] + [line(BENCH[0], "partial", True)]
    _, rows = card(tmp_path, lines)
    assert rows[ALL].text("full") == "6 (100.0%)"
    assert rows[ALL].text("partial") == "1 of 1 run (100.0%)"
    assert rows[CONN].text("partial") == "not run"


def test_another_seed_is_shown_only_in_rows_it_ran_completely(tmp_path):
    mcp = ["fi-mcp-a", "fi-mcp-b", "fi-mcp-c"]
    lines = ([line(i, "m", True) for i in BENCH + mcp]
             + [line(i, "m", i != "fi-mcp-a", seed=8) for i in ["fi-mcp-todo", *mcp]])
    results, rows = card(tmp_path, lines, mcp_ids={"fi-mcp-todo", *mcp})
    assert results.main_seed("m") == 7  # the seed with most scenarios
    assert rows[MCP].text("m") == "4 (100.0%) (seed 8: 3)"
    assert rows[ALL].text("m") == "9 (100.0%)"  # seed 8 ran only 4 of these 9


def test_categories_leave_out_the_conn_copies_and_languages_keep_them(tmp_path):
    results, _ = card(tmp_path, [line(i, "m", i == "en-calendar-move-conn") for i in BENCH])
    entries = results.all_entries()
    by_cat = {r.group.name: r for r in table(results, category_groups(entries))}
    by_lang = {r.group.name: r for r in table(results, language_groups(entries))}
    assert list(by_cat) == ["calendar", "weather", "chain", "mcp"]  # the card's order
    assert by_cat["calendar"].text("m") == "0 (0.0%)" and by_cat["calendar"].total == 2
    assert list(by_lang) == ["de", "en", "fi"] and by_lang["en"].text("m") == "1 (33.3%)"


def two_models(tmp_path, a_passes, b_passes):
    ids = [f"en-calendar-s{i}" for i in range(len(a_passes))]
    for model, passes in (("old", a_passes), ("new", b_passes)):
        write_jsonl(tmp_path / "bench" / f"{model}.jsonl",
                    [line(i, model, p) for i, p in zip(ids, passes, strict=True)])
    results = load_results([tmp_path])
    return results.runs[("old", 7)], results.runs[("new", 7)]


def test_comparison_counts_flips_and_states_the_result_plainly(tmp_path):
    # 10 scenarios: old passes 5, new passes 8; 4 flip to new, 1 flips to old.
    old = [True, True, True, True, True, False, False, False, False, False]
    new = [True, True, True, True, False, True, True, True, True, False]
    a, b = two_models(tmp_path, old, new)
    c = compare_runs(a, b, reps=2000)
    assert [k[1] for k in c.only_b] == ["en-calendar-s5", "en-calendar-s6", "en-calendar-s7",
                                        "en-calendar-s8"]
    assert [k[1] for k in c.only_a] == ["en-calendar-s4"]
    assert c.p_value == pytest.approx(2 * (1 + 5) / 32)  # exact McNemar, 4 vs 1
    assert c.points == pytest.approx(30.0)
    sentence = c.sentence()
    assert sentence.startswith("new is better than old by 30.0 points (80.0% against 50.0% on "
                               "10 paired scenarios), 95% CI ")
    assert "p = 0.38" in sentence and "not significant at the 5% level" in sentence
    assert f"CI {100 * c.ci.low:.1f} to {100 * c.ci.high:.1f}" in sentence
    assert c.deltas["category"][0].name == "calendar"
    assert c.deltas["category"][0].points == pytest.approx(30.0)


def test_a_significant_loss_reads_as_worse(tmp_path):
    a, b = two_models(tmp_path, [True] * 30, [False] * 12 + [True] * 18)
    sentence = compare_runs(a, b, reps=2000).sentence()
    assert sentence.startswith("new is worse than old by 40.0 points")
    assert "p < 0.001" in sentence and "not significant" not in sentence


def test_comparison_pairs_only_shared_scenarios(tmp_path):
    write_jsonl(tmp_path / "bench" / "a.jsonl", [line("en-calendar-a", "old", True),
                                                 line("en-calendar-b", "old", True)])
    write_jsonl(tmp_path / "bench" / "b.jsonl", [line("en-calendar-b", "new", True),
                                                 line("en-calendar-c", "new", False)])
    results = load_results([tmp_path])
    c = compare_runs(results.runs[("old", 7)], results.runs[("new", 7)], reps=100)
    assert (len(c.paired), c.unpaired_a, c.unpaired_b) == (1, 1, 1)
    assert "and old pass the same share" in c.sentence()


def test_seed_report_uses_the_scenarios_every_seed_ran(tmp_path):
    # s1 passes twice, s2 once, s3 never; s4 ran under seed 7 only and is left out.
    lines = [line("en-calendar-s1", "m", True), line("en-calendar-s2", "m", True),
             line("en-calendar-s3", "m", False), line("en-calendar-s4", "m", True),
             line("en-calendar-s1", "m", True, seed=8), line("en-calendar-s2", "m", False, seed=8),
             line("en-calendar-s3", "m", False, seed=8)]
    write_jsonl(tmp_path / "bench" / "m.jsonl", lines)
    results = load_results([tmp_path])
    r = seed_report([results.runs[("m", 7)], results.runs[("m", 8)]])
    assert (r.seeds, r.scenarios) == ((7, 8), 3)
    assert r.rates == pytest.approx((2 / 3, 1 / 3))
    assert r.pass_at == pytest.approx((0.5, 2 / 3))  # mean of (1, 1/2, 0) and (1, 1, 0)
    assert r.pass_hat == pytest.approx((0.5, 1 / 3))  # mean of (1, 1/2, 0) and (1, 0, 0)
    assert r.spread == pytest.approx(((1 / 6) ** 2 * 2) ** 0.5)


def test_taxonomy_counts_each_failed_kind_once_per_scenario_per_model_and_category(tmp_path):
    write_jsonl(tmp_path / "bench" / "m.jsonl", [
        line("en-calendar-a", "m", False), line("en-calendar-b", "m", False),
        line("en-calendar-c", "m", True), line("de-weather-d", "m", False)])
    write_jsonl(tmp_path / "ask" / "m.jsonl", [line("en-followup-e", "m", False)])
    kinds = {"en-calendar-a": ["wrong-arguments", "language", "wrong-arguments"],
             "en-calendar-b": ["missing-answer"], "de-weather-d": ["missing-answer"],
             "en-followup-e": ["tool-when-none-needed"]}
    t = taxonomy(load_results([tmp_path]), lambda e: kinds[e.line.id])
    assert t.kinds == ("wrong-arguments", "tool-when-none-needed", "missing-answer", "language")
    rows = {r.group: r for r in t.rows}
    assert list(rows) == ["calendar", "weather", "ask"]
    assert (rows["calendar"].scenarios, rows["calendar"].failed) == (3, 2)
    assert rows["calendar"].kinds == {"wrong-arguments": 1, "language": 1, "missing-answer": 1}
    total = t.totals("m")
    assert (total.scenarios, total.failed, total.kinds["missing-answer"]) == (5, 4, 2)
