"""How big the first round's prompt is, and what the loaders add.

Renders the real prompt of a scenario with six connections installed (the largest six fixtures
by tool count, the worst case) through each tiny model's chat template with the declared tools,
and counts it two ways:

- tokens of the tiny models' tokenizers (a 2k-vocabulary BPE trained on a few phrases and the
  catalog's own tool declarations and prompts, so that the native schemas split about as a real
  vocabulary splits them; MCP schemas, which it was not trained on, split into more pieces);
- characters / 4, the usual estimate for a Qwen-size vocabulary on English text and JSON.

Also measured: the prompt after ``load_connectors`` of the largest connection and after
``load_tools`` of three operations, and, for contrast, the prompt if every MCP tool of the six
connections were declared at round 1.

    python benchmarks/prompt_size.py [--dump DIR] [--real]

``--real`` counts with the real Qwen3 and Qwen3.5 templates and tokenizers instead.

``--dump DIR`` also writes each rendered prompt (qwen3 template) to DIR/<n>.txt, to count with
another tokenizer.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orvena_bench.formats.catalog import load_catalog  # noqa: E402
from orvena_bench.formats.clock import clock_for  # noqa: E402
from orvena_bench.formats.paths import catalog_path  # noqa: E402
from orvena_bench.formats.scenario import Scenario  # noqa: E402
from harness.loaders import LOADER_ARGUMENT, McpDirectory, Toolset, load_connectors, load_tools  # noqa: E402
from harness.prompt import first_round  # noqa: E402
from mcpmock import fixture_for  # noqa: E402


def main() -> None:
    import argparse

    import mlx_lm

    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", type=Path, help="write the rendered prompts here")
    parser.add_argument("--real", action="store_true",
                        help="the real Qwen3 / Qwen3.5 templates and tokenizers "
                             "(harness/real_parts.py) instead of the tiny ones")
    args = parser.parse_args()
    dump = args.dump

    from harness.tiny_model import ARCHES, build_tiny_model

    catalog = load_catalog(catalog_path())
    sizes = []
    for c in catalog.connections:
        try:
            sizes.append((len(fixture_for(c.id, catalog)), c.id))
        except Exception:  # noqa: BLE001 - a connection whose fixture is not written yet
            continue
    six = [cid for _, cid in sorted(sizes, reverse=True)[:6]]
    scenario = Scenario.model_validate({
        "id": "en-mcp-prompt-size", "language": "en", "category": "mcp",
        "request": "what did Aoife say in the last email about the lease?", "connections": six,
        "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
                  "location": {"place": "Dublin, Ireland", "lat": 53.3498, "lon": -6.2603}}})
    clock = clock_for(scenario.phone, scenario.language)
    mcp = McpDirectory.from_fixtures({c: fixture_for(c, catalog) for c in six})

    # Round 1; then after load_connectors of the largest connection; then after load_tools.
    toolset = Toolset(catalog, mcp)
    listing = load_connectors(toolset, {LOADER_ARGUMENT["load_connectors"]: [six[0]]}).text
    ops = [t.public for t in mcp.connections[six[0]][:3]]
    declared_msg = load_tools(toolset, {LOADER_ARGUMENT["load_tools"]: ops}).text
    all_tools = Toolset(catalog, mcp)
    all_tools.mcp_tools = [t for c in six for t in mcp.connections[c]]

    base = first_round(scenario, clock, catalog)
    system = base[0]["content"]
    after_list = base + [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "load_connectors", "arguments": {"connections": [six[0]]}}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": "load_connectors", "content": listing}]
    after_load = after_list + [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "call_2", "type": "function", "function": {
            "name": "load_tools", "arguments": {"names": ops}}}]},
        {"role": "tool", "tool_call_id": "call_2", "name": "load_tools", "content": declared_msg}]
    natives = Toolset(catalog, mcp).declared()
    cases = [
        ("round 1 (38 natives, 6 connections listed)", base, natives),
        (f"after load_connectors({six[0]}: {len(mcp.connections[six[0]])} ops)", after_list, natives),
        ("after load_tools (3 operations)", after_load, toolset.declared()),
        (f"contrast: all {len(all_tools.mcp_tools)} MCP tools declared at round 1", base, all_tools.declared()),
    ]
    print(f"connections: {', '.join(f'{c} ({len(mcp.connections[c])})' for c in six)}")
    print(f"system prompt: {len(system)} characters")
    with tempfile.TemporaryDirectory() as tmp:
        header = f"{'prompt':58} {'chars':>8} {'chars/4':>8}" + "".join(f" {a + ' tok':>12}" for a in ARCHES)
        print(header)
        if args.real:
            from harness.backends.chat_side import load_tokenizer
            from harness.tiny_model import build_real_tiny_model

            tokenizers = {a: load_tokenizer(build_real_tiny_model(Path(tmp) / a, a, weights=False))[0]
                          for a in ARCHES}
        else:
            tokenizers = {a: mlx_lm.load(str(build_tiny_model(Path(tmp) / a, a)))[1] for a in ARCHES}
        for n, (label, messages, tools) in enumerate(cases, 1):
            counts, chars = [], None
            for arch, tok in tokenizers.items():
                text = tok.apply_chat_template(messages, tools=tools, add_generation_prompt=True,
                                               enable_thinking=False, tokenize=False)
                if chars is None:
                    chars = len(text)
                    if dump:
                        dump.mkdir(parents=True, exist_ok=True)
                        (dump / f"{n}.txt").write_text(text, encoding="utf-8")
                counts.append(len(tok.encode(text, add_special_tokens=False)))
            print(f"{label:58} {chars:>8} {chars // 4:>8}" + "".join(f" {n:>12}" for n in counts))


if __name__ == "__main__":
    main()
