"""One benchmark across the ranks of ``mlx.launch``: each rank runs its share, rank 0 gathers.

Under ``mlx.launch [-n N | --hosts ...] -- orvena-bench run ...`` every rank reads its rank and
the group's size from ``mx.distributed`` and takes every size-th selected scenario from its rank
on (the ``--shard`` rule, so shares never overlap and no flag differs between machines). A rank
writes its lines where it runs, crash-safe as any run (appended, flushed and fsynced per line), to
``<out>/.ranks/<set>/<model>.shard-<rank+1>-of-<size>.jsonl``: a folder readers skip, so a
share is never counted beside the gathered file. When every rank has run a set, the lines travel
over ``mx.distributed`` (``all_gather``: sizes first, then the bytes, padded to the longest) and
rank 0 writes ``<out>/<set>/<model>.jsonl`` atomically in the scenario file's order, the file a
one-process run writes, then the tables. ``--resume`` under the same launch continues each
rank's share. A rank that fails tells the others before any lines travel, so every rank ends
with one line saying which rank stopped and that ``--resume`` goes on; a rank that is killed
outright takes the launch down with it, its share intact for ``--resume``.

Ranks share nothing but result lines: each loads its own model and prefills its own prompts
(no KV traffic between machines).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orvena_bench.formats.jsonl import dumps, loads
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.result_files import last_per_key, read_file, write_file

RANKS_FOLDER = ".ranks"
# Environment variables a distributed launcher sets: mlx.launch's ring backend, then MPI's.
LAUNCHED = ("MLX_RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK")


def launched() -> bool:
    return any(name in os.environ for name in LAUNCHED)


@dataclass(frozen=True)
class Ranks:
    """This process's place in the launch."""

    group: Any
    rank: int
    size: int

    @property
    def shard(self) -> tuple[int, int]:
        return (self.rank + 1, self.size)

    @property
    def first(self) -> bool:
        return self.rank == 0

    def gather(self, payload: bytes) -> list[bytes]:
        """Every rank's payload, in rank order, on every rank."""
        import mlx.core as mx
        import numpy as np

        sizes = mx.distributed.all_gather(mx.array([len(payload)], dtype=mx.int32), group=self.group)
        sizes = [int(s) for s in np.array(sizes)]
        width = max(max(sizes), 1)
        padded = np.zeros(width, dtype=np.uint8)
        padded[: len(payload)] = np.frombuffer(payload, dtype=np.uint8)
        joined = np.array(mx.distributed.all_gather(mx.array(padded), group=self.group))
        return [joined[i * width: i * width + n].tobytes() for i, n in enumerate(sizes)]

    def failed_ranks(self, failed: bool) -> list[int]:
        """The ranks that say they failed (every rank must call this, failed or not)."""
        return [i for i, b in enumerate(self.gather(b"\x01" if failed else b"\x00")) if b == b"\x01"]


def join_group() -> Ranks | None:
    """The launch's group when this process was started by a launcher with more than one rank."""
    if not launched():
        return None
    import mlx.core as mx

    group = mx.distributed.init()
    if group.size() <= 1:
        return None
    # After init every rank is connected, so the launcher's relay threads all exist.
    yield_launcher_cpu()
    return Ranks(group, group.rank(), group.size())


def yield_launcher_cpu() -> bool:
    """Lower the priority of the ``mlx.launch`` process this rank runs under, when it runs on
    this machine. Its output relay (mlx 0.32) selects on each rank's stdin pipe as well as its
    output, and an empty pipe is always writable, so each relay thread loops without sleeping:
    about a core of CPU for the whole launch, taken from the ranks on a small machine. At the
    lowest priority the relay still forwards every line, on cycles the ranks leave. Returns
    whether it was done; a remote rank's parent is ssh's shell and is left alone."""
    parent = os.getppid()
    command = _command_line(parent)
    if "mlx.launch" not in command and "mlx._distributed_utils" not in command:
        return False
    # On Linux the priority is per thread, and the relay threads are the ones looping.
    tasks = Path(f"/proc/{parent}/task")
    ids = [int(t.name) for t in tasks.iterdir()] if tasks.is_dir() else [parent]
    done = False
    for tid in ids:
        try:
            os.setpriority(os.PRIO_PROCESS, tid, 19)
            done = True
        except OSError:  # a thread that ended, or a system that does not allow it
            pass
    return done


def _command_line(pid: int) -> str:
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.is_file():
        return cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
    try:  # macOS: no /proc
        return subprocess.run(["ps", "-o", "command=", "-p", str(pid)], capture_output=True,
                              text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def stop_on_term(ranks: Ranks, out: str | Path) -> None:
    """When a rank dies the launcher ends the others with SIGTERM: each says so in one line and
    exits through the usual unwinding (every line it finished is already on disk)."""
    def stop(signum: int, frame: Any) -> None:
        print(f"orvena-bench run: rank {ranks.rank} of {ranks.size} stopped by the launch (a rank "
              f"ended); the lines of every rank are kept under {rank_out(out)}: run the same "
              "launch with --resume to go on", file=sys.stderr)
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)


def rank_out(out: str | Path) -> Path:
    return Path(out) / RANKS_FOLDER


def share_payload(path: Path) -> bytes:
    """A rank's lines of one set, one JSON line each, the last per key."""
    if not path.is_file():
        return b""
    return b"".join(dumps(line.data()) + b"\n" for line in last_per_key(read_file(path)))


def gathered_lines(payloads: Iterable[bytes]) -> list[ResultLine]:
    return [ResultLine.read(loads(raw)) for payload in payloads
            for raw in payload.splitlines() if raw.strip()]


def write_gathered(path: Path, lines: list[ResultLine], order: list[str]) -> int:
    """The one results file: lines of other keys already in it kept first, as they were, then the
    gathered lines in the scenario file's order (seed, then id). Returns the lines written."""
    position = {sid: i for i, sid in enumerate(order)}
    ours = {(line.model, line.id, line.seed) for line in lines}
    kept = [line for line in (read_file(path) if path.is_file() else [])
            if (line.model, line.id, line.seed) not in ours]
    lines = sorted(lines, key=lambda line: (line.seed, position.get(line.id, len(position)), line.id))
    write_file(path, [*kept, *lines])
    return len(lines)
