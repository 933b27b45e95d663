"""The report as one self-contained static HTML file: styles, script, charts and data inline.

The page shows the tables at once and keeps each scenario's details (rounds, raw text, tool
results, phone data) as embedded JSON that is read only when a scenario is opened, so 637
scenarios times several models load quickly; the scenario list draws only the rows in view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from orvena_bench.formats.jsonl import dumps
from orvena_bench.formats.languages import CATEGORIES, LANGUAGES
from orvena_bench.formats.result import Message, ResultLine
from orvena_bench.formats.scenario import Scenario
from harness.prompt import without_context
from orvena_bench.reports.charts import Series, colour, grouped_bars
from orvena_bench.reports.compare import Comparison
from orvena_bench.reports.groups import Tally
from orvena_bench.reports.order import ordered
from orvena_bench.reports.runs import SETS, Entry, Results
from orvena_bench.reports.seeds import SeedReport
from orvena_bench.reports.summary import Row
from orvena_bench.reports.taxonomy import Taxonomy

# The page template, its styles and script live beside this module (package data).
ASSETS = files("orvena_bench.reports")


@dataclass(frozen=True)
class ReportInput:
    """Everything the page shows, computed by the caller from the same functions the terminal
    commands use."""

    title: str
    results: Results
    scenarios: Mapping[str, Scenario]
    card: Sequence[Row]
    by_category: Sequence[Row]
    by_language: Sequence[Row]
    taxonomy: Taxonomy
    kinds_of: Callable[[Entry], Sequence[str]]
    comparison: Comparison | None = None
    seeds: Sequence[SeedReport] = ()
    sources: Sequence[str] = ()


def render(report: ReportInput) -> str:
    # Every field is escaped: result files and scenarios are input, and the page is mailed and
    # attached to pull requests (select_autoescape() did not match a .jinja name).
    env = Environment(loader=FileSystemLoader(str(ASSETS)), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    models = report.results.models
    index, details = page_data(report)
    return env.get_template("report.html.jinja").render(
        r=report,
        models=models,
        colours={m: colour(i) for i, m in enumerate(models)},
        seeds={m: report.results.main_seed(m) for m in models},
        category_chart=_chart(report.by_category, models, "Pass rate by category (without -conn)",
                              rotate=True),
        language_chart=_chart(report.by_language, models, "Pass rate by language", rotate=False),
        css=(ASSETS / "report.css").read_text(encoding="utf-8"),
        js=(ASSETS / "report.js").read_text(encoding="utf-8"),
        index_json=script_json(index),
        details_json=script_json(details),
    )


def _chart(rows: Sequence[Row], models: Sequence[str], title: str, *, rotate: bool) -> str:
    series = [Series(m, [_tally(r, m) for r in rows]) for m in models]
    return grouped_bars([r.group.name for r in rows], series, title=title, rotate_labels=rotate)


def _tally(row: Row, model: str) -> Tally | None:
    cell = row.cells.get(model)
    return cell.tally if cell else None


def script_json(data: Any) -> str:
    # No "<" at all inside the <script> element ("</script>", "<!--" would end it or change how
    # it is read); "\\u003c" is the same string to JSON.parse. Written by the lossless writer.
    return dumps(data).decode().rstrip("\n").replace("<", "\\u003c")


def page_data(report: ReportInput) -> tuple[dict[str, Any], dict[str, Any]]:
    """The list the browser filters (small, read at load) and the details of every scenario
    and run (read when the first scenario is opened)."""
    results = report.results
    models = results.models
    kinds = list(report.taxonomy.kinds)
    scenario_index: dict[tuple[str, str], int] = {}
    scenario_rows: list[list[Any]] = []
    scenario_details: list[dict[str, Any]] = []
    rows: list[list[Any]] = []
    runs: list[dict[str, Any]] = []
    for m, model in enumerate(models):
        for entry in results.main_run(model).entries.values():
            line = entry.line
            s = scenario_index.get(entry.key)
            if s is None:
                s = scenario_index[entry.key] = len(scenario_rows)
                scenario = report.scenarios.get(line.id)
                request = scenario.request if scenario else _request_of(line)
                scenario_rows.append([line.id, entry.set, line.category, line.language, request])
                scenario_details.append(_scenario_details(scenario))
            failed_kinds = [] if line.passed else report.kinds_of(entry)
            rows.append([m, s, int(line.passed), [kinds.index(k) for k in failed_kinds],
                         len(line.rounds), round(line.seconds, 1)])
            runs.append(run_details(line))
    index = {"models": models, "kinds": kinds, "scenarios": scenario_rows, "rows": rows,
             "colours": [colour(i) for i in range(len(models))],
             "sets": ordered({s[1] for s in scenario_rows}, SETS),
             "categories": ordered({s[2] for s in scenario_rows}, CATEGORIES),
             "languages": ordered({s[3] for s in scenario_rows}, LANGUAGES),
             "columns": {"scenario": ["id", "set", "category", "language", "request"],
                         "row": ["model", "scenario", "passed", "kinds", "rounds", "seconds"]}}
    return index, {"scenarios": scenario_details, "runs": runs}


def _request_of(line: ResultLine) -> str:
    users = [m.content for m in line.transcript if m.role == "user"]
    # Without history the request is the first user message, which the phone's context opens.
    return without_context(users[-1]) if users else ""


def _scenario_details(scenario: Scenario | None) -> dict[str, Any]:
    if scenario is None:
        return {}
    return {"history": [t.dump() for t in scenario.history], "connections": scenario.connections,
            "phone": scenario.phone, "tools": {k: [r.dump() for r in v]
                                               for k, v in scenario.tools.items()},
            "expect": scenario.expect.dump()}


def run_details(line: ResultLine) -> dict[str, Any]:
    segments = _round_segments(line.transcript)
    paired = len(segments) == len(line.rounds)
    rounds = []
    for i, r in enumerate(line.rounds):
        t = r.timing
        rounds.append({
            "promptTokens": t.promptTokens, "cachedTokens": t.cachedTokens,
            "generatedTokens": t.generatedTokens, "prefillSeconds": t.prefillSeconds,
            "decodeSeconds": t.decodeSeconds, "systemChars": len(r.system), "tools": len(r.tools),
            # The raw text already holds any reasoning; the separate field would double it.
            "text": r.text,
            "calls": [{"name": c.name, "arguments": c.arguments} for c in r.calls],
            "parseErrors": r.parseErrors,
            # The tool messages that answered this round, when the transcript lines up.
            "results": [_message(m) for m in segments[i][1:]] if paired else None,
        })
    return {
        "answer": line.answer, "issues": line.issues, "seed": line.seed, "seconds": line.seconds,
        "reasoningCharacters": line.reasoningCharacters,
        "failure": line.failure.dump() if line.failure else None,
        "calls": [{"tool": c.tool, "arguments": c.arguments, "failed": c.failed,
                   "matched": c.matched} for c in line.calls],
        "rounds": rounds,
        # Without recorded rounds (Apple's backend) or when they do not line up, the transcript
        # after the request is all there is to show.
        "transcript": None if paired and rounds else
        [_message(m) for m in line.transcript[_request_position(line.transcript) + 1:]],
    }


def _message(m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": m.role, "content": m.content}
    if m.name:
        out["name"] = m.name
    if m.failed:
        out["failed"] = True
    if m.calls:
        out["calls"] = [{"name": c.name, "arguments": c.arguments} for c in m.calls]
    return out


def _request_position(transcript: Sequence[Message]) -> int:
    users = [i for i, m in enumerate(transcript) if m.role == "user"]
    return users[-1] if users else -1


def _round_segments(transcript: Sequence[Message]) -> list[list[Message]]:
    """The messages after the request, split at each assistant message: the loop writes one
    assistant message per round, followed by that round's tool results."""
    segments: list[list[Message]] = []
    for m in transcript[_request_position(transcript) + 1:]:
        if m.role == "assistant":
            segments.append([m])
        elif segments:
            segments[-1].append(m)
    return segments
