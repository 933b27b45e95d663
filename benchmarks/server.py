"""The server way: ``--backend openai`` against mlx_lm.server on loopback, 1 against N requests
in flight, side by side, on the tiny MLX model.

Starts ``mlx_lm.server`` on 127.0.0.1 (a free port, ``--decode-concurrency N``) with the tiny
qwen3_5 model, runs the same --limit bench scenarios (default 16) with ``--batch 1`` and
``--batch N`` (default 4), alternating --repeat times (fastest of each), prints wall time,
scenarios per second and the ratio, and whether the two runs' verdicts agree; then stops the
server. Nothing but loopback is contacted.

    python benchmarks/server.py [--limit 16] [--in-flight 4] [--repeat 2]
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orvena_bench.formats.result_files import read_file  # noqa: E402

START_TIMEOUT_S = 300


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit(f"mlx_lm.server exited with {server.returncode}")
        try:
            urllib.request.urlopen(f"{url}/models", timeout=2).read()
            return
        except OSError:
            time.sleep(0.5)
    sys.exit(f"mlx_lm.server did not answer within {START_TIMEOUT_S} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=16)
    parser.add_argument("--in-flight", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    from harness.tiny_model import build_tiny_model

    work = Path(tempfile.mkdtemp(prefix="orvena-server-"))
    model = build_tiny_model(work / "tiny", "qwen3_5")
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    server = subprocess.Popen(
        [sys.executable, "-m", "mlx_lm.server", "--model", str(model), "--host", "127.0.0.1",
         "--port", str(port), "--decode-concurrency", str(args.in_flight), "--log-level", "ERROR"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_ready(url, server)
        best: dict[int, float] = {}
        outs: dict[int, Path] = {}
        for i in range(args.repeat):
            for batch in (1, args.in_flight):
                out = work / f"batch-{batch}-{i}"
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "orvena_bench.cli", "run", "--backend", "openai",
                                "--base-url", url, "--model", str(model), "--set", "bench",
                                "--limit", str(args.limit), "--batch", str(batch), "--max-rounds", "3",
                                "--max-tokens", "56", "--temperature", "0", "--no-progress",
                                "--out", str(out)], check=True, capture_output=True, timeout=3600)
                seconds = time.perf_counter() - started
                best[batch] = min(best.get(batch, seconds), seconds)
                outs[batch] = out
    finally:
        server.terminate()
        server.wait(timeout=30)
    verdicts = {b: {line.id: line.passed for line in read_file(o / "bench" / f"{model.name}.jsonl")}
                for b, o in outs.items()}
    print(f"{args.limit} bench scenarios, tiny qwen3_5 behind mlx_lm.server --decode-concurrency "
          f"{args.in_flight}, fastest of {args.repeat}")
    for batch in (1, args.in_flight):
        print(f"  {batch} in flight  {best[batch]:7.1f} s  {args.limit / best[batch]:6.2f} scenarios/s")
    print(f"  ratio {best[1] / best[args.in_flight]:.2f}x; verdicts agree: "
          f"{'yes' if verdicts[1] == verdicts[args.in_flight] else 'no'}")


if __name__ == "__main__":
    main()
