"""What every report command reads: result files, the scenarios they ran (through the scorer's
loader), and the scorer's verdicts. Both kinds of file are read by their one reader in formats."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.scenario_files import default_files
from orvena_bench.formats.scenario import Scenario
from orvena_bench.reports.runs import Entry, Results, load_results
from orvena_bench.reports.verdicts import FailureKinds
from scoring.batch import load_scenarios
from scoring.tables import uses_mcp


@dataclass
class Inputs:
    results: Results
    scenarios: dict[str, Scenario]
    kinds: FailureKinds | None  # None when the lines were not scored again
    sources: list[str] = field(default_factory=list)
    # Bad scenario lines: reported, and their scenarios left out (one never stops the others).
    scenario_errors: list[FormatError] = field(default_factory=list)

    def warnings(self) -> list[str]:
        """Things a reader of the tables should know (printed to stderr by the commands)."""
        out = [str(e) for e in self.scenario_errors]
        missing = sorted({e.line.id for e in self.results.all_entries()
                          if e.line.id not in self.scenarios})
        if missing:
            out.append(f"{len(missing)} scenario(s) not in the scenario files (e.g. {missing[0]}): "
                       "their failures are not classified and their set is taken from the folder")
        changed = self.kinds.changed() if self.kinds else []
        if changed:
            e = changed[0]
            out.append(f"{len(changed)} recorded verdict(s) differ from the current scorer (e.g. "
                       f"{e.line.id} of {e.line.model}); the tables use the recorded verdicts: "
                       "rescore with `orvena-bench score --write`")
        return out


def load_inputs(result_paths: Iterable[str | Path],
                scenario_paths: Iterable[str | Path] | None = None, *,
                rescore: bool = True) -> Inputs:
    """Read everything; with ``rescore``, score every line again for the failure taxonomy (the
    language check's recognizer makes this the slow part, so comparisons skip it)."""
    errors: list[FormatError] = []
    known = load_scenarios(default_files(scenario_paths), errors)
    results = load_results(result_paths, {i: k.set for i, k in known.items()},
                           {i for i, k in known.items() if uses_mcp(k.expect)})
    return Inputs(results=results, scenarios={i: k.scenario for i, k in known.items()},
                  kinds=FailureKinds(known, results.all_entries()) if rescore else None,
                  sources=sorted({e.source for e in results.all_entries()}),
                  scenario_errors=errors)


def entries_of(results: Results) -> list[Entry]:
    """Every model's main-seed entries (what the tables count)."""
    return [e for m in results.models for e in results.main_run(m).entries.values()]
