"""``orvena-bench run``, ``merge`` and ``show`` end to end: the real phone, scripted connections
and scorer, with the reference, scripted and replay backends. People are fictional."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from orvena_bench.cli.main import main
from orvena_bench.formats.jsonl import read_models
from orvena_bench.formats.result import ResultLine
from harness.manifest import read_manifest

DUBLIN = {"locale": "en_IE", "timeZone": "Europe/Dublin",
          "location": {"place": "Dublin, Ireland", "lat": 53.3498, "lon": -6.2603}}

SCENARIOS = [
    {"id": "en-calendar-move-dentist", "language": "en", "category": "calendar",
     "request": "move my dentist to friday, same time",
     "phone": {**DUBLIN, "events": [
         {"title": "Dentist", "start": "+1d 09:00", "duration": "PT45M", "location": "Grafton Street, Dublin"},
         {"title": "Team sync", "start": "+1d 10:00", "duration": "PT30M"}]},
     "expect": {"calls": [{"tool": "update_event", "args": ["evt-1", "{+2d}T09:00"]}],
                "forbid": ["delete_event"], "answerAny": ["Friday", "6 November"]},
     "reference": {"calls": [{"tool": "list_events", "arguments": {"start": "{+1d}", "end": "{+2d}"}},
                             {"tool": "update_event", "arguments": {"id": "evt-1", "start": "{+2d}T09:00"}}],
                   "answer": "Done: your dentist appointment is now on Friday at 09:00."}},
    {"id": "en-mcp-todoist-passport", "language": "en", "category": "mcp",
     "request": "add renew passport to my todoist for monday",
     "connections": ["todoist"], "phone": DUBLIN,
     "tools": {"todoist/add-tasks": [{"match": ["passport"], "result": "Added task 8812: renew passport, due {+5d}"}]},
     "expect": {"calls": [{"tool": "todoist/add-tasks", "args": ["passport"]}], "answer": ["passport"]},
     "reference": {"calls": [{"tool": "todoist/add-tasks",
                              "arguments": {"tasks": [{"content": "Renew passport", "dueString": "{+5d}"}]}}],
                   "answer": "I added 'Renew passport' to Todoist for Monday."}},
    {"id": "en-no-tool-christmas", "language": "en", "category": "no-tool",
     "request": "how many days until christmas?", "phone": DUBLIN,
     "expect": {"noTools": True, "answer": ["51"]},
     "reference": {"calls": [], "answer": "There are 51 days left until Christmas Day."}},
]


@pytest.fixture()
def pack(tmp_path) -> Path:
    path = tmp_path / "mini.jsonl"
    path.write_bytes(b"".join(orjson.dumps(s) + b"\n" for s in SCENARIOS))
    return path


def cli(*args: str | Path) -> int:
    return main([str(a) for a in args])


def lines(path: Path) -> list[ResultLine]:
    return read_models(path, ResultLine)


def test_the_reference_agent_passes_the_pack_and_writes_the_cards_files(pack, tmp_path, capsys):
    out = tmp_path / "results"
    assert cli("run", "--backend", "reference", "--scenarios", pack, "--out", out, "--no-progress") == 0
    recorded = lines(out / "mini" / "reference.jsonl")
    assert [(r.id, r.passed, r.issues) for r in recorded] == [(s["id"], True, []) for s in SCENARIOS]
    mcp = recorded[1]
    assert [c.tool for c in mcp.calls] == ["load_connectors", "load_tools", "todoist/add-tasks"]
    assert mcp.transcript[-2].name.startswith("mcp.") and mcp.transcript[-2].content.endswith("2026-11-09")
    runs = read_manifest(out / "mini" / "reference.jsonl")
    assert len(runs) == 1 and runs[0]["backend"]["backend"] == "reference" and runs[0]["seed"] == 7
    assert set(runs[0]["scenarioFiles"]) == {str(pack)} and "commit" in runs[0]["harness"]
    assert (out / "summary.csv").exists() and (out / "by_language.csv").exists()
    assert "mini: 3/3 passed" in capsys.readouterr().out


def test_a_second_run_refuses_until_told_to_resume_or_rerun(pack, tmp_path, capsys):
    out = tmp_path / "r"
    base = ("run", "--backend", "reference", "--scenarios", pack, "--out", out, "--no-progress")
    assert cli(*base, "--ids", "en-no-tool-christmas") == 0
    assert cli(*base) == 2
    assert "use --resume to skip them or --rerun to replace them" in capsys.readouterr().err
    assert cli(*base, "--resume") == 0
    assert [r.id for r in lines(out / "mini" / "reference.jsonl")] == [
        "en-no-tool-christmas", "en-calendar-move-dentist", "en-mcp-todoist-passport"]


def test_rerun_of_one_scenario_replaces_only_its_line_and_keeps_other_seeds(pack, tmp_path):
    out = tmp_path / "r"
    base = ("run", "--scenarios", pack, "--out", out, "--no-progress", "--name", "m")
    assert cli(*base, "--backend", "reference") == 0
    assert cli(*base, "--backend", "reference", "--seed", "8", "--ids", "en-mcp-todoist-passport") == 0
    before = lines(out / "mini" / "m.jsonl")
    # The rerun plays another text, so the replaced line can be told from the old one.
    script = tmp_path / "script.json"
    script.write_bytes(orjson.dumps({"texts": {"*": ["Moved to Friday."]}}))
    assert cli(*base, "--backend", "scripted", "--script", script, "--rerun",
               "--ids", "en-calendar-move-dentist") == 0
    after = lines(out / "mini" / "m.jsonl")
    assert [(r.id, r.seed) for r in after] == [(r.id, r.seed) for r in before]
    assert [r.answer for r in after] == [
        "Moved to Friday.", *(r.answer for r in before[1:])]
    assert after[1:] == before[1:]
    assert len(read_manifest(out / "mini" / "m.jsonl")) == 3


def test_shards_split_a_run_without_overlap_and_merge_joins_them(pack, tmp_path):
    out = tmp_path / "r"
    for i in (1, 2):
        assert cli("run", "--backend", "reference", "--scenarios", pack, "--out", out,
                   "--shard", f"{i}/2", "--no-progress") == 0
    shards = sorted((out / "mini").glob("reference.shard-*.jsonl"))
    ids = [[r.id for r in lines(f)] for f in shards]
    assert ids == [["en-calendar-move-dentist", "en-no-tool-christmas"], ["en-mcp-todoist-passport"]]
    assert cli("merge", *shards) == 0
    merged = lines(out / "mini" / "reference.jsonl")
    assert sorted(r.id for r in merged) == sorted(s["id"] for s in SCENARIOS)
    assert len(read_manifest(out / "mini" / "reference.jsonl")) == 2


def test_merge_refuses_a_shard_set_with_a_missing_shard(pack, tmp_path, capsys):
    out = tmp_path / "r"
    assert cli("run", "--backend", "reference", "--scenarios", pack, "--out", out,
               "--shard", "2/3", "--no-progress") == 0
    assert cli("merge", out / "mini" / "reference.shard-2-of-3.jsonl") == 2
    assert "missing shards [1, 3] of 3" in capsys.readouterr().err


def test_replay_of_a_reference_run_reproduces_it_line_for_line(pack, tmp_path, capsys):
    out = tmp_path / "r"
    assert cli("run", "--backend", "reference", "--scenarios", pack, "--out", out, "--no-progress") == 0
    source = out / "mini" / "reference.jsonl"
    assert cli("run", "--replay", source, "--scenarios", pack, "--out", out, "--no-progress") == 0
    assert "replay: 3/3 lines reproduced exactly" in capsys.readouterr().out

    def same(r: ResultLine) -> dict:
        return r.model_dump(mode="json", exclude={"seconds", "model"})

    assert [same(r) for r in lines(out / "mini" / "reference-replay.jsonl")] == [same(r) for r in lines(source)]


def test_show_renders_the_scenario_and_its_run(pack, tmp_path, capsys):
    out = tmp_path / "r"
    assert cli("run", "--backend", "reference", "--scenarios", pack, "--out", out, "--no-progress") == 0
    capsys.readouterr()
    assert cli("show", "en-mcp-todoist-passport", "--scenarios", pack,
               "--results", out / "mini" / "reference.jsonl") == 0
    shown = capsys.readouterr().out
    assert "Request: add renew passport to my todoist for monday" in shown
    assert "model reference, seed 7: PASSED" in shown
    assert "-- round 3" in shown and "todoist/add-tasks" in shown
    assert "Answer: I added 'Renew passport' to Todoist for Monday." in shown



def test_show_gives_a_run_that_a_shard_and_its_merged_file_both_hold_once(pack, tmp_path, capsys):
    out = tmp_path / "r"
    assert cli("run", "--backend", "reference", "--scenarios", pack, "--out", out, "--no-progress") == 0
    merged = out / "mini" / "reference.jsonl"
    shard = out / "mini" / "reference.shard-1-of-1.jsonl"
    shard.write_bytes(merged.read_bytes())
    capsys.readouterr()
    assert cli("show", "en-mcp-todoist-passport", "--scenarios", pack, "--results", shard,
               "--results", merged) == 0
    shown = capsys.readouterr().out
    assert shown.count("model reference, seed 7: PASSED") == 1
    assert f"== {merged}: model reference" in shown and f"== {shard}:" not in shown

def test_a_killed_run_keeps_its_lines_and_resume_finishes_it(pack, tmp_path):
    """A subprocess killed mid-run loses nothing recorded; --resume runs only what is left."""
    many = tmp_path / "many.jsonl"
    base = SCENARIOS[2]
    many.write_bytes(b"".join(orjson.dumps({**base, "id": f"en-no-tool-christmas-{i}"}) + b"\n"
                             for i in range(12)))
    script = tmp_path / "script.json"
    # A short answer: the language check (and its detector, slow to build) does not run.
    script.write_bytes(orjson.dumps({"delaySeconds": 0.4, "texts": {"*": ["51 days."]}}))
    out = tmp_path / "r"
    args = [sys.executable, "-m", "orvena_bench.cli", "run", "--backend", "scripted", "--script", str(script),
            "--scenarios", str(many), "--out", str(out), "--no-progress"]
    result = out / "many" / "scripted.jsonl"
    proc = subprocess.Popen(args, cwd=Path(__file__).resolve().parent.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if result.exists() and len(result.read_bytes().splitlines()) >= 3:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    kept = lines(result)
    assert 3 <= len(kept) < 12 and all(r.passed for r in kept)
    assert main(args[3:] + ["--resume"]) == 0
    final = lines(result)
    assert sorted(r.id for r in final) == sorted(f"en-no-tool-christmas-{i}" for i in range(12))
    assert [r.id for r in final[: len(kept)]] == [r.id for r in kept]



def test_a_killed_rerun_is_finished_by_resume(tmp_path, capsys):
    """A rerun killed midway leaves old lines it still owes; --resume reruns just those."""
    many = tmp_path / "many.jsonl"
    many.write_bytes(b"".join(orjson.dumps({**SCENARIOS[2], "id": f"en-no-tool-christmas-{i}"}) + b"\n"
                             for i in range(12)))
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_bytes(orjson.dumps({"texts": {"*": ["51 days."]}}))
    new.write_bytes(orjson.dumps({"delaySeconds": 0.4, "texts": {"*": ["Fifty-one days."]}}))
    out = tmp_path / "r"
    args = ["run", "--backend", "scripted", "--scenarios", str(many), "--out", str(out),
            "--no-progress", "--name", "m"]
    result = out / "many" / "m.jsonl"
    assert main(args + ["--script", str(old)]) == 0
    proc = subprocess.Popen([sys.executable, "-m", "orvena_bench.cli", *args, "--script", str(new), "--rerun"],
                            cwd=Path(__file__).resolve().parent.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(result.read_bytes().splitlines()) >= 12 + 3:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    reran = sum(r.answer == "Fifty-one days." for r in lines(result))
    assert 3 <= reran < 12 and Path(f"{result}.rerun").exists()
    capsys.readouterr()
    assert main(args + ["--script", str(new)]) == 2
    assert "stopped before it finished: --resume finishes it" in capsys.readouterr().err
    assert main(args + ["--script", str(new), "--resume"]) == 0
    assert f"{12 - reran} owed by a stopped --rerun" in capsys.readouterr().out
    final = lines(result)
    assert [r.id for r in final] == [f"en-no-tool-christmas-{i}" for i in range(12)]
    assert all(r.answer == "Fifty-one days." for r in final)
    assert not Path(f"{result}.rerun").exists()

def test_a_scenario_with_broken_input_is_not_run_the_run_goes_on_and_resume_retries_it(tmp_path, capsys):
    # A connection without a fixture is found only when the scenario runs (a phone that cannot
    # be built stops the whole run before it starts: tests/test_data_layer.py).
    broken = {**SCENARIOS[2], "id": "en-no-tool-broken-conn", "connections": ["no-such-connection"]}
    pack = tmp_path / "mixed.jsonl"
    pack.write_bytes(orjson.dumps(broken) + b"\n" + orjson.dumps(SCENARIOS[2]) + b"\n")
    out = tmp_path / "r"
    base = ("run", "--backend", "reference", "--scenarios", pack, "--out", out, "--no-progress")
    assert cli(*base) == 1
    first, second = lines(out / "mixed" / "reference.jsonl")
    assert first.failure.kind == "scenario" and "no-such-connection" in first.failure.message
    assert not first.passed
    assert second.failure is None and second.passed
    captured = capsys.readouterr()
    assert "failed turns: scenario 1" in captured.out
    assert "1 scenarios not run (failed outside the model: scenario 1)" in captured.err
    # Once the scenario is fixed, --resume runs it again and keeps only its new line.
    fixed = {**broken, "connections": []}
    pack.write_bytes(orjson.dumps(fixed) + b"\n" + orjson.dumps(SCENARIOS[2]) + b"\n")
    assert cli(*base, "--resume") == 0
    assert "1/1 passed (1 of them run again), 1 already recorded" in capsys.readouterr().out
    assert [(r.id, r.passed, r.failure) for r in lines(out / "mixed" / "reference.jsonl")] == [
        ("en-no-tool-broken-conn", True, None), ("en-no-tool-christmas", True, None)]


def test_selection_filters_then_shards_then_limits():
    from orvena_bench.formats.scenario import Scenario
    from harness.runner import Selection

    pool = [Scenario.model_validate({**SCENARIOS[2], "id": f"{lang}-no-tool-q{i}", "language": lang})
            for i in range(4) for lang in ("en", "de")]
    assert [s.id for s in Selection(language="de", shard=(2, 2)).apply(pool)] == ["de-no-tool-q1", "de-no-tool-q3"]
    assert [s.id for s in Selection(language="de", limit=1).apply(pool)] == ["de-no-tool-q0"]
    assert [s.id for s in Selection(ids=frozenset({"en-no-tool-q2"})).apply(pool)] == ["en-no-tool-q2"]
    assert Selection(category="calendar").apply(pool) == []


@pytest.mark.slow
def test_a_tiny_mlx_model_runs_end_to_end_and_its_replay_reproduces_it(pack, tmp_path, tiny_models, capsys):
    out = tmp_path / "r"
    assert cli("run", "--model", tiny_models["qwen3"], "--scenarios", pack, "--ids", "en-no-tool-christmas",
               "--out", out, "--max-tokens", "8", "--no-progress") == 0
    (line,) = lines(out / "mini" / "qwen3.jsonl")
    assert line.rounds and line.rounds[0].timing.promptTokens > 1000 and line.rounds[0].timing.generatedTokens > 0
    assert read_manifest(out / "mini" / "qwen3.jsonl")[0]["backend"]["toolFormat"] == "json_tools"
    capsys.readouterr()
    assert cli("run", "--replay", out / "mini" / "qwen3.jsonl", "--scenarios", pack, "--out", out, "--no-progress") == 0
    assert "replay: 1/1 lines reproduced exactly" in capsys.readouterr().out
    (again,) = lines(out / "mini" / "qwen3-replay.jsonl")
    assert again.model_dump(exclude={"seconds", "model"}) == line.model_dump(exclude={"seconds", "model"})
