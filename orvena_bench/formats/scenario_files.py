"""The one reader of scenario files: every command that loads scenarios comes through here.

A scenario's set is its file's stem (``scenarios/bench.jsonl`` holds the bench). Ids are unique
across the files read: a second scenario with a known id is reported and left out. Bad lines are
reported with file, line and field, and never stop the other scenarios.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import parse_lines
from orvena_bench.formats.paths import scenarios_dir
from orvena_bench.formats.scenario import Scenario

# The card's three scenario sets, in its order.
SETS: tuple[str, ...] = ("bench", "restraint", "ask")

@dataclass(frozen=True)
class Located:
    """A scenario with where it came from."""

    scenario: Scenario
    file: str
    line: int

    @property
    def set_name(self) -> str:
        return Path(self.file).stem


def set_files(choice: str, root: Path | None = None) -> list[Path]:
    """The scenario files of a ``--set`` choice (a set name or ``all``)."""
    if choice != "all" and choice not in SETS:
        raise FormatError(f"unknown set {choice!r} (one of {', '.join(SETS)}, all)")
    folder = root or scenarios_dir()
    return [folder / f"{name}.jsonl" for name in (SETS if choice == "all" else (choice,))]


def default_files(paths: Iterable[str | Path] | None = None) -> list[Path]:
    """The files given (each must exist), else every ``*.jsonl`` of the data's scenarios/."""
    files = [Path(p) for p in paths] if paths else sorted(scenarios_dir().glob("*.jsonl"))
    if not files:
        raise FormatError("no scenario files (give --scenarios FILE, or --data DIR)",
                          file=str(scenarios_dir()))
    for path in files:
        if not path.is_file():
            raise FormatError("no such scenario file", file=str(path))
    return files


def read_file(path: str | Path, errors: list[FormatError]) -> list[Located]:
    """Every scenario of one file that loads; bad lines go to ``errors``."""
    if not Path(path).is_file():
        raise FormatError("no such scenario file", file=str(path))
    return [Located(s, str(path), n) for n, s in parse_lines(path, Scenario.model_validate, errors)]


def read_scenarios(paths: Iterable[str | Path], errors: list[FormatError]) -> dict[str, Located]:
    """Every scenario of the files, by id; an id seen before goes to ``errors``."""
    found: dict[str, Located] = {}
    for path in paths:
        for item in read_file(path, errors):
            earlier = found.get(item.scenario.id)
            if earlier is not None:
                errors.append(FormatError(f"scenario id {item.scenario.id!r} is also in "
                                          f"{earlier.file}:{earlier.line}", file=item.file,
                                          line=item.line, field="id"))
                continue
            found[item.scenario.id] = item
    return found
