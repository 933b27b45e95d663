"""How long rendering a round's prompt text takes: ``apply_chat_template(..., tokenize=False)``
against the mlx backend's ChatRenderer (harness/backends/chat_template.py), side by side in one
run, on both tiny templates (qwen3: system prompt before the tools; qwen3_5: tools first).

Two prompts, built as the loop builds them (system prompt, 38 native tools, the phone context
opening the user message, calls answered by the simulated phone):

- round 1: system + user;
- round 4: the same after three rounds of calls (one round with two calls) and their results.

Each measurement alternates the two ways call by call, so both see the same machine state; the
renderer runs as the backend runs it (every 64th render compared with apply_chat_template, so
the checks' cost is in its time). Reports the median ms per render of each way and their ratio.

    python benchmarks/render_speed.py [--renders 600]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.scenario import Scenario
from harness.backends.chat_template import ChatRenderer
from harness.loaders import Toolset
from harness.prompt import first_round
from harness.routing import route
from harness.world import scenario_world

SCENARIO = {
    "id": "en-render-speed", "language": "en", "category": "calendar",
    "request": "What's the weather in Galway on Saturday? If it's dry, put a walk on the Prom "
               "in my calendar at 11 and remind me the evening before.",
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
              "location": {"place": "Dublin, Ireland", "lat": 53.3498, "lon": -6.2603},
              "weather": [{"place": "Galway, Ireland", "days": [
                  {"date": "+3d", "condition": "dry, bright spells", "high": 12, "low": 6,
                   "precipitation": 10, "wind": 25}]}]}}
# The calls of rounds 1-3 (round 2 makes two).
ROUNDS = [
    [("get_weather", {"place": "Galway", "start": "2026-11-07"})],
    [("create_event", {"title": "Walk on the Prom", "start": "2026-11-07T11:00",
                       "end": "2026-11-07T12:00", "location": "Salthill Promenade, Galway"}),
     ("create_reminder", {"title": "Walk on the Prom tomorrow at 11",
                          "due": "2026-11-06T19:00"})],
    [("list_events", {"start": "2026-11-07", "end": "2026-11-07"})],
]


def conversations() -> tuple[list[dict], list[dict], list[dict]]:
    """Round 1's messages, round 4's messages, and the declared tools."""
    catalog = load_catalog(catalog_path())
    scenario = Scenario.model_validate(SCENARIO)
    clock = clock_for(scenario.phone, scenario.language)
    host, mcp = scenario_world(scenario, clock, catalog)
    toolset = Toolset(catalog, mcp)
    first = first_round(scenario, clock, catalog)
    messages, n = list(first), 0
    for calls in ROUNDS:
        ids = [f"call_{n + i + 1}" for i in range(len(calls))]
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": i, "type": "function", "function": {"name": name, "arguments": args}}
            for i, (name, args) in zip(ids, calls)]})
        for i, (name, args) in zip(ids, calls):
            text = route(name, args, toolset, host).outcome.text
            messages.append({"role": "tool", "tool_call_id": i, "name": name, "content": text})
        n += len(calls)
    return first, messages, toolset.declared()


def side_by_side(tokenizer, messages, tools, renders: int) -> tuple[float, float]:
    """Median ms per render: apply_chat_template, the renderer (fresh: its first render and
    caches are part of the count)."""
    renderer = ChatRenderer(tokenizer)
    apply_ms, fast_ms = [], []
    for _ in range(renders):
        t0 = time.perf_counter()
        want = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True,
                                             enable_thinking=False, tokenize=False)
        t1 = time.perf_counter()
        got = renderer.render(messages, tools, add_generation_prompt=True, enable_thinking=False)
        t2 = time.perf_counter()
        if got != want:
            raise SystemExit("the renderer's text differs from apply_chat_template's")
        apply_ms.append((t1 - t0) * 1e3)
        fast_ms.append((t2 - t1) * 1e3)
    if not renderer.fast:
        raise SystemExit(f"the renderer fell back: {renderer.off_reason}")
    return statistics.median(apply_ms), statistics.median(fast_ms)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--renders", type=int, default=600, help="renders per way and prompt")
    renders = parser.parse_args().renders

    from mlx_lm.tokenizer_utils import load as load_tokenizer

    from harness.tiny_model import ARCHES, build_tiny_model

    first, fourth, tools = conversations()
    print(f"{len(tools)} tools; round 1: {len(first)} messages, round 4: {len(fourth)} messages; "
          f"{renders} renders each way, median ms per render")
    print(f"{'template':10} {'prompt':8} {'chars':>7} {'apply_chat_template':>20} "
          f"{'ChatRenderer':>13} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ARCHES:
            tokenizer = load_tokenizer(build_tiny_model(Path(tmp) / arch, arch))
            for label, messages in (("round 1", first), ("round 4", fourth)):
                chars = len(tokenizer.apply_chat_template(
                    messages, tools=tools, add_generation_prompt=True, enable_thinking=False,
                    tokenize=False))
                slow, fast = side_by_side(tokenizer, messages, tools, renders)
                print(f"{arch:10} {label:8} {chars:>7} {slow:>20.3f} {fast:>13.3f} "
                      f"{slow / fast:>5.2f}x")


if __name__ == "__main__":
    main()
