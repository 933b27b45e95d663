"""A checkpoint's chat side: its tokenizer and chat template, the tool-call format and thinking
markers mlx-lm detects, and the prompt a round renders, all without the weights.

The mlx backend prefills these prompts; ``orvena-bench check-model`` (harness/preflight.py)
renders the same ones to prove a template before a run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from harness.backends.prompt_tokens import Cuts, PromptEncoder, Encoded
from harness.toolcalls import parser_module

# Files a tokenizer and its template need (mlx-lm's own list for load_tokenizer), and config.json.
TOKENIZER_FILES = ["*.json", "*.py", "tokenizer.model", "*.tiktoken", "tiktoken.model", "*.txt",
                   "*.jsonl", "*.jinja"]


def local_path(model: str) -> Path:
    """A local model folder, or the tokenizer and config files of a Hugging Face repository
    (no weights)."""
    path = Path(model)
    if path.exists():
        return path
    from huggingface_hub import snapshot_download

    return Path(snapshot_download(model, allow_patterns=TOKENIZER_FILES))


def load_tokenizer(path: Path, tool_format: str | None = None):
    """mlx-lm's tokenizer for a model folder, as ``mlx_lm.load`` makes it (the config's EOS ids),
    and the model config (empty without config.json)."""
    from mlx_lm.utils import load_config, load_tokenizer as mlx_load_tokenizer

    config = load_config(path) if (path / "config.json").exists() else {}
    extra = {"tool_parser_type": tool_format} if tool_format else None
    tokenizer = mlx_load_tokenizer(path, extra, eos_token_ids=config.get("eos_token_id"))
    return tokenizer, config


class ChatSide:
    """What a round's prompt is made of and how the text that answers it is read."""

    def __init__(self, tokenizer: Any, *, tool_format: str | None = None, thinking: bool = False,
                 name: str = "model"):
        if tool_format is not None:
            parser_module(tool_format)  # fail early on an unknown name
        self.tokenizer = tokenizer
        # Qwen chat templates end every turn with <|im_end|>; some checkpoints name only
        # <|endoftext|> as EOS, and the model would then write the next turn itself.
        if "<|im_end|>" in tokenizer.get_vocab():
            tokenizer.add_eos_token("<|im_end|>")
        self.tool_format = tool_format or tokenizer.init_kwargs.get("tool_parser_type")
        if self.tool_format is None:
            raise ValueError(f"{name}: mlx-lm cannot tell the tool-call format from the chat "
                             "template; pass --tool-format (e.g. json_tools, qwen3_coder)")
        self.thinking = thinking
        # Where prompts may be cut when tokenized (None: tokenize them whole).
        self.cuts = Cuts.of(tokenizer)

    @property
    def template_sha256(self) -> str:
        return hashlib.sha256((self.tokenizer.chat_template or "").encode()).hexdigest()

    @property
    def eos_token_ids(self) -> set[int]:
        return set(self.tokenizer.eos_token_ids)

    def text(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], *,
             add_generation_prompt: bool = True) -> str:
        """The template's text (``tools=``, ``enable_thinking`` passed explicitly: mlx-lm's
        wrapper turns thinking on when the argument is missing). Through
        ``apply_chat_template`` itself: a faster renderer built on private transformers helpers
        saved 1.5-6 ms a round with the published Qwen templates (a few seconds of a 637-scenario
        run), not worth a private API."""
        return self.tokenizer.apply_chat_template(
            messages, tools=tools or None, add_generation_prompt=add_generation_prompt,
            tokenize=False, enable_thinking=self.thinking)

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def render(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
               encoder: PromptEncoder | None = None) -> list[int]:
        """The prompt's tokens; an encoder reuses the tokens of the conversation's last prompt."""
        text = self.text(messages, tools)
        return encoder.encode(text) if encoder is not None else self.encode(text)

    def encoder(self, start: Encoded | None = None) -> PromptEncoder:
        return PromptEncoder(self.tokenizer, self.cuts, start=start)

    def ends_in_reasoning(self, prompt: list[int]) -> bool:
        """Whether the prompt leaves a think block open (Qwen3.5 with thinking on), so the
        model's text starts as reasoning."""
        tok = self.tokenizer
        if not tok.has_thinking:
            return False
        return tok.rfind_think_start(prompt) > tok.rfind_think_end(prompt)

    def thinking_markers(self) -> tuple[str, str] | None:
        tok = self.tokenizer
        return (tok.think_start, tok.think_end) if tok.has_thinking else None
