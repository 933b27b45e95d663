"""Validation of scenario files end to end: load, static checks, the reference run, composition."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from harness.validation.composition import Row, composition
from harness.validation.conn_copies import SUFFIX, copy_problems
from orvena_bench.formats.result import ResultLine
from harness.validation.behaviours import Coverage, Played, coverage, load_behaviours, play, targets
from harness.validation.lints import Lint, lints, offset_operations
from harness.validation.static import (Located, has_reference, load_located, problem, static_problems,
                                       static_warnings)
from mcpmock.fixtures import fixture_for


@dataclass
class ValidationReport:
    scenarios: list[Located] = field(default_factory=list)
    problems: list[FormatError] = field(default_factory=list)
    # Rules that warn: lints, tokens in request/history, our rules for scenarios without reference.
    warnings: list[FormatError] = field(default_factory=list)
    lints: list[tuple[Located, Lint]] = field(default_factory=list)
    # Which checks could not run, and why (one sentence each).
    not_run: list[str] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)
    coverage: Coverage | None = None
    composition: list[Row] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def behaviours_as_expected(self) -> int:
        return sum(p.as_expected for p in self.played)


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


def validate_files(paths: list[Path], catalog: Catalog, *, solvable=None, reference: bool = False,
                   behaviour_files: list[Path] | None = None,
                   only_loaded: bool = False) -> ValidationReport:
    """Check every scenario of the files.

    reference: run the reference agent through the real loop (solvable, grounding, the lints
    that read its tool outputs) and play the behaviour files. ``solvable(located) ->
    list[FormatError]`` is the older hook for the reference-run checks alone. Without either,
    only static checks and lints run. only_loaded: behaviours of scenarios not among the files
    are left out (validating a part of the sets) instead of being problems.
    """
    report = ValidationReport()
    for path in paths:
        items, errors = load_located(path)
        report.scenarios.extend(items)
        report.problems.extend(errors)
    report.problems.extend(static_problems(report.scenarios, catalog,
                                           connection_operations(report.scenarios, catalog)))
    report.problems.extend(conn_copy_problems(report.scenarios))
    report.warnings.extend(static_warnings(report.scenarios))
    broken = {(p.file, p.line) for p in report.problems}
    runnable = [i for i in report.scenarios if (i.file, i.line) not in broken]
    schemas, writes = operation_schemas(report.scenarios, catalog)
    offsets = offset_operations(schemas)
    lines: dict[str, ResultLine] = {}
    if reference:
        from harness.validation.solvable import grounding, reference_problems, reference_run

        for item in runnable:
            line = reference_run(item, catalog)
            lines[item.scenario.id] = line
            if has_reference(item):
                report.problems.extend(reference_problems(item, catalog, line))
            else:
                report.warnings.extend(grounding(item, line))
    elif solvable is not None:
        for item in runnable:
            report.problems.extend(solvable(item))
    for item in runnable:
        line = lines.get(item.scenario.id)
        for lint in lints(item.scenario, line if line is not None and has_reference(item) else None,
                          offsets, item.set_name, writes):
            report.lints.append((item, lint))
            report.warnings.append(problem(item, f"[{lint.rule}] {lint.message}", lint.field))
    report.not_run.extend(_not_run(report.scenarios, reference or solvable is not None))
    if reference and behaviour_files is not None:
        _play_behaviours(report, runnable, behaviour_files, catalog, only_loaded)
    report.composition = composition(report.scenarios)
    return report


def _not_run(items: list[Located], ran: bool) -> list[str]:
    out = []
    if not ran:
        out.append("the reference run, grounding and behaviours were not run (--static); lints "
                   "that read tool outputs used the phone data and scripted answers only")
    without = [i.scenario.id for i in items if not has_reference(i)]
    if without:
        out.append(f"{len(without)} scenarios have no reference field (the card's format has none): "
                   "for them the reference run's own pass/fail and call checks could not run (a run "
                   "built from expect is a best effort), grounding and the .example e-mail rule "
                   "are warnings, and the lints that read the reference's tool outputs "
                   "(inside-value, answerNot-fact) used the phone data and scripted answers only: "
                   + ", ".join(without))
    return out


def operation_schemas(items: list[Located], catalog: Catalog) -> tuple[dict[str, dict], set[str]]:
    """The input schema of every connection operation the scenarios install, by public name, and
    the names of every tool that writes (native ``writes``, MCP without ``readOnlyHint``)."""
    schemas, writes = {}, {t.name for t in catalog.tools if t.writes}
    for conn in sorted({c for i in items for c in i.scenario.connections}):
        try:
            fixture = fixture_for(conn, catalog)
        except FormatError:
            continue
        for tool in fixture:
            schemas[f"{conn}/{tool.name}"] = tool.input_schema
            if not (tool.annotations and tool.annotations.read_only_hint):
                writes.add(f"{conn}/{tool.name}")
    return schemas, writes


def _play_behaviours(report: ValidationReport, runnable: list[Located], files: list[Path],
                     catalog: Catalog, only_loaded: bool) -> None:
    by_id = {i.scenario.id: i.scenario for i in runnable}
    known = {i.scenario.id for i in report.scenarios}
    for path in files:
        behaviours, errors = load_behaviours(path)
        report.problems.extend(errors)
        for located in behaviours:
            ids = targets(located.behaviour, known)
            if not ids:
                if not only_loaded:
                    report.problems.append(FormatError(
                        f"{located.behaviour.id}: no such scenario", file=located.file,
                        line=located.line, field="id"))
                continue
            for sid in ids:
                if sid in by_id:
                    played = play(located, by_id[sid], catalog)
                    report.played.append(played)
                    if not played.as_expected:
                        report.problems.append(played.problem())
    report.coverage = coverage([i.scenario.id for i in runnable], report.played)
