"""A backend's logit bias, which the batch engine adds to the whole batch's logits at once
instead of row by row, writes the tokens the sequential engine writes with it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from harness.backend import SessionContext
from harness.backends.mlx_backend import MlxBackend
from orvena_bench.formats.scenario import Scenario
from harness.sampling import GREEDY, SamplingConfig

pytestmark = pytest.mark.slow

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The forecast for a place.",
    "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}}]


def texts(backend: MlxBackend, sid: str) -> list[str]:
    session = backend.open(SessionContext(
        scenario=Scenario(id=sid, language="en", category="weather", request="Weather?"), seed=7))
    messages, out = [{"role": "system", "content": "Answer briefly."},
                     {"role": "user", "content": f"Weather in Dublin? ({sid})"}], []
    for r in range(2):
        g = session.generate(messages, TOOLS)
        out.append(g.text)
        messages = messages + [
            {"role": "assistant", "content": g.content, "tool_calls": [
                {"id": f"call_{r}", "type": "function",
                 "function": {"name": "get_weather", "arguments": {"place": "Dublin"}}}]},
            {"role": "tool", "tool_call_id": f"call_{r}", "name": "get_weather",
             "content": "rain"}]
    session.close()
    return out


@pytest.mark.parametrize("sampling", [GREEDY, SamplingConfig()], ids=["greedy", "seeded"])
def test_a_logit_bias_gives_batched_scenarios_the_tokens_of_sequential_ones(tiny_model, sampling):
    ids = [f"en-{i}" for i in range(4)]
    plain = MlxBackend(str(tiny_model), sampling=sampling, max_tokens=12)
    bias = {plain.tokenizer.convert_tokens_to_ids("<tool_call>"): 6.0,
            plain.tokenizer.convert_tokens_to_ids("<|im_end|>"): 1.0}
    unbiased = {sid: texts(plain, sid) for sid in ids}
    sequential = MlxBackend(str(tiny_model), sampling=sampling, max_tokens=12, logit_bias=bias)
    alone = {sid: texts(sequential, sid) for sid in ids}
    batched = MlxBackend(str(tiny_model), sampling=sampling, max_tokens=12, logit_bias=bias,
                         batch=3)
    try:
        with ThreadPoolExecutor(3) as pool:
            together = dict(zip(ids, pool.map(lambda sid: texts(batched, sid), ids)))
    finally:
        batched.close()
    assert alone != unbiased  # the bias changes what is written, so the comparison can fail
    assert together == alone
