"""Prompts tokenized from the last prompt's tokens equal prompts tokenized whole."""

from __future__ import annotations

import pytest

from harness.backends.prompt_tokens import PromptEncoder


@pytest.mark.slow
def test_a_growing_conversation_tokenizes_as_if_whole(tiny_model):
    import mlx_lm

    _, tokenizer = mlx_lm.load(str(tiny_model))
    tools = [{"type": "function", "function": {"name": "get_weather", "description": "Forecast.",
              "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}}]
    messages = [{"role": "system", "content": "Réponds brièvement. 明日の天気"},
                {"role": "user", "content": "Quel temps à Lyon ?"}]
    encoder = PromptEncoder(tokenizer)
    assert encoder.splits_cleanly()
    for r in range(4):
        text = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True,
                                             enable_thinking=False, tokenize=False)
        assert encoder.encode(text) == tokenizer.encode(text, add_special_tokens=False)
        if r:
            assert encoder.reused > len(text) // 2
        messages = messages + [
            {"role": "assistant", "content": f"Je regarde{'.' * r}  ", "tool_calls": [
                {"id": f"call_{r}", "type": "function",
                 "function": {"name": "get_weather", "arguments": {"place": "Lyon"}}}]},
            {"role": "tool", "tool_call_id": f"call_{r}", "name": "get_weather",
             "content": f"Pluie, {r} °C\n"}]
    # A history that changes early (another system prompt) is tokenized whole again.
    changed = tokenizer.apply_chat_template(
        [{"role": "system", "content": "Be brief."}, *messages[1:]], tools=tools,
        add_generation_prompt=True, enable_thinking=False, tokenize=False)
    assert encoder.encode(changed) == tokenizer.encode(changed, add_special_tokens=False)
    assert encoder.reused == 0


class MergingTokenizer:
    """A tokenizer whose tokens span its turn markers: one token per call."""

    def get_vocab(self):
        return {"<|im_start|>": 1}

    def convert_tokens_to_ids(self, token):
        return 1

    def encode(self, text, add_special_tokens=False):
        return [len(text)]


def test_a_tokenizer_that_merges_across_markers_is_always_used_whole():
    encoder = PromptEncoder(MergingTokenizer())
    assert not encoder.splits_cleanly()
    encoder.encode("<|im_start|>user\nhi")
    longer = "<|im_start|>user\nhi<|im_start|>assistant\n"
    assert encoder.encode(longer) == [len(longer)]
    assert encoder.reused == 0
