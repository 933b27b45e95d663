"""Names in an answer: a word written with a capital inside a sentence (a brand, a place, a
person) is written as its owner writes it, so it says nothing about the answer's language: "Wolt"
in a Finnish answer is not Polish, and "Cofetăria Unirii" in an English one is not Romanian."""

from __future__ import annotations

import re
from collections.abc import Iterator

from orvena_bench.formats.textmatch import LETTERS

# What may come before a capitalised word that starts a sentence rather than names something:
# nothing, a sentence's end or a line break, then any quotes, brackets or list marks. All of it is
# non-word text, so it lies between the word and the one before it.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;…\n]|[.!?:]['\"»”)])\W*$")
_SPACES = re.compile(r"\s+")


def _words(text: str) -> Iterator[tuple[re.Match[str], bool]]:
    """Each word of the text (a match of LETTERS) and whether it is a name."""
    end = 0
    for word in LETTERS.finditer(text):
        # "^" matches only at the text's real start, so searching the gap alone is exact.
        yield word, word.group()[0].isupper() and not _SENTENCE_START.search(text, end, word.start())
        end = word.end()


def words_but_names(text: str) -> list[str]:
    """The words of the text, lowered, names left out."""
    return [word.group().lower() for word, name in _words(text) if not name]


def without_names(text: str) -> str:
    """The text with each name replaced by a space."""
    parts, end = [], 0
    for word, name in _words(text):
        parts += [text[end:word.start()], " " if name else word.group()]
        end = word.end()
    parts.append(text[end:])
    return _SPACES.sub(" ", "".join(parts)).strip()
