"""Seeded sampling: each draw's key depends only on the run seed, scenario, round and draw."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from harness.sampling import GREEDY, KeyedSampler, SamplingConfig, round_seed


def test_a_round_seed_is_the_same_in_every_process():
    code = "from harness.sampling import round_seed; print(round_seed(7, 'en-a', 2))"
    outputs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": salt}).stdout.strip()
        for salt in ("1", "2")}
    assert outputs == {str(round_seed(7, "en-a", 2))}


def test_round_seeds_differ_by_seed_scenario_and_round():
    seeds = {round_seed(s, sid, r) for s in (7, 8) for sid in ("en-a", "en-b") for r in (0, 1)}
    assert len(seeds) == 8


def test_a_draw_depends_on_its_index_not_on_what_else_was_sampled():
    import mlx.core as mx

    logprobs = mx.log(mx.softmax(mx.random.normal((1, 64), key=mx.random.key(1)), axis=-1))
    config = SamplingConfig(temperature=1.0, top_p=1.0, top_k=0)
    first = KeyedSampler(config, 42)
    drawn = [first(logprobs).item() for _ in range(20)]
    again = KeyedSampler(config, 42)
    mx.random.seed(123)  # the global state plays no part
    assert [again(logprobs).item() for _ in range(20)] == drawn
    assert len(set(drawn)) > 1
    assert KeyedSampler(GREEDY, 42)(logprobs).item() == mx.argmax(logprobs, axis=-1).item()


@pytest.mark.parametrize("bad", [{"temperature": -1}, {"top_p": 0}, {"top_p": 1.5},
                                 {"top_k": -1}, {"min_p": 2}])
def test_impossible_settings_are_refused(bad):
    with pytest.raises(ValueError):
        SamplingConfig(**bad)
