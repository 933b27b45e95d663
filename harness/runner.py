"""Running a backend over scenario files: selection, resume, rerun, shards, progress, scoring.

Each scenario file (a set) writes its own result file, ``<out>/<set>/<model>.jsonl`` (a shard
writes ``<model>.shard-<i>-of-<n>.jsonl``; ``orvena-bench merge`` joins them). A line is keyed by
(scenario id, seed) and appended as soon as its scenario ends.

Lines already recorded for a selected (id, seed):
- ``--resume`` skips them (a killed run goes on where it stopped), except lines whose turn failed
  for a reason outside the model (``formats.failures``: backend, harness, scenario), which it runs
  again and then, like a rerun, keeps only the newest line per (id, seed);
- ``--rerun`` runs them again: the new lines are appended as they finish, and at the end the file
  is rewritten atomically with only the newest line per (id, seed), in place of the old one; other
  seeds' and scenarios' lines are never touched (a rerun killed midway leaves both lines, and
  every reader here takes the last, and ``<file>.rerun`` keeps what it still owes, so
  ``--resume`` finishes it);
- otherwise the run stops before starting, with an error saying which flag to use, so a
  second run never silently duplicates or replaces lines.

A crash inside one scenario is recorded as a failed turn (``TurnFailure(kind="harness")``, or
``scenario`` for broken input) and the run goes on; so is a line that cannot be written as JSON
(in its place, a line saying so). ``max_backend_failures`` backend failures in a row (a dead
server) stop the set instead of racing through it. A line the disk refuses stops the run with
``WriteFailed``, the file whole up to its last line. Every line is scored as it ends (``scoring.score``), so the progress bar shows passes
so far; the summary tables are written at the end.

With ``workers`` > 1 (``--batch N``) that many scenarios run at once, each in its own thread
through the plain sequential loop; a thread that finishes a scenario takes the next one, so the
mlx backend always has N conversations to decode together (continuous batching). Lines are
appended, scored, in the order scenarios finish; scoring stays in the calling thread.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.failures import not_run
from orvena_bench.formats.jsonl import LineWriter, appending
from orvena_bench.formats.result import ResultLine, TurnFailure
from orvena_bench.formats.scenario import Scenario
from harness.backend import Backend
from harness.loop import DEFAULT_MAX_ROUNDS, describe_error, failure_kind, run_scenario
from harness.manifest import add_run, build_manifest
from harness.recording import PendingRerun, compact, last_per_key, line_key, read_results, results_path
from harness.validation.static import load_located
from orvena_bench.formats.scenario_files import SETS

def set_names(choice: str) -> list[str]:
    """The sets a ``--set`` choice covers."""
    if choice == "all":
        return list(SETS)
    if choice not in SETS:
        raise FormatError(f"unknown set {choice!r} (one of {', '.join(SETS)}, all)")
    return [choice]


def short_name(model: str) -> str:
    """A result file's model name from a model path or Hugging Face id:
    ``mlx-community/Qwen3.5-4B-4bit`` -> ``qwen3.5-4b-4bit``."""
    last = str(model).rstrip("/").rsplit("/", 1)[-1].lower()
    return re.sub(r"[^a-z0-9._-]+", "-", last).strip("-.") or "model"


def parse_shard(text: str) -> tuple[int, int]:
    """``i/n`` (1-based) as (i, n)."""
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise FormatError(f"--shard must be i/n with 1 <= i <= n, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def load_scenarios(path: str | Path) -> tuple[list[Scenario], list[FormatError]]:
    """The scenarios of a file that load, and one error per line that does not: one broken
    scenario never stops the others. An empty id, or an id already used above (a result line is
    keyed by id), is such an error too."""
    if not Path(path).exists():
        raise FormatError("no such scenario file", file=str(path))
    items, errors = load_located(path)
    scenarios, first_line = [], {}
    for item in items:
        sid = item.scenario.id
        if not sid.strip():
            errors.append(FormatError("empty scenario id", file=item.file, line=item.line, field="id"))
        elif sid in first_line:
            errors.append(FormatError(f"duplicate id {sid!r} (first on line {first_line[sid]})",
                                      file=item.file, line=item.line, field="id"))
        else:
            first_line[sid] = item.line
            scenarios.append(item.scenario)
    return scenarios, errors


@dataclass(frozen=True)
class Selection:
    ids: frozenset[str] = frozenset()
    category: str | None = None
    language: str | None = None
    limit: int | None = None
    shard: tuple[int, int] | None = None
    # A distributed launch's share (i, n), taken after the limit, so that the ranks together run
    # exactly what one process with the same flags runs (harness/distributed.py).
    share: tuple[int, int] | None = None

    def apply(self, scenarios: Iterable[Scenario]) -> list[Scenario]:
        """Filters first, then the shard (every n-th of what is left, from the i-th), then the
        limit, so shards of one selection never overlap; then a launch's share."""
        chosen = self.whole(scenarios)
        if self.share is not None:
            i, n = self.share
            chosen = chosen[i - 1::n]
        return chosen

    def whole(self, scenarios: Iterable[Scenario]) -> list[Scenario]:
        """The selection before a launch's share: what every rank's lines add up to."""
        chosen = [s for s in scenarios
                  if (not self.ids or s.id in self.ids)
                  and (self.category is None or s.category == self.category)
                  and (self.language is None or s.language == self.language)]
        if self.shard is not None:
            i, n = self.shard
            chosen = chosen[i - 1::n]
        return chosen[: self.limit] if self.limit is not None else chosen


@dataclass
class RunSpec:
    backend: Backend
    catalog: Catalog
    model: str
    seed: int = 7
    max_rounds: int = DEFAULT_MAX_ROUNDS
    out: Path = Path("results")
    resume: bool = False
    rerun: bool = False
    shard: tuple[int, int] | None = None
    flags: dict = field(default_factory=dict)
    # The lines a replay plays, by (id, seed).
    recorded: dict[tuple[str, int], ResultLine] | None = None
    progress: bool = True
    # Scenarios run at once (``--batch``); results never depend on it (harness/sampling.py).
    workers: int = 1
    # Backend failures in a row that stop a set (a dead server); 0 never stops.
    max_backend_failures: int = 5


@dataclass
class SetResult:
    set_name: str
    path: Path
    ran: int = 0
    skipped: int = 0
    passed: int = 0
    failures: Counter = field(default_factory=Counter)
    # Replay only: scenario id -> where the replayed line departs from the recorded one.
    divergences: dict[str, list[str]] = field(default_factory=dict)
    dropped: int = 0  # older lines a rerun replaced
    retried: int = 0  # recorded lines --resume ran again (failed outside the model, or a rerun owed)
    rerun_finished: int = 0  # of those, owed by a --rerun that stopped before it finished
    # Lines of this run whose turn failed outside the model, by kind (formats.failures).
    not_run: Counter = field(default_factory=Counter)
    # Why the set stopped before its last scenario, if it did.
    stopped: str | None = None


Scorer = Callable[[Scenario, ResultLine], ResultLine]


def score_line(scenario: Scenario, line: ResultLine) -> ResultLine:
    """The line with its verdict (``scoring.score``); a scorer crash is recorded in issues and
    the line fails, so it is never taken for a pass."""
    from scoring import score

    try:
        verdict = score(scenario, line)
    except Exception as e:  # noqa: BLE001 - one scenario's scoring bug must not stop the run
        message = f"scoring failed: {describe_error(e)}"
        update: dict = {"passed": False, "issues": [message]}
        if line.failure is None:
            # A bad token in expect is the scenario's fault, a crash the scorer's: neither is
            # the model's, so the line is not run (and --resume runs it again).
            update["failure"] = TurnFailure(kind=failure_kind(e), message=message)
        return line.model_copy(update=update)
    return line.model_copy(update={"passed": bool(verdict.passed), "issues": list(verdict.issues)})


def play(scenario: Scenario, spec: RunSpec) -> ResultLine:
    """One scenario's line, not yet scored; never raises."""
    started = time.perf_counter()
    recorded = spec.recorded.get((scenario.id, spec.seed)) if spec.recorded is not None else None
    try:
        return run_scenario(scenario, spec.backend, spec.catalog, seed=spec.seed,
                            max_rounds=spec.max_rounds, model=spec.model, recorded=recorded)
    except Exception as e:  # noqa: BLE001 - run_scenario records its own errors; this is a last guard
        return ResultLine(id=scenario.id, language=scenario.language, category=scenario.category,
                          model=spec.model, seed=spec.seed, seconds=round(time.perf_counter() - started, 3),
                          failure=TurnFailure(kind=failure_kind(e), message=describe_error(e)))


def played(todo: list[Scenario], spec: RunSpec) -> Iterator[tuple[Scenario, ResultLine]]:
    """(scenario, unscored line) as each scenario ends, ``spec.workers`` at a time.

    If the caller stops early (an error, Ctrl-C), scenarios not yet started are cancelled and the
    backend is closed, so that rounds waiting in a batch end at once instead of holding the
    process until they finish."""
    if spec.workers <= 1:
        for scenario in todo:
            yield scenario, play(scenario, spec)
        return
    pool = ThreadPoolExecutor(spec.workers, thread_name_prefix="scenario")
    futures = {pool.submit(play, s, spec): s for s in todo}
    finished = False
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
        finished = True
    finally:
        pool.shutdown(wait=finished, cancel_futures=True)
        if not finished:
            close = getattr(spec.backend, "close", None)
            if close is not None:
                close()


def write_line(writer: LineWriter, line: ResultLine) -> ResultLine:
    """Append a line; one that cannot be written as JSON at all is replaced by a ``harness``
    failure line saying why, so the scenario is recorded (and retried by --resume) and the run
    goes on. Returns the line written."""
    try:
        writer.write(line)
        return line
    except (TypeError, ValueError) as e:
        stand_in = ResultLine(
            id=line.id, language=line.language, category=line.category, model=line.model,
            seed=line.seed, seconds=line.seconds,
            failure=TurnFailure(kind="harness", message=f"the line could not be written as JSON: {e}"))
        writer.write(stand_in)
        return stand_in


def run_set(set_name: str, scenario_file: Path, scenarios: list[Scenario], spec: RunSpec,
            scorer: Scorer = score_line) -> SetResult:
    """Run the selected scenarios of one file into its result file."""
    path = results_path(spec.out, set_name, spec.model, spec.shard)
    result = SetResult(set_name, path)
    # The file is locked before it is read, so a second run into it stops at once instead of
    # playing the same scenarios.
    with appending(path) as writer:
        every = read_results(path)
        recorded = {line_key(line): line for line in last_per_key(every)}
        pending = PendingRerun.of(path)
        owed = pending.owed(spec.seed, every)
        todo, first_recorded = [], None
        for s in scenarios:
            old = recorded.get((s.id, spec.seed))
            if old is None or spec.rerun:
                todo.append(s)
                continue
            first_recorded = first_recorded or s.id
            if spec.resume and (not_run(old) or s.id in owed):
                result.retried += 1
                result.rerun_finished += s.id in owed
                todo.append(s)
            else:
                result.skipped += 1
        if first_recorded is not None and not spec.resume and not spec.rerun:
            count = result.skipped + result.retried
            unfinished = (f"; a --rerun of {len(owed)} of them stopped before it finished: "
                          "--resume finishes it") if owed else ""
            raise FormatError(
                f"{count} selected scenarios are already recorded for seed {spec.seed} "
                f"(e.g. {first_recorded}); use --resume to skip them or --rerun to replace them"
                + unfinished, file=str(path))
        if not todo:
            return result
        add_run(path, build_manifest(backend=spec.backend.describe(), scenario_files=[scenario_file],
                                     flags=spec.flags, seed=spec.seed))
        if spec.rerun:
            pending.begin(spec.seed, (s.id for s in todo), every)
        _play_into(writer, todo, spec, scorer, result)
    # Compacting moves lines, so it waits until no rerun of the file is owed any more.
    if (spec.rerun or result.retried) and pending.settle(spec.seed, read_results(path)):
        result.dropped = compact(path)
    return result


def _play_into(writer: LineWriter, todo: list[Scenario], spec: RunSpec, scorer: Scorer,
               result: SetResult) -> None:
    bar = tqdm(total=len(todo), desc=f"{result.set_name}/{spec.model}", unit="scenario",
               disable=not spec.progress, dynamic_ncols=True)
    lines = played(todo, spec)
    backend_in_a_row = 0
    try:
        for scenario, line in lines:
            line = write_line(writer, scorer(scenario, line))
            result.ran += 1
            result.passed += line.passed
            if line.failure is not None:
                result.failures[line.failure.kind] += 1
            if not_run(line):
                result.not_run[line.failure.kind] += 1
            if spec.recorded is not None and (scenario.id, spec.seed) in spec.recorded:
                from harness.backends.replay import divergences

                found = divergences(spec.recorded[(scenario.id, spec.seed)], line)
                if found:
                    result.divergences[scenario.id] = found
            bar.update(1)
            bar.set_postfix_str(f"passed {result.passed}/{result.ran}")
            backend_in_a_row = backend_in_a_row + 1 if (
                line.failure is not None and line.failure.kind == "backend") else 0
            if spec.max_backend_failures and backend_in_a_row >= spec.max_backend_failures:
                result.stopped = (f"stopped after {backend_in_a_row} backend failures in a row, "
                                  f"{len(todo) - result.ran} scenarios not started "
                                  f"(last: {line.failure.message[:200]})")
                break
    finally:
        lines.close()
        bar.close()
