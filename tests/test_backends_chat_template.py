"""The fast chat-template renderer: the text of apply_chat_template for every conversation the
loop produces, and apply_chat_template itself whenever the fast path cannot be trusted."""

from __future__ import annotations

import warnings

import pytest
from mlx_lm.tokenizer_utils import TokenizerWrapper
from mlx_lm.tokenizer_utils import load as load_tokenizer
from transformers.utils.chat_template_utils import _compile_jinja_template

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path
from harness.backends.chat_template import ChatRenderer, _memo_tojson
from harness.loaders import McpDirectory, Toolset
from harness.tiny_model import ARCHES, QWEN3_5_TEMPLATE, QWEN3_TEMPLATE

pytestmark = pytest.mark.slow  # builds the tiny models (for their tokenizers)


@pytest.fixture(scope="module")
def tokenizers(tiny_models) -> dict[str, TokenizerWrapper]:
    """Each tiny model's tokenizer as mlx-lm loads it (the backend's)."""
    return {arch: load_tokenizer(tiny_models[arch]) for arch in ARCHES}


@pytest.fixture(scope="module")
def natives() -> list[dict]:
    """The 38 native tools as the loop declares them."""
    return Toolset(load_catalog(catalog_path()), McpDirectory({})).declared()


SYSTEM = "You are the assistant of an iPhone.\n\nAnswer briefly, in the user's language.\n"
USER = "# This phone\nNow: Wednesday 4 November 2026, 10:30\n# The user's message\nWeather in Dublin?"


def call(i: int, name: str, arguments: dict) -> dict:
    return {"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": arguments}}


def rounds(n: int, reasoning: bool = False) -> list[dict]:
    """A conversation after n rounds of calls, as the loop builds it: assistant turns whose
    calls carry dict arguments (nested, numbers, booleans, null, non-ASCII), then the results;
    the second round makes two calls, so two results follow each other."""
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": USER}]
    for r in range(n):
        calls = [call(10 * r, "get_weather", {"place": "Dún Laoghaire", "days": r + 1,
                                              "hourly": r % 2 == 0, "units": None})]
        if r == 1:
            calls.append(call(10 * r + 1, "create_event", {
                "title": "Café — 午後", "start": "2026-11-05T15:00", "alerts": [10, 60],
                "location": {"lat": 53.29, "lon": -6.13}}))
        turn = {"role": "assistant", "content": "" if r % 2 else "Checking.", "tool_calls": calls}
        if reasoning:
            turn["reasoning_content"] = f"The user wants the weather; round {r}."
        messages.append(turn)
        for c in calls:
            messages.append({"role": "tool", "tool_call_id": c["id"],
                             "name": c["function"]["name"], "content": f"Dublin: rain, {10 + r} °C"})
    return messages


def answered(reasoning: bool) -> list[dict]:
    """A finished turn followed by a new user request (an earlier answer in the history)."""
    return rounds(1, reasoning) + [
        {"role": "assistant", "content": "Rain all day.", "reasoning_content":
            "Done." if reasoning else None},
        {"role": "user", "content": "And tomorrow?"}]


CONVERSATIONS = {
    "first round": lambda: rounds(0),
    "one round": lambda: rounds(1),
    "four rounds": lambda: rounds(4),
    "four rounds with reasoning": lambda: rounds(4, reasoning=True),
    "an answered turn, then a new request": lambda: answered(False),
    "an answered turn with reasoning": lambda: answered(True),
}


def expected(tokenizer, messages, tools, **kwargs) -> str:
    return tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True,
                                         tokenize=False, **kwargs)


@pytest.mark.parametrize("arch", ARCHES)
@pytest.mark.parametrize("thinking", [False, True])
@pytest.mark.parametrize("with_tools", [True, False])
@pytest.mark.parametrize("shape", list(CONVERSATIONS))
def test_fast_render_is_apply_chat_template(tokenizers, natives, arch, thinking, with_tools,
                                            shape):
    tokenizer = tokenizers[arch]
    renderer = ChatRenderer(tokenizer, check_every=0)
    messages, tools = CONVERSATIONS[shape](), natives if with_tools else None
    want = expected(tokenizer, messages, tools, enable_thinking=thinking)
    # Twice: the second render reads the inputs and the tojson texts from the caches.
    for _ in range(2):
        assert renderer.render(messages, tools, add_generation_prompt=True,
                               enable_thinking=thinking) == want
    assert renderer.fast and renderer.stats.fast == 2 and renderer.stats.slow == 0


@pytest.mark.parametrize("arch", ARCHES)
def test_rounds_of_one_conversation_render_as_apply_chat_template(tokenizers, natives, arch):
    """One renderer over a conversation growing round by round, the way a session uses it,
    checking every render against apply_chat_template."""
    tokenizer = tokenizers[arch]
    renderer = ChatRenderer(tokenizer, check_every=1)
    full = rounds(4, reasoning=True)
    for end in range(2, len(full) + 1):
        if full[end - 1]["role"] == "assistant":
            continue  # the loop renders after a user turn or tool results only
        text = renderer.render(full[:end], natives, add_generation_prompt=True,
                               enable_thinking=False)
        assert text == expected(tokenizer, full[:end], natives, enable_thinking=False)
    assert renderer.fast and renderer.stats.checked == renderer.stats.fast > 1


def test_thinking_defaults_as_mlx_lm_sets_it(tokenizers, natives):
    """mlx-lm's wrapper adds enable_thinking when the caller leaves it out."""
    tokenizer = tokenizers["qwen3"]
    renderer = ChatRenderer(tokenizer, check_every=0)
    assert renderer.render(rounds(1), natives, add_generation_prompt=True) == \
        expected(tokenizer, rounds(1), natives)
    assert renderer.stats.fast == 1


def test_a_plain_transformers_tokenizer_renders_the_same(tokenizers, natives):
    hf = tokenizers["qwen3_5"]._tokenizer
    renderer = ChatRenderer(hf, check_every=0)
    messages = rounds(2)
    assert renderer.render(messages, natives, add_generation_prompt=True,
                           enable_thinking=False) == expected(hf, messages, natives,
                                                              enable_thinking=False)
    assert renderer.fast and renderer.stats.fast == 1


def test_named_templates_pick_the_same_one(tiny_models, natives):
    """A dict of templates: 'tool_use' when tools are given, else 'default'."""
    tokenizer = load_tokenizer(tiny_models["qwen3"])  # its own copy: the template is changed
    tokenizer._tokenizer.chat_template = {"default": QWEN3_TEMPLATE, "tool_use": QWEN3_5_TEMPLATE}
    renderer = ChatRenderer(tokenizer, check_every=0)
    for tools in (natives, None):
        assert renderer.render(rounds(1), tools, add_generation_prompt=True) == \
            expected(tokenizer, rounds(1), tools)
    assert renderer.fast and renderer.stats.fast == 2


# Writes everything a template is given: the messages as they reach it (None fields dropped,
# reasoning under every name), the tools, the special tokens and the other variables.
REVEALING = ("{{ messages | tojson }}|{{ tools | tojson }}|{{ documents | tojson }}|"
             "{{ bos_token }}{{ eos_token }}{{ pad_token }}|{{ enable_thinking }}|"
             "{{ add_generation_prompt }}|{{ extra | tojson(indent=1) }}")


def test_a_template_sees_what_apply_chat_template_shows_it(tiny_models, natives):
    tokenizer = load_tokenizer(tiny_models["qwen3"])  # its own copy: the template is changed
    tokenizer._tokenizer.chat_template = REVEALING
    renderer = ChatRenderer(tokenizer, check_every=0)
    messages = rounds(2) + [
        {"role": "assistant", "content": None, "reasoning": "old name", "tool_calls": None},
        {"role": "assistant", "content": "x", "thinking": "gpt-oss name"},
        {"role": "assistant", "content": "y", "reasoning_content": "r", "thinking": None}]
    extra = {"b": [1, 2.5, None, True], "a": "ü"}
    for thinking in (None, False, True):
        kwargs = {"extra": extra} | ({} if thinking is None else {"enable_thinking": thinking})
        assert renderer.render(messages, natives, add_generation_prompt=True, **kwargs) == \
            expected(tokenizer, messages, natives, **kwargs)
    assert renderer.stats.fast == 3


# -- falling back ---------------------------------------------------------------------------


def test_a_fast_path_that_differs_is_replaced_for_good_with_one_warning(tokenizers, natives):
    tokenizer = tokenizers["qwen3_5"]
    renderer = ChatRenderer(tokenizer)
    source = tokenizer.chat_template
    # The fast path's compiled template swapped for the other layout's.
    renderer._templates[source] = renderer._template(QWEN3_TEMPLATE)
    messages = rounds(1)
    with pytest.warns(RuntimeWarning, match="differs from apply_chat_template"):
        first = renderer.render(messages, natives, add_generation_prompt=True)
    assert first == expected(tokenizer, messages, natives)
    assert not renderer.fast and "differs" in renderer.off_reason
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once only
        later = renderer.render(rounds(2), natives, add_generation_prompt=True)
    assert later == expected(tokenizer, rounds(2), natives)
    assert renderer.stats.slow == 1 and renderer.stats.fast == 1


def test_the_periodic_check_catches_a_difference_after_the_first_render(tokenizers, natives):
    tokenizer = tokenizers["qwen3"]
    renderer = ChatRenderer(tokenizer, check_every=3)
    messages = rounds(1)
    want = expected(tokenizer, messages, natives)
    renderer.render(messages, natives, add_generation_prompt=True)  # checked: equal
    renderer._templates[tokenizer.chat_template] = renderer._template(QWEN3_5_TEMPLATE)
    wrong = renderer.render(messages, natives, add_generation_prompt=True)  # not checked
    assert wrong != want and renderer.fast
    with pytest.warns(RuntimeWarning):
        assert renderer.render(messages, natives, add_generation_prompt=True) == want
    assert not renderer.fast and renderer.stats.checked == 2


def test_a_fast_path_error_where_apply_chat_template_succeeds_turns_it_off(tokenizers):
    tokenizer = tokenizers["qwen3"]
    renderer = ChatRenderer(tokenizer)
    renderer._templates[tokenizer.chat_template] = renderer._template(
        "{{ raise_exception('broken') }}")
    with pytest.warns(RuntimeWarning, match="failed where apply_chat_template did not"):
        text = renderer.render(rounds(0), None, add_generation_prompt=True)
    assert text == expected(tokenizer, rounds(0), None)
    assert not renderer.fast


def test_a_conversation_the_template_refuses_raises_as_apply_chat_template_does(tokenizers):
    tokenizer = tokenizers["qwen3_5"]
    renderer = ChatRenderer(tokenizer)
    no_user = [{"role": "system", "content": SYSTEM}]
    with pytest.raises(Exception, match="No user query found") as slow:
        expected(tokenizer, no_user, None)
    with pytest.raises(type(slow.value), match="No user query found"):
        renderer.render(no_user, None, add_generation_prompt=True)
    assert renderer.fast  # the conversation was wrong, not the fast path


class Name(str):
    """A str subclass, as an enum or a library's string type would be."""


@pytest.mark.parametrize("odd", [
    pytest.param(lambda m: m[2]["tool_calls"][0]["function"].update(arguments={"days": (1, 2)}),
                 id="a tuple"),
    pytest.param(lambda m: m[2].update(content=Name("Checking.")), id="a str subclass"),
    pytest.param(lambda m: m[2]["tool_calls"][0]["function"].update(arguments={"x": float("nan")}),
                 id="a NaN"),
    pytest.param(lambda m: m[2]["tool_calls"][0]["function"].update(arguments={1: "key"}),
                 id="a non-string key"),
])
def test_input_that_is_not_plain_json_renders_through_apply_chat_template(tokenizers, natives,
                                                                          odd):
    tokenizer = tokenizers["qwen3"]
    renderer = ChatRenderer(tokenizer)
    messages = rounds(1)
    odd(messages)
    assert renderer.render(messages, natives, add_generation_prompt=True) == \
        expected(tokenizer, messages, natives)
    assert renderer.stats.slow == 1 and renderer.fast  # this input only


def test_arguments_that_shape_the_call_render_through_apply_chat_template(tokenizers):
    tokenizer = tokenizers["qwen3"]
    renderer = ChatRenderer(tokenizer)
    documents = [{"title": "Lease", "text": "Twelve months."}]
    assert renderer.render(rounds(0), None, add_generation_prompt=True, documents=documents) == \
        expected(tokenizer, rounds(0), None, documents=documents)
    assert renderer.stats.slow == 1 and renderer.fast


def test_a_chat_template_of_mlx_lm_is_never_rendered_fast(tokenizers):
    hf = tokenizers["qwen3"]._tokenizer
    wrapper = TokenizerWrapper(hf, chat_template=lambda messages, **kwargs: "mlx-lm's own")
    with pytest.warns(RuntimeWarning, match="its own template"):
        renderer = ChatRenderer(wrapper)
    assert renderer.render(rounds(0), None, add_generation_prompt=True) == "mlx-lm's own"
    assert not renderer.fast and renderer.stats.slow == 1


def test_transformers_own_template_keeps_its_tojson(tokenizers, natives):
    """The memo lives in the renderer's environment; apply_chat_template's is untouched."""
    tokenizer = tokenizers["qwen3"]
    renderer = ChatRenderer(tokenizer)
    renderer.render(rounds(1), natives, add_generation_prompt=True)
    ours = renderer._template(tokenizer.chat_template).environment.filters["tojson"]
    theirs = _compile_jinja_template(tokenizer.chat_template).environment.filters["tojson"]
    assert ours is not theirs and ours.__name__ == theirs.__name__ == "tojson"
    assert ours.__module__ == _memo_tojson.__module__ != theirs.__module__


def test_tojson_memo_never_confuses_values_orjson_writes_alike():
    import json

    memo = _memo_tojson(lambda x, **kw: json.dumps(x, **kw), size=8)
    # orjson writes NaN and None both as null; lists and tuples both as arrays.
    assert memo({"a": None}) == '{"a": null}' and memo({"a": float("nan")}) == '{"a": NaN}'
    assert memo({"a": float("inf")}) == '{"a": Infinity}' and memo({"a": None}) == '{"a": null}'
    assert memo([1, 2]) == memo((1, 2)) == "[1, 2]"
    assert memo({"a": 1}, indent=2) == '{\n  "a": 1\n}' and memo({"a": 1}) == '{"a": 1}'
    assert memo({"a": 1.0}) == '{"a": 1.0}' and memo({"a": True}) == '{"a": true}'
