"""Validation of scenario files end to end: load, static checks, the reference run, composition."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from harness.validation.composition import Row, composition
from harness.validation.conn_copies import SUFFIX, copy_problems
from harness.validation.static import Located, load_located, problem, static_problems
from mcpmock.fixtures import fixture_for


@dataclass
class ValidationReport:
    scenarios: list[Located] = field(default_factory=list)
    problems: list[FormatError] = field(default_factory=list)
    composition: list[Row] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def connection_operations(items: list[Located], catalog: Catalog) -> dict[str, set[str]]:
    """Operation names of every connection the scenarios install or name (missing fixtures left out)."""
    wanted = {c for i in items for c in i.scenario.connections}
    wanted |= {k.split("/", 1)[0] for i in items for k in i.scenario.tools if "/" in k}
    out = {}
    for conn in sorted(wanted):
        try:
            out[conn] = set(fixture_for(conn, catalog).names)
        except FormatError:
            continue  # reported by the static check as "connection has no fixture"
    return out


def conn_copy_problems(items: list[Located]) -> list[FormatError]:
    """Each -conn copy against its original, when the original is among the files checked."""
    by_id = {i.scenario.id: i.scenario for i in items}
    return [problem(item, message.split(": ", 1)[1], "id")
            for item in items if item.scenario.id.endswith(SUFFIX)
            for message in copy_problems(item.scenario, by_id.get(item.scenario.id.removesuffix(SUFFIX)))]


def validate_files(paths: list[Path], catalog: Catalog, *, solvable=None) -> ValidationReport:
    """Check every scenario of the files. ``solvable(located) -> list[FormatError]`` adds the
    reference-run checks; without it only static checks run."""
    report = ValidationReport()
    for path in paths:
        items, errors = load_located(path)
        report.scenarios.extend(items)
        report.problems.extend(errors)
    report.problems.extend(static_problems(report.scenarios, catalog,
                                           connection_operations(report.scenarios, catalog)))
    report.problems.extend(conn_copy_problems(report.scenarios))
    if solvable is not None:
        broken = {(p.file, p.line) for p in report.problems}
        for item in report.scenarios:
            if (item.file, item.line) not in broken:
                report.problems.extend(solvable(item))
    report.composition = composition(report.scenarios)
    return report
