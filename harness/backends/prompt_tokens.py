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

    def __init__(self, tokenizer, boundary: str = BOUNDARY, *,
                 boundary_id: int | None | bool = True):
        """``boundary_id``: the marker's token id when already checked (None: do not cut);
        by default it is looked up and checked here."""
        self.tokenizer = tokenizer
        self.boundary = boundary
        if boundary_id is True:
            vocab = tokenizer.get_vocab()
            boundary_id = vocab.get(boundary)
            self.boundary_id = boundary_id
            if boundary_id is not None and not self.splits_cleanly():
                boundary_id = None
        self.boundary_id = boundary_id
        self.text = ""
        self.tokens: list[int] = []
        self.marks: list[int] = []  # where the marker is in self.tokens
        self.reused = 0  # characters taken from the last prompt, for tests and benchmarks

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
        kept = self._continue(text) if self.boundary_id is not None and self.text else None
        if kept is None:
            tokens, self.reused, marks, start = self._whole(text), 0, [], 0
        else:
            self.reused, mark, k = kept
            marks = self.marks[:k]
            tokens, start = self.tokens[:mark] + self._whole(text[self.reused:]), mark
        marks += [i for i in range(start, len(tokens)) if tokens[i] == self.boundary_id]
        self.text, self.tokens, self.marks = text, tokens, marks
        return tokens

    def _continue(self, text: str) -> tuple[int, int, int] | None:
        """(characters, tokens, markers) of the last prompt to keep: up to its last marker
        before which the new text is the same."""
        chars = [m.start() for m in re.finditer(re.escape(self.boundary), self.text)]
        if len(chars) != len(self.marks):
            return None
        for k in range(len(chars) - 1, 0, -1):
            if text.startswith(self.text[:chars[k]]):
                return chars[k], self.marks[k], k
        return None
