"""Scoring: the verdict of one result line against its scenario, as a pure function of the two.

Rules (the card's "Scoring" section; docs/scoring.md gives an example of each):
calls in order, anyOf, forbid, noTools, answer/answerAny/answerGroups/answerNot, the language
check, an empty answer and a failed turn. Tokens in expectations are expanded with the run's
clock (the scenario's phone) before any comparison.
"""

from __future__ import annotations

from collections import Counter

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.languages import FAILURE_TOLERANT_CATEGORIES
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Expect, Scenario
from orvena_bench.formats.textmatch import Folded
from scoring.answer_text import answer_as_read
from scoring.calls import MadeCall, any_of_check, sequence_checks
from scoring.language import LanguageCheck, default_language_check
from scoring.strings import string_misses
from scoring.text import plural
from scoring.verdict import Check, Verdict


def expected_for(scenario: Scenario) -> Expect:
    """The scenario's checks with every clock token expanded; a bad token is a FormatError
    naming the scenario and the place."""
    try:
        clock = clock_for(scenario.phone, scenario.language)
        return Expect.model_validate(clock.expand_data(scenario.expect.dump(), "expect"))
    except ValueError as e:  # a bad token (with its field path), or the clock's FormatError
        detail = e.reason if isinstance(e, FormatError) else str(e)
        raise FormatError(f"scenario {scenario.id}: {detail}") from None


def score(scenario: Scenario, result: ResultLine, *,
          language_check: LanguageCheck | bool = True, expect: Expect | None = None) -> Verdict:
    """The verdict of ``result`` from its calls, answer, transcript and failure alone (the
    recorded ``passed`` and ``issues`` are ignored).

    language_check: True for the default check, False to skip it, or a LanguageCheck.
    expect: the scenario's expectations already expanded (``expected_for``), to save the work
    when one scenario is scored many times.
    """
    expect = expect if expect is not None else expected_for(scenario)
    checks: list[Check] = []
    if result.failure is not None:
        why = f": {result.failure.message}" if result.failure.message else ""
        checks.append(Check("failed-turn", f"the turn failed ({result.failure.kind}{why})",
                            result.failure.kind))
    checks += call_checks(scenario, result, expect)
    checks += answer_checks(scenario, result, expect, language_check)
    return Verdict.of(checks)


def call_checks(scenario: Scenario, result: ResultLine, expect: Expect) -> list[Check]:
    calls = [MadeCall.of(c) for c in result.calls]
    failures_count = scenario.category in FAILURE_TOLERANT_CATEGORIES
    unparsed = sum(len(r.parseErrors) for r in result.rounds)
    checks = sequence_checks(expect.calls, calls, failures_count=failures_count,
                             unparsed_calls=unparsed)
    alternative = any_of_check(expect.anyOf, calls, failures_count=failures_count,
                               unparsed_calls=unparsed)
    if alternative:
        checks.append(alternative)
    made = Counter(c.tool for c in result.calls)
    for tool in dict.fromkeys(expect.forbid):
        if made[tool]:
            times = "" if made[tool] == 1 else f" ({plural(made[tool], 'time')})"
            checks.append(Check("forbidden-tool", f"the forbidden tool {tool} was called{times}", tool))
    if expect.noTools:
        # "No tool was called"; of the restraint set the card says "A call to any tool fails
        # them": loaders are tools too (they need no listing in calls, which is another rule).
        acting = list(made)
        if acting:
            checks.append(Check("tool-when-none-needed",
                                f"no tool was needed, but the model called {', '.join(acting)}",
                                acting[0]))
    return checks


def answer_checks(scenario: Scenario, result: ResultLine, expect: Expect,
                  language_check: LanguageCheck | bool) -> list[Check]:
    answer = result.answer.strip()
    if not answer:
        # A failed turn already says why there is no answer.
        return [] if result.failure else [Check("empty-answer", "the final answer is empty")]
    text = Folded(answer_as_read(answer))
    checks = [
        Check("excluded-answer" if m.rule == "not" else "missing-answer", m.phrase("the answer"),
              m.strings[0])
        for m in string_misses(text, expect.answer, expect.answerAny, expect.answerGroups,
                               expect.answerNot)
    ]
    if language_check is not False:
        check = default_language_check() if language_check is True else language_check
        want = expect.language or scenario.language
        judgement = check.judge(answer, want, result.tool_outputs())
        if not judgement.accepted:
            checks.append(Check("language", judgement.sentence(want), judgement.reading or ""))
    return checks
