"""``orvena-bench check-model``: proving a checkpoint's chat template before a run.

The tool-call format decides the score, and a long run is a bad place to learn that a template
drops calls, types arguments differently or breaks cache reuse. The preflight plays every selected
scenario's reference turn (harness/backends/reference.py) through the real loop with the model's
own chat side (harness/backends/chat_side.py: its tokenizer, template and the parser mlx-lm
detects), and no weights:

- each round, the reference agent's move (a call, or the answer) is written the way the
  template itself writes an assistant turn: the conversation is rendered with that assistant
  message appended, and the model's text is what follows the generation prompt, up to the first
  end-of-turn token. That text is parsed back with the detected parser; calls (names, argument
  values and their JSON types) and the answer must come back exactly. Two variants per call
  round are parsed too: a sentence before the call, and two calls in one turn;
- the loop goes on with what was parsed, as it would with a model that wrote that text;
- each round's prompt is checked to start with the previous prompt plus the model's tokens and
  the end-of-turn token (what the cache holds then): where it does not, the template re-renders
  history differently and reuse falls back (a trimmable cache is cut back, a recurrent one
  restarts from a snapshot), with the place and the tokens lost;
- the scored line is compared with the reference backend's (verdict, calls, answer).

With ``generate`` the same text is forced token by token through the real MLX generation path
(``MlxSession.force``: stop tokens, the streaming split, cache reuse, the batch engine), and the
recorded text must be the forced one.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from harness.backend import Generation, ParsedCall, SessionContext
from harness.backends.chat_side import ChatSide
from harness.backends.prompt_cache import common_prefix
from harness.backends.reference import ReferenceBackend, ReferenceSession
from harness.loop import _assistant_message
from harness.toolcalls import parse_text

TEXT_BEFORE_CALL = "Un momento, lo compruebo: «ok» — 好的."
SHOWN = 5  # differences shown per check


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def call_differences(expected: list[ParsedCall], got: list[ParsedCall]) -> list[str]:
    """Where parsed calls differ from the intended ones: names, then each argument by its JSON
    text, which tells 1 from 1.0, true and "true"."""
    if len(expected) != len(got):
        return [f"{len(expected)} calls written, {len(got)} read back"]
    out = []
    for e, g in zip(expected, got):
        if e.name != g.name:
            out.append(f"call {e.name} read back as {g.name}")
            continue
        for key in sorted(set(e.arguments) | set(g.arguments)):
            a, b = e.arguments.get(key, "<missing>"), g.arguments.get(key, "<missing>")
            if _json(a) != _json(b):
                out.append(f"{e.name}.{key}: {_json(a)[:80]} read back as {_json(b)[:80]}")
    return out


@dataclass
class Written:
    """An assistant turn as the template writes it after the generation prompt."""

    text: str  # the model's text, without the end-of-turn token
    end: str | None  # the end-of-turn token that closed it (None: none found)
    mismatch: str | None = None  # the turn re-rendered does not continue the prompt
    problem: str | None = None  # no end-of-turn token


def write_turn(chat: ChatSide, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
               prompt_text: str, generation: Generation, first_id: int) -> Written:
    """The text a model following this template writes for ``generation``'s move: what the
    conversation with that assistant turn appended has after the generation prompt. Where the
    template renders the two differently (an empty thought channel in the generation prompt
    only, say), the text after the longest part of the generation prompt the turn has."""
    turn = _assistant_message(generation, first_id)
    full = chat.text([*messages, turn], tools, add_generation_prompt=False)
    problem = None
    if full.startswith(prompt_text):
        rest = full[len(prompt_text):]
    else:
        k = len(os.path.commonprefix([full, prompt_text]))
        problem = (f"the assistant's turn re-rendered does not continue the prompt before it "
                   f"(prompt {prompt_text[k:k + 30]!r}, turn {full[k:k + 30]!r})")
        base = chat.text(messages, tools, add_generation_prompt=False)
        opening = prompt_text[len(base):] if prompt_text.startswith(base) else ""
        rest = full[k:]
        for n in range(len(opening), 0, -1):
            if opening[n - 1] not in ">\n":  # never cut inside a marker or a line
                continue
            at = full.rfind(opening[:n])
            if at >= 0:
                rest = full[at + n:]
                break
    ends = {chat.tokenizer.convert_ids_to_tokens(i) for i in chat.eos_token_ids}
    found = sorted((rest.find(e), e) for e in ends if e and e in rest)
    if not found:
        return Written(rest, None, problem, "no end-of-turn token after the assistant's turn")
    at, end = found[0]
    return Written(rest[:at], end, problem)


@dataclass
class Reuse:
    """Whether a round's prompt starts with what the cache holds after the previous round."""

    extends: bool
    tools_changed: bool = False  # tools were declared in between (load_tools)
    lost: int = 0  # cached tokens that do not match (re-prefilled)
    where: str = ""  # the cached text and the prompt's at the first difference


@dataclass
class ScenarioCheck:
    """What the preflight saw in one scenario."""

    id: str
    category: str = ""
    rounds: int = 0
    first_prompt: list[int] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)  # the canonical turns
    variant_differences: dict[str, list[str]] = field(default_factory=dict)
    variant_rounds: int = 0  # call rounds whose variants were read back
    reuse: list[Reuse] = field(default_factory=list)
    template_problems: list[str] = field(default_factory=list)  # raised, no end of turn
    mismatches: list[str] = field(default_factory=list)  # turn re-rendered != prompt + text
    line: ResultLine | None = None
    reference: ResultLine | None = None
    verdict_differences: list[str] = field(default_factory=list)
    forced_mismatches: int = 0  # rounds whose recorded text is not the forced one


class ProbeBackend:
    """The reference agent's moves in the model's own template (``Backend`` protocol); with an
    MLX backend, forced through it."""

    name = "preflight"

    def __init__(self, chat: ChatSide, *, mlx: Any | None = None, variants: bool = True):
        self.chat, self.mlx, self.variants = chat, mlx, variants
        self.checks: dict[str, ScenarioCheck] = {}

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "toolFormat": self.chat.tool_format,
                "chatTemplateSha256": self.chat.template_sha256}

    def open(self, context: SessionContext) -> "ProbeSession":
        check = self.checks.setdefault(context.scenario.id, ScenarioCheck(
            context.scenario.id, context.scenario.category))
        return ProbeSession(self, context, check)


class ProbeSession:
    def __init__(self, backend: ProbeBackend, context: SessionContext, check: ScenarioCheck):
        scenario = context.scenario
        self.backend, self.chat, self.check = backend, backend.chat, check
        self.reference = ReferenceSession(scenario, clock_for(scenario.phone, scenario.language))
        self.mlx = backend.mlx.open(context) if backend.mlx is not None else None
        self.calls = 0  # call ids handed out so far, as the loop counts them
        self.cached: list[int] | None = None  # what the cache holds after the last round
        self.tools: list[str] = []  # the names declared in the last round

    def close(self) -> None:
        if self.mlx is not None:
            self.mlx.close()

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        try:
            return self._generate(messages, tools)
        except Exception as e:
            # A template that raises on the loop's messages ends the turn (a backend failure);
            # the report names it.
            self.check.template_problems.append(
                f"round {self.check.rounds}: {type(e).__name__}: {str(e)[:200]}")
            raise

    def _generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        chat, check = self.chat, self.check
        move = self.reference.generate(messages, tools)
        prompt_text = chat.text(messages, tools)
        prompt = chat.encode(prompt_text)
        if check.rounds == 0:
            check.first_prompt = prompt
        check.rounds += 1
        names = [t["function"]["name"] for t in tools]
        if self.cached is not None:
            check.reuse.append(self._reuse(prompt, names != self.tools))
        self.tools = names
        written = write_turn(chat, messages, tools, prompt_text, move, self.calls + 1)
        if written.problem:
            check.template_problems.append(f"round {check.rounds}: {written.problem}")
        if written.mismatch:
            check.mismatches.append(f"round {check.rounds}: {written.mismatch}")
        in_reasoning = chat.ends_in_reasoning(prompt)
        if self.mlx is not None:
            end_id = chat.tokenizer.convert_tokens_to_ids(written.end) if written.end else None
            forced = chat.encode(written.text) + ([end_id] if end_id is not None else [])
            self.mlx.force(forced)
            got = self.mlx.generate(messages, tools)
            check.forced_mismatches += got.text != written.text
        else:
            got = parse_text(written.text, chat.tool_format, tools, in_reasoning=in_reasoning)
        check.differences += [f"round {check.rounds}: {d}" for d in self._compare(move, got)]
        if self.backend.variants and move.calls:
            check.variant_rounds += 1
            self._variants(messages, tools, prompt_text, in_reasoning, move)
        end_ids = [chat.tokenizer.convert_tokens_to_ids(written.end)] if written.end else []
        self.cached = prompt + chat.encode(written.text) + end_ids
        self.calls += len(got.calls) + len(got.parse_errors)
        return got

    def _compare(self, move: Generation, got: Generation) -> list[str]:
        out = call_differences(move.calls, got.calls)
        out += [f"unreadable call: {e[:160]}" for e in got.parse_errors]
        if got.content != move.content:
            out.append(f"answer {move.content[:60]!r} read back as {got.content[:60]!r}")
        return out

    def _variants(self, messages, tools, prompt_text: str, in_reasoning: bool, move: Generation) -> None:
        chat, fmt = self.chat, self.chat.tool_format
        names = {t["function"]["name"] for t in tools}
        steps = self.reference.steps
        following = steps[self.reference.round] if self.reference.round < len(steps) else None
        second = move.calls[0]
        if following is not None and following.name in names:
            try:
                second = ParsedCall(following.name, self.reference._arguments(following, tools))
            except Exception:  # noqa: BLE001 - a best-effort step: the first call twice then
                pass
        shapes = {
            "text before a call": Generation(text="", content=TEXT_BEFORE_CALL, calls=move.calls),
            "several calls": Generation(text="", calls=[*move.calls, second]),
        }
        for name, shape in shapes.items():
            written = write_turn(chat, messages, tools, prompt_text, shape, self.calls + 1)
            got = parse_text(written.text, fmt, tools, in_reasoning=in_reasoning)
            found = self._compare(shape, got)
            if found:
                self.check.variant_differences.setdefault(name, []).extend(
                    f"round {self.check.rounds}: {d}" for d in found)

    def _reuse(self, prompt: list[int], tools_changed: bool) -> Reuse:
        cached = self.cached or []
        n = common_prefix(cached, prompt)
        if n == len(cached) and n < len(prompt):
            return Reuse(True)
        decode = self.chat.tokenizer.decode
        return Reuse(False, tools_changed, len(cached) - n,
                     f"cached {[decode([t]) for t in cached[n:n + 3]]}, re-rendered "
                     f"{[decode([t]) for t in prompt[n:n + 3]]}")


# -- the whole check ------------------------------------------------------------------------

@dataclass
class Line:
    """One line of the report: a check's name, its state (ok, warn, fail, info), what it found."""

    name: str
    state: str
    text: str
    details: list[str] = field(default_factory=list)


def _percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def kv_bytes_per_token(config: dict[str, Any]) -> int | None:
    """Bytes of KV cache per token (float16), from a model config; None when it does not say.
    Recurrent layers (Qwen3.5's gated delta) hold a fixed state instead and are not counted."""
    c = config.get("text_config") or config
    try:
        layers = int(c["num_hidden_layers"])
        heads = int(c["num_attention_heads"])
        kv = int(c.get("num_key_value_heads") or heads)
        head_dim = int(c.get("head_dim") or int(c["hidden_size"]) // heads)
    except (KeyError, TypeError, ValueError):
        return None
    interval = c.get("full_attention_interval")
    attention = layers // int(interval) if interval else layers
    return 2 * attention * kv * head_dim * 2


def run_checks(scenarios: list[Scenario], catalog: Catalog, chat: ChatSide, *,
               config: dict[str, Any] | None = None, mlx: Any | None = None, batch: int = 1,
               seed: int = 7, max_rounds: int = 12, progress: bool = False) -> list[Line]:
    """Every check over the scenarios, as report lines."""
    from harness.runner import RunSpec, play, played, score_line

    probe = ProbeBackend(chat, mlx=mlx)
    spec = RunSpec(backend=probe, catalog=catalog, model="preflight", seed=seed,
                   max_rounds=max_rounds, progress=progress, workers=batch)
    reference = RunSpec(backend=ReferenceBackend(), catalog=catalog, model="preflight",
                        seed=seed, max_rounds=max_rounds)
    from harness.backends.replay import divergences

    for scenario, line in played(scenarios, spec):
        check = probe.checks[scenario.id]
        check.line = score_line(scenario, line)
        check.reference = score_line(scenario, play(scenario, reference))
        found = divergences(check.reference, check.line)
        if check.line.passed != check.reference.passed:
            found.insert(0, f"verdict {'pass' if check.line.passed else 'fail'}, reference "
                            f"{'pass' if check.reference.passed else 'fail'}")
        check.verdict_differences = found
    checks = [probe.checks[s.id] for s in scenarios]
    return report_lines(chat, checks, config or {}, generated=mlx is not None)


def report_lines(chat: ChatSide, checks: list[ScenarioCheck], config: dict[str, Any], *,
                 generated: bool = False) -> list[Line]:
    lines: list[Line] = []
    n = len(checks)
    tok = chat.tokenizer
    markers = chat.thinking_markers()
    ends = ", ".join(f"{tok.convert_ids_to_tokens(i)} ({i})" for i in sorted(chat.eos_token_ids))
    lines.append(Line("format", "info",
                      f"tool parser {chat.tool_format}; thinking markers "
                      f"{'/'.join(markers) if markers else 'none'}; end of turn {ends}; "
                      f"template sha256 {chat.template_sha256[:16]}"))

    firsts = [c.first_prompt for c in checks if c.first_prompt]
    if firsts:
        sizes = [len(p) for p in firsts]
        shared = min(common_prefix(firsts[0], p) for p in firsts)
        mean = statistics.fmean(sizes)
        lines.append(Line("prompts", "info",
                          f"round 1 over {len(sizes)} scenarios: mean {mean:,.0f}, p95 "
                          f"{_percentile(sizes, 0.95):,}, max {max(sizes):,} tokens; {shared:,} "
                          f"shared by all, {mean - shared:,.0f} per scenario on average"))
        per_token = kv_bytes_per_token(config)
        cost = (f"with the shared prefix kept, a scenario's first round prefills about "
                f"{mean - shared:,.0f} tokens ({(mean - shared) / mean:.0%} of its prompt); "
                f"without reuse, {mean:,.0f}")
        if per_token:
            cost += (f"; KV cache {per_token * max(sizes) / 2**20:,.1f} MiB at the longest first "
                     f"prompt ({per_token:,} bytes per token, float16), times --batch")
        lines.append(Line("cost", "info", cost))

    problems = [f"{c.id}: {p}" for c in checks for p in c.template_problems]
    lines.append(Line("template", "fail" if problems else "ok",
                      f"{len({p.split(':')[0] for p in problems})} scenarios where the template "
                      "raised on the loop's messages or closed no assistant turn with an "
                      "end-of-turn token" if problems else
                      "renders every round and closes every assistant turn with an end-of-turn "
                      "token", problems))
    mismatches = [f"{c.id}: {p}" for c in checks for p in c.mismatches]
    lines.append(Line("turn opening", "warn" if mismatches else "ok",
                      f"{len(mismatches)} rounds whose assistant turn, re-rendered, does not "
                      "continue the prompt the model saw (the model's text was taken after the "
                      "part of the generation prompt the turn has; the cache cannot continue)"
                      if mismatches else "every assistant turn continues the prompt the model "
                      "saw", mismatches))

    rounds = sum(c.rounds for c in checks)
    bad = [c for c in checks if c.differences]
    lines.append(Line("turns", "fail" if bad else "ok",
                      f"{n - len(bad)}/{n} scenarios: every call, argument (value and type) and "
                      f"answer of {rounds:,} rounds came back exactly" if not bad else
                      f"{n - len(bad)}/{n} scenarios came back exactly; {len(bad)} differ",
                      [f"{c.id}: {d}" for c in bad for d in c.differences]))
    for name in ("text before a call", "several calls"):
        bad_v = [c for c in checks if c.variant_differences.get(name)]
        tried = sum(1 for c in checks if c.variant_rounds)
        lines.append(Line(name, "fail" if bad_v else "ok",
                          f"{tried - len(bad_v)}/{tried} scenarios read back exactly",
                          [f"{c.id}: {d}" for c in bad_v for d in c.variant_differences[name]]))

    later = [r for c in checks for r in c.reuse]
    misses = [r for r in later if not r.extends and not r.tools_changed]
    moved = [r for r in later if not r.extends and r.tools_changed]
    if later:
        text = (f"{sum(r.extends for r in later)}/{len(later)} later rounds extend the previous "
                "prompt plus the model's text (the cache is reused as it is)")
        if moved:
            text += (f"; {len(moved)} follow a change of the declared tools, which this "
                     "template writes before the conversation (they start from a kept prefix "
                     "of the tool list)")
        if misses:
            lost = sum(r.lost for r in misses)
            text += (f"; {len(misses)} re-render the history differently, {lost / len(misses):,.0f} "
                     "cached tokens lost each (re-prefilled: a trimmable cache is cut back, a "
                     "recurrent one restarts from a snapshot)")
        where = Counter(r.where for r in misses)
        lines.append(Line("cache", "warn" if misses else "ok", text,
                          [f"{k} ({v} rounds)" for k, v in where.most_common()]))

    scored = [c for c in checks if c.line is not None]
    bad_verdicts = [c for c in scored if c.verdict_differences]
    same = len(scored) - len(bad_verdicts)
    passed = sum(bool(c.line.passed) for c in scored)
    lines.append(Line("verdicts", "fail" if bad_verdicts else "ok",
                      f"{same}/{len(scored)} lines as the reference backend's (verdict, calls, "
                      f"answer; {passed} passed)",
                      [f"{c.id}: {'; '.join(c.verdict_differences)}" for c in bad_verdicts]))
    if generated:
        off = [c for c in checks if c.forced_mismatches]
        lines.append(Line("generate", "fail" if off else "ok",
                          f"{n - len(off)}/{n} scenarios: the MLX path recorded exactly the "
                          "forced text, ended by the end-of-turn token",
                          [f"{c.id}: {c.forced_mismatches} rounds" for c in off]))
    return lines


def verdict(lines: list[Line]) -> tuple[bool, str]:
    failed = [line.name for line in lines if line.state == "fail"]
    warned = [line.name for line in lines if line.state == "warn"]
    if failed:
        return False, f"FAIL ({', '.join(failed)})"
    return True, "PASS" + (f" with warnings ({', '.join(warned)})" if warned else "")


def format_lines(lines: list[Line], shown: int = SHOWN) -> list[str]:
    marks = {"ok": "ok  ", "warn": "warn", "fail": "FAIL", "info": "    "}
    out = []
    for line in lines:
        out.append(f"{line.name:<19} {marks[line.state]} {line.text}")
        for d in line.details[:shown]:
            out.append(f"{'':<24}- {d}")
        if len(line.details) > shown:
            out.append(f"{'':<24}  ... and {len(line.details) - shown} more")
    return out
