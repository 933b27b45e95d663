"""``run --batch N``: N scenarios in flight at once, each line the one a sequential run writes."""

from __future__ import annotations

import threading
from pathlib import Path

import orjson
import pytest

from orvena_bench.cli.main import main
from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.jsonl import read_models
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from harness.backends.reference import ReferenceBackend
from harness.runner import RunSpec, run_set
from tests.test_loop_run import SCENARIOS


class GatedBackend:
    """The reference agent, whose sessions' first rounds wait until ``width`` sessions have
    reached theirs: a run that keeps fewer scenarios in flight breaks the barrier (timeout)."""

    name = "gated"

    def __init__(self, width: int):
        self.inner = ReferenceBackend()
        self.barrier = threading.Barrier(width, timeout=20)

    def describe(self):
        return {"backend": self.name}

    def open(self, context):
        session, barrier = self.inner.open(context), self.barrier

        class Gated:
            waited = False

            def generate(self, messages, tools):
                if not self.waited:
                    self.waited = True
                    barrier.wait()
                return session.generate(messages, tools)

            def close(self):
                session.close()

        return Gated()


def many(n: int, file: Path) -> list[Scenario]:
    """n copies of one calendar scenario, written to ``file`` (the run's manifest hashes it)."""
    data = [{**SCENARIOS[0], "id": f"en-calendar-move-dentist-{i}"} for i in range(n)]
    file.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in data))
    return [Scenario.model_validate(d) for d in data]


def test_a_batch_of_four_keeps_four_scenarios_in_flight_and_writes_the_sequential_lines(tmp_path):
    catalog = load_catalog(catalog_path())
    file = tmp_path / "pack.jsonl"
    scenarios = many(8, file)
    batched = run_set("pack", file, scenarios, RunSpec(
        backend=GatedBackend(4), catalog=catalog, model="m", out=tmp_path / "b", progress=False,
        workers=4))
    sequential = run_set("pack", file, scenarios, RunSpec(
        backend=ReferenceBackend(), catalog=catalog, model="m", out=tmp_path / "s", progress=False))
    assert batched.ran == sequential.ran == 8 and batched.passed == 8 and not batched.failures
    b = {line.id: line.without_timings() for line in read_models(batched.path, ResultLine)}
    s = {line.id: line.without_timings() for line in read_models(sequential.path, ResultLine)}
    assert b == s


def test_a_batch_wider_than_the_scenarios_in_flight_would_wait_forever_and_the_gate_sees_it(tmp_path):
    """The gate of the test above can fail: one worker never gathers two sessions."""
    backend = GatedBackend(2)
    backend.barrier = threading.Barrier(2, timeout=0.5)
    file = tmp_path / "pack.jsonl"
    result = run_set("pack", file, many(2, file), RunSpec(
        backend=backend, catalog=load_catalog(catalog_path()), model="m", out=tmp_path,
        progress=False, workers=1))
    assert result.failures["backend"] == 2


@pytest.mark.slow
def test_a_tiny_mlx_model_writes_the_same_lines_with_batch_3_as_one_at_a_time(tmp_path, tiny_models):
    pack = tmp_path / "mini.jsonl"
    pack.write_bytes(b"".join(orjson.dumps(s) + b"\n" for s in SCENARIOS))
    out: dict[int, Path] = {}
    for batch in (1, 3):
        out[batch] = tmp_path / f"b{batch}"
        assert main(["run", "--model", str(tiny_models["qwen3_5"]), "--scenarios", str(pack),
                     "--out", str(out[batch]), "--max-tokens", "6", "--max-rounds", "2",
                     "--batch", str(batch), "--no-progress"]) == 0
    one, three = (read_models(out[b] / "mini" / "qwen3_5.jsonl", ResultLine) for b in (1, 3))
    assert len(one) == len(three) == 3
    assert {r.id: r.without_timings() for r in one} == {r.id: r.without_timings() for r in three}
    assert all(r.rounds and r.rounds[0].timing.generatedTokens > 0 for r in three)
