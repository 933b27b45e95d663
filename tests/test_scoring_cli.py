"""`orvena-bench score`: rescoring from the recorded calls and answer, tables beside the results,
--write keeping every other field, and clear errors."""

import csv
import json

import pytest

from orvena_bench.cli.main import main
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.result_files import Entry
from orvena_bench.reports.csvfiles import write_tables_of
from scoring.tables import by_category_rows, by_language_rows, format_summary, summary_rows


def scenario(id, language="en", category="weather", **expect):
    return {"id": id, "language": language, "category": category, "request": "...",
            "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin"}, "expect": expect}


def line(id, model="orvena-4b", seed=7, answer="Sunny, 18 degrees in Lyon on Saturday.", calls=(), **extra):
    language, category = id.split("-")[:2]
    return {"id": id, "language": language, "category": category, "model": model, "seed": seed,
            "passed": False, "issues": ["recorded issue"], "answer": answer, "calls": list(calls),
            "transcript": [], "seconds": 1.5, **extra}


def write_jsonl(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path):
    scenarios = tmp_path / "scenarios"
    write_jsonl(scenarios / "bench.jsonl", [
        scenario("en-weather-lyon", calls=[{"tool": "get_weather", "args": ["Lyon", "{+3d}"]}],
                 answer=["Lyon"]),
        scenario("en-weather-lyon-conn", calls=[{"tool": "get_weather", "args": ["Lyon"]}]),
        scenario("en-mcp-todo", category="mcp", calls=[{"tool": "todoist/add-tasks"}]),
    ])
    write_jsonl(scenarios / "restraint.jsonl", [scenario("en-no-tool-joke", category="no-tool", noTools=True)])
    results = tmp_path / "results"
    write_jsonl(results / "bench" / "orvena-4b.jsonl", [
        line("en-weather-lyon", calls=[{"tool": "get_weather", "arguments": {"city": "Lyon", "date": "2026-11-07"}}],
             custom={"kept": True}),
        line("en-weather-lyon-conn", calls=[]),
        line("en-mcp-todo", calls=[{"tool": "todoist/add-tasks", "arguments": "{\"content\": \"x\"}"}]),
    ])
    write_jsonl(results / "restraint" / "orvena-4b.jsonl", [
        line("en-no-tool-joke", answer="Why did the scarecrow win an award? He was outstanding in his field."),
    ])
    return tmp_path


def run(project, *extra):
    files = sorted(str(p) for p in (project / "results").rglob("*.jsonl"))
    return main(["score", *files, "--scenarios", str(project / "scenarios" / "bench.jsonl"),
                 "--scenarios", str(project / "scenarios" / "restraint.jsonl"), "--no-language-check",
                 *extra])


def read_csv(path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_score_recomputes_verdicts_and_writes_the_tables_beside_the_results(project, capsys):
    assert run(project) == 0
    out = capsys.readouterr().out
    assert "all bench scenarios" in out and "2/3 (66.7%)" in out
    summary = {r["row"]: (r["passed"], r["total"]) for r in read_csv(project / "results" / "summary.csv")}
    assert summary == {"all bench scenarios": ("2", "3"), "13 languages Apple's model supports": ("2", "3"),
                       "connections installed, -conn": ("0", "1"), "MCP scenarios": ("1", "1"),
                       "restraint, diagnostic": ("1", "1")}
    by_category = {r["category"]: r["total"] for r in read_csv(project / "results" / "by_category.csv")}
    assert by_category == {"mcp": "1", "weather": "1"}  # the -conn copy is left out, as the card says
    by_language = read_csv(project / "results" / "by_language.csv")
    assert [(r["language"], r["passed"], r["total"]) for r in by_language] == [("en", "2", "3")]


def test_write_keeps_every_other_field_and_replaces_the_verdict(project):
    assert run(project, "--write", str(project / "rescored")) == 0
    rows = [json.loads(x) for x in (project / "rescored" / "bench" / "orvena-4b.jsonl").read_text().splitlines()]
    assert rows[0]["passed"] is True and rows[0]["issues"] == [] and rows[0]["custom"] == {"kept": True}
    assert rows[0]["seconds"] == 1.5
    assert rows[1]["passed"] is False
    assert rows[1]["issues"] == ["the expected call to get_weather was not made"]
    assert rows[2]["calls"][0]["arguments"] == "{\"content\": \"x\"}"  # as recorded, not re-encoded


def test_write_to_the_file_itself_for_one_results_file(project):
    path = project / "results" / "bench" / "orvena-4b.jsonl"
    assert main(["score", str(path), "--scenarios", str(project / "scenarios" / "bench.jsonl"),
                 "--no-language-check", "--write", str(path)]) == 0
    assert [json.loads(x)["passed"] for x in path.read_text().splitlines()] == [True, False, True]


def test_a_result_whose_scenario_is_missing_is_a_clear_error_and_the_others_are_scored(project, capsys):
    path = project / "results" / "bench" / "orvena-4b.jsonl"
    with open(path, "a") as f:
        f.write(json.dumps(line("en-weather-gone")) + "\n")
    assert run(project) == 2
    err = capsys.readouterr().err
    assert f"{path}:4: field id: no scenario with id 'en-weather-gone'" in err
    assert read_csv(project / "results" / "summary.csv")[0]["total"] == "3"


def test_a_file_with_unreadable_lines_is_never_rewritten(project, capsys):
    path = project / "results" / "bench" / "orvena-4b.jsonl"
    with open(path, "a") as f:
        f.write("{not json\n")
    before = path.read_text()
    assert main(["score", str(path), "--scenarios", str(project / "scenarios" / "bench.jsonl"),
                 "--no-language-check", "--write", str(path)]) == 2
    assert path.read_text() == before
    assert "nothing written" in capsys.readouterr().err


def test_a_bad_token_in_one_scenario_does_not_stop_the_others(project, capsys):
    bench = project / "scenarios" / "bench.jsonl"
    with open(bench, "a") as f:
        f.write(json.dumps(scenario("en-weather-bad", answer=["{weekday+1x}"])) + "\n")
    assert run(project) == 2
    err = capsys.readouterr().err
    assert "scenario en-weather-bad: expect.answer[0]: bad token {weekday+1x}" in err
    assert read_csv(project / "results" / "summary.csv")[0]["total"] == "3"


# --- the tables as pure functions -----------------------------------------------------------------
def scored(id, passed, set="bench", model="m", seed=7, language="de", category="weather", mcp=False):
    line = ResultLine(id=id, model=model, seed=seed, language=language, category=category,
                      passed=passed)
    return Entry(set, line, "file.jsonl", mcp)


def test_tables_count_per_model_and_seed():
    lines = [scored("de-weather-a", True), scored("de-weather-a-conn", False),
             scored("fi-weather-b", True, language="fi"), scored("de-weather-a", False, seed=8),
             scored("de-ask-c", True, set="ask", category="ask")]
    rows = summary_rows(lines)
    assert [(r["seed"], r["row"], r["passed"], r["total"]) for r in rows] == [
        (7, "all bench scenarios", 2, 3), (7, "13 languages Apple's model supports", 1, 2),
        (7, "connections installed, -conn", 0, 1), (7, "asking for a missing detail, diagnostic", 1, 1),
        (8, "all bench scenarios", 0, 1), (8, "13 languages Apple's model supports", 0, 1)]
    assert [(r["category"], r["total"]) for r in by_category_rows(lines) if r["seed"] == 7] == [("weather", 2)]
    assert [(r["language"], r["passed"], r["total"]) for r in by_language_rows(lines) if r["seed"] == 7] == [
        ("de", 1, 2), ("fi", 1, 1)]
    table = format_summary(rows)
    assert table.splitlines()[0].split() == ["m", "(seed", "7)", "m", "(seed", "8)"]


def test_run_tables_read_every_result_file_under_a_folder(project):
    paths = write_tables_of(project / "results",
                                 [project / "scenarios" / "bench.jsonl", project / "scenarios" / "restraint.jsonl"])
    assert [p.name for p in paths] == ["summary.csv", "by_category.csv", "by_language.csv"]
    # The recorded verdicts (all False here), not rescored ones.
    assert read_csv(paths[0])[0] == {"model": "orvena-4b", "seed": "7", "row": "all bench scenarios",
                                     "passed": "0", "total": "3", "percent": "0.0", "notRun": "0"}


def test_tables_go_where_asked_even_to_a_new_folder(project):
    assert run(project, "--tables", str(project / "tables" / "new")) == 0
    assert sorted(p.name for p in (project / "tables" / "new").iterdir()) == [
        "by_category.csv", "by_language.csv", "summary.csv"]
    assert not (project / "results" / "summary.csv").exists()


def test_the_mcp_row_counts_originals_that_expect_an_mcp_call_in_any_category():
    from scoring.tables import uses_mcp

    assert uses_mcp({"calls": [{"tool": "gmail/search_threads"}, {"tool": "create_event"}]})
    assert uses_mcp({"anyOf": [[{"tool": "send_message"}], [{"tool": "gmail/send_message"}]]})
    assert not uses_mcp({"calls": [{"tool": "create_event"}], "noTools": False})
    lines = [scored("de-chain-mail", True, category="chain", mcp=True),
             scored("de-mcp-todo", False, category="mcp", mcp=True),
             scored("de-chain-mail-conn", True, category="chain", mcp=True),
             scored("de-weather-a", True)]
    row = next(r for r in summary_rows(lines) if r["row"] == "MCP scenarios")
    assert (row["passed"], row["total"]) == (1, 2)
