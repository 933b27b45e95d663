"""The composition of the scenario sets, side by side with the card's."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from orvena_bench.formats.languages import APPLE_LANGUAGES, CATEGORIES, LANGUAGES
from harness.validation.static import Located, id_suffix


# The card's Results table: "13 languages Apple's model supports (260)".
CARD_APPLE_BENCH = 260


@dataclass(frozen=True)
class Row:
    what: str
    card: str
    ours: str

    @property
    def ok(self) -> bool:
        return self.card == self.ours or self.card.startswith("~")


def _uses_mcp(item: Located) -> bool:
    s = item.scenario
    calls = [c.tool for c in s.expect.calls] + [c.tool for seq in s.expect.anyOf for c in seq]
    return any("/" in t for t in calls)


def composition(items: list[Located]) -> list[Row]:
    by_set: dict[str, list[Located]] = {}
    for item in items:
        by_set.setdefault(item.set_name, []).append(item)
    bench = by_set.get("bench", [])
    originals = [i for i in bench if not id_suffix(i.scenario.id)]
    per_lang = Counter(i.scenario.language for i in originals)
    rows = [
        Row("bench scenarios", "547", str(len(bench))),
        Row("bench originals", "407", str(len(originals))),
        Row("bench originals in English", "30", str(per_lang["en"])),
        Row("languages with 13 originals (not English)", "29",
            str(sum(1 for lang in LANGUAGES if lang != "en" and per_lang[lang] == 13))),
        Row("originals using MCP connections", "62", str(sum(map(_uses_mcp, originals)))),
        Row("bench scenarios in Apple's 13 languages", str(CARD_APPLE_BENCH),
            str(sum(i.scenario.language in APPLE_LANGUAGES for i in bench))),
        Row("bench -h3", "40", str(sum(id_suffix(i.scenario.id) == "-h3" for i in bench))),
        Row("bench -conn", "100", str(sum(id_suffix(i.scenario.id) == "-conn" for i in bench))),
        Row("-conn with 2 to 6 connections", "100", str(sum(
            id_suffix(i.scenario.id) == "-conn" and 2 <= len(i.scenario.connections) <= 6
            for i in bench))),
    ]
    cats = Counter(i.scenario.category for i in originals)
    rows.append(Row("categories covered by originals", "20", str(sum(1 for c in CATEGORIES if cats[c]))))
    rows += [Row(f"originals in {c}", "~20", str(cats[c])) for c in CATEGORIES]
    restraint = by_set.get("restraint", [])
    rlang = Counter(i.scenario.language for i in restraint)
    rows += [
        Row("restraint scenarios", "60", str(len(restraint))),
        Row("languages with 2 restraint scenarios", "30", str(sum(rlang[lang] == 2 for lang in LANGUAGES))),
        Row("restraint with 2 or 3 connections", "31",
            str(sum(2 <= len(i.scenario.connections) <= 3 for i in restraint))),
    ]
    ask = by_set.get("ask", [])
    alang = Counter(i.scenario.language for i in ask)
    rows += [
        Row("ask scenarios", "30", str(len(ask))),
        Row("languages with 1 ask scenario", "30", str(sum(alang[lang] == 1 for lang in LANGUAGES))),
    ]
    return rows


def render(rows: list[Row]) -> str:
    width = max(len(r.what) for r in rows)
    lines = [f"{'':2}{'':{width}}  {'card':>6}  {'ours':>6}"]
    for r in rows:
        mark = "  " if r.ok else "✗ "
        lines.append(f"{mark}{r.what:{width}}  {r.card:>6}  {r.ours:>6}")
    return "\n".join(lines)
