"""Tokenizing a conversation's prompts without re-tokenizing what the last prompt already had.

Each round's prompt is the template's rendering of the whole conversation, several thousand
tokens of which only the end is new. A tokenizer splits its special tokens out before anything
else, so the text before a special token is tokenized on its own: the tokens of a prompt are the
tokens of its text up to the last turn marker (``<|im_start|>``) it shares with the previous
prompt, then the tokens of the rest. Whether a tokenizer really behaves so is checked on a sample
when the encoder is built; if it does not, every prompt is tokenized whole.
"""

from __future__ import annotations

import re

BOUNDARY = "<|im_start|>"
_SAMPLE = (f"{BOUNDARY}system\nTools: a, b{BOUNDARY}user\nHi there{BOUNDARY}assistant\n"
           f"<think>\n\n</think>\n\nHello!<|im_end|>\n{BOUNDARY}user\n ok  {BOUNDARY}assistant\n")


class PromptEncoder:
    """Per conversation: remembers the last prompt's text and tokens."""

    def __init__(self, tokenizer, boundary: str = BOUNDARY, *, checked: bool | None = None):
        """``checked``: the result of ``splits_cleanly`` for this tokenizer, when known."""
        self.tokenizer = tokenizer
        self.boundary = boundary
        self.boundary_id = tokenizer.convert_tokens_to_ids(boundary) \
            if boundary in tokenizer.get_vocab() else None
        self.text = ""
        self.tokens: list[int] = []
        self.reused = 0  # characters taken from the last prompt, for tests and benchmarks
        if checked is None:
            checked = self.splits_cleanly()
        if not checked:
            self.boundary_id = None

    def _whole(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def splits_cleanly(self) -> bool:
        """Whether text tokenized piece by piece at the marker gives the tokens of the whole."""
        if self.boundary_id is None:
            return False
        pieces = _SAMPLE.split(self.boundary)
        joined: list[int] = self._whole(pieces[0])
        for piece in pieces[1:]:
            joined += [self.boundary_id] + self._whole(piece)
        return joined == self._whole(_SAMPLE)

    def encode(self, text: str) -> list[int]:
        tokens = None
        if self.boundary_id is not None and self.text:
            tokens = self._continue(text)
        if tokens is None:
            tokens, self.reused = self._whole(text), 0
        self.text, self.tokens = text, tokens
        return tokens

    def _continue(self, text: str) -> list[int] | None:
        chars = [m.start() for m in re.finditer(re.escape(self.boundary), self.text)]
        marks = [i for i, t in enumerate(self.tokens) if t == self.boundary_id]
        if len(chars) != len(marks):
            return None
        # The last marker of the previous prompt up to which the new text is the same.
        for char, mark in zip(reversed(chars), reversed(marks)):
            if char > 0 and text.startswith(self.text[:char]):
                self.reused = char
                return self.tokens[:mark] + self._whole(text[char:])
        return None
