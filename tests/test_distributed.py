"""One benchmark across the ranks of ``mlx.launch`` (two local ranks, the ring backend over
loopback): each rank runs its share, rank 0 gathers one results file equal to a one-process run's."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from orvena_bench.formats.result_files import read_file

LAUNCH = shutil.which("mlx.launch") or str(Path(sys.executable).with_name("mlx.launch"))
RUN = [sys.executable, "-m", "orvena_bench.cli", "run", "--backend", "reference", "--set", "bench",
       "--limit", "7", "--no-progress"]

pytestmark = pytest.mark.skipif(not Path(LAUNCH).exists(), reason="mlx.launch is not installed")


def launch(*args: str | Path, ranks: int = 2) -> subprocess.CompletedProcess:
    """The launch's output; mlx.launch itself exits 0 whatever its ranks do, and warns of each
    rank that did not (``Node with rank R exited with code C``)."""
    return subprocess.run([LAUNCH, "-n", str(ranks), "--", *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def failed_ranks(done: subprocess.CompletedProcess) -> int:
    return done.stderr.count("exited with code")


def one_process(out: Path) -> list:
    subprocess.run([*RUN, "--out", str(out)], check=True, capture_output=True, timeout=300)
    return [line.without_timings() for line in read_file(out / "bench" / "reference.jsonl")]


@pytest.fixture(scope="module")
def single(tmp_path_factory) -> list:
    return one_process(tmp_path_factory.mktemp("single"))


def test_two_ranks_write_the_file_a_single_process_writes(tmp_path, single):
    done = launch(*RUN, "--out", tmp_path)
    assert failed_ranks(done) == 0, done.stderr
    assert "gathered 7 lines from 2 ranks" in done.stdout
    gathered = [line.without_timings() for line in read_file(tmp_path / "bench" / "reference.jsonl")]
    assert gathered == single  # same lines, same order, timings aside
    shares = sorted(p.name for p in (tmp_path / ".ranks" / "bench").glob("*.jsonl"))
    assert shares == ["reference.shard-1-of-2.jsonl", "reference.shard-2-of-2.jsonl"]
    assert [len(read_file(tmp_path / ".ranks" / "bench" / s)) for s in shares] == [4, 3]
    # The tables count each scenario once: the shares are a run's working files, not results.
    summary = (tmp_path / "summary.csv").read_text()
    assert ",7," in summary.splitlines()[1]


def test_a_second_launch_without_resume_stops_every_rank_then_resume_goes_on(tmp_path, single):
    assert failed_ranks(launch(*RUN, "--out", tmp_path)) == 0
    again = launch(*RUN, "--out", tmp_path)
    assert failed_ranks(again) == 2
    assert "already recorded" in again.stderr and "--resume to go on" in again.stderr
    # A share lost on one rank (as after a crash before its lines were written) is run again.
    share = tmp_path / ".ranks" / "bench" / "reference.shard-2-of-2.jsonl"
    share.write_bytes(b"".join(share.read_bytes().splitlines(keepends=True)[:1]))
    resumed = launch(*RUN, "--out", tmp_path, "--resume")
    assert failed_ranks(resumed) == 0, resumed.stderr
    gathered = [line.without_timings() for line in read_file(tmp_path / "bench" / "reference.jsonl")]
    assert gathered == single


def test_shard_and_a_launch_do_not_mix(tmp_path):
    done = launch(*RUN, "--out", tmp_path, "--shard", "1/2")
    assert failed_ranks(done) == 2 and "do not mix" in done.stderr


PRIORITIES = """
import os
from harness.distributed import join_group
ranks = join_group()
parent = os.getppid()
print("rank", ranks.rank, "relay", sorted({os.getpriority(os.PRIO_PROCESS, int(t))
      for t in os.listdir(f"/proc/{parent}/task")}), "self", os.getpriority(os.PRIO_PROCESS, 0))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="thread priorities are read from /proc")
def test_ranks_lower_the_priority_of_the_launchers_busy_relay_not_their_own():
    done = launch(sys.executable, "-c", PRIORITIES)
    assert failed_ranks(done) == 0, done.stderr
    assert sorted(done.stdout.split("\n")[:2]) == ["rank 0 relay [19] self 0", "rank 1 relay [19] self 0"]


def test_outside_a_launch_no_priority_is_changed():
    from harness.distributed import yield_launcher_cpu

    assert yield_launcher_cpu() is False
