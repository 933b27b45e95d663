"""One process against two local ranks of mlx.launch, side by side, on the tiny MLX model.

Runs the same selection (the first --limit bench scenarios, default 32) as ``orvena-bench run``
in one process and as ``mlx.launch -n 2 -- orvena-bench run`` (harness/distributed.py), alternating
the two --repeat times (default 2; the fastest of each counts, since this machine is shared),
prints each way's wall time and scenarios per second and their ratio, and checks that the
gathered file equals the one-process file line for line, timings aside.

    python benchmarks/distributed.py [--limit 32] [--repeat 2] [--ranks 2]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orvena_bench.formats.result_files import read_file  # noqa: E402


def timed(command: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0 or "exited with code" in done.stderr:
        sys.exit(f"failed: {' '.join(command)}\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--ranks", type=int, default=2)
    args = parser.parse_args()

    from harness.tiny_model import build_tiny_model

    work = Path(tempfile.mkdtemp(prefix="orvena-distributed-"))
    model = build_tiny_model(work / "tiny", "qwen3_5")
    launcher = shutil.which("mlx.launch") or str(Path(sys.executable).with_name("mlx.launch"))
    run = [sys.executable, "-m", "orvena_bench.cli", "run", "--backend", "mlx", "--model", str(model),
           "--set", "bench", "--limit", str(args.limit), "--no-progress"]
    ways = {"one process": lambda out: run + ["--out", str(out)],
            f"{args.ranks} ranks": lambda out: [launcher, "-n", str(args.ranks), "--", *run, "--out", str(out)]}
    best: dict[str, float] = {}
    outs: dict[str, Path] = {}
    for i in range(args.repeat):
        for name, command in ways.items():
            out = work / f"{name.replace(' ', '-')}-{i}"
            seconds = timed(command(out))
            best[name] = min(best.get(name, seconds), seconds)
            outs[name] = out
    files = {name: [line.without_timings() for line in read_file(out / "bench" / f"{model.name}.jsonl")]
             for name, out in outs.items()}
    first, second = list(ways)
    same = files[first] == files[second]
    print(f"{args.limit} bench scenarios, tiny qwen3_5, fastest of {args.repeat} (whole command, "
          "start-up and model load included)")
    for name in ways:
        print(f"  {name:12s} {best[name]:7.1f} s  {args.limit / best[name]:6.2f} scenarios/s")
    print(f"  ratio {best[first] / best[second]:.2f}x; gathered file equals one process's "
          f"(timings aside): {'yes' if same else 'NO'}")
    shutil.rmtree(work, ignore_errors=True)
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
