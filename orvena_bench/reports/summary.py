"""The card's Results table and the per-category and per-language tables, per model.

Each model's column uses its main seed (Results.main_seed); another seed is shown beside it in
a row only when it ran exactly the same scenarios of that row, as the card does
("51 (seed 8: 49)").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from orvena_bench.reports.groups import Group, Tally
from orvena_bench.reports.runs import Results


@dataclass(frozen=True)
class Cell:
    tally: Tally
    others: tuple[tuple[int, Tally], ...] = ()  # (seed, tally) of other complete seeds


@dataclass(frozen=True)
class Row:
    group: Group
    total: int  # scenarios of the group in any model's main run
    cells: dict[str, Cell]  # by model; a model with no scenario in the group is absent

    def text(self, model: str) -> str:
        """A cell as the card writes it: "440 (80.4%)"; "12 of 20 run (60.0%)" when the model ran
        only some of the row's scenarios; "not run" without any."""
        cell = self.cells.get(model)
        if cell is None:
            return "not run"
        t = cell.tally
        if t.total == 0:  # every line of the row failed outside the model (formats.failures)
            return "not run"
        count = str(t.passed) if t.total == self.total else f"{t.passed} of {t.total} run"
        out = f"{count} ({100 * t.rate:.1f}%)"
        for seed, other in cell.others:
            out += f" (seed {seed}: {other.passed})"
        return out


def table(results: Results, groups: Sequence[Group]) -> list[Row]:
    """One row per group that any model ran."""
    runs = {key: list(run.entries.values()) for key, run in results.runs.items()}
    rows = []
    for group in groups:
        # Each run's members of the group, found once.
        members = {key: [e for e in entries if group.contains(e)] for key, entries in runs.items()}
        keys = {e.key for m in results.models for e in members[(m, results.main_seed(m))]}
        if not keys:
            continue
        cells = {}
        for model in results.models:
            main = results.main_seed(model)
            mine = {e.key for e in members[(model, main)]}
            if not mine:
                continue
            others = tuple((seed, Tally.of(members[(model, seed)]))
                           for seed in results.seeds(model)
                           if seed != main and {e.key for e in members[(model, seed)]} == mine)
            cells[model] = Cell(Tally.of(members[(model, main)]), others)
        rows.append(Row(group, len(keys), cells))
    return rows

