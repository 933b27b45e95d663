"""Result files read into runs: one run per (model, seed), each scenario keyed by (set, id). The
files are read, and a line's set found, by the one reader (``formats.result_files``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from orvena_bench.formats.result_files import Entry, load_entries
from orvena_bench.formats.scenario_files import SETS
from orvena_bench.reports.order import ordered

__all__ = ["SETS", "Entry", "Key", "Run", "Results", "load_results", "runs_of", "describe"]

# A scenario within its set: ids are unique across sets, the set keeps the tables apart.
Key = tuple[str, str]


@dataclass
class Run:
    """Every scenario one model ran under one seed."""

    model: str
    seed: int
    entries: dict[Key, Entry] = field(default_factory=dict)

    def passed(self, key: Key) -> bool:
        return self.entries[key].line.passed


@dataclass
class Results:
    """All runs of the files read, in the order their models first appear."""

    runs: dict[tuple[str, int], Run] = field(default_factory=dict)

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(model for model, _ in self.runs))

    def seeds(self, model: str) -> list[int]:
        return sorted(seed for m, seed in self.runs if m == model)

    def main_seed(self, model: str) -> int:
        """The seed a model's tables use: the one with most scenarios (ties: the lowest), so a
        partial rerun under another seed never replaces the full run."""
        sizes = {seed: len(self.runs[(model, seed)].entries) for seed in self.seeds(model)}
        return max(sorted(sizes), key=lambda s: sizes[s])

    def main_run(self, model: str) -> Run:
        return self.runs[(model, self.main_seed(model))]

    def all_entries(self) -> list[Entry]:
        return [e for run in self.runs.values() for e in run.entries.values()]


def runs_of(entries: Iterable[Entry]) -> Results:
    results = Results()
    for entry in entries:
        line = entry.line
        run = results.runs.setdefault((line.model, line.seed), Run(line.model, line.seed))
        run.entries[entry.key] = entry
    return results


def load_results(paths: Iterable[str | Path], scenario_sets: Mapping[str, str] | None = None,
                 mcp_ids: Collection[str] = frozenset()) -> Results:
    """Read result files (or folders of them) into runs (``formats.result_files``'s rules)."""
    return runs_of(load_entries(paths, scenario_sets, mcp_ids))


def describe(results: Results) -> str:
    """One line per run: model, seed and scenarios per set (for the commands' headers)."""
    out = []
    for (model, seed), run in results.runs.items():
        per_set = Counter(key[0] for key in run.entries)
        sets = ", ".join(f"{s} {per_set[s]}" for s in ordered(per_set, SETS))
        out.append(f"{model} seed {seed}: {sets}")
    return "\n".join(out)
