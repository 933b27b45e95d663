"""Is a scenario solvable? The reference agent runs it through the real loop, against the real
phone and scripted connections, and its line must pass the scenario's own checks.

Beyond passing, the reference path must be clean: every call it makes succeeds (a failing call
only in recovery and unsupported scenarios, or where an expected call says ``ok: false``), and
every required answer string is grounded in what the agent could see."""

from __future__ import annotations

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.languages import FAILURE_TOLERANT_CATEGORIES, LOADER_TOOLS
from harness.backends.reference import ReferenceBackend
from harness.loop import run_scenario
from harness.runner import score_line
from harness.validation.grounding import grounding_problems
from harness.validation.static import Located, problem


def _may_fail(item: Located) -> bool:
    s = item.scenario
    expected = [*s.expect.calls, *(c for seq in s.expect.anyOf for c in seq)]
    return s.category in FAILURE_TOLERANT_CATEGORIES or any(c.ok is False for c in expected)


def reference_run(item: Located, catalog: Catalog) -> ResultLine:
    """The reference agent's scored line (a best effort built from ``expect`` when the scenario
    has no ``reference``)."""
    s = item.scenario
    return score_line(s, run_scenario(s, ReferenceBackend(), catalog, model="reference"))


def reference_problems(item: Located, catalog: Catalog, line: ResultLine | None = None) -> list[FormatError]:
    line = line if line is not None else reference_run(item, catalog)
    out = []
    if line.failure is not None:
        out.append(problem(item, f"the reference run failed ({line.failure.kind}: "
                                 f"{line.failure.message})", "reference"))
    for issue in line.issues:
        out.append(problem(item, f"the reference run fails a check: {issue}", "expect"))
    if not _may_fail(item):
        # Tool messages answer the calls one to one, in order (parse failures have no name).
        outputs = [m.content for m in line.transcript if m.role == "tool" and m.name]
        for call, output in zip(line.calls, outputs, strict=False):
            if call.failed and call.tool not in LOADER_TOOLS:
                out.append(problem(item, f"the reference call {call.tool} failed: {output[:200]}",
                                   "reference.calls"))
    out.extend(grounding(item, line))
    return out


def grounding(item: Located, line: ResultLine) -> list[FormatError]:
    return [problem(item, message, "expect")
            for message in grounding_problems(item.scenario, line, item.set_name)]
