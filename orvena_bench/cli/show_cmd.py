"""``orvena-bench show ID``: a scenario and its recorded runs, readably, as plain text."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path
from typing import Any

import orjson

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.paths import results_dir, scenarios_dir
from orvena_bench.formats.result import ResultLine, Round
from orvena_bench.formats.scenario import ExpectedCall, Scenario
from orvena_bench.formats.result_files import distinct_runs, read_file
from orvena_bench.formats.scenario_files import read_file as read_scenario_file
from harness.prompt import without_context

INDENT = "    "


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("show", help="show a scenario and its recorded runs")
    p.add_argument("id", help="scenario id")
    p.add_argument("--results", action="append", type=Path, metavar="FILE",
                   help="result file (repeatable; default: every file under results/ with this id)")
    p.add_argument("--scenarios", action="append", type=Path, metavar="FILE",
                   help="scenario file (repeatable; default: scenarios/*.jsonl)")
    p.add_argument("--seed", type=int, help="only the run with this seed")
    p.add_argument("--full", action="store_true", help="do not shorten long texts")
    p.set_defaults(func=run)


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()


def _block(text: str, indent: str, limit: int | None) -> str:
    if limit is not None and len(text) > limit:
        text = text[:limit] + f" [... {len(text) - limit} more characters]"
    return textwrap.indent(text.rstrip() or "(empty)", indent)


def find_scenario(scenario_id: str, files: list[Path]) -> tuple[Scenario, Path] | None:
    for f in files:
        for item in read_scenario_file(f, []):
            if item.scenario.id == scenario_id:
                return item.scenario, f
    return None


def _expected(call: ExpectedCall, clock: Any) -> str:
    parts = [call.tool]
    for key in ("args", "argsAny", "argsNot"):
        values = getattr(call, key)
        if values:
            expanded = [clock.expand(v) if clock else v for v in values]
            parts.append(f"{key} {_json(expanded)}")
    if call.argsGroups:
        parts.append(f"argsGroups {_json(call.argsGroups)}")
    if call.ok is not None:
        parts.append(f"ok={call.ok}")
    return " ".join(parts)


def render_scenario(s: Scenario, source: Path) -> str:
    try:
        clock = clock_for(s.phone, s.language)
    except FormatError:
        clock = None
    out = [f"{s.id}  ({s.language}, {s.category})  from {source}", f"Request: {s.request}"]
    for turn in s.history:
        out.append(f"{INDENT}history {turn.role}: {turn.content}")
    phone = s.phone
    lists = ", ".join(f"{k} {len(v)}" for k, v in phone.items() if isinstance(v, list) and v)
    place = (phone.get("location") or {}).get("place") if isinstance(phone.get("location"), dict) else None
    out.append(f"Phone: locale {s.locale}, time zone {s.time_zone}"
               + (f", at {place}" if place else "") + (f"; {lists}" if lists else ""))
    if s.connections:
        out.append("Connections: " + ", ".join(s.connections))
    for key, rules in s.tools.items():
        out.append(f"{INDENT}scripted {key}: {len(rules)} rule(s)")
    e = s.expect
    out.append("Expect:")
    for c in e.calls:
        out.append(f"{INDENT}call {_expected(c, clock)}")
    for i, seq in enumerate(e.anyOf, 1):
        out.append(f"{INDENT}or sequence {i}: " + " -> ".join(_expected(c, clock) for c in seq))
    for key in ("forbid", "answer", "answerAny", "answerNot"):
        values = getattr(e, key)
        if values:
            out.append(f"{INDENT}{key}: " + " | ".join(clock.expand(v) if clock else v for v in values))
    for group in e.answerGroups:
        out.append(f"{INDENT}answerGroups: " + " | ".join(group))
    if e.noTools:
        out.append(f"{INDENT}noTools")
    if e.language:
        out.append(f"{INDENT}language: {e.language}")
    reference = (s.model_extra or {}).get("reference")
    if isinstance(reference, dict):
        for c in reference.get("calls") or []:
            out.append(f"Reference call: {c.get('tool')} {_json(c.get('arguments', {}))}")
        if reference.get("answer"):
            out.append(f"Reference answer: {reference['answer']}")
    return "\n".join(out)


def _timing(r: Round) -> str:
    t = r.timing
    if not (t.promptTokens or t.generatedTokens):
        return ""
    return (f"prompt {t.promptTokens} tok ({t.cachedTokens} cached), {t.generatedTokens} generated, "
            f"prefill {t.prefillSeconds:.2f}s, decode {t.decodeSeconds:.2f}s")


def render_run(line: ResultLine, source: Path, limit: int | None) -> str:
    verdict = "PASSED" if line.passed else "FAILED"
    out = [f"== {source}: model {line.model}, seed {line.seed}: {verdict}  ({line.seconds:.2f}s, "
           f"{len(line.rounds)} rounds, {len(line.calls)} calls)"]
    out += [f"{INDENT}issue: {i}" for i in line.issues]
    if line.failure is not None:
        out.append(f"{INDENT}failed turn ({line.failure.kind}): {line.failure.message}")
    # Each round added one assistant message: the last len(rounds) of them are the turn's, and
    # everything before the first is the history and the request.
    assistants = [i for i, m in enumerate(line.transcript) if m.role == "assistant"]
    turn = assistants[len(assistants) - len(line.rounds):] if line.rounds else []
    start = turn[0] if turn else len(line.transcript)
    for m in line.transcript[:start]:
        # The phone's context that opens the first user message is the scenario's, shown above.
        content = without_context(m.content) if m.role == "user" else m.content
        out.append(f"-- {m.role}: {content}")
    round_no = 0
    for m in line.transcript[start:]:
        if m.role == "assistant":
            r = line.rounds[round_no] if round_no < len(line.rounds) else None
            round_no += 1
            head = f"-- round {round_no}"
            if r is not None:
                head += f": {len(r.tools)} tools declared"
                timing = _timing(r)
                head += f"; {timing}" if timing else ""
            out.append(head)
            if r is not None and r.reasoning:
                out.append(f"{INDENT}reasoning:\n" + _block(r.reasoning, INDENT * 2, limit))
            if m.content:
                out.append(f"{INDENT}says:\n" + _block(m.content, INDENT * 2, limit))
            for c in m.calls:
                out.append(f"{INDENT}calls {c.name} {_json(c.arguments)}")
            for err in r.parseErrors if r is not None else []:
                out.append(f"{INDENT}unparsed call: {err}")
        elif m.role == "tool":
            mark = "FAILED" if m.failed else "ok"
            out.append(f"{INDENT}<- {m.name or '(unparsed call)'} [{mark}]\n" + _block(m.content, INDENT * 2, limit))
        else:
            out.append(f"-- {m.role}: {m.content}")
    for r in line.rounds[round_no:]:  # rounds without a transcript message (e.g. a backend failure)
        round_no += 1
        out.append(f"-- round {round_no} (not in transcript)\n" + _block(r.text, INDENT, limit))
    out.append(f"Answer: {line.answer or '(none)'}")
    if line.calls:
        out.append("Calls as scored:")
        for c in line.calls:
            flags = ("failed" if c.failed else "ok") + ("" if c.matched else ", unmatched")
            out.append(f"{INDENT}{c.tool} {_json(c.arguments_object())} ({flags})")
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    scenario_files = args.scenarios or sorted(scenarios_dir().glob("*.jsonl"))
    found = find_scenario(args.id, scenario_files)
    if found is not None:
        print(render_scenario(*found))
    else:
        print(f"{args.id}: not in {', '.join(map(str, scenario_files)) or 'any scenario file'}")
    result_files = args.results or sorted(results_dir().glob("**/*.jsonl"))
    limit = None if args.full else 1200
    readable = []
    for f in result_files:
        try:
            readable.append((f, read_file(f)))
        except FormatError:
            continue  # not a result file (or a broken one): show reports runs it can read
    shown = 0
    for f, line in distinct_runs(readable):  # a shard and its merged file hold one run once
        if line.id == args.id and (args.seed is None or line.seed == args.seed):
            print()
            print(render_run(line, f, limit))
            shown += 1
    if not shown:
        print(f"\nNo recorded run of {args.id}" + (f" with seed {args.seed}" if args.seed is not None else "")
              + f" in {', '.join(map(str, result_files)) or results_dir()}")
    return 0 if found is not None or shown else 1
