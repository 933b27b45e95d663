"""Result files read into runs: one run per (model, seed), each scenario keyed by (set, id).

A result line's set is its ``set`` field when present, else the set of the scenario file that
holds its id, else its folder's name when that is a set name (``results/<set>/<model>.jsonl``),
else ``bench``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import read_models
from orvena_bench.formats.result import ResultLine
from orvena_bench.reports.order import ordered

SETS: tuple[str, ...] = ("bench", "restraint", "ask")

# A scenario within its set: ids are unique across sets, the set keeps the tables apart.
Key = tuple[str, str]


@dataclass(frozen=True)
class Entry:
    """One recorded scenario run and where it came from."""

    set: str
    line: ResultLine
    source: str
    # Whether the scenario's expected calls use an MCP connection (known from the scenario).
    mcp: bool = False

    @property
    def key(self) -> Key:
        return (self.set, self.line.id)


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


def result_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, with every ``*.jsonl`` below a named folder (sorted)."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(f for f in p.rglob("*.jsonl") if f.is_file())
            if not found:
                raise FormatError("no result files (*.jsonl) in this folder", file=str(p))
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise FormatError("no such file or folder", file=str(p))
    return files


def line_set(line: ResultLine, path: Path, scenario_sets: Mapping[str, str]) -> str:
    explicit = getattr(line, "set", None)
    if isinstance(explicit, str) and explicit:
        return explicit
    if line.id in scenario_sets:
        return scenario_sets[line.id]
    return path.parent.name if path.parent.name in SETS else "bench"


def load_results(paths: Iterable[str | Path], scenario_sets: Mapping[str, str] | None = None,
                 mcp_ids: Collection[str] = frozenset()) -> Results:
    """Read result files (or folders of them). A scenario recorded twice for one model and seed
    in the same file keeps its last line (a rerun appends); in two different files it is an
    error, since the two runs cannot be told apart."""
    results = Results()
    for path in result_files(paths):
        for line in read_models(path, ResultLine):
            entry = Entry(line_set(line, path, scenario_sets or {}), line, str(path),
                          line.id in mcp_ids)
            run = results.runs.setdefault((line.model, line.seed), Run(line.model, line.seed))
            earlier = run.entries.get(entry.key)
            if earlier is not None and earlier.source != entry.source:
                raise FormatError(
                    f"{line.id} of model {line.model}, seed {line.seed} is also in "
                    f"{earlier.source}; give only one of the files (a merge and its shards hold "
                    "the same runs), or run the two under different --name",
                    file=str(path), field="id")
            run.entries[entry.key] = entry
    return results


def describe(results: Results) -> str:
    """One line per run: model, seed and scenarios per set (for the commands' headers)."""
    out = []
    for (model, seed), run in results.runs.items():
        per_set = Counter(key[0] for key in run.entries)
        sets = ", ".join(f"{s} {per_set[s]}" for s in ordered(per_set, SETS))
        out.append(f"{model} seed {seed}: {sets}")
    return "\n".join(out)
