"""A run survives what a model, a disk or a server does (reliability issue): every reproduction
gives a result line or one clear error, the run goes on, and every file it writes stays readable.
People are fictional."""

from __future__ import annotations

import errno
import json
import os

import orjson
import pytest

from orvena_bench.cli.main import main
from orvena_bench.formats import jsonl
from orvena_bench.formats.jsonl import read_models
from orvena_bench.formats.result import ResultLine

DUBLIN = {"locale": "en_IE", "timeZone": "Europe/Dublin",
          "location": {"place": "Dublin, Ireland", "lat": 53.3498, "lon": -6.2603}}


def scenario(sid: str, **changes) -> dict:
    return {"id": sid, "language": "en", "category": "calendar", "request": "what's on tomorrow?",
            "phone": {**DUBLIN, "events": [{"title": "Dentist", "start": "+1d 09:00", "duration": "PT45M"}]},
            "expect": {"calls": [{"tool": "list_events"}], "answerAny": ["Dentist"]},
            "reference": {"calls": [{"tool": "list_events", "arguments": {"start": "{+1d}", "end": "{+1d}"}}],
                          "answer": "Tomorrow you have the dentist at 09:00."}, **changes}


def pack(tmp_path, *scenarios: dict, name: str = "mini"):
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(b"".join(orjson.dumps(s) + b"\n" for s in scenarios))
    return path


def script(tmp_path, texts) -> str:
    path = tmp_path / "script.json"
    path.write_bytes(orjson.dumps({"texts": texts}))
    return str(path)


def run(*args) -> int:
    return main(["run", "--no-progress", *map(str, args)])


def lines(path) -> list[ResultLine]:
    return read_models(path, ResultLine)


def call(name: str, arguments_json: str) -> str:
    return f'<tool_call>\n{{"name": "{name}", "arguments": {arguments_json}}}\n</tool_call>'


@pytest.mark.parametrize("arguments", [
    '{"setting": "brightness", "value": 100000000000000000000000}',  # beyond 64 bits
    '{"to": "Becky", "text": "see you \\ud83d"}',                      # half an emoji pair
    '{"query": "\\ud83d", "n": 1e30}',
])
def test_call_arguments_json_accepts_but_orjson_refuses_give_lines_and_the_run_goes_on(tmp_path, arguments):
    scenarios = pack(tmp_path, scenario("en-calendar-one"), scenario("en-calendar-two"))
    texts = {"*": [call("set_device_setting", arguments), "Done."]}
    out = tmp_path / "r"
    assert run("--backend", "scripted", "--script", script(tmp_path, texts),
               "--scenarios", scenarios, "--out", out) == 0
    recorded = lines(out / "mini" / "scripted.jsonl")
    assert [r.id for r in recorded] == ["en-calendar-one", "en-calendar-two"]
    for r in recorded:  # recorded as the model wrote them (json reads what orjson refuses)
        assert r.failure is None and r.calls[0].arguments == json.loads(arguments)
        assert r.rounds[0].calls[0].arguments == json.loads(arguments)


def test_resume_onto_a_file_without_its_final_newline_keeps_both_lines(tmp_path):
    scenarios = pack(tmp_path, scenario("en-calendar-one"), scenario("en-calendar-two"))
    out = tmp_path / "r"
    base = ("--backend", "reference", "--scenarios", scenarios, "--out", out)
    assert run(*base, "--ids", "en-calendar-one") == 0
    result = out / "mini" / "reference.jsonl"
    result.write_bytes(result.read_bytes().rstrip(b"\n"))  # saved by an editor
    assert run(*base, "--resume") == 0
    assert [r.id for r in lines(result)] == ["en-calendar-one", "en-calendar-two"]


def test_a_torn_last_line_is_set_aside_and_resume_runs_its_scenario_again(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-one"), scenario("en-calendar-two"))
    out = tmp_path / "r"
    base = ("--backend", "reference", "--scenarios", scenarios, "--out", out)
    assert run(*base) == 0
    result = out / "mini" / "reference.jsonl"
    data = result.read_bytes()
    result.write_bytes(data[: len(data) - 500])  # a kill inside the second line's write
    assert main(["summary", str(out)]) == 0
    assert "reference.jsonl:2: torn last line set aside" in capsys.readouterr().err
    assert run(*base, "--resume") == 0
    assert [r.id for r in lines(result)] == ["en-calendar-one", "en-calendar-two"]
    assert (out / "mini" / "reference.jsonl.torn").read_bytes() == data[data.index(b"\n") + 1: -500] + b"\n"


def test_backend_failures_are_not_run_resume_retries_them_and_the_run_exits_non_zero(tmp_path, capsys):
    scenarios = pack(tmp_path, *(scenario(f"en-calendar-{i}") for i in range(3)), name="bench")
    out = tmp_path / "r"
    base = ("--scenarios", scenarios, "--out", out, "--name", "m", "--backend", "scripted")
    dead = script(tmp_path, {"*": []})  # every round raises: the server is gone
    assert run(*base, "--script", dead) == 1
    err = capsys.readouterr().err
    assert "3 scenarios not run (failed outside the model: backend 3)" in err
    assert main(["summary", str(out), "--scenarios", str(scenarios)]) == 0
    shown = capsys.readouterr().out
    assert "calendar (3)  not run" in shown and "backend-error" in shown
    # The server is back: --resume runs the three again and keeps only their new lines.
    alive = script(tmp_path, {"*": [call("list_events", '{"start": "2026-11-05"}'), "Dentist at 09:00."]})
    assert run(*base, "--script", alive, "--resume") == 0
    assert "3/3 passed (3 of them run again), 0 already recorded" in capsys.readouterr().out
    final = lines(out / "bench" / "m.jsonl")
    assert [(r.id, r.passed, r.failure) for r in final] == [(f"en-calendar-{i}", True, None) for i in range(3)]
    # Model failures are verdicts: --resume keeps them.
    assert run(*base, "--script", dead, "--resume") == 0


def test_a_dead_server_stops_the_run_after_n_backend_failures_in_a_row(tmp_path, capsys):
    scenarios = pack(tmp_path, *(scenario(f"en-calendar-{i}") for i in range(8)))
    out = tmp_path / "r"
    assert run("--backend", "scripted", "--script", script(tmp_path, {"*": []}), "--scenarios", scenarios,
               "--out", out, "--max-backend-failures", "3") == 1
    assert len(lines(out / "mini" / "scripted.jsonl")) == 3
    assert "stopped after 3 backend failures in a row, 5 scenarios not started" in capsys.readouterr().err


def test_a_full_disk_ends_the_run_with_one_line_and_the_file_whole(tmp_path, monkeypatch, capsys):
    scenarios = pack(tmp_path, *(scenario(f"en-calendar-{i}") for i in range(3)))
    out = tmp_path / "r"
    real_write, writes = os.write, []

    def filling(fd, data):
        writes.append(len(data))
        if len(writes) >= 2:  # the second line: half of it fits, then the disk is full
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(jsonl.os, "write", filling)
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", out) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"orvena-bench: {out / 'mini' / 'reference.jsonl'}: could not write a line: the disk is "
                   "full; the file is intact up to its last whole line; make room and run again with --resume"]
    monkeypatch.undo()
    assert [r.id for r in lines(out / "mini" / "reference.jsonl")] == ["en-calendar-0"]


def test_a_bad_token_in_expect_is_the_scenarios_failure_not_the_models(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-bad", expect={"answerAny": ["{+xd}"]}),
                     scenario("en-calendar-huge", expect={"answerAny": ["{+99999999d}"]}))
    out = tmp_path / "r"
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", out) == 1
    bad, huge = lines(out / "mini" / "reference.jsonl")
    assert bad.failure.kind == huge.failure.kind == "scenario"
    assert "bad token {+xd}" in bad.failure.message
    assert "bad token {+99999999d}: the time it names is out of range" in huge.failure.message
    assert main(["validate", "--static", str(scenarios)]) == 1  # a clear error, no traceback


@pytest.mark.parametrize("name, arguments", [
    ("list_events", '{"start": "2026-11-04", "end": "9999-12-31"}'),
    ("create_event", '{"title": "Forever", "start": "9999-12-31T23:59"}'),
    ("search_photos", '{"start": "0001-01-01", "end": "9999-12-31"}'),
])
def test_boundary_dates_answer_the_model_and_never_fail_the_turn(tmp_path, name, arguments):
    scenarios = pack(tmp_path, scenario("en-calendar-one"))
    out = tmp_path / "r"
    run("--backend", "scripted", "--script", script(tmp_path, {"*": [call(name, arguments), "Done."]}),
        "--scenarios", scenarios, "--out", out)
    (line,) = lines(out / "mini" / "scripted.jsonl")
    assert line.failure is None and line.answer == "Done."
    assert not line.transcript[-2].content.startswith("OverflowError")


def test_empty_and_duplicate_ids_are_load_errors_and_the_rest_runs(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-one"), scenario(""), scenario("en-calendar-one"))
    out = tmp_path / "r"
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", out) == 1
    err = capsys.readouterr().err
    assert "mini.jsonl:2: field id: empty scenario id" in err
    assert "mini.jsonl:3: field id: duplicate id 'en-calendar-one' (first on line 1)" in err
    assert [r.id for r in lines(out / "mini" / "reference.jsonl")] == ["en-calendar-one"]


def test_a_scenario_file_named_dots_cannot_write_outside_out(tmp_path, capsys):
    sub = tmp_path / "sub"
    sub.mkdir()
    scenarios = pack(sub, scenario("en-calendar-one"), name="..")
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", tmp_path / "r" / "x") == 2
    assert "set name '..' cannot name a results file" in capsys.readouterr().err
    assert not list(tmp_path.rglob("reference.jsonl"))


def test_a_corrupt_manifest_is_kept_aside_and_the_run_goes_on(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-one"))
    manifest = tmp_path / "r" / "mini" / "reference.manifest.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_bytes(b'{"runs": [')
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", tmp_path / "r") == 0
    assert "reference.manifest.json: not valid JSON" in capsys.readouterr().err
    assert manifest.with_name("reference.manifest.json.corrupt").read_bytes() == b'{"runs": ['
    assert len(orjson.loads(manifest.read_bytes())["runs"]) == 1


def test_a_second_run_into_the_same_file_is_refused_while_the_first_writes(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-one"))
    out = tmp_path / "r"
    with jsonl.appending(out / "mini" / "reference.jsonl"):  # the first run, still writing
        assert run("--backend", "reference", "--scenarios", scenarios, "--out", out) == 2
    assert "another run is writing this file" in capsys.readouterr().err


def test_yes_is_not_true_in_a_scenario_or_a_result_line(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-one"),
                     scenario("en-calendar-yes", expect={"noTools": "yes", "answer": ["x"]}))
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", tmp_path / "r") == 1
    assert "mini.jsonl:2: field expect.noTools: Input should be a valid boolean" in capsys.readouterr().err
    results = tmp_path / "r.jsonl"
    results.write_bytes(orjson.dumps({"id": "en-calendar-one", "model": "m", "passed": "yes"}) + b"\n")
    assert [r.passed for r in lines(results)] == [False]


def test_score_write_that_exits_2_for_an_unknown_id_writes_nothing(tmp_path, capsys):
    scenarios = pack(tmp_path, scenario("en-calendar-one"))
    out = tmp_path / "r"
    assert run("--backend", "reference", "--scenarios", scenarios, "--out", out) == 0
    result = out / "mini" / "reference.jsonl"
    stranger = {**orjson.loads(result.read_bytes()), "id": "en-calendar-nobody", "passed": False}
    result.write_bytes(result.read_bytes() + orjson.dumps(stranger) + b"\n")
    before = result.read_bytes()
    assert main(["score", str(result), "--scenarios", str(scenarios), "--write", str(result)]) == 2
    assert "nothing written: some lines name no scenario" in capsys.readouterr().err
    assert result.read_bytes() == before
