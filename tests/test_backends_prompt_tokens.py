"""Prompts tokenized from an earlier prompt's tokens equal prompts tokenized whole."""

from __future__ import annotations

import pytest

from harness.backends.prompt_tokens import Cuts, PromptEncoder

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Forecast.",
    "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}}]


def render(tokenizer, messages):
    return tokenizer.apply_chat_template(messages, tools=TOOLS, add_generation_prompt=True,
                                         enable_thinking=False, tokenize=False)


@pytest.mark.slow
def test_a_growing_conversation_tokenizes_as_if_whole(tiny_model):
    import mlx_lm

    _, tokenizer = mlx_lm.load(str(tiny_model))
    whole = lambda text: tokenizer.encode(text, add_special_tokens=False)  # noqa: E731
    cuts = Cuts.of(tokenizer)
    assert cuts is not None
    messages = [{"role": "system", "content": "Réponds brièvement. 明日の天気"},
                {"role": "user", "content": "Quel temps à Lyon ?"}]
    encoder = PromptEncoder(tokenizer, cuts)
    for r in range(4):
        text = render(tokenizer, messages)
        assert encoder.encode(text) == whole(text)
        if r:
            assert encoder.reused > len(text) // 2
        messages = messages + [
            {"role": "assistant", "content": f"Je regarde{'.' * r}  ", "tool_calls": [
                {"id": f"call_{r}", "type": "function",
                 "function": {"name": "get_weather", "arguments": {"place": "Lyon"}}}]},
            {"role": "tool", "tool_call_id": f"call_{r}", "name": "get_weather",
             "content": f"Pluie, {r} °C\n"}]
    # Another conversation starts from this one's last prompt: whatever it shares is reused,
    # and its tokens are still those of its whole text.
    other = render(tokenizer, [{"role": "system", "content": "Be brief."},
                               {"role": "user", "content": "Wetter in Köln?"}])
    second = PromptEncoder(tokenizer, cuts, start=encoder.last)
    assert second.encode(other) == whole(other)
    if "qwen3_5" in str(tiny_model):  # tools first: the schemas are shared
        assert second.reused > len(other) // 2


class MergingTokenizer:
    """A tokenizer whose tokens span its added tokens: one token per call."""

    class Added:
        content, lstrip, rstrip, single_word, normalized = "<|im_start|>", False, False, False, False

    added_tokens_decoder = {1: Added()}

    def encode(self, text, add_special_tokens=False):
        return [len(text)]


def test_a_tokenizer_that_merges_across_added_tokens_is_not_cut():
    assert Cuts.of(MergingTokenizer()) is None
    encoder = PromptEncoder(MergingTokenizer(), None)
    encoder.encode("<|im_start|>user\nhi")
    longer = "<|im_start|>user\nhi<|im_start|>assistant\n"
    assert encoder.encode(longer) == [len(longer)]
    assert encoder.reused == 0
