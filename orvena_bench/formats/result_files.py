"""The one reader (and rewriter) of result files: every command that reads recorded runs comes
through here, so all of them count the same lines.

The rules, defined once:

- A line is keyed by (model, id, seed). Within a file the last line of a key is the run's line
  (a rerun appends; a killed ``--rerun`` leaves both).
- A line's set is its ``set`` field when present, else the set of the scenario file that holds
  its id, else its folder's name when that is a set name (``results/<set>/<model>.jsonl``), else
  ``bench``.
- A key found in two files is one run when the two lines are the same apart from their verdict
  (a merged file and the shards it was merged from): it counts once, with the line of the merged
  file (a name without ``.shard-``), else of the later file. Two different runs of one key are
  refused, since they cannot be told apart.
- A rewrite (``score --write``, ``merge``) writes each line as it was read, with only its verdict
  changed (``ResultLine.data``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors, parse_lines, say_torn, write_models
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario_files import SETS

# A recorded scenario run: (model, scenario id, seed).
Key = tuple[str, str, int]


def line_key(line: ResultLine) -> Key:
    return (line.model, line.id, line.seed)


def read_numbered(path: str | Path, errors: list[FormatError]) -> list[tuple[int, ResultLine]]:
    """(line number, line) for every line of a result file that loads, each line keeping the
    JSON it came as; one error per bad line goes to ``errors``."""
    path = Path(path)
    if not path.is_file():
        raise FormatError("no such result file", file=str(path))
    # A run appends to these files: a torn last line (a kill inside a write) is set aside, said.
    return parse_lines(path, ResultLine.read, errors, on_torn=say_torn)


def read_file(path: str | Path, errors: list[FormatError] | None = None) -> list[ResultLine]:
    """Every line of a result file (``read_numbered``). Bad lines raise one error listing them
    all, or go to ``errors`` when given (the good lines are still returned)."""
    found: list[FormatError] = []
    lines = [line for _, line in read_numbered(path, found)]
    if errors is not None:
        errors.extend(found)
    elif found:
        raise FormatErrors(found)
    return lines


def last_per_key(lines: Iterable[ResultLine]) -> list[ResultLine]:
    """One line per key, the last written, in the order keys first appear."""
    latest: dict[Key, ResultLine] = {}
    for line in lines:
        latest[line_key(line)] = line
    return list(latest.values())


def write_file(path: str | Path, lines: Iterable[ResultLine]) -> None:
    """Replace a result file atomically, each line as it was read with its current verdict."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_models(path, [line.data() for line in lines])


def result_files(paths: Iterable[str | Path]) -> list[Path]:
    """The files named, with every ``*.jsonl`` below a named folder (sorted), but for those in
    folders whose name starts with a dot."""
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            # Folders named with a dot are a run's working files (a launch's rank shares,
            # harness/distributed.py), never results beside the gathered file.
            found = sorted(f for f in p.rglob("*.jsonl") if f.is_file()
                           and not any(part.startswith(".") for part in f.relative_to(p).parts[:-1]))
            if not found:
                raise FormatError("no result files (*.jsonl) in this folder", file=str(p))
            files.extend(found)
        elif p.is_file():
            files.append(p)
        else:
            raise FormatError("no such file or folder", file=str(p))
    return files


@dataclass(frozen=True)
class Entry:
    """One recorded scenario run, the row every table counts: the line, its set, the file it
    came from, and whether its scenario's expected calls use an MCP connection."""

    set: str
    line: ResultLine
    source: str
    mcp: bool = False

    @property
    def key(self) -> tuple[str, str]:
        """The scenario within its run: ids are unique across sets, the set keeps tables apart."""
        return (self.set, self.line.id)

    @property
    def id(self) -> str:
        return self.line.id

    @property
    def model(self) -> str:
        return self.line.model

    @property
    def seed(self) -> int:
        return self.line.seed

    @property
    def language(self) -> str:
        return self.line.language

    @property
    def category(self) -> str:
        return self.line.category

    @property
    def passed(self) -> bool:
        return self.line.passed

    @property
    def is_conn_copy(self) -> bool:
        return self.line.id.endswith("-conn")


def line_set(line: ResultLine, path: Path, scenario_sets: Mapping[str, str]) -> str:
    explicit = (line.model_extra or {}).get("set")
    if isinstance(explicit, str) and explicit:
        return explicit
    if line.id in scenario_sets:
        return scenario_sets[line.id]
    return path.parent.name if path.parent.name in SETS else "bench"


def _is_shard(source: str) -> bool:
    return ".shard-" in Path(source).name


def _same_run(a: ResultLine, b: ResultLine) -> bool:
    verdict = ("passed", "issues")
    strip = lambda line: {k: v for k, v in line.data().items() if k not in verdict}  # noqa: E731
    return strip(a) == strip(b)


def distinct_runs(files: Iterable[tuple[Path, list[ResultLine]]]) -> list[tuple[Path, ResultLine]]:
    """Every recorded run in files already read, in file order: the last line per key of each
    file, a run that two files hold alike (a shard and its merged file) once, with the merged
    file's line. Lines of one key recorded differently are all kept."""
    chosen: dict[Key, list[tuple[Path, ResultLine]]] = {}
    for path, lines in files:
        for line in last_per_key(lines):
            kept = chosen.setdefault(line_key(line), [])
            same = next((i for i, (_, earlier) in enumerate(kept) if _same_run(earlier, line)), None)
            if same is None:
                kept.append((path, line))
            elif not (_is_shard(str(path)) and not _is_shard(str(kept[same][0]))):
                kept[same] = (path, line)
    return [run for kept in chosen.values() for run in kept]


def entries(files: Iterable[tuple[Path, list[ResultLine]]], scenario_sets: Mapping[str, str],
            mcp_ids: Collection[str] = frozenset()) -> list[Entry]:
    """The entries of files already read, by the rules above, in file order."""
    chosen: dict[Key, Entry] = {}
    for path, line in distinct_runs(files):
        earlier = chosen.get(line_key(line))
        if earlier is not None:
            raise FormatError(
                f"{line.id} of model {line.model}, seed {line.seed} is also in "
                f"{earlier.source}, recorded differently; give only one of the files, or "
                "run the two under different --name", file=str(path), field="id")
        chosen[line_key(line)] = Entry(line_set(line, path, scenario_sets), line, str(path), line.id in mcp_ids)
    return list(chosen.values())


def load_entries(paths: Iterable[str | Path], scenario_sets: Mapping[str, str] | None = None,
                 mcp_ids: Collection[str] = frozenset()) -> list[Entry]:
    """Read result files (or folders of them) into entries, by the rules above."""
    files = [(path, read_file(path)) for path in result_files(paths)]
    return entries(files, scenario_sets or {}, mcp_ids)
