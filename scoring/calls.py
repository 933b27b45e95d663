"""Expected calls: in order among the calls made, other calls allowed in between, each expected
call matched by its own distinct call.

Matching is a subsequence match with a predicate per expected call. Taking, for each expected
call in turn, the earliest call after the previous match that satisfies it is optimal: if any
assignment exists, the greedy one exists too (an earlier match never leaves fewer calls for the
rest).
"""

from __future__ import annotations

from dataclasses import dataclass

from orvena_bench.formats.result import CallRecord
from orvena_bench.formats.scenario import ExpectedCall
from orvena_bench.formats.textmatch import Folded, arguments_json
from scoring.strings import Miss, string_misses
from scoring.verdict import Check


@dataclass(frozen=True)
class MadeCall:
    """A call as matching sees it: its tool, its arguments folded once, and whether it failed."""

    tool: str
    args: Folded
    failed: bool

    @classmethod
    def of(cls, call: CallRecord) -> MadeCall:
        return cls(call.tool, Folded(arguments_json(call.arguments)), call.failed)


def outcome_counts(expected: ExpectedCall, call: MadeCall, failures_count: bool) -> bool:
    """The card's rule: a call counts only when it succeeded, except where failures count
    (recovery and unsupported scenarios); ``ok`` overrides this either way."""
    if expected.ok is None:
        return failures_count or not call.failed
    return call.failed is not expected.ok


def argument_misses(expected: ExpectedCall, call: MadeCall) -> list[Miss]:
    return string_misses(call.args, expected.args, expected.argsAny, expected.argsGroups,
                         expected.argsNot)


def satisfies(expected: ExpectedCall, call: MadeCall, failures_count: bool) -> bool:
    return (call.tool == expected.tool and outcome_counts(expected, call, failures_count)
            and not argument_misses(expected, call))


def match_in_order(expected: list[ExpectedCall], calls: list[MadeCall],
                   failures_count: bool) -> list[int | None]:
    """For each expected call, the index of the call that matches it, or None. An unmatched
    expected call is skipped, so the ones after it are still looked for (for the issues)."""
    positions: list[int | None] = []
    start = 0
    for exp in expected:
        at = next((i for i in range(start, len(calls)) if satisfies(exp, calls[i], failures_count)),
                  None)
        positions.append(at)
        if at is not None:
            start = at + 1
    return positions


def sequence_checks(expected: list[ExpectedCall], calls: list[MadeCall], *, failures_count: bool,
                    unparsed_calls: int = 0) -> list[Check]:
    """One check per expected call that has no matching call in order, saying why."""
    positions = match_in_order(expected, calls, failures_count)
    checks, start, previous = [], 0, None
    for n, (exp, at) in enumerate(zip(expected, positions), start=1):
        if at is not None:
            start, previous = at + 1, exp.tool
            continue
        name = f"the expected call to {exp.tool}" + (f" ({n} of {len(expected)})" if len(expected) > 1 else "")
        checks.append(_why_unmatched(name, exp, calls, start, failures_count, unparsed_calls, previous))
    return checks


def _why_unmatched(name: str, exp: ExpectedCall, calls: list[MadeCall], start: int,
                   failures_count: bool, unparsed_calls: int, previous: str | None) -> Check:
    later = [c for c in calls[start:] if c.tool == exp.tool]
    if later:
        def problems(call: MadeCall) -> tuple[list[Miss], bool]:
            return argument_misses(exp, call), not outcome_counts(exp, call, failures_count)

        misses, bad_outcome = min((problems(c) for c in later), key=lambda p: len(p[0]) + p[1])
        made = f"{name} was made, but" if len(later) == 1 else \
            f"{name} was made {len(later)} times; in the closest call"
        if misses:
            what = "; ".join(m.phrase("its arguments", plural=True) for m in misses)
            if bad_outcome:
                what += _outcome_phrase(exp, failures_count, also=True)
            return Check("wrong-arguments", f"{made} {what}", exp.tool)
        return Check("failed-call", f"{made}{_outcome_phrase(exp, failures_count)}", exp.tool)
    if any(c.tool == exp.tool for c in calls[:start]):
        return Check("wrong-or-missing-call",
                     f"{name} was made only before {previous}, not after it as expected", exp.tool)
    if unparsed_calls:
        return Check("parse-failure", f"{name} was not made ({unparsed_calls} tool "
                     f"call{'s' if unparsed_calls != 1 else ''} the model wrote could not be parsed)",
                     exp.tool)
    return Check("wrong-or-missing-call", f"{name} was not made", exp.tool)


def _outcome_phrase(exp: ExpectedCall, failures_count: bool, also: bool = False) -> str:
    lead = " and" if also else ""
    if exp.ok is False:
        return f"{lead} it succeeded where it was expected to fail"
    return f"{lead} it failed" + ("" if exp.ok or failures_count else
                                  " (a failed call counts only in recovery and unsupported scenarios)")


def any_of_check(alternatives: list[list[ExpectedCall]], calls: list[MadeCall], *,
                 failures_count: bool, unparsed_calls: int = 0) -> Check | None:
    """None when at least one alternative sequence appears; else one check naming the closest."""
    results = [sequence_checks(seq, calls, failures_count=failures_count,
                               unparsed_calls=unparsed_calls) for seq in alternatives]
    if not alternatives or any(not r for r in results):
        return None
    best = min(range(len(results)), key=lambda i: len(results[i]))
    first = results[best][0]
    path = " then ".join(c.tool for c in alternatives[best])
    more = f" (and {len(results[best]) - 1} more)" if len(results[best]) > 1 else ""
    return Check(first.kind, f"none of the {len(alternatives)} alternative call sequences was made; "
                 f"in the closest ({path}), {first.message}{more}", first.subject)
