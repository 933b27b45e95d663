"""How the HTML report scales: a full report (637 scenarios x 3 models) against a small one
(60 scenarios x 1 model), built and driven in headless Chromium in the same run.

For each report: build time, file size, time to load the page, time for a filter click to
redraw the list, time to open the first scenario (which parses the embedded details), and the
rows present in the DOM. The ratios full / small show what the lazy parts buy: a page that drew
every row and every round up front would scale with the 32x more runs.

    python benchmarks/report_speed.py [--repeat 5]

Needs Debian's chromium (apt-get install chromium).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from reports_browser import Chromium  # noqa: E402
from reports_data import synthetic_run  # noqa: E402

from orvena_bench.cli.main import main  # noqa: E402

FULL = {"orvena-4b": 0.8, "base-model": 0.63, "apple-on-device": 0.2}

TIMED_CLICK = """new Promise(done => {
  const started = performance.now();
  document.querySelector("#f-status button[data-status='failed']").click();
  requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - started)));
})"""
TIMED_OPEN = """new Promise(done => {
  const started = performance.now();
  document.querySelector("#list .row").click();
  requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - started)));
})"""


def build(folder: Path, models: dict[str, float], limit: int | None) -> tuple[Path, float]:
    synthetic_run(folder, models, rounds=3, text_size=600)
    if limit:  # keep the first scenarios of the bench only
        for path in (folder / "results").rglob("*.jsonl"):
            lines = path.read_bytes().splitlines(keepends=True)
            path.write_bytes(b"".join(lines[:limit]) if path.parent.name == "bench" else b"")
            if not path.read_bytes():
                path.unlink()
    scenarios = [a for p in sorted((folder / "scenarios").glob("*.jsonl"))
                 for a in ("--scenarios", str(p))]
    out = folder / "report.html"
    started = time.perf_counter()
    main(["report", str(folder / "results"), *scenarios, "--out", str(out), "--reps", "2000"])
    return out, time.perf_counter() - started


def measure(browser: Chromium, page: Path, repeat: int) -> dict[str, float]:
    loads, clicks, opens = [], [], []
    for _ in range(repeat):
        loads.append(browser.open(page) * 1000)
        clicks.append(browser.js(TIMED_CLICK))
        opens.append(browser.js(TIMED_OPEN))
    return {"load ms": statistics.median(loads), "filter click ms": statistics.median(clicks),
            "open first scenario ms": statistics.median(opens),
            "rows in DOM": browser.js("document.querySelectorAll('#list .row').length"),
            "runs": int(browser.js("document.getElementById('count').textContent")
                        .split(" of ")[1].split()[0])}


def run(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        full, full_build = build(Path(tmp) / "full", FULL, None)
        small, small_build = build(Path(tmp) / "small", {"orvena-4b": 0.8}, 60)
        with Chromium() as browser:
            rows = {"full": measure(browser, full, repeat),
                    "small": measure(browser, small, repeat)}
        rows["full"].update({"build s": full_build, "file MB": full.stat().st_size / 1e6})
        rows["small"].update({"build s": small_build, "file MB": small.stat().st_size / 1e6})
    keys = ["runs", "file MB", "build s", "load ms", "filter click ms", "open first scenario ms",
            "rows in DOM"]
    print(f"{'':24}{'full':>10}{'small':>10}{'full/small':>12}")
    for k in keys:
        a, b = rows["full"][k], rows["small"][k]
        print(f"{k:24}{a:10.1f}{b:10.1f}{a / b if b else float('nan'):12.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="page loads per report (median)")
    run(parser.parse_args().repeat)
