"""The data layer from the CLI: result files read one way by every command (sets, last line per
key, shards and their merge counted once), results from other harnesses read as the card defines
them and rewritten losslessly, a data-only folder as the data root, the published dataset fetched
with huggingface_hub's own offline mechanisms, and bad phone data stopping a run before it
starts."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orvena_bench.cli.main import main
from orvena_bench.formats.paths import bundled_root

ROOT = bundled_root()
FIRST = [json.loads(line)["id"] for line in
         (ROOT / "scenarios" / "bench.jsonl").read_text(encoding="utf-8").splitlines()[:4]]


def run(*args: str) -> int:
    return main(["run", "--backend", "reference", "--no-progress", *args])


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def summary_csv(folder: Path) -> dict[tuple[str, str], str]:
    with open(folder / "summary.csv", newline="", encoding="utf-8") as f:
        return {(r["model"], r["row"]): r["total"] for r in csv.DictReader(f)}


def test_shards_their_merge_and_another_run_count_each_scenario_once(tmp_path, capsys):
    out = tmp_path / "results"
    ids = ",".join(FIRST)
    assert run("--ids", ids, "--shard", "1/2", "--out", str(out)) == 0
    assert run("--ids", ids, "--shard", "2/2", "--out", str(out)) == 0
    shards = sorted((out / "bench").glob("reference.shard-*.jsonl"))
    assert main(["merge", *map(str, shards)]) == 0
    assert run("--set", "ask", "--limit", "1", "--out", str(out)) == 0
    assert summary_csv(out)[("reference", "all bench scenarios")] == "4"
    capsys.readouterr()
    assert main(["summary", str(out)]) == 0
    assert "reference seed 7: bench 4, ask 1" in capsys.readouterr().out


def test_merging_two_models_keeps_both(tmp_path):
    out = tmp_path / "results"
    assert run("--ids", FIRST[0], "--out", str(out)) == 0
    assert run("--ids", FIRST[0], "--out", str(out), "--name", "other") == 0
    merged = tmp_path / "both.jsonl"
    assert main(["merge", str(out / "bench" / "reference.jsonl"), str(out / "bench" / "other.jsonl"),
                 "--out", str(merged)]) == 0
    assert sorted(line["model"] for line in lines(merged)) == ["other", "reference"]


def foreign(line: dict) -> dict:
    """A line as another harness may write it, still valid by the card: transcript calls keyed
    ``tool`` or as OpenAI ``tool_calls``, ``content: null``, null timings, unknown fields."""
    out = {**line, "harness": {"name": "elsewhere", "version": [1, 2]}}
    transcript, calling = [], 0
    for i, m in enumerate(line["transcript"]):
        m = {**m, "x-trace": {"n": i}}
        if m.get("calls"):
            calling += 1
            if calling % 2:
                m["calls"] = [{"tool": c["name"], "arguments": c["arguments"]} for c in m["calls"]]
            else:
                m["tool_calls"] = [{"id": f"c{i}", "type": "function",
                                    "function": {"name": c["name"],
                                                 "arguments": json.dumps(c["arguments"])}}
                                   for c in m.pop("calls")]
            m["content"] = None
        transcript.append(m)
    out["transcript"] = transcript
    out["rounds"] = [{**r, "timing": None} for r in line["rounds"]]
    out["seconds"] = None
    return out


def test_card_valid_lines_from_elsewhere_are_scored_summarised_reported_and_kept(tmp_path, capsys):
    out = tmp_path / "results"
    assert run("--ids", ",".join(FIRST), "--out", str(out)) == 0
    path = out / "bench" / "reference.jsonl"
    written = [foreign({**line, "passed": False, "issues": ["stale"]}) for line in lines(path)]
    assert any(m.get("tool_calls") for line in written for m in line["transcript"])
    assert any(c.get("tool") for line in written for m in line["transcript"] for c in m.get("calls", []))
    path.write_text("".join(json.dumps(x) + "\n" for x in written), encoding="utf-8")

    assert main(["score", str(path), "--write", str(path), "--no-language-check"]) == 0
    rescored = lines(path)
    assert [x["passed"] for x in rescored] == [True] * len(FIRST)
    # Everything but the verdict is as it was written, unknown fields and nulls included.
    strip = lambda x: {k: v for k, v in x.items() if k not in ("passed", "issues")}  # noqa: E731
    assert [strip(x) for x in rescored] == [strip(x) for x in written]

    capsys.readouterr()
    assert main(["summary", str(out)]) == 0
    assert f"All bench scenarios ({len(FIRST)})" in capsys.readouterr().out
    report = tmp_path / "report.html"
    assert main(["report", str(out), "--out", str(report), "--reps", "10"]) == 0
    assert report.stat().st_size > 0


def data_only(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    for folder in ("scenarios", "fixtures", "catalog"):
        shutil.copytree(ROOT / folder, data / folder)
    return data


def test_a_data_only_folder_runs_with_the_package_prompts(tmp_path, capsys):
    data = data_only(tmp_path)
    # A scenario only this folder holds: the run must read the folder, not the bundled data.
    first = json.loads((data / "scenarios" / "bench.jsonl").read_text().splitlines()[0])
    (data / "scenarios" / "bench.jsonl").write_text(
        json.dumps({**first, "id": first["id"] + "-copy"}) + "\n", encoding="utf-8")
    assert not (data / "prompts").exists()
    out = tmp_path / "results"
    assert main(["--data", str(data), "run", "--backend", "reference", "--no-progress",
                 "--out", str(out)]) == 0
    recorded = lines(out / "bench" / "reference.jsonl")
    assert [(x["id"], x["passed"]) for x in recorded] == [(first["id"] + "-copy", True)]
    assert "ORVENA_BENCH_ROOT" not in os.environ or os.environ["ORVENA_BENCH_ROOT"] != str(data)


def test_a_missing_data_folder_is_one_line(tmp_path, capsys):
    assert main(["--data", str(tmp_path / "nope"), "validate"]) == 2
    assert capsys.readouterr().err.strip() == f"orvena-bench: {tmp_path / 'nope'}: no such data folder"


def fetch(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``orvena-bench data fetch`` in a process of its own: huggingface_hub reads HF_HUB_OFFLINE
    and HF_HUB_CACHE when it is imported."""
    return subprocess.run([sys.executable, "-m", "orvena_bench.cli", "data", "fetch", *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HF_HUB_OFFLINE": "1", **env})


def test_fetch_offline_returns_the_hub_cache_snapshot_as_a_data_folder(tmp_path):
    # The layout of huggingface_hub's cache: refs/main names the commit, snapshots/<commit> its files.
    commit = "0123456789abcdef0123456789abcdef01234567"
    repo = tmp_path / "hub" / "datasets--Orvena--orvena-bench"
    snapshot = data_only(tmp_path)
    shutil.copytree(snapshot, repo / "snapshots" / commit)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    done = fetch(env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert done.returncode == 0, done.stderr
    assert f"--data {repo / 'snapshots' / commit} " in done.stdout


def test_fetch_offline_into_a_filled_folder_checks_it(tmp_path):
    data = data_only(tmp_path)
    done = fetch("--to", str(data), env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert done.returncode == 0, done.stderr
    shutil.rmtree(data / "catalog")
    done = fetch("--to", str(data), env={"HF_HUB_CACHE": str(tmp_path / "hub")})
    assert done.returncode == 2
    assert "no catalog/orvena-catalog.json" in done.stderr


def test_fetch_with_nothing_cached_offline_is_one_clear_error(tmp_path):
    done = fetch(env={"HF_HUB_CACHE": str(tmp_path / "empty")})
    assert done.returncode == 2
    assert done.stderr.startswith("orvena-bench: could not fetch the dataset Orvena/orvena-bench")
    assert len(done.stderr.strip().splitlines()) == 1


def test_bad_phone_fields_stop_the_run_before_any_turn_listing_every_problem(tmp_path, capsys):
    data = data_only(tmp_path)
    bench = data / "scenarios" / "bench.jsonl"
    scenarios = [json.loads(x) for x in bench.read_text().splitlines()[:3]]
    scenarios[0]["phone"]["calendar"] = []
    scenarios[2]["phone"]["contacts"] = [{"fullName": "Ann Example"}]
    bench.write_text("".join(json.dumps(s) + "\n" for s in scenarios), encoding="utf-8")
    out = tmp_path / "results"
    assert main(["--data", str(data), "run", "--backend", "reference", "--no-progress",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{bench}:1: field phone.calendar: {scenarios[0]['id']}: unknown field" in err
    assert f"{bench}:3: field phone.contacts[0].fullName: {scenarios[2]['id']}: unknown field" in err
    assert "nothing was run" in err
    assert not out.exists()


@pytest.mark.parametrize("static", [True])
def test_validate_static_reports_unknown_phone_fields(tmp_path, capsys, static):
    data = data_only(tmp_path)
    bench = data / "scenarios" / "bench.jsonl"
    first = json.loads(bench.read_text().splitlines()[0])
    first["phone"]["calendar"] = []
    bench.write_text(json.dumps(first) + "\n", encoding="utf-8")
    assert main(["--data", str(data), "validate", "--static", str(bench)]) != 0
    assert f"{bench}:1: field phone.calendar: {first['id']}: unknown field" in capsys.readouterr().out
