"""Names in an answer: a word written with a capital inside a sentence (a brand, a place, a
person) is written as its owner writes it, so it says nothing about the answer's language: "Wolt"
in a Finnish answer is not Polish, and "Cofetăria Unirii" in an English one is not Romanian."""

from __future__ import annotations

import re

from orvena_bench.formats.textmatch import LETTERS

# What may come before a capitalised word that starts a sentence rather than names something:
# nothing, a sentence's end or a line break, then any quotes, brackets or list marks.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;…\n]|[.!?:]['\"»”)])\W*$")
_SPACES = re.compile(r"\s+")


def is_name(text: str, word: re.Match[str]) -> bool:
    """Whether a word of ``text`` (a match of LETTERS) is a name: capitalised, not a sentence's
    first word."""
    return word.group()[0].isupper() and not _SENTENCE_START.search(text, 0, word.start())


def words_but_names(text: str) -> list[str]:
    """The words of the text, lowered, names left out."""
    return [m.group().lower() for m in LETTERS.finditer(text) if not is_name(text, m)]


def without_names(text: str) -> str:
    """The text with each name replaced by a space."""
    return _SPACES.sub(" ", LETTERS.sub(lambda m: " " if is_name(text, m) else m.group(), text)).strip()
