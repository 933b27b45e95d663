"""Which published chat templates pass ``orvena-bench check-model``, and why the others fail.

Every template llama.cpp vendors (llama-cpp-python's sdist, harness/real_parts.py) is checked
over one scenario per category. Qwen3.5-4B and Qwen3-0.6B get their real tokenizers; every
other template a borrowed one (Qwen3's, with the template's markers as single tokens and the
marker that closes an assistant turn as its end of turn: real_parts.borrowed_chat_side), which is
enough to see what the template writes and what mlx-lm's parser reads back; their token counts
are not theirs. Prints one row per template (markdown) for docs/real-templates.md.

    python benchmarks/real_templates.py [--ids a,b,...] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import real_parts
from harness.backends.chat_side import ChatSide, load_tokenizer
from harness.preflight import run_checks, verdict
from harness.runner import load_scenarios
from harness.tiny_model import build_real_tiny_model
from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path, scenarios_dir

REAL = {real_parts.QWEN3_5_TEMPLATE: "qwen3_5", real_parts.QWEN3_TEMPLATE: "qwen3"}


def one_per_category() -> list:
    chosen: dict = {}
    for name in ("bench", "restraint", "ask"):
        for s in load_scenarios(scenarios_dir() / f"{name}.jsonl")[0]:
            chosen.setdefault(s.category, s)
    return list(chosen.values())


def survey(name: str, template: str, scenarios: list, catalog, root: Path) -> dict:
    if name in REAL:
        folder = build_real_tiny_model(root / name, REAL[name], weights=False)
    else:
        folder = real_parts.borrowed_chat_side(template, root / name)
    row = {"template": name, "parser": "-", "verdict": "", "why": ""}
    try:
        tokenizer, config = load_tokenizer(folder)
        chat = ChatSide(tokenizer, name=name)
    except ValueError as e:
        row.update(verdict="FAIL (no parser)", why=str(e).split(": ", 1)[-1])
        return row
    row["parser"] = chat.tool_format
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        lines = run_checks(scenarios, catalog, chat, config=config)
    ok, summary = verdict(lines)
    row["verdict"] = summary
    why = [f"{line.name}: {line.text}" + (f" (e.g. {line.details[0]})" if line.details else "")
           for line in lines if line.state in ("fail", "warn")]
    row["why"] = "; ".join(why)
    row["turns"] = next(line.text.split(" scenarios")[0] for line in lines if line.name == "turns")
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="these templates (file stems) only")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    templates = real_parts.llama_cpp_templates()
    names = args.only or list(templates)
    scenarios = one_per_category()
    catalog = load_catalog(catalog_path())
    rows = []
    print(f"{len(names)} templates x {len(scenarios)} scenarios (one per category), "
          f"llama-cpp-python {real_parts.LLAMA_CPP.split('==')[1]}\n")
    print("| template | parser | turns exact | verdict | why |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            started = time.perf_counter()
            try:
                row = survey(name, templates[name], scenarios, catalog, Path(tmp))
            except Exception as e:  # noqa: BLE001 - one template's crash is its row
                row = {"template": name, "parser": "?", "verdict": "ERROR",
                       "why": f"{type(e).__name__}: {str(e)[:200]}"}
            row["seconds"] = round(time.perf_counter() - started, 1)
            rows.append(row)
            why = row["why"].replace("|", "\\|").replace("\n", " ")[:400]
            print(f"| {name} | {row['parser']} | {row.get('turns', '-')} | {row['verdict']} | {why} |",
                  flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
