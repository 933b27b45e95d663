"""The mlx backend on the tiny random models: template, stops, parsing, and prefill reuse that
never changes a token."""

from __future__ import annotations

import mlx.core as mx
import numpy as np
import pytest

import harness.backends.mlx_backend as mlx_backend
from orvena_bench.formats.scenario import Scenario
from harness.backend import SessionContext
from harness.backends.mlx_backend import MlxBackend
from harness.sampling import GREEDY, SamplingConfig

pytestmark = pytest.mark.slow

TOOLS = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "The forecast for a place.",
        "parameters": {"type": "object", "properties": {
            "place": {"type": "string"}, "days": {"type": "integer"}}, "required": ["place"]}}},
    {"type": "function", "function": {
        "name": "create_event", "description": "Add an event to the calendar.",
        "parameters": {"type": "object", "properties": {
            "title": {"type": "string"}, "start": {"type": "string"}}}}},
]
SYSTEM = "You are the assistant of an iPhone. Answer briefly, in the user's language."
WEATHER_CALL = {"id": "call_1", "type": "function",
                "function": {"name": "get_weather", "arguments": {"place": "Dublin", "days": 2}}}


def scenario(sid: str = "en-weather-dublin") -> Scenario:
    return Scenario(id=sid, language="en", category="weather", request="Weather in Dublin?")


def start(request: str = "Weather in Dublin?") -> list[dict]:
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": request}]


def converse(backend: MlxBackend, sid: str, rounds: int = 3, seed: int = 7,
             rewrite: bool = False, request: str = "Weather in Dublin?"):
    """Rounds of one scenario as the loop runs them: each round's answer and a call go back
    into the history with a tool result. ``rewrite``: the history holds other text than the
    model wrote, as when its text is not in the template's canonical form."""
    session = backend.open(SessionContext(scenario=scenario(sid), seed=seed))
    messages, out = start(request), []
    for r in range(rounds):
        g = session.generate(messages, TOOLS)
        out.append(g)
        call = {**WEATHER_CALL, "id": f"call_{r}"}
        messages = messages + [
            {"role": "assistant", "content": "Checking." if rewrite else g.content,
             "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"call_{r}", "name": "get_weather",
             "content": f"Dublin: rain, {10 + r} °C"}]
    session.close()
    return out


class ScriptedSampler:
    """Writes the given tokens whatever the model prefers, and keeps every distribution the
    model produced, so that two cache paths can be compared number for number."""

    def __init__(self, tokens: list[int], seen: list[np.ndarray]):
        self.tokens, self.seen, self.i = tokens, seen, 0

    def __call__(self, logprobs):
        self.seen.append(np.array(logprobs.astype(mx.float32)))
        token = self.tokens[min(self.i, len(self.tokens) - 1)]
        self.i += 1
        return mx.array([token])


def script(monkeypatch, backend: MlxBackend, texts: list[str]) -> list[np.ndarray]:
    """Make round r of every session write texts[r] then end its turn."""
    seen: list[np.ndarray] = []
    end = backend.tokenizer.convert_tokens_to_ids("<|im_end|>")

    def factory(config, seed, scenario_id, round_index):
        tokens = backend.tokenizer.encode(texts[round_index], add_special_tokens=False) + [end]
        return ScriptedSampler(tokens, seen)

    monkeypatch.setattr(mlx_backend, "round_sampler", factory)
    return seen


def test_the_tool_format_comes_from_the_chat_template_or_the_flag(tiny_models):
    assert MlxBackend(str(tiny_models["qwen3"])).tool_format == "json_tools"
    assert MlxBackend(str(tiny_models["qwen3_5"])).tool_format == "qwen3_coder"
    forced = MlxBackend(str(tiny_models["qwen3_5"]), tool_format="json_tools")
    assert forced.tool_format == "json_tools"
    with pytest.raises(ValueError, match="unknown tool format"):
        MlxBackend(str(tiny_models["qwen3"]), tool_format="no_such_format")


def test_thinking_is_off_unless_asked_and_the_template_is_told_so(tiny_models):
    off = MlxBackend(str(tiny_models["qwen3_5"]))
    on = MlxBackend(str(tiny_models["qwen3_5"]), thinking=True)
    decode = off.tokenizer.decode
    prompt_off, prompt_on = off.render(start(), TOOLS), on.render(start(), TOOLS)
    assert decode(prompt_off).endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    assert decode(prompt_on).endswith("<|im_start|>assistant\n<think>\n")
    assert not off.ends_in_reasoning(prompt_off)
    assert on.ends_in_reasoning(prompt_on)
    assert on.max_tokens > off.max_tokens == mlx_backend.MAX_TOKENS


def test_reasoning_is_split_off_when_thinking_is_on(tiny_models, monkeypatch):
    backend = MlxBackend(str(tiny_models["qwen3_5"]), thinking=True)
    script(monkeypatch, backend, ["Dublin means the weather tool.\n</think>\n\nIt will rain."])
    g = backend.open(SessionContext(scenario=scenario(), seed=7)).generate(start(), TOOLS)
    assert g.reasoning == "Dublin means the weather tool."
    assert g.content == "It will rain."


def test_the_end_of_turn_token_stops_the_round(tiny_model, monkeypatch):
    backend = MlxBackend(str(tiny_model), max_tokens=50)
    end = backend.tokenizer.convert_tokens_to_ids("<|im_end|>")
    assert end in backend.tokenizer.eos_token_ids
    script(monkeypatch, backend, ["It will rain.<|im_end|>Never read."])
    g = backend.open(SessionContext(scenario=scenario(), seed=7)).generate(start(), TOOLS)
    assert g.text == "It will rain."
    assert g.timing.generatedTokens == len(
        backend.tokenizer.encode("It will rain.", add_special_tokens=False)) + 1


def test_calls_are_parsed_with_the_declared_schemas_and_bad_blocks_are_kept(tiny_models,
                                                                            monkeypatch):
    backend = MlxBackend(str(tiny_models["qwen3_5"]))
    text = ("<tool_call>\n<function=get_weather>\n<parameter=place>\nDublin\n</parameter>\n"
            "<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>\n"
            "<tool_call>\n<function=create_event>\n<parameter=title>\nLunch\n</tool_call>")
    script(monkeypatch, backend, [text])
    g = backend.open(SessionContext(scenario=scenario(), seed=7)).generate(start(), TOOLS)
    assert [(c.name, c.arguments) for c in g.calls] == [
        ("get_weather", {"place": "Dublin", "days": 2})]
    assert len(g.parse_errors) == 1 and "create_event" in g.parse_errors[0]
    assert g.text == text


def test_a_round_records_its_tokens_and_costs(tiny_model):
    backend = MlxBackend(str(tiny_model), sampling=GREEDY, max_tokens=8)
    first, second = converse(backend, "en-weather-dublin", rounds=2)
    for g in (first, second):
        t = g.timing
        assert t.promptTokens > 0 and 0 < t.generatedTokens <= 8
        assert t.prefillSeconds > 0 and t.decodeSeconds >= 0 and t.peakMemoryGB > 0
    assert first.timing.cachedTokens == 0
    assert 0 < second.timing.cachedTokens < second.timing.promptTokens


@pytest.mark.parametrize(("sampling", "rewrite"), [
    (GREEDY, False), (SamplingConfig(), False), (SamplingConfig(), True)],
    ids=["greedy", "seeded", "seeded-rewritten-history"])
def test_every_reuse_path_writes_the_tokens_of_a_fresh_prefill(tiny_model, sampling, rewrite):
    def run(reuse):
        backend = MlxBackend(str(tiny_model), sampling=sampling, reuse=reuse, max_tokens=10)
        texts = [g.text for sid in ("en-a", "en-b")
                 for g in converse(backend, sid, rounds=2, rewrite=rewrite)]
        return texts, backend.stats

    fresh, fresh_stats = run("none")
    texts, stats = run("shared")
    assert texts == fresh
    assert fresh_stats.cached_tokens == 0
    assert stats.prefilled_tokens < fresh_stats.prefilled_tokens
    if rewrite:
        # The history differs from the cache: attention caches are cut back to the common
        # prefix, recurrent ones restart from the snapshot at the end of the last prompt.
        expected = "snapshot" if "qwen3_5" in str(tiny_model) else "trim"
        assert stats.fallbacks[expected] >= 2


def test_canonical_text_continues_the_cache_and_sees_the_same_numbers(tiny_models, monkeypatch):
    path = str(tiny_models["qwen3_5"])
    texts = ["<tool_call>\n<function=get_weather>\n<parameter=place>\nDublin\n</parameter>\n"
             "<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>", "It will rain."]

    def run(reuse):
        backend = MlxBackend(path, reuse=reuse)
        seen = script(monkeypatch, backend, texts)
        session = backend.open(SessionContext(scenario=scenario(), seed=7))
        first = session.generate(start(), TOOLS)
        messages = start() + [
            {"role": "assistant", "content": first.content, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {
                    "name": c.name, "arguments": c.arguments}} for c in first.calls]},
            {"role": "tool", "tool_call_id": "call_1", "name": "get_weather",
             "content": "Dublin: rain, 11 °C"}]
        second = session.generate(messages, TOOLS)
        return first, second, seen, backend.stats

    first, second, seen, stats = run("rounds")
    assert stats.fallbacks == {"fresh": 1, "append": 1}
    assert second.timing.cachedTokens == first.timing.promptTokens + first.timing.generatedTokens
    _, _, seen_fresh, _ = run("none")
    assert len(seen) == len(seen_fresh)
    assert max(float(np.abs(a - b).max()) for a, b in zip(seen, seen_fresh)) == 0.0


def test_a_scenario_samples_the_same_tokens_whatever_ran_before_it(tiny_models):
    path = str(tiny_models["qwen3_5"])
    alone = converse(MlxBackend(path, max_tokens=12), "en-b", rounds=2)
    after = MlxBackend(path, max_tokens=12)
    converse(after, "en-a", rounds=2)
    again = converse(after, "en-b", rounds=2)
    assert [g.text for g in again] == [g.text for g in alone]
    other_seed = converse(MlxBackend(path, max_tokens=12), "en-b", rounds=2, seed=8)
    assert [g.text for g in other_seed] != [g.text for g in alone]


def test_the_scenarios_shared_prefix_is_prefilled_once(tiny_models):
    backend = MlxBackend(str(tiny_models["qwen3_5"]), sampling=GREEDY, max_tokens=4)
    requests = ["Weather in Dublin?", "Is it windy in Cork?", "Rain tomorrow in Galway?"]
    first = [converse(backend, f"en-{i}", rounds=1, request=r)[0] for i, r in enumerate(requests)]
    # The first scenario finds the part of its prompt no scenario writes (tools and system
    # prompt), prefills it once and keeps it; the next ones start from a copy.
    (kept,) = backend.shared_snapshots()
    shared = len(kept.tokens)
    assert first[0].timing.cachedTokens == 0
    assert first[1].timing.cachedTokens == first[2].timing.cachedTokens == shared
    assert shared > first[2].timing.promptTokens // 2
    # It ends where the user's message begins.
    text = backend.tokenizer.decode(list(kept.tokens))
    assert text.endswith("<|im_start|>user\n") or text.rstrip().endswith("<|im_start|>user")
    assert backend.stats.prefilled_tokens == sum(
        g.timing.promptTokens - g.timing.cachedTokens for g in first)


def test_describe_records_what_a_rerun_needs(tiny_models):
    backend = MlxBackend(str(tiny_models["qwen3"]), sampling=SamplingConfig(temperature=0.5))
    d = backend.describe()
    assert d["quantization"]["bits"] == 4 and d["quantization"]["group_size"] == 64
    assert d["toolFormat"] == "json_tools" and len(d["chatTemplateSha256"]) == 64
    assert d["sampling"]["temperature"] == 0.5 and d["maxTokens"] == 1024
    assert d["thinking"] is False and d["cacheReuse"] == "shared"
    assert d["startsInReasoning"] is False
    thinking = MlxBackend(str(tiny_models["qwen3_5"]), thinking=True).describe()
    assert thinking["startsInReasoning"] is True and thinking["maxTokens"] == 4096
    assert d["versions"]["mlx-lm"]


@pytest.mark.parametrize("sampling", [GREEDY, SamplingConfig()], ids=["greedy", "seeded"])
def test_batched_scenarios_write_the_tokens_of_sequential_ones(tiny_model, sampling):
    from concurrent.futures import ThreadPoolExecutor

    ids = [f"en-{i}" for i in range(5)]

    def texts(backend, sid):
        return [g.text for g in converse(backend, sid, rounds=2, rewrite=sid.endswith("1"))]

    sequential = MlxBackend(str(tiny_model), sampling=sampling, max_tokens=10)
    alone = {sid: texts(sequential, sid) for sid in ids}
    batched = MlxBackend(str(tiny_model), sampling=sampling, max_tokens=10, batch=3)
    try:
        # One thread per running scenario, as a batched run drives them; five scenarios
        # through three slots, so finished scenarios' slots are taken by waiting ones.
        with ThreadPoolExecutor(3) as pool:
            together = dict(zip(ids, pool.map(lambda sid: texts(batched, sid), ids)))
    finally:
        batched.close()
    assert together == alone
    # First rounds that arrive together share their prefix at once; never more prefill.
    assert batched.stats.prefilled_tokens <= sequential.stats.prefilled_tokens


def test_common_prefix_counts_the_tokens_two_prompts_share():
    from harness.backends.mlx_backend import common_prefix

    a = list(range(5000))
    for k in (0, 1, 7, 8, 63, 64, 1023, 1024, 1025, 4999):
        b = a[:k] + [-1] + a[k:]
        assert common_prefix(a, b) == k
        assert common_prefix(tuple(a), b[:k]) == k
    assert common_prefix(a, a) == len(a)


def test_tools_loaded_in_a_round_keep_the_shared_schemas_as_a_prefix(tiny_models):
    """Qwen3.5 puts the tools first: a tool appended in round 2 changes the prompt right after
    the shared schemas, where no snapshot of a recurrent cache would otherwise reach."""
    from harness.backends.mlx_backend import common_prefix

    extra = {"type": "function", "function": {
        "name": "mcp.0f1e.search_issues", "description": "Search issues.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}}}}

    def run(reuse):
        backend = MlxBackend(str(tiny_models["qwen3_5"]), sampling=GREEDY, reuse=reuse,
                             max_tokens=4)
        rounds = []
        for sid in ("en-a", "en-b", "en-c"):
            session = backend.open(SessionContext(scenario=scenario(sid), seed=7))
            first = session.generate(start(), TOOLS)
            messages = start() + [
                {"role": "assistant", "content": first.content, "tool_calls": [WEATHER_CALL]},
                {"role": "tool", "tool_call_id": "call_1", "name": "get_weather",
                 "content": "loaded"}]
            rounds += [first, session.generate(messages, TOOLS + [extra])]
        return backend, messages, rounds

    backend, messages, shared = run("shared")
    _, _, fresh = run("none")
    assert [g.text for g in shared] == [g.text for g in fresh]
    schemas = common_prefix(backend.render(start(), TOOLS),
                            backend.render(messages, TOOLS + [extra]))
    # The second scenario's first prompt makes the first shared prefix (system prompt and
    # request included); its round 2 leaves that prefix after the schemas, which are kept from
    # then on: the third scenario's round 2 starts from them.
    assert schemas > 16
    assert shared[5].timing.cachedTokens == schemas
