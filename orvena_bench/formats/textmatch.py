"""The text matcher every package uses: case- and accent-insensitive substring tests.

Folding is per script, so it never makes two different words of a script equal:
- Latin letters are transliterated to ASCII (Zürich, zurich and ZURICH match; Malmö matches
  malmo; Łódź matches Lodz; ß matches ss);
- Greek loses its tonos and diaeresis, because Greek capitals are written without them
  (ΑΘΗΝΑ must match Αθήνα); the price is that πότε/ποτέ fold together;
- Arabic loses its optional vowel marks (tashkeel) and the tatweel, and alef with hamza or
  madda reads as alef (الأحد = الاحد);
- Cyrillic ё reads as е, because Russian writes ё as е as a rule ("Серега", "все" for "всё"),
  so a check spelled with either letter holds for an answer spelled with the other;
- every other script (the rest of Cyrillic, Devanagari, Thai, Hangul, kana, CJK, ...) is only
  case-folded and NFKC-normalised, because its marks are letters of their own (й is not и, ї is
  not і, が is not か).
Call arguments are compared as compact JSON without ASCII escaping; arguments recorded as a
JSON string read the same as the object.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from unidecode import unidecode

from orvena_bench.formats.jsonl import json_text, loads

_GREEK_MARKS = {"\u0301", "\u0308", "\u0344", "\u0342", "\u0313", "\u0314", "\u0345"}


@lru_cache(maxsize=65536)
def _is_latin(ch: str) -> bool:
    # A letter: the LATIN CROSS is a symbol and stays as it is.
    return unicodedata.name(ch, "").startswith("LATIN ") and unicodedata.category(ch)[0] == "L"


@lru_cache(maxsize=65536)
def _is_greek(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("GREEK ")


# Typographic apostrophes read as the typed one: Ukrainian writes "пʼятниця", "п’ятниця" and
# "п'ятниця" for the same word (Babel gives the first, keyboards the last).
_APOSTROPHES = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'"}
# The Unicode hyphen and non-breaking hyphen read as the typed one (models type "PZ‑2026‑0097"
# with U+2011). Dashes and the minus sign stay as they are: "2–3 °C" is a range, not "-3 °C".
_HYPHENS = {"\u2010": "-", "\u2011": "-"}
# Alef with hamza or madda (أ إ آ ٱ) reads as the bare alef, as Arabic search does: people type
# "الاحد" and "ايمن" for "الأحد" and "أيمن"; the hamza is a mark on the alef, not another word.
_ARABIC_ALEFS = frozenset("\u0622\u0623\u0625\u0671")


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    if ch in _APOSTROPHES:
        return _APOSTROPHES[ch]
    if ch in _HYPHENS:
        return _HYPHENS[ch]
    if ch == "\u0451":  # ё (Ё case-folds to it)
        return "\u0435"
    if ch in _ARABIC_ALEFS:
        return "\u0627"
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


@lru_cache(maxsize=65536)
def _fold_run(run: str) -> str:
    return "".join(_fold_char(ch) for ch in run)


# Every code point that folding can change: Latin beyond ASCII, Greek, Cyrillic ё, typographic apostrophes and hyphens,
# and the Arabic tatweel and vowel marks (a test checks that every code point outside this class folds to itself).
_FOLDABLE = re.compile(
    "[\u0080-\u02af\u02bc\u0451\u2010\u2011\u2018\u2019\u2032\u1d00-\u1dbf\u1e00-\u1eff\u2184\u2c60-\u2c7f\ua720-\ua7ff\uab30-\uab6f"
    "\U0001df00-\U0001dfff\u0370-\u03ff\u1f00-\u1fff\u0622\u0623\u0625\u0640\u064b-\u065f\u0670\u0671]+")
_GREEK_MARK_CLASS = "[" + "".join(sorted(_GREEK_MARKS)) + "]"
# Marks that NFKC could not compose into their letter: dropped after a Latin letter (the dot of a
# case-folded İ) and Greek marks after a Greek letter. Rare, so looked for before any work.
_MARK_CLASS = "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
_COMBINING = re.compile(_MARK_CLASS)
_MARKS_AFTER_GREEK = re.compile(f"(?<=[\u0370-\u03ff\u1f00-\u1fff]){_GREEK_MARK_CLASS}+")
_MARKS_AFTER_LATIN = re.compile(f"(?<=[a-z]){_MARK_CLASS}+")


# Combining marks that belong inside words: Python's \w leaves them out, which cut Hindi words
# at every vowel sign ("दिल्ली" read as three letters). Devanagari, Arabic, Thai and the generic
# combining blocks.
_MARKS = ("\u0300-\u036f\u0483-\u0489\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc"
          "\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u0900-\u0903\u093a-\u094f\u0951-\u0957"
          "\u0962\u0963\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u1ab0-\u1aff\u1dc0-\u1dff"
          "\u20d0-\u20ff\ufe20-\ufe2f")
# A word: letters and digits with the marks inside them (no underscore).
WORD = re.compile(f"(?:[^\\W_]|[{_MARKS}])+")
# A word of letters only (no digits).
LETTERS = re.compile(f"(?:[^\\W\\d_]|[{_MARKS}])+")


def fold(text: str) -> str:
    """Text folded for comparison (see the module's rules)."""
    if text.isascii():
        return text.lower()
    # Normalised again after case folding, which can decompose (ΰ casefolds to υ + marks).
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    marks = _COMBINING.search(text) is not None
    if marks:
        text = _MARKS_AFTER_GREEK.sub("", text)
    # Latin letters become a-z here, so the marks left after them are found after a-z.
    text = _FOLDABLE.sub(lambda m: _fold_run(m.group()), text)
    return _MARKS_AFTER_LATIN.sub("", text) if marks else text


def contains(haystack: str, needle: str) -> bool:
    """Whether needle occurs in haystack, ignoring case and accents."""
    return fold(needle) in fold(haystack)


def arguments_json(arguments: Any) -> str:
    """Call arguments as compact JSON without ASCII escaping; a JSON string is parsed first."""
    if isinstance(arguments, str):
        try:
            arguments = loads(arguments)
        except ValueError:
            return arguments
    return json_text(arguments)


class Folded:
    """A text folded once, for many substring tests against it."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = fold(text)

    def has(self, needle: str) -> bool:
        return fold(needle) in self.text
