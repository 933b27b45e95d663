"""The card's settle step: languages a recognizer confuses, told apart by their letters and
function words (Ukrainian, Russian, Bulgarian; Slovenian, Croatian; Latvian, Lithuanian, Polish,
Estonian, Finnish).

Letters: each occurrence of a letter (or letter sequence) that some languages of the group use
and others do not gives +1 to each language that uses it and -2 to each that does not (a Finnish
"y" speaks for Finnish and against Estonian). Function words: +1 to the one language of the group
that has the word; words two languages of a group share tell nothing apart and are left out.
Spellings: a word written in a way only one language of the group writes counts like a letter of
that language (+1 to it, -2 to the others). Croatian's ijekavian "ije" (vrijeme, promijeni,
lijepo) is such a spelling only inside a word: both languages end the cases of -ija nouns in
"-ije" (agencije, aplikacije, Slovenije), Slovenian writes "-ijev" (taksijev) and "prijeten", and
both write "pije", "bije". A language is settled when it scores at least 2 and at least twice any
other positive score.
Names (scoring/names.py) are not evidence: "Wolt" in a Finnish answer is not Polish.
"""

from __future__ import annotations


import re
from collections.abc import Mapping
from dataclasses import dataclass

from scoring.names import words_but_names

SETTLE_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"uk", "ru", "bg"}),
    frozenset({"sl", "hr"}),
    frozenset({"lv", "lt", "pl", "et", "fi"}),
)


@dataclass(frozen=True)
class Evidence:
    letters: tuple[str, ...]
    words: frozenset[str]
    spellings: tuple[re.Pattern[str], ...] = ()


def _evidence(letters: str, words: str, *spellings: str) -> Evidence:
    return Evidence(tuple(letters.split()), frozenset(words.split()),
                    tuple(re.compile(p) for p in spellings))


# Croatian words that end in ijekavian "-ije", and "ije" with a letter after it in a word that is
# not one of the shared forms above.
_IJEKAVIAN = r"^(?:(?:n|pr|dv|sm|razum)ije$|(?!pije|bije|prije[tlm])\w*?ije(?!v$)(?=\w))"


EVIDENCE: Mapping[str, Evidence] = {
    "uk": _evidence("і ї є ґ ь", "і й та що це як але або від він вона вони буде є цей ця ці "
                    "який яка яке також вже чи якщо коли зараз сьогодні із зі після годині "
                    "немає ні дякую будь ласка"),
    "ru": _evidence("ы э ё ь", "что это он она они мы будет был была этот эта эти который которая "
                    "которое также уже ещё еще если когда где здесь сейчас сегодня нет его её их "
                    "после часов спасибо пожалуйста"),
    "bg": _evidence("ъ", "че това тази този тези ще са съм сте е със във към след които който "
                    "която също вече днес утре когато къде тук сега няма има си се ние той тя "
                    "благодаря моля"),
    "sl": _evidence("šč", "in so ki bo tudi kot lahko že še ob jutri danes ura zdaj kje kdaj kaj sem "
                    "jih ter vendar oziroma zelo bom boste bomo sta nisem nimate če vse vsi prej "
                    "vedno kdo nima proti med v z vsakdo vsak vsaka vsako vrednost vnesite izberite "
                    "ker kateri katera katero tega temu teh ni človek mesto vreme shrani brez kdor "
                    "svoboda svobodo pravico nobeden"),
    "hr": _evidence("ć đ", "i u sa su koji koja koje će ću ćete ćemo također kao može već još "
                    "sutra danas sat sati sada gdje kada što sam ih jer ako vrlo jako nije nema tko "
                    "prema nakon prije uvijek sve svi ovaj ova ovo ove ovog ovom ovih vrijednost "
                    "unesite odaberite svatko svaki svaka svako između ili čovjek vrijeme mjesto "
                    "bez sloboda slobodu pravo nitko spremi", _IJEKAVIAN),
    "lv": _evidence("ā č ē ģ ī ķ ļ ņ š ū ž", "un uz no par vai jūsu es šo šī būs bija arī vēl rīt "
                    "šodien tagad pulksten nav lai pie līdz pēc kā viņš viņa mēs tev"),
    "lt": _evidence("ą č ę ė į š ų ū ž y", "yra su į iš arba jūsų aš šis ši bus buvo taip rytoj "
                    "šiandien dabar kada valandą nėra prie iki kaip jis ji tau labai"),
    "pl": _evidence("ą ć ę ł ń ó ś ź ż y w", "i w z na do nie się jest są że co jak ale lub albo "
                    "dla od przez przy czy już jeszcze jutro dzisiaj dziś teraz gdzie kiedy "
                    "godzinie mam pan pani tym także również bardzo będzie był była można"),
    "et": _evidence("ä ö õ ü š ž", "see et kui või ning aga mis mida sest oled olete teie teil "
                    "teile sinu minu meie homme täna praegu nüüd kell kella kus millal veel juba "
                    "ära pole saab tuleb seda selle seal siin väga palun aitäh"),
    "fi": _evidence("ä ö å y ssä stä llä ltä", "se että kun jos mutta tämä tuo hän minä sinä teidän teille sinun "
                    "minun huomenna tänään nyt kello missä milloin vielä jo myös voi olet ovat "
                    "kanssa hyvin kiitos kyllä sitten jälkeen ennen klo"),
}


def group_of(language: str) -> frozenset[str] | None:
    return next((g for g in SETTLE_GROUPS if language in g), None)


def scores(text: str, group: frozenset[str]) -> dict[str, int]:
    """Points per language of the group (see the module's rule)."""
    words = words_but_names(text)
    points = {lang: 0 for lang in sorted(group)}
    letters = {x for lang in group for x in EVIDENCE[lang].letters}
    for letter in letters:
        n = sum(word.count(letter) for word in words)
        if n:
            for lang in points:
                points[lang] += n if letter in EVIDENCE[lang].letters else -2 * n
    spellings = [(lang, p) for lang in group for p in EVIDENCE[lang].spellings]
    for word in words:
        for lang in points:
            points[lang] += word in EVIDENCE[lang].words
        for owner, pattern in spellings:
            if pattern.search(word):
                for lang in points:
                    points[lang] += 1 if lang == owner else -2
    return points


def settle(text: str, group: frozenset[str]) -> str | None:
    """The language of the group that text's letters and function words decide, or None."""
    points = scores(text, group)
    best = max(points, key=points.get)
    runner_up = max((v for k, v in points.items() if k != best), default=0)
    return best if points[best] >= 2 and points[best] >= 2 * max(runner_up, 0) else None
