"""The apple backend against a stand-in of Apple's ``apple_fm_sdk`` (tests/standins/): the
framework runs the tool loop, our tools answer through the same phone, connections and loaders as
for every backend, and the line is recorded and scored as any other. Tests that need the real
framework run only on a Mac with Apple Intelligence (``-m apple``)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import orjson
import pytest

from orvena_bench.cli.main import main
from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.languages import LOADER_TOOLS
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.backends import make_backend
from harness.backends.apple_backend import AppleBackend, estimate_tokens
from harness.backends.reference import ReferenceBackend
from harness.loop import run_scenario
from harness.runner import load_scenarios, score_line
from mcpmock import split_public

STANDINS = Path(__file__).parent / "standins"


@pytest.fixture()
def fm(monkeypatch):
    """The stand-in module as ``apple_fm_sdk``, with a fresh script."""
    monkeypatch.syspath_prepend(str(STANDINS))
    sys.modules.pop("apple_fm_sdk", None)
    module = importlib.import_module("apple_fm_sdk")
    module.script = module.Script([])
    yield module
    sys.modules.pop("apple_fm_sdk", None)


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(catalog_path())


@pytest.fixture(scope="module")
def bench():
    scenarios, errors = load_scenarios(scenarios_dir() / "bench.jsonl")
    assert not errors
    return {s.id: s for s in scenarios}


def reference_moves(scenario, catalog):
    """The reference agent's turn: its line, and its calls as the model wrote them (name, args)."""
    line = score_line(scenario, run_scenario(scenario, ReferenceBackend(), catalog, model="reference"))
    moves = [(c.name, c.arguments) for r in line.rounds for c in r.calls]
    return line, moves


def apple_script(moves, answer):
    """The same turn as Apple's model makes it with only the loaders declared: the loader calls in
    the first framework session, which end with load_tools naming every tool the turn uses (the
    natives too); the rest in the second session, which the changed tools start."""
    used = [name for name, _ in moves if name not in LOADER_TOOLS]
    if not used:
        return [[("answer", answer)]]
    first = [("call", n, a) for n, a in moves if n == "load_connectors"]
    public = [split_public(n)[0] + "/" + split_public(n)[1] if split_public(n) else n for n in used]
    names = list(dict.fromkeys(public))
    first.append(("call", "load_tools", {"names": names}))
    second = [("call", n, a) for n, a in moves if n not in LOADER_TOOLS]
    return [first, second + [("answer", answer)]]


def without_loaders(calls):
    return [(c.tool, c.arguments, c.failed, c.matched) for c in calls if c.tool not in LOADER_TOOLS]


def native_only(bench):
    """A scenario whose reference turn calls native tools only."""
    return next(s for s in bench.values() if not s.connections and not s.tools
                and (s.model_extra or {}).get("reference", {}).get("calls"))


SAMPLE = ["da-calendar-gcal-flyt-mikkel-til-fredag", "en-scheduled-dart-delays"]


def sample_ids(bench):
    """Bench originals of every category (the first of each), plus the two named above."""
    ids = {}
    for sid, s in bench.items():
        if not sid.endswith(("-conn", "-h3")):
            ids.setdefault(s.category, sid)
    return sorted(set(ids.values()) | {i for i in SAMPLE if i in bench})


def test_a_turn_through_the_framework_records_and_scores_as_the_reference_agent(fm, catalog, bench):
    for sid in sample_ids(bench):
        scenario = bench[sid]
        ref_line, moves = reference_moves(scenario, catalog)
        fm.script = fm.Script(apple_script(moves, ref_line.answer))
        line = score_line(scenario, run_scenario(scenario, AppleBackend(), catalog, model="apple-on-device"))
        assert line.failure is None, (sid, line.failure)
        assert without_loaders(line.calls) == without_loaders(ref_line.calls), sid
        assert line.answer == ref_line.answer
        assert (line.passed, line.issues) == (ref_line.passed, ref_line.issues), sid
        assert line.rounds == []  # as in the card: no per-call raw text for Apple's model
        assert [m.role for m in line.transcript].count("tool") == len(line.calls)


def test_with_a_small_window_only_the_loaders_are_declared_first(fm, catalog, bench):
    scenario = native_only(bench)
    ref_line, moves = reference_moves(scenario, catalog)
    fm.script = fm.Script(apple_script(moves, ref_line.answer))
    run_scenario(scenario, AppleBackend(window=4096), catalog)
    first, second = fm.script.created
    assert set(first.tools) == set(LOADER_TOOLS)
    assert "load_tools" in first.instructions and "create_event" in first.instructions
    used = {n for n, _ in moves if n not in LOADER_TOOLS}
    assert used <= set(second.tools) and len(second.tools) < len(catalog.tools)
    # The second session starts mid-turn: its prompt carries the conversation so far.
    assert scenario.request in second.prompts[0] and "load_tools" in second.prompts[0]


def test_with_a_large_window_every_tool_is_declared_in_one_session(fm, catalog, bench):
    scenario = native_only(bench)
    ref_line, moves = reference_moves(scenario, catalog)
    calls = [("call", n, a) for n, a in moves]
    fm.script = fm.Script([calls + [("answer", ref_line.answer)]])
    line = score_line(scenario, run_scenario(scenario, AppleBackend(window=100_000), catalog))
    assert len(fm.script.created) == 1
    assert set(fm.script.created[0].tools) >= {t.name for t in catalog.tools}
    assert line.passed == ref_line.passed


@pytest.mark.parametrize(("error", "kind"), [
    ("ExceededContextWindowSizeError", "context-window"),
    ("GuardrailViolationError", "guardrail"),
    ("RefusalError", "guardrail"),
    ("DecodingFailureError", "decoding"),
])
def test_the_models_own_outcomes_are_recorded_with_their_kind(fm, catalog, bench, error, kind):
    scenario = next(iter(bench.values()))
    fm.script = fm.Script([[("raise", getattr(fm, error)("stand-in"))]])
    line = score_line(scenario, run_scenario(scenario, AppleBackend(), catalog))
    assert line.failure is not None and line.failure.kind == kind
    assert not line.passed


def test_a_session_closed_as_its_answer_arrives_ends_cleanly(fm, catalog, bench):
    scenario = next(iter(bench.values()))
    fm.script = fm.Script([[("answer", "Done.")] for _ in range(40)])
    for _ in range(40):  # close() races the framework thread's own end
        assert run_scenario(scenario, AppleBackend(), catalog).failure is None


def test_other_framework_errors_are_the_backends(fm, catalog, bench):
    scenario = next(iter(bench.values()))
    fm.script = fm.Script([[("raise", fm.ConcurrentRequestsError("busy"))]])
    line = run_scenario(scenario, AppleBackend(), catalog)
    assert line.failure is not None and line.failure.kind == "backend"


def test_a_tool_error_goes_back_to_the_model_which_answers(fm, catalog, bench):
    scenario = next(iter(bench.values()))
    fm.script = fm.Script([[("call", "get_weather", {"place": "Nowhere-on-Earth-xyz"}),
                            ("answer", "I could not get the weather.")]])
    line = run_scenario(scenario, AppleBackend(window=100_000), catalog)
    assert line.failure is None and line.answer == "I could not get the weather."
    assert fm.script.created[0].tool_results[0][0] == "get_weather"
    assert line.calls[0].tool == "get_weather"


@pytest.mark.parametrize(("reason", "words"), [
    ("APPLE_INTELLIGENCE_NOT_ENABLED", "Apple Intelligence is turned off"),
    ("DEVICE_NOT_ELIGIBLE", "not eligible"),
    ("MODEL_NOT_READY", "not ready"),
])
def test_an_unavailable_model_is_one_clear_error_before_any_scenario(fm, reason, words):
    fm.script = fm.Script([], unavailable=getattr(fm.SystemLanguageModelUnavailableReason, reason))
    with pytest.raises(FormatError, match=words):
        make_backend("apple")


def test_without_the_framework_run_says_why_in_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "apple_fm_sdk", None)  # importing it fails, as on Linux
    assert main(["run", "--backend", "apple", "--set", "bench", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Foundation Models framework" in err
    assert not list(tmp_path.rglob("*.jsonl"))


def test_batch_runs_sessions_side_by_side_and_summary_has_the_cards_columns(fm, tmp_path, capsys):
    pack = tmp_path / "bench.jsonl"
    lines = (scenarios_dir() / "bench.jsonl").read_bytes().splitlines()[:6]
    pack.write_bytes(b"\n".join(lines) + b"\n")
    # Every session answers at once, in English: some scenarios pass, most fail.
    fm.script = fm.Script([[("answer", "Done.")] for _ in range(6)])
    out = tmp_path / "results"
    assert main(["run", "--backend", "apple", "--scenarios", str(pack), "--out", str(out),
                 "--batch", "3"]) in (0, 1)
    assert main(["run", "--backend", "reference", "--scenarios", str(pack), "--out", str(out)]) == 0
    written = sorted(p.name for p in out.rglob("*.jsonl"))
    assert written == ["apple-on-device.jsonl", "reference.jsonl"]
    recorded = [orjson.loads(x) for x in (next(out.rglob("apple-on-device.jsonl"))).read_bytes().splitlines()]
    assert len(recorded) == 6 and all(r["rounds"] == [] and r["model"] == "apple-on-device" for r in recorded)
    capsys.readouterr()
    assert main(["summary", str(out)]) == 0
    table = capsys.readouterr().out
    assert "apple-on-device" in table and "reference" in table


def test_estimated_tokens_grow_with_text_and_count_other_scripts_denser():
    assert estimate_tokens("a" * 330) == pytest.approx(101, abs=1)
    assert estimate_tokens("日本語" * 100) > estimate_tokens("abc" * 100)


@pytest.mark.apple
def test_the_real_framework_answers_a_scenario(catalog, bench):
    pytest.importorskip("apple_fm_sdk", reason="needs macOS 26+ with Apple Intelligence")
    scenario = next(iter(bench.values()))
    line = run_scenario(scenario, AppleBackend(), catalog)
    assert line.failure is None or line.failure.kind in ("context-window", "guardrail", "decoding")
