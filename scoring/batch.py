"""Scoring many lines at once: scenarios found by id across set files, expectations expanded once
per scenario, and the language recognizer run over all answers on every core before the
(pure, per-line) scoring."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Expect, Scenario
from orvena_bench.formats.scenario_files import read_scenarios
from scoring.language import LanguageCheck
from scoring.score import expected_for, score
from scoring.verdict import Verdict


@dataclass(frozen=True)
class Known:
    """A scenario, the set it belongs to (its file's stem) and its expanded expectations."""

    scenario: Scenario
    set: str
    expect: Expect


def load_scenarios(paths: Iterable[str | Path], errors: list[FormatError]) -> dict[str, Known]:
    """Every scenario of the files by id (``formats.scenario_files``), with its expectations
    expanded. Bad lines, bad tokens and ids found twice go to ``errors``; the other scenarios
    still load."""
    known: dict[str, Known] = {}
    for sid, item in read_scenarios(paths, errors).items():
        try:
            known[sid] = Known(item.scenario, item.set_name, expected_for(item.scenario))
        except FormatError as e:
            errors.append(FormatError(e.reason, file=item.file, line=item.line, field="expect"))
    return known


def score_lines(pairs: Sequence[tuple[Known, ResultLine]], *,
                language_check: LanguageCheck | bool = True) -> list[Verdict]:
    """The verdict of every (scenario, result) pair, in order."""
    # A check of its own (sharing the process's detector), so the primed confidences go with it.
    check = LanguageCheck() if language_check is True else language_check
    if check:
        check.prime_answers((r.answer.strip(), r.tool_outputs()) for _, r in pairs if r.answer.strip())
    return [score(k.scenario, r, language_check=check, expect=k.expect) for k, r in pairs]
