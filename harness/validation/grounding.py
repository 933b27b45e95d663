"""Are a scenario's required answer strings grounded in what the agent could see?

A required string must appear in the request, the history or a tool output of the reference
path; otherwise a correct agent could only produce it by guessing. Exempt: answers from knowledge
(no-tool and unsupported categories, the restraint set) and strings of punctuation only (the
question marks of the ask set), and the fields the scenario's ``reference.derived`` lists: answers
worked out from what the agent saw rather than copied from it (a weight loss from two readings,
"the train is faster" from two routes)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from orvena_bench.formats.textmatch import Folded

KNOWLEDGE_CATEGORIES = frozenset({"no-tool", "unsupported"})


def _punctuation_only(text: str) -> bool:
    return all(unicodedata.category(ch)[0] in "PZS" for ch in text)


def grounding_problems(scenario: Scenario, result: ResultLine, set_name: str) -> Iterator[str]:
    if scenario.category in KNOWLEDGE_CATEGORIES or set_name == "restraint":
        return
    seen = Folded("\n".join([scenario.request, *(t.content for t in scenario.history),
                             *result.tool_outputs()]))

    clock = clock_for(scenario.phone, scenario.language)

    def grounded(text: str) -> bool:
        # Tokens ({+2d}) are compared as the run's clock expands them.
        return _punctuation_only(text) or seen.has(clock.expand(text))

    reference = (scenario.model_extra or {}).get("reference")
    derived = set(reference.get("derived") or []) if isinstance(reference, dict) else set()
    e = scenario.expect
    fields = {"reference.answer", "expect.answer", "expect.answerAny", *(f"expect.answer[{i}]" for i in range(len(e.answer))),
              *(f"expect.answerGroups[{i}]" for i in range(len(e.answerGroups)))}
    for name in sorted(derived - fields):
        yield f"reference.derived names {name!r}, which is no required answer field of this scenario"
    for i, text in enumerate(e.answer):
        if f"expect.answer[{i}]" in derived or "expect.answer" in derived:
            continue
        if not grounded(text):
            yield f"required answer string {text!r} appears in no request, history or tool output"
    groups = [("answerAny", e.answerAny)] if e.answerAny else []
    groups += [(f"answerGroups[{i}]", g) for i, g in enumerate(e.answerGroups)]
    for field, options in groups:
        if f"expect.{field}" not in derived and not any(grounded(t) for t in options):
            yield (f"none of {field} {options!r} appears in the request, history or a tool output "
                   "of the reference path")
