"""Tokenizing prompts without re-tokenizing what an earlier prompt already had.

Each round's prompt is the template's rendering of the whole conversation, several thousand
tokens of which only the end is new; and every scenario's first prompt starts with the same tool
schemas. A Hugging Face tokenizer splits its added tokens (``<|im_start|>``, ``<tool_call>``, ...)
out of the text before anything else, so the text between two of them is tokenized on its own.
The tokens of a prompt are therefore the tokens of an earlier prompt up to the last added token
before which both texts are the same, then the tokens of the rest.

Only added tokens that match exactly (no stripping of neighbouring spaces, not single-word, not
normalized) are used as cut points, and a sample is checked when the encoder is built: if cutting
does not give the tokens of the whole text, every prompt is tokenized whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Cuts:
    """Where a tokenizer's text may be cut: a pattern of its clean added tokens and their ids."""

    pattern: re.Pattern
    ids: frozenset[int]

    @classmethod
    def of(cls, tokenizer) -> "Cuts | None":
        """The cut points of an mlx-lm or Hugging Face tokenizer, or None if cutting there does
        not give the tokens of the whole text."""
        added = getattr(tokenizer, "added_tokens_decoder", None) or {}
        clean = {i: t.content for i, t in added.items()
                 if not (t.lstrip or t.rstrip or t.single_word or t.normalized)}
        if not clean:
            return None
        # Longest first: the tokenizer matches the longest added token at a position.
        strings = sorted(clean.values(), key=len, reverse=True)
        cuts = cls(re.compile("|".join(re.escape(s) for s in strings)), frozenset(clean))
        return cuts if cuts._clean_on(tokenizer, strings) else None

    def _clean_on(self, tokenizer, strings: list[str]) -> bool:
        sample = "".join(f"Réponds {i}, ok  \n{s}x {s}\n\n" for i, s in enumerate(strings))
        whole = _encode(tokenizer, sample)
        pieces: list[int] = []
        start = 0
        for m in self.pattern.finditer(sample):
            pieces += _encode(tokenizer, sample[start:m.start()])
            start = m.start()
        pieces += _encode(tokenizer, sample[start:])
        return pieces == whole


def _encode(tokenizer, text: str) -> list[int]:
    return list(tokenizer.encode(text, add_special_tokens=False)) if text else []


@dataclass
class Encoded:
    """A prompt's text, its tokens, and where its cut points are (characters, tokens)."""

    text: str = ""
    tokens: list[int] = field(default_factory=list)
    chars: list[int] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)


class PromptEncoder:
    """Per conversation: tokenizes each prompt from the last one (or from ``start``, e.g. the
    previous scenario's first prompt)."""

    def __init__(self, tokenizer, cuts: Cuts | None, start: Encoded | None = None):
        self.tokenizer = tokenizer
        self.cuts = cuts
        self.last = start or Encoded()
        self.reused = 0  # characters taken from the last prompt, for tests and benchmarks

    def encode(self, text: str) -> list[int]:
        last, cuts = self.last, self.cuts
        k = self._keep(text) if cuts is not None and last.text else None
        if k is None:
            self.reused, mark, k = 0, 0, 0
        else:
            self.reused, mark = last.chars[k], last.marks[k]
        tokens = last.tokens[:mark] + _encode(self.tokenizer, text[self.reused:])
        chars, marks = last.chars[:k], last.marks[:k]
        if cuts is not None:
            chars += [m.start() for m in cuts.pattern.finditer(text, self.reused)]
            marks += [i for i in range(mark, len(tokens)) if tokens[i] in cuts.ids]
            if len(chars) != len(marks):  # cannot happen with a clean tokenizer; stay safe
                chars, marks = [], []
        self.last = Encoded(text, tokens, chars, marks)
        return tokens

    def _keep(self, text: str) -> int | None:
        """The index of the last cut point of the last prompt before which the new text is the
        same (None: none is)."""
        last = self.last
        for k in range(len(last.chars) - 1, -1, -1):
            if last.chars[k] > 0 and text.startswith(last.text[:last.chars[k]]):
                return k
        return None
