"""The card's settle step: languages a recognizer confuses, told apart by their letters and
function words (Ukrainian, Russian, Bulgarian; Slovenian, Croatian; Latvian, Lithuanian, Polish,
Estonian, Finnish).

Each language scores one point per letter only it uses within its group and per function word
only it uses; a language is settled when it scores at least 2 and at least twice any other.
Words shared by two languages of a group (Latvian and Lithuanian "kas", Estonian and Finnish
"ja") are left out, since they tell nothing apart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

SETTLE_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"uk", "ru", "bg"}),
    frozenset({"sl", "hr"}),
    frozenset({"lv", "lt", "pl", "et", "fi"}),
)


@dataclass(frozen=True)
class Evidence:
    letters: str
    words: frozenset[str]


def _evidence(letters: str, words: str) -> Evidence:
    return Evidence(letters, frozenset(words.split()))


EVIDENCE: Mapping[str, Evidence] = {
    "uk": _evidence("іїєґ", "і й та що це як але або від він вона вони буде є цей ця ці "
                    "який яка яке також вже чи якщо коли зараз сьогодні із зі після годині "
                    "немає ні дякую будь ласка"),
    "ru": _evidence("ыэё", "что это он она они мы будет был была этот эта эти который которая "
                    "которое также уже ещё еще если когда где здесь сейчас сегодня нет его её их "
                    "после часов спасибо пожалуйста"),
    "bg": _evidence("ъ", "че това тази този тези ще са съм сте е със във към след които който която "
                    "също вече днес утре когато къде тук сега няма има си се ние той тя "
                    "благодаря моля"),
    "sl": _evidence("", "in so ki bo tudi kot lahko že še ob jutri danes ura zdaj kje kdaj kaj sem "
                    "jih ter vendar oziroma zelo bom boste bomo sta nisem nimate če vse vsi prej "
                    "vedno kdo nima proti med v z"),
    "hr": _evidence("ćđ", "i u sa su koji koja koje će ću ćete ćemo također kao može već još sutra "
                    "danas sat sati sada gdje kada što sam ih jer ako vrlo jako nije nema tko prema "
                    "nakon prije uvijek sve svi"),
    "lv": _evidence("āēīķļņģ", "un uz no par vai jūsu es šo šī būs bija arī vēl rīt šodien "
                    "tagad pulksten nav lai pie līdz pēc kā viņš viņa mēs tev"),
    "lt": _evidence("ėįų", "yra su į iš arba jūsų aš šis ši bus buvo taip rytoj šiandien "
                    "dabar kada valandą nėra prie iki kaip jis ji tau labai"),
    "pl": _evidence("łńóśźżć", "i w z na do nie się jest są że co jak ale lub albo dla od przez "
                    "przy czy już jeszcze jutro dzisiaj dziś teraz gdzie kiedy godzinie mam pan "
                    "pani tym także również bardzo będzie był była można"),
    "et": _evidence("õü", "see et kui või ning aga mis mida sest oled olete teie teil teile sinu "
                    "minu meie homme täna praegu nüüd kell kella kus millal veel juba ära pole "
                    "saab tuleb seda selle seal siin väga palun aitäh"),
    "fi": _evidence("", "se että kun jos mutta tämä tuo hän minä sinä teidän teille sinun "
                    "minun huomenna tänään nyt kello missä milloin vielä jo myös voi olet "
                    "ovat kanssa hyvin kiitos kyllä sitten jälkeen ennen klo"),
}

_WORD = re.compile(r"[^\W\d_]+")


def group_of(language: str) -> frozenset[str] | None:
    return next((g for g in SETTLE_GROUPS if language in g), None)


def scores(text: str, group: frozenset[str]) -> dict[str, int]:
    """Points per language of the group: its own letters and function words in text."""
    lowered = text.lower()
    words = _WORD.findall(lowered)
    return {lang: sum(lowered.count(ch) for ch in EVIDENCE[lang].letters)
            + sum(w in EVIDENCE[lang].words for w in words) for lang in sorted(group)}


def settle(text: str, group: frozenset[str]) -> str | None:
    """The language of the group that text's letters and function words decide, or None."""
    points = scores(text, group)
    best = max(points, key=points.get)
    runner_up = max((v for k, v in points.items() if k != best), default=0)
    return best if points[best] >= 2 and points[best] >= 2 * runner_up else None
