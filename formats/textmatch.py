"""The text matcher every package uses: case- and accent-insensitive substring tests.

Folding is per script, so it never makes two different words of a script equal:
- Latin letters are transliterated to ASCII (Zürich, zurich and ZURICH match; Malmö matches
  malmo; Łódź matches Lodz; ß matches ss);
- Greek loses its tonos and diaeresis, because Greek capitals are written without them
  (ΑΘΗΝΑ must match Αθήνα); the price is that πότε/ποτέ fold together;
- Arabic loses its optional vowel marks (tashkeel) and the tatweel;
- every other script (Cyrillic, Devanagari, Thai, Hangul, kana, CJK, ...) is only case-folded
  and NFKC-normalised, because its marks are letters of their own (й is not и, が is not か).
Call arguments are compared as compact JSON without ASCII escaping; arguments recorded as a
JSON string read the same as the object.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

import orjson
from unidecode import unidecode

_GREEK_MARKS = {"\u0301", "\u0308", "\u0344", "\u0342", "\u0313", "\u0314", "\u0345"}


@lru_cache(maxsize=65536)
def _is_latin(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("LATIN ")


@lru_cache(maxsize=65536)
def _is_greek(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("GREEK ")


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    if _is_latin(ch):
        return unidecode(ch).lower()
    name = unicodedata.name(ch, "")
    if _is_greek(ch):
        base = unicodedata.normalize("NFD", ch)
        return unicodedata.normalize("NFC", "".join(c for c in base if c not in _GREEK_MARKS))
    if name.startswith("ARABIC ") and (
        "\u064b" <= ch <= "\u065f" or ch in ("\u0670", "\u0640")
    ):
        return ""
    return ch


def fold(text: str) -> str:
    """Text folded for comparison (see the module's rules)."""
    if text.isascii():
        return text.lower()
    # Normalised again after case folding, which can decompose (ΰ casefolds to υ + marks).
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    out, base = [], " "
    for ch in text:
        if unicodedata.combining(ch):
            if _is_latin(base) or (ch in _GREEK_MARKS and _is_greek(base)):
                continue  # a mark left on a Latin letter (the dot of a case-folded İ) or on a Greek one
        else:
            base = ch
        out.append(_fold_char(ch))
    return "".join(out)


def contains(haystack: str, needle: str) -> bool:
    """Whether needle occurs in haystack, ignoring case and accents."""
    return fold(needle) in fold(haystack)


def arguments_json(arguments: Any) -> str:
    """Call arguments as compact JSON without ASCII escaping; a JSON string is parsed first."""
    if isinstance(arguments, str):
        try:
            arguments = orjson.loads(arguments)
        except orjson.JSONDecodeError:
            return arguments
    return orjson.dumps(arguments, option=orjson.OPT_NON_STR_KEYS).decode()


class Folded:
    """A text folded once, for many substring tests against it."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = fold(text)

    def has(self, needle: str) -> bool:
        return fold(needle) in self.text
