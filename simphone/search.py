"""Forgiving search, the way a phone searches: case- and accent-insensitive (through
formats.textmatch), partial words, words in any order, and a best partial match when no item
holds every word of the query.

On top of the scorer's folding (which already reads Cyrillic ё as е: a Russian types "Артем" for
"Артём"), search treats as one letter what people of a script type interchangeably, as a phone's
search does: Arabic alef maqsura and yeh (ى ي), taa marbuta and heh (ة ه), waw and yeh with hamza
and without (ؤ و, ئ ي), and the Persian yeh and kaf (ی ک); Devanagari with and without the nukta
(ज़ ज) and chandrabindu as anusvara (ँ ं). The scorer keeps them apart (they are different
spellings in an answer); Latin, Greek and Arabic alef forms are folded by textmatch already."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from orvena_bench.formats.textmatch import WORD
from orvena_bench.formats.textmatch import fold as _text_fold

T = TypeVar("T")

_EQUIVALENT = str.maketrans({
    "ى": "ي", "ة": "ه", "ؤ": "و", "ئ": "ي", "ی": "ي", "ک": "ك",
    "\u093c": None, "\u0901": "\u0902",
})
_EQUIVALENT_CHARS = re.compile("[ىةؤئیک\u093c\u0901]")


def fold(text: str) -> str:
    """Text folded for search: the scorer's folding and the script equivalences above."""
    folded = _text_fold(text)
    return folded.translate(_EQUIVALENT) if _EQUIVALENT_CHARS.search(folded) else folded

_WORD = WORD
# Function words a user puts in a query that no item name holds ("my sister", "le café").
# Kept small on purpose: only words that would otherwise make a good match fail.
STOPWORDS = frozenset(fold(w) for w in """
    my mine the a an of in on at near for to me
    mein meine meinen meinem meiner der die das den dem im am
    mon ma mes le la les du des de un une au aux pres
    mi mis el los las del en cerca
    mio mia miei mie il lo gli di vicino
    meu minha meus minhas o os do da perto
    mijn het een bij
    min mitt mina
    benim
    moj moja moje mój mojoj mojem mom mog mojeg mojom mojim mojih
    mans mana manu manam manas manai mano savo
    мой моя моё мои мій моя мої
    minu minun
    saya
    můj moje
    μου ο η το
    近 近く 付近 周辺 近所 私の 僕の
    근처 주변 내 제
""".split())
# Honorifics a Japanese or Korean query adds to a name ("田中さん", "민수 씨").
_HONORIFICS = ("さん", "様", "さま", "くん", "君", "ちゃん", "先生", "씨", "님")


# Japanese writes no spaces: short hiragana runs between kanji or katakana are particles and
# okurigana ("京都の紅葉", "近くの郵便局"), so they split a query word into the words it holds.
_KANA_SPLIT = re.compile(r"(?<=[\u3400-\u9fff\u30a0-\u30ff\uff66-\uff9f\w])[\u3040-\u309f]{1,3}"
                         r"(?=[\u3400-\u9fff\u30a0-\u30ff\uff66-\uff9f])")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# Korean attaches particles to nouns ("설악산에", "약국이"); longest first.
_KO_PARTICLES = ("에서", "으로", "까지", "부터", "한테", "에게", "이랑", "에", "이", "가", "을", "를",
                 "은", "는", "의", "로", "와", "과", "도", "만", "랑")


def words(text: str) -> list[str]:
    """The folded words of a text."""
    return _WORD.findall(fold(text))


def query_words(query: str) -> list[str]:
    """The words of a query that carry meaning (all of them if all are function words)."""
    found = [part for w in words(query) for part in _KANA_SPLIT.split(w) if part]
    meaningful = [w for w in found if w not in STOPWORDS]
    return meaningful or found


def _cjk_in(word: str, folded: str) -> bool:
    """CJK words match across the spaces an item's text may have ("羽田空港 第3ターミナル")
    and without a Korean particle."""
    squeezed = folded.replace(" ", "")
    if word in squeezed:
        return True
    for particle in _KO_PARTICLES:
        if word.endswith(particle) and len(word) > len(particle) and word[: -len(particle)] in squeezed:
            return True
    return False


def word_in(word: str, folded: str) -> bool:
    """Whether a query word occurs in a folded text: short words at the start of a word ("b"
    of "Aoife B"), longer words anywhere ("pharm" in "pharmacy"), and plurals and other endings
    by a shared stem ("pharmacies")."""
    if len(word) <= 2 and word.isascii():
        return re.search(rf"(?<![^\W_]){re.escape(word)}", folded) is not None
    if word in folded:
        return True
    for suffix in _HONORIFICS:
        if word.endswith(suffix) and len(word) > len(suffix) and word[: -len(suffix)] in folded:
            return True
    if _CJK.search(word) and _cjk_in(word, folded):
        return True
    if len(word) >= 5:
        return word[: max(4, math.ceil(len(word) * 0.6))] in folded
    return len(word) == 4 and word.endswith("s") and word[:-1] in folded


def matches(query: str, text: str) -> bool:
    """Whether every meaningful word of the query occurs in the text."""
    folded = fold(text)
    return all(word_in(w, folded) for w in query_words(query))


def search(items: Iterable[T], query: str, text_of: Callable[[T], str]) -> list[T]:
    """The items holding every word of the query; if none does, those holding the most words
    (at least one), as a phone's search shows its best guesses. Order is kept."""
    wanted = query_words(query)
    if not wanted:
        return []
    scored = []
    for item in items:
        folded = fold(text_of(item))
        scored.append((sum(word_in(w, folded) for w in wanted), item))
    full = [item for score, item in scored if score == len(wanted)]
    if full or len(wanted) < 2:
        return full
    best = max((score for score, _ in scored), default=0)
    return [item for score, item in scored if score == best] if best else []


def distance_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance (haversine)."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(math.sqrt(a))
