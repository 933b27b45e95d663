"""The card's language check, on lingua instead of Apple's recognizer.

The card's structure is kept: quoted text and words that occur in tool output are removed; the
check runs only when at least 12 characters (letters) remain; Ukrainian/Russian/Bulgarian,
Slovenian/Croatian and Latvian/Lithuanian/Polish/Estonian/Finnish are settled by letters and
function words; Danish/Norwegian, Croatian/Bosnian/Serbian, Indonesian/Malay and
Hindi/Marathi/Nepali count as one language; for Estonian, Latvian, Lithuanian and Slovenian
requests only an English reading rejects.

The card's gate ("top hypothesis at confidence >= 0.5") is replaced. lingua's confidences
are spread over all candidate languages, so short English text rarely reaches 0.5 and the literal
gate lets ~44% of English answers through. The calibrated decision: sum the confidences per
same-language group; reject when the top group is not the expected one and either it is English
or it is at least ``k`` (4) times as likely as the expected group. One reading is added: an
accepted answer is read again without its names (scoring/names.py) and rejected if that reads as
English, since lingua takes an English sentence naming local places for the local language.
docs/scoring.md has the measurements.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Literal

from babel import Locale

from orvena_bench.formats.languages import LANGUAGES
from orvena_bench.formats.textmatch import LETTERS, WORD, fold
from scoring import settle as settling
from scoring.names import without_names

# Same-language groups, each read as its first member.
SAME_LANGUAGE: dict[str, str] = {
    "nb": "da", "nn": "da", "no": "da",
    "bs": "hr", "sr": "hr", "sh": "hr",
    "ms": "id",
    "mr": "hi", "ne": "hi",
}
# Requests in these languages are rejected only by an English reading (the card).
ENGLISH_ONLY: frozenset[str] = frozenset({"et", "lv", "lt", "sl"})
MIN_LETTERS = 12
DEFAULT_K = 4.0

# Quotation marks of the bench's languages, as (opening, closing). The ASCII apostrophe is also
# an apostrophe (it's, l'heure), so it quotes only where no letter touches it from outside.
QUOTE_PAIRS: tuple[tuple[str, str], ...] = (
    ('"', '"'), ("“", "”"), ("„", "“"), ("„", "”"), ("”", "”"), ("«", "»"), ("»", "«"),
    ("‘", "’"), ("‚", "‘"), ("‚", "’"), ("‹", "›"), ("›", "‹"), ("「", "」"), ("『", "』"),
)
# A quotation is at most 500 characters: unbounded, every opening mark without its closing one
# rescanned the rest of the line (quadratic on a run of opening marks).
_QUOTED = re.compile("|".join(
    [f"{re.escape(a)}[^{re.escape(b)}\n]{{0,500}}{re.escape(b)}" for a, b in QUOTE_PAIRS]
    # 'single quotes' only where no letter touches them from outside (not it's, l'heure).
    + [r"(?<!\w)'[^'\n]{1,500}'(?!\w)"]))
# Addresses are not words of any language.
# An e-mail's local part starts only where a run of its characters starts: tried from every
# position inside a long run (base64, degenerate model text), it rescanned the run each time.
_ADDRESS = re.compile(r"https?://\S+|www\.\S+|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WORD = WORD
_WORD_SPLIT = re.compile(f"({WORD.pattern})")
_SPACES = re.compile(r"\s+")

How = Literal["too-short", "unknown-language", "no-letters", "settled", "recognizer", "without-names"]


@lru_cache(maxsize=1024)
def same_language(code: str) -> str:
    """The language a code counts as: nb reads as da, sr as hr, ms as id, mr as hi."""
    code = code.replace("_", "-").split("-")[0].lower()
    code = {"iw": "he", "in": "id"}.get(code, code)
    return SAME_LANGUAGE.get(code, code)


def language_name(code: str) -> str:
    try:
        return Locale.parse(code).get_display_name("en") or code
    except (ValueError, LookupError):
        return code


def tool_words(tool_outputs: Iterable[str]) -> frozenset[str]:
    """Every word of the tool outputs, folded."""
    return frozenset(w for text in tool_outputs for w in _WORD.findall(fold(text)))


def strip_for_language(answer: str, tool_outputs: Iterable[str] = ()) -> str:
    """The answer without quoted text, addresses and words that occur in tool output."""
    text = _ADDRESS.sub(" ", _QUOTED.sub(" ", answer))
    known = tool_words(tool_outputs)
    if known:
        parts = _WORD_SPLIT.split(text)  # words at the odd places
        parts[1::2] = [" " if fold(w) in known else w for w in parts[1::2]]
        text = "".join(parts)
    return _SPACES.sub(" ", text).strip()


def letter_count(text: str) -> int:
    """Letters, with the vowel signs of scripts such as Devanagari counted as part of them."""
    return sum(len(w) for w in LETTERS.findall(text)) - sum(map(str.isdigit, text))


# The recognizer's time grows with its text (0.8 s for 20,000 letters here); an answer's language
# shows in its first few thousand characters, so it reads at most this many (the card cuts a
# transcript message at the same length), cut at a space, taken from the answer's first
# READ_CHARS (room for the quotes and tool words stripped), so a 1 MB answer costs what 8 KB do.
JUDGED_CHARS = 4000
READ_CHARS = 2 * JUDGED_CHARS


def _head(text: str) -> str:
    if len(text) <= JUDGED_CHARS:
        return text
    cut = text.rfind(" ", 0, JUDGED_CHARS + 1)
    return text[:cut if cut > JUDGED_CHARS // 2 else JUDGED_CHARS].rstrip()


# A lone surrogate (a model cutting an emoji pair in half) is no letter of any language, and the
# recognizer cannot encode it.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _text_to_judge(answer: str, tool_outputs: Iterable[str]) -> str | None:
    text = strip_for_language(_LONE_SURROGATE.sub("", answer[:READ_CHARS]), tool_outputs)
    return _head(main_script_text(text)) if letter_count(text) >= MIN_LETTERS else None


@lru_cache(maxsize=8192)
def _script(ch: str) -> str | None:
    """The script of a letter (LATIN, CYRILLIC, HANGUL, ...; kana and Han are one, CJK), the
    script of the letter before for a combining mark (None), and "" for anything else."""
    if unicodedata.category(ch)[0] == "M":
        return None
    if not ch.isalpha():
        return ""
    script = unicodedata.name(ch, "?").split(" ")[0]
    return "CJK" if script in ("HIRAGANA", "KATAKANA", "CJK", "KATAKANA-HIRAGANA") else script


# A Hangul syllable or a CJK character holds about as much text as three Latin letters, a
# Devanagari consonant (its vowel signs are marks, not letters) about two.
_SCRIPT_WEIGHT = {"CJK": 3, "HANGUL": 3, "DEVANAGARI": 2}


def main_script_text(text: str) -> str:
    """The text with only the letters of its main script (by weighted letter count); letters of
    other scripts become spaces. A Korean answer with a date pattern or a product name in Latin
    letters is read as Korean: given both, the recognizer reads the Latin part as some
    Latin-script language."""
    if text.isascii() or len({_script(ch) for ch in set(text)} - {"", None}) <= 1:
        return text
    scripts = []
    current = ""
    for ch in text:
        script = _script(ch)
        current = current if script is None else script  # a mark belongs to its letter
        scripts.append(current)
    weight: dict[str, int] = {}
    for script in scripts:
        if script:
            weight[script] = weight.get(script, 0) + _SCRIPT_WEIGHT.get(script, 1)
    if len(weight) <= 1:
        return text
    main = max(weight, key=weight.get)
    kept = "".join(ch if script in ("", main) else " " for ch, script in zip(text, scripts))
    return _SPACES.sub(" ", kept).strip()


@dataclass(frozen=True)
class LanguageJudgement:
    accepted: bool
    how: How
    # The language read (a same-language group's first member), when a reading was made.
    reading: str | None = None
    text: str = ""

    def sentence(self, expected: str) -> str:
        """Why the answer was rejected, for ``issues``."""
        reading = self.reading or "?"
        how = {"settled": "its letters and function words are",
               "without-names": "without its names it reads as"}.get(self.how, "it reads as")
        return (f"the answer is not in {language_name(expected)} ({expected}): {how} "
                f"{language_name(reading)} ({reading})")


@cache
def build_detector(languages: tuple[str, ...] = LANGUAGES) -> Any:
    """lingua's detector in high-accuracy mode over the given languages, built once per process
    (models load on first use of each script)."""
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, same_language(c).upper()) for c in languages]
    return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()


@lru_cache(maxsize=128)
def _code(language: Any) -> str:
    """A lingua Language as its same-language group's code."""
    return same_language(language.iso_code_639_1.name)


@dataclass
class LanguageCheck:
    """The check with its settings; the detector is built on first use. ``settle`` and
    ``english_only`` switch the card's two special rules, ``names_aside`` the second reading of
    an accepted answer without its names (all on by default; off only to measure)."""

    k: float = DEFAULT_K
    settle: bool = True
    english_only: bool = True
    names_aside: bool = True
    languages: tuple[str, ...] = LANGUAGES
    detector: Any = None
    # Confidences already computed, by text, and texts to judge by (answer, tool outputs): see
    # ``prime`` and ``prime_answers``.
    _known: dict[str, dict[str, float]] = field(default_factory=dict, repr=False)
    _texts: dict[tuple[str, tuple[str, ...]], str | None] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._groups = frozenset(same_language(c) for c in self.languages)

    def _detector(self) -> Any:
        if self.detector is None:
            self.detector = build_detector(self.languages)
        return self.detector

    @staticmethod
    def _as_dict(values: Sequence[Any]) -> dict[str, float]:
        groups: dict[str, float] = {}
        for cv in values:
            code = _code(cv.language)
            groups[code] = groups.get(code, 0.0) + cv.value
        return groups

    def confidences(self, text: str) -> dict[str, float]:
        """Confidence per same-language group (summed), as lingua gives it."""
        known = self._known.get(text)
        if known is None:
            known = self._as_dict(self._detector().compute_language_confidence_values(text))
        return known

    def prime(self, texts: Iterable[str]) -> None:
        """Compute the confidences of many texts at once, on every core."""
        texts = [t for t in texts if t is not None]
        if self.names_aside:  # the second reading's texts, so that it costs no lone calls
            texts += [r for r in map(without_names, texts) if letter_count(r) >= MIN_LETTERS]
        todo = list(dict.fromkeys(t for t in texts if t not in self._known))
        if todo:
            values = self._detector().compute_language_confidence_values_in_parallel(todo)
            self._known.update(zip(todo, map(self._as_dict, values)))

    def prime_answers(self, answers: Iterable[tuple[str, Sequence[str]]]) -> None:
        """Prepare many (answer, tool outputs) at once: their texts, then their confidences."""
        for answer, outputs in answers:
            key = (answer, tuple(outputs))
            if key not in self._texts:
                self._texts[key] = _text_to_judge(answer, outputs)
        self.prime(self._texts.values())

    def text_to_judge(self, answer: str, tool_outputs: Sequence[str] = ()) -> str | None:
        """What the recognizer reads: the answer stripped (quotes, addresses, tool-output words),
        or None when fewer than 12 letters remain; then only its main script's letters."""
        key = (answer, tuple(tool_outputs))
        return self._texts[key] if key in self._texts else _text_to_judge(answer, tool_outputs)

    def judge(self, answer: str, expected: str, tool_outputs: Sequence[str] = ()) -> LanguageJudgement:
        text = self.text_to_judge(answer, tool_outputs)
        if text is None:
            return LanguageJudgement(True, "too-short")
        return self.judge_text(text, expected)

    def judge_text(self, text: str, expected: str) -> LanguageJudgement:
        """The decision on the text ``text_to_judge`` gave."""
        want = same_language(expected)
        if want not in self._groups:
            return LanguageJudgement(True, "unknown-language", text=text)
        groups = self.confidences(text)
        if not groups or max(groups.values()) <= 0.0:
            return LanguageJudgement(True, "no-letters", text=text)
        top = max(groups, key=groups.get)
        group = settling.group_of(want)
        settled = settling.settle(text, group) if self.settle and group and top in group else None
        if settled:
            judgement = LanguageJudgement(same_language(settled) == want, "settled", settled, text)
        elif top == want:
            judgement = LanguageJudgement(True, "recognizer", top, text)
        elif self.english_only and want in ENGLISH_ONLY:
            judgement = LanguageJudgement(top != "en", "recognizer", top, text)
        else:
            judgement = LanguageJudgement(
                top != "en" and groups[top] < self.k * groups.get(want, 0.0), "recognizer", top, text)
        if judgement.accepted and self.names_aside and want != "en" and self._english_without_names(text):
            return LanguageJudgement(False, "without-names", "en", text)
        return judgement

    def _english_without_names(self, text: str) -> bool:
        """Whether the text, its names set aside, reads as English (lingua's top group)."""
        rest = without_names(text)
        if rest == text or letter_count(rest) < MIN_LETTERS:
            return False
        groups = self.confidences(rest)
        return bool(groups) and max(groups, key=groups.get) == "en"


@cache
def default_language_check() -> LanguageCheck:
    """The check the scorer uses unless given another: one per process."""
    return LanguageCheck()
