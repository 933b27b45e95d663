"""The report escapes every field of a result line: a crafted results file cannot run script in
the page, which is mailed and attached to pull requests. Checked in the HTML text and, where
Chromium is installed, in the page itself with every part drawn (tables, charts, comparison,
taxonomy, scenario list, a scenario's details)."""

from __future__ import annotations

import time

import pytest
from reports_browser import Chromium, chromium_binary
from reports_data import line, write_jsonl

from orvena_bench.cli.main import main

# Counts every run of script it manages to start.
PAYLOADS = ['<img src=x onerror="window.__xss=(window.__xss||0)+1">',
            '"><svg onload="window.__xss=(window.__xss||0)+1">',
            "</script><script>window.__xss=(window.__xss||0)+1</script>"]


def crafted(i: int, model: str, passed: bool) -> dict:
    payload = PAYLOADS[i % len(PAYLOADS)]
    data = line(f"en-calendar-move-{i}", model, passed, answer=f"answer {payload}",
                calls=[{"tool": f"list_events{payload}", "arguments": {"q": payload}}],
                failure=None if passed else {"kind": f"backend{payload}", "message": payload})
    return {**data, "id": f"en-calendar-move-{i}{payload}", "language": f"en{payload}",
            "category": f"calendar{payload}", "set": f"bench{payload}",
            "issues": [f"issue {payload}"]}


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("xss")
    for m, model in enumerate(PAYLOADS):
        write_jsonl(folder / "results" / "bench" / f"m{m}.jsonl",
                    [crafted(i, f"m{m}{model}", (i + m) % 2 == 0) for i in range(6)])
    out = folder / "report.html"
    assert main(["report", str(folder / "results"), "--out", str(out), "--reps", "20"]) == 0
    return out


def test_no_field_reaches_the_page_unescaped(report):
    html = report.read_text(encoding="utf-8")
    for payload in PAYLOADS:
        assert payload not in html


@pytest.mark.skipif(chromium_binary() is None,
                    reason="headless Chromium not installed (Debian: apt-get install chromium)")
def test_no_payload_runs_in_chromium_with_every_part_drawn(report):
    with Chromium(1200, 900) as page:
        page.open(report)
        page.wait_for("document.querySelectorAll('#spacer .row, #spacer > div').length > 0")
        page.click("#spacer > div")  # a scenario's details: answer, calls, transcript, failure
        page.wait_for("document.getElementById('detail').textContent.length > 0")
        time.sleep(0.3)  # an image's error event fires after it fails to load
        assert page.js("window.__xss === undefined") is True
        assert page.js("document.querySelectorAll('img, svg [onload], [onerror]').length") == 0
        text = page.js("document.body.innerText")
        assert "<img src=x onerror" in text  # shown as text, not run
        assert page.exceptions() == []
