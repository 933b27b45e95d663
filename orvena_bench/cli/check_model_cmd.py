"""``orvena-bench check-model``: a preflight of a checkpoint's chat template and tokenizer over the
scenarios a run would play (harness/preflight.py); one line per check, a final verdict, exit 1 on
a failure so a script can gate a run on it."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from orvena_bench.cli.selection import add_selection_arguments, selected_ids
from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.backends import add_model_arguments, model_extra
from harness.loop import DEFAULT_MAX_ROUNDS
from harness.runner import SETS, Selection, load_scenarios, parse_shard, set_names


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check-model", help="prove a model's chat template and tool parser before a run",
        description="Play every selected scenario's reference turn through the model's own chat "
                    "template and tokenizer (no weights), parse it back with the detected tool "
                    "parser and check calls, argument types, answers and cache reuse; "
                    "--generate also forces the turns through the MLX generation path. Exit 1 "
                    "when a check fails.")
    p.add_argument("--model", required=True, help="local path or Hugging Face id")
    p.add_argument("--set", choices=[*SETS, "all"], default="all",
                   help="scenario set (default: all)")
    p.add_argument("--scenarios", action="append", type=Path, metavar="FILE",
                   help="scenario file (repeatable; overrides --set)")
    add_selection_arguments(p)
    p.add_argument("--shard", help="only shard i of n (i/n)")
    p.add_argument("--seed", type=int, default=7, help="the run's seed (default 7)")
    p.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS)
    p.add_argument("--thinking", action="store_true", help="check with thinking on")
    p.add_argument("--tool-format", help="force mlx-lm's tool parser (json_tools, qwen3_coder, ...)")
    p.add_argument("--generate", action="store_true",
                   help="load the weights and force each turn token by token through the MLX "
                        "generation path (stop tokens, streaming split, cache reuse, --batch)")
    p.add_argument("--show", type=int, default=5, help="differences shown per check (default 5)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_model_arguments(p)
    p.set_defaults(func=run)


def _scenarios(args: argparse.Namespace) -> list:
    files = list(args.scenarios or []) or [scenarios_dir() / f"{n}.jsonl" for n in set_names(args.set)]
    selection = Selection(ids=selected_ids(args), category=args.category, language=args.language,
                          limit=args.limit, shard=parse_shard(args.shard) if args.shard else None)
    chosen = []
    for path in files:
        scenarios, errors = load_scenarios(path)
        for e in errors:
            print(f"orvena-bench check-model: skipped: {e}", file=sys.stderr)
        chosen += selection.apply(scenarios)
    return chosen


def run(args: argparse.Namespace) -> int:
    from harness.backends.chat_side import ChatSide, load_tokenizer, local_path
    from harness.preflight import format_lines, run_checks, verdict

    scenarios = _scenarios(args)
    if not scenarios:
        raise FormatError("no scenario matched the selection")
    started = time.perf_counter()
    mlx = None
    try:
        if args.generate:
            from harness.backends.mlx_backend import MlxBackend

            mlx = MlxBackend(args.model, tool_format=args.tool_format, thinking=args.thinking,
                             **model_extra("mlx", args))
            chat, config = mlx.chat, mlx.config
        else:
            path = local_path(args.model)
            tokenizer, config = load_tokenizer(path, args.tool_format)
            chat = ChatSide(tokenizer, tool_format=args.tool_format, thinking=args.thinking,
                            name=args.model)
    except (OSError, ValueError) as e:
        raise FormatError(f"{args.model}: {e}") from None
    catalog = load_catalog(catalog_path())
    print(f"{'model':<19}      {args.model} ({config.get('model_type', 'no config.json')}), "
          f"{len(scenarios)} scenarios{', thinking on' if args.thinking else ''}"
          f"{', generated through MLX' if mlx else ''}")
    try:
        lines = run_checks(scenarios, catalog, chat, config=config, mlx=mlx,
                           batch=args.batch if mlx else 1, seed=args.seed,
                           max_rounds=args.max_rounds, progress=not args.no_progress)
    finally:
        if mlx is not None:
            mlx.close()
    for text in format_lines(lines, args.show):
        print(text)
    ok, summary = verdict(lines)
    if mlx is not None:
        s = mlx.stats
        print(f"{'prefill':<19}      {s.prefilled_tokens:,} of {s.prompt_tokens:,} prompt tokens "
              f"({s.prefilled_tokens / max(s.prompt_tokens, 1):.2%} of naive); rounds by cache "
              f"path: {', '.join(f'{k} {v}' for k, v in sorted(s.fallbacks.items()))}")
    print(f"verdict: {summary} in {time.perf_counter() - started:.1f} s")
    return 0 if ok else 1
