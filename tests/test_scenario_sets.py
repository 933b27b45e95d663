"""The project's own scenario sets: exactly the card's composition, and every scenario passes the
validator, the reference agent's run through the real loop included (issue 6: "run in CI over
every set")."""

from __future__ import annotations

import pytest

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.validation.report import validate_files
from harness.validation.solvable import reference_problems

SETS = [scenarios_dir() / f"{name}.jsonl" for name in ("bench", "restraint", "ask")]


@pytest.fixture(scope="module")
def report():
    catalog = load_catalog(catalog_path())
    return validate_files(SETS, catalog, solvable=lambda item: reference_problems(item, catalog))


@pytest.mark.slow
def test_every_scenario_of_the_project_passes_the_validator(report):
    assert [str(p) for p in report.problems] == []


@pytest.mark.slow
def test_the_sets_have_the_cards_composition(report):
    differ = [(r.what, r.card, r.ours) for r in report.composition if not r.ok]
    assert differ == []
    assert len(report.scenarios) == 637


def test_no_part_files_are_left_beside_the_sets():
    # Part files are a writing aid; the sets are the source once assembled.
    assert not list((scenarios_dir() / "parts").glob("*/*.jsonl"))
