"""What every report command reads: result files, the scenarios they ran, and the scorer's
verdicts on the failed ones."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from formats.errors import FormatError
from formats.jsonl import read_models
from formats.paths import scenarios_dir
from formats.scenario import Scenario
from reports.runs import Entry, Results, load_results
from reports.verdicts import FailureKinds


@dataclass
class Inputs:
    results: Results
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    kinds: FailureKinds = field(default_factory=lambda: FailureKinds({}))

    def warnings(self) -> list[str]:
        """Things a reader of the tables should know (printed to stderr by the commands)."""
        out = []
        missing = sorted({e.line.id for e in self.results.all_entries()
                          if e.line.id not in self.scenarios})
        if missing:
            out.append(f"{len(missing)} scenario(s) not in the scenario files (e.g. {missing[0]}): "
                       "their failures are not classified and the MCP row may miss them")
        changed = self.kinds.changed(self.results.all_entries())
        if changed:
            e = changed[0]
            out.append(f"{len(changed)} recorded verdict(s) differ from the current scorer (e.g. "
                       f"{e.line.id} of {e.line.model}); the tables use the recorded verdicts: "
                       "rescore with `orvena-bench score --write`")
        errors = list(dict.fromkeys(self.kinds.errors))
        if errors:
            out.append(f"{len(errors)} scenario(s) could not be scored, their failures are "
                       f"counted as scenario-error: {errors[0]}"
                       + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""))
        return out


def scenario_files(paths: Iterable[str | Path] | None) -> list[Path]:
    """The files given, or the project's scenarios/*.jsonl."""
    if paths:
        return [Path(p) for p in paths]
    return sorted(scenarios_dir().glob("*.jsonl"))


def load_scenarios(paths: Iterable[Path]) -> tuple[dict[str, Scenario], dict[str, str]]:
    """Scenarios by id, and each id's set (its file's name: bench, restraint, ask)."""
    scenarios, sets = {}, {}
    for path in paths:
        if not path.is_file():
            raise FormatError("no such scenario file", file=str(path))
        for s in read_models(path, Scenario):
            scenarios[s.id] = s
            sets[s.id] = path.stem
    return scenarios, sets


def load_inputs(result_paths: Iterable[str | Path],
                scenario_paths: Iterable[str | Path] | None = None) -> Inputs:
    scenarios, sets = load_scenarios(scenario_files(scenario_paths))
    results = load_results(result_paths, sets)
    sources = sorted({e.source for e in results.all_entries()})
    return Inputs(results, scenarios, sources, FailureKinds(scenarios))


def entries_of(results: Results) -> list[Entry]:
    """Every model's main-seed entries (what the tables count)."""
    return [e for m in results.models for e in results.main_run(m).entries.values()]
