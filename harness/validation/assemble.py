"""Assembling the scenario sets: per-language part files and the generated ``-conn`` copies.

Writers work in ``scenarios/parts/<language>/{bench,restraint,ask}.jsonl`` so that several
languages can be written at once; ``assemble`` folds them into ``scenarios/<set>.jsonl`` (languages
in the card's order, each file's lines in their order) and regenerates the ``-conn`` copies from
the originals. Lines of a language without a part folder are kept as they are, so a part folder
can be merged and removed one language at a time."""

from __future__ import annotations

from pathlib import Path

from orvena_bench.formats.jsonl import read_models, write_models
from orvena_bench.formats.languages import APPLE_LANGUAGES, LANGUAGES
from orvena_bench.formats.scenario import Scenario
from orvena_bench.formats.scenario_files import SETS
from harness.validation.composition import CARD_APPLE_BENCH
from harness.validation.conn_copies import SUFFIX, choose_originals, make_copy

def assemble(scenarios: Path, connections: list[str], conn_count: int = 100) -> dict[str, int]:
    """Rewrite scenarios/<set>.jsonl from the parts; returns the line count per set."""
    parts = scenarios / "parts"
    counts = {}
    for set_name in SETS:
        target = scenarios / f"{set_name}.jsonl"
        existing = read_models(target, Scenario) if target.exists() else []
        by_language: dict[str, list[Scenario]] = {}
        for s in existing:
            if not s.id.endswith(SUFFIX):
                by_language.setdefault(s.language, []).append(s)
        for lang in LANGUAGES:
            part = parts / lang / f"{set_name}.jsonl"
            if part.exists():
                by_language[lang] = read_models(part, Scenario)
        lines = [s for lang in LANGUAGES for s in by_language.get(lang, [])]
        if set_name == "bench":
            # As many copies in Apple's 13 languages as bring them to the card's 260.
            apple = sum(s.language in APPLE_LANGUAGES for s in lines)
            within = max(0, min(conn_count, CARD_APPLE_BENCH - apple))
            lines += [make_copy(s, connections) for s in choose_originals(
                lines, conn_count, frozenset(APPLE_LANGUAGES), within)]
        write_models(target, lines)
        counts[set_name] = len(lines)
    return counts
