"""``orvena-bench make-tiny-model DIR``: a tiny random 4-bit MLX model to try the mlx backend
without downloading weights (its answers are noise; the pipeline around it is real)."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    from harness.tiny_model import ARCHES

    p = sub.add_parser("make-tiny-model",
                       help="write a tiny random 4-bit MLX model (try --backend mlx without weights)")
    p.add_argument("dir", type=Path, help="the directory to write (created if missing)")
    p.add_argument("--arch", choices=ARCHES, default="qwen3_5",
                   help="qwen3_5: Qwen3.5 layout, XML tool calls (default); "
                        "qwen3: attention only, JSON tool calls")
    p.add_argument("--seed", type=int, default=0, help="weights seed (default 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from harness.tiny_model import build_tiny_model

    path = build_tiny_model(args.dir, args.arch, seed=args.seed)
    print(f"wrote a tiny {args.arch} model to {path}")
    print(f"try: orvena-bench run --model {path} --set bench --limit 3")
    return 0
