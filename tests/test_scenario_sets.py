"""The project's own scenario sets: exactly the card's composition, and every scenario passes the
validator, the reference agent's run through the real loop included (in CI, over every set), with no
lint warning, and every alternative behaviour of scenarios/behaviours/ scores as its line says."""

from __future__ import annotations

import pytest

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.validation.report import validate_files

SETS = [scenarios_dir() / f"{name}.jsonl" for name in ("bench", "restraint", "ask")]
BEHAVIOURS = sorted((scenarios_dir() / "behaviours").glob("*.jsonl"))


@pytest.fixture(scope="module")
def report():
    catalog = load_catalog(catalog_path())
    return validate_files(SETS, catalog, reference=True, behaviour_files=BEHAVIOURS)


@pytest.mark.slow
def test_every_scenario_of_the_project_passes_the_validator(report):
    assert [str(p) for p in report.problems] == []


@pytest.mark.slow
def test_the_shipped_sets_show_no_warning(report):
    assert [str(w) for w in report.warnings] == []


@pytest.mark.slow
def test_every_alternative_behaviour_scores_as_expected(report):
    assert BEHAVIOURS and report.played
    assert [str(p.problem()) for p in report.played if not p.as_expected] == []


@pytest.mark.slow
def test_the_sets_have_the_cards_composition(report):
    differ = [(r.what, r.card, r.ours) for r in report.composition if not r.ok]
    assert differ == []
    assert len(report.scenarios) == 637


def test_no_part_files_are_left_beside_the_sets():
    # Part files are a writing aid; the sets are the source once assembled.
    assert not list((scenarios_dir() / "parts").glob("*/*.jsonl"))
