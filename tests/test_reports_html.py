"""The HTML report in headless Chromium: charts drawn, filters clicked, a scenario opened, the
filter state kept in the URL, and a screenshot that is neither blank nor the wrong size.

The report is built from a synthetic bench of 637 scenarios for three models, the size the
report must stay fast at. Skipped where Chromium is not installed (CI does not install it:
the package is several hundred megabytes for a handful of tests).
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from reports_browser import Chromium, chromium_binary, png_stats
from reports_data import synthetic_run

from orvena_bench.cli.main import main

pytestmark = pytest.mark.skipif(
    chromium_binary() is None,
    reason="headless Chromium not installed (Debian: apt-get install chromium)")

MODELS = {"orvena-4b": 0.8, "base-model": 0.63, "apple-on-device": 0.2}
WIDTH, HEIGHT = 1400, 1000


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    synthetic_run(folder, MODELS, rounds=3, text_size=200)
    out = folder / "report.html"
    scenarios = [a for s in ("bench", "restraint", "ask")
                 for a in ("--scenarios", str(folder / "scenarios" / f"{s}.jsonl"))]
    assert main(["report", str(folder / "results"), *scenarios, "--out", str(out),
                 "--reps", "200"]) == 0
    index = json.loads(out.read_text().split('<script type="application/json" id="index-data">')[1]
                       .split("</script>")[0])
    return out, index


@pytest.fixture(scope="module")
def browser():
    with Chromium(WIDTH, HEIGHT) as c:
        yield c


@pytest.fixture
def page(browser, report):
    browser.open(report[0])
    yield browser
    assert browser.exceptions() == []
    browser.events.clear()


def count(page) -> int:
    return int(page.js("document.getElementById('count').textContent").split(" of ")[0])


def expected(index, **want) -> int:
    """The runs the filters should leave, counted from the embedded data."""
    models, kinds = index["models"], index["kinds"]
    n = 0
    for model, s, passed, row_kinds, *_ in index["rows"]:
        sid, set_name, category, language, _ = index["scenarios"][s]
        if "models" in want and models[model] not in want["models"]:
            continue
        if "passed" in want and bool(passed) != want["passed"]:
            continue
        if "category" in want and category != want["category"]:
            continue
        if "kind" in want and kinds.index(want["kind"]) not in row_kinds:
            continue
        n += 1
    return n


def test_charts_draw_a_bar_per_model_for_every_category_and_language(page, report):
    _, index = report
    bars = page.js("document.querySelectorAll('svg.chart rect.bar').length")
    # All three models pass something in each of the 20 categories and 30 languages here.
    assert bars == 3 * (20 + 30)
    tip = page.js("document.querySelector('svg.chart rect.bar title').textContent")
    assert tip.startswith(f"{index['models'][0]} · calendar: ") and "%)" in tip


def test_the_list_draws_only_the_rows_in_view_and_no_round_text_until_opened(page, report):
    _, index = report
    assert count(page) == len(index["rows"]) == 3 * 637
    assert page.js("document.querySelectorAll('#list .row').length") < 80
    assert page.js("document.querySelectorAll('#detail .round').length") == 0
    page.js("document.getElementById('list').scrollTop = 30 * 1500")
    # The list redraws on its scroll event, which comes a frame later.
    tops = page.wait_for("""(() => {
        const tops = [...document.querySelectorAll('#list .row')].map(r => parseInt(r.style.top));
        return Math.min(...tops) <= 30 * 1500 && 30 * 1500 <= Math.max(...tops) && tops; })()""")
    assert len(tops) < 80


def test_status_model_category_and_check_filters_narrow_the_list(page, report):
    _, index = report
    page.click("#f-status button[data-status='failed']")
    assert count(page) == expected(index, passed=False)
    assert page.js("[...document.querySelectorAll('#list .row .mark')]"
                   ".every(m => m.classList.contains('fail'))")
    page.click(f"#f-model button[data-model='{index['models'].index('apple-on-device')}']")
    assert count(page) == expected(index, passed=False, models={"orvena-4b", "base-model"})
    page.choose("#f-category", "contacts")
    assert count(page) == expected(index, passed=False, category="contacts",
                                   models={"orvena-4b", "base-model"})
    page.choose("#f-kind", "wrong-arguments")
    assert count(page) == expected(index, passed=False, category="contacts",
                                   kind="wrong-arguments", models={"orvena-4b", "base-model"})
    assert 0 < count(page) < 40
    kept = ",".join(m for m in index["models"] if m != "apple-on-device")
    assert page.js("location.hash") == ("#" + urlencode({"model": kept}) + "&category=contacts"
                                        "&kind=wrong-arguments&status=failed")


def test_the_filter_state_survives_a_reload_from_the_url(page, report):
    out, index = report
    page.open(out, "status=passed&category=weather")
    assert count(page) == expected(index, passed=True, category="weather")
    assert page.js("document.querySelector(\"#f-status button[aria-pressed='true']\")"
                   ".dataset.status") == "passed"
    assert page.js("document.getElementById('f-category').value") == "weather"


def test_typing_in_the_search_box_finds_a_scenario(page):
    page.click("#f-text")
    page.page("Input.insertText", {"text": "de-contacts"})
    ids = page.js("[...document.querySelectorAll('#list .row .id')].map(e => e.textContent)")
    assert ids and all(i.startswith("de-contacts") for i in ids)


def test_differs_keeps_scenarios_the_selected_models_disagree_on(page, report):
    _, index = report
    page.click("#f-status button[data-status='differs']")
    shown = page.js("""[...document.querySelectorAll('#list .row')].map(r => +r.dataset.row)""")
    verdicts: dict[int, set] = {}
    for _, s, passed, *_ in index["rows"]:
        verdicts.setdefault(s, set()).add(passed)
    assert shown and all(len(verdicts[index["rows"][i][1]]) == 2 for i in shown)


def test_opening_a_failed_scenario_shows_request_checks_rounds_answer_and_phone(page, report):
    _, index = report
    page.click("#f-status button[data-status='failed']")
    page.choose("#f-kind", "wrong-arguments")
    page.click("#list .row")
    detail = page.js("document.getElementById('detail').innerText")
    first = page.js("document.querySelector('#list .row .id').textContent")
    assert detail.startswith(first)
    for part in ("Request", "request of " + first, "Failed checks", "wrong-arguments",
                 "Answer", "Calls (2)", "Rounds (3)", "prompt 2400 tokens", "Results:",
                 "Phone data", "Expected (the scenario's checks)"):
        assert part in detail, part
    assert page.js("document.querySelectorAll('#detail .round').length") == 3
    assert "open=" in page.js("location.hash")
    # The other models' runs of the same scenario are one click away.
    other = page.js("document.querySelector('#detail .others button').textContent")[2:]
    page.click("#detail .others button")
    detail = page.js("document.getElementById('detail').innerText")
    assert detail.startswith(first) and f"· {other} seed 7" in detail


def test_a_failure_count_in_the_taxonomy_opens_those_scenarios(page, report):
    _, index = report
    page.click("#failures table.taxonomy tr.total a")
    # The link changes the fragment; the page applies it in its hashchange handler, a task later.
    kind = page.wait_for("document.getElementById('f-kind').value")
    hash_ = page.js("location.hash")
    first_model = index["models"][0]
    assert "status=failed" in hash_ and urlencode({"model": first_model}) in hash_
    assert count(page) == expected(index, passed=False, models={first_model}, kind=kind) > 0


def test_the_screenshot_is_the_page_at_its_size_and_not_blank(page, tmp_path):
    png = page.screenshot()
    (tmp_path / "report.png").write_bytes(png)
    stats = png_stats(png)
    assert (stats.width, stats.height) == (WIDTH, HEIGHT)
    # Text, tables and three colours of bars: many colours, and far from one flat background.
    assert stats.colours > 100
    assert stats.background_share < 0.95
