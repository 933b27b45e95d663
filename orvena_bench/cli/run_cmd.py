"""``orvena-bench run``: a backend over the scenario sets, recorded as the card's result files,
scored, with the summary tables at the end."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from orvena_bench.cli.selection import add_selection_arguments, selected_ids
from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.paths import catalog_path, scenarios_dir
from harness.backends import BACKENDS, BackendOptions, add_model_arguments, create, model_extra
from harness.distributed import (Ranks, gathered_lines, join_group, rank_out, share_payload, stop_on_term,
                                 write_gathered)
from harness.loop import DEFAULT_MAX_ROUNDS
from harness.phone_check import check_selected
from harness.manifest import add_run, read_manifest
from harness.recording import last_per_key, line_key, read_results, results_path
from harness.runner import SETS, RunSpec, Selection, load_scenarios, parse_shard, run_set, set_names, short_name


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run a model over scenario sets and record its result lines",
                       description="Run a model over scenario sets. Each set writes "
                                   "<out>/<set>/<model>.jsonl, one line per (scenario, seed).")
    p.add_argument("--model", help="local path or Hugging Face id of the model (mlx, openai)")
    p.add_argument("--backend", choices=sorted(BACKENDS),
                   help="model backend (default: mlx; replay when --replay is given)")
    p.add_argument("--set", choices=[*SETS, "all"], default=None,
                   help="scenario set (default: bench; a replay defaults to its file's set)")
    p.add_argument("--scenarios", action="append", type=Path, metavar="FILE",
                   help="scenario file (repeatable; overrides --set; its name is the set's)")
    add_selection_arguments(p)
    p.add_argument("--seed", type=int, default=7, help="the run's seed (default 7)")
    p.add_argument("--out", type=Path, default=Path("results"), help="results folder (default results/)")
    p.add_argument("--name", help="model name in result files (default: derived from --model)")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="skip (id, seed) pairs already recorded, but run again those whose "
                            "turn failed outside the model (backend, harness, scenario)")
    again.add_argument("--rerun", action="store_true",
                       help="run recorded (id, seed) pairs again and replace their lines")
    p.add_argument("--shard", help="run shard i of n (i/n); join shard files with `merge`")
    p.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS,
                   help=f"round limit per turn (default {DEFAULT_MAX_ROUNDS})")
    p.add_argument("--thinking", action="store_true", help="turn the model's thinking on")
    p.add_argument("--tool-format", help="force mlx-lm's tool parser (json_tools, qwen3_coder, ...)")
    p.add_argument("--replay", type=Path, metavar="FILE", help="result file to replay")
    p.add_argument("--base-url", help="OpenAI-compatible server (openai backend)")
    p.add_argument("--script", type=Path, metavar="FILE", help="texts to play (scripted backend)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--max-backend-failures", type=int, default=5, metavar="N",
                   help="stop after N backend failures in a row, e.g. a dead server (default 5; "
                        "0 never stops)")
    add_model_arguments(p)
    p.set_defaults(func=run)


def _files(args: argparse.Namespace) -> list[tuple[str, Path]]:
    if args.scenarios:
        return [(f.stem, f) for f in args.scenarios]
    choice = args.set
    if choice is None:
        parent = args.replay.parent.name if args.replay else ""
        choice = parent if parent in SETS else "bench"
    return [(name, scenarios_dir() / f"{name}.jsonl") for name in set_names(choice)]


def _model_name(args: argparse.Namespace, backend_name: str) -> str:
    if args.name:
        return short_name(args.name)
    if backend_name == "replay":
        return f"{args.replay.stem}-replay"
    if args.model:
        return short_name(args.model)
    if backend_name in ("reference", "scripted"):
        return backend_name
    if backend_name == "apple":
        return "apple-on-device"  # the card's name for its third column
    raise FormatError("--model is required (or --name)")


def run(args: argparse.Namespace) -> int:
    backend_name = args.backend or ("replay" if args.replay else "mlx")
    if args.replay and backend_name != "replay":
        raise FormatError("--replay needs --backend replay (or no --backend)")
    if args.max_rounds < 1:
        raise FormatError("--max-rounds must be at least 1")
    if args.batch < 1:
        raise FormatError("--batch must be at least 1")
    shard = parse_shard(args.shard) if args.shard else None
    ranks = join_group()  # under mlx.launch: this rank's share, gathered by rank 0 at the end
    if ranks is not None and shard is not None:
        raise FormatError("--shard and a distributed launch do not mix: the launch gives each "
                          "rank its share")
    if ranks is not None:
        stop_on_term(ranks, args.out)
    try:
        files, selection, spec = _prepare(args, backend_name, shard, ranks)
        status, written = _run_sets(files, selection, spec, backend_name)
    except (FormatError, OSError) as e:
        if ranks is None:
            raise
        return finish_launch(ranks, args, [], None, "", failed=e)
    if ranks is not None:
        return finish_launch(ranks, args, files, selection, spec.model, status=status)
    if not written:
        print("orvena-bench run: no scenario matched the selection", file=sys.stderr)
        return 1
    write_tables(args.out, [path for _, path in files])
    return status


def _prepare(args: argparse.Namespace, backend_name: str, shard, ranks: Ranks | None
             ) -> tuple[list[tuple[str, Path]], Selection, RunSpec]:
    """The sets, the selection and the run (its backend loaded) that the flags ask for."""
    model = _model_name(args, backend_name)
    files = _files(args)
    catalog = load_catalog(catalog_path())

    recorded = None
    ids = selected_ids(args)
    if backend_name == "replay":
        recorded = {line_key(line): line for line in last_per_key(read_results(args.replay))}
        if not recorded:
            raise FormatError("no result lines to replay", file=str(args.replay))
        replayable = {i for (i, seed) in recorded if seed == args.seed}
        ids = ids & replayable if ids else frozenset(replayable)
        if not ids:
            raise FormatError(f"no recorded lines for seed {args.seed}", file=str(args.replay))

    backend = create(backend_name, BackendOptions(
        model=args.model, tool_format=args.tool_format, thinking=args.thinking,
        base_url=args.base_url, replay=str(args.replay) if args.replay else None,
        script=str(args.script) if args.script else None, extra=model_extra(backend_name, args)))
    flags = {k: v for k, v in vars(args).items() if k != "func"}
    flags["backend"] = backend_name
    spec = RunSpec(backend=backend, catalog=catalog, model=model, seed=args.seed,
                   max_rounds=args.max_rounds, out=rank_out(args.out) if ranks else args.out,
                   resume=args.resume, rerun=args.rerun,
                   shard=ranks.shard if ranks else shard, flags=flags, recorded=recorded,
                   progress=not args.no_progress,
                   workers=args.batch, max_backend_failures=max(0, args.max_backend_failures))
    selection = Selection(ids=ids, category=args.category, language=args.language,
                          limit=args.limit, shard=shard, share=ranks.shard if ranks else None)

    return files, selection, spec


def _run_sets(files: list[tuple[str, Path]], selection: Selection, spec: RunSpec,
              backend_name: str) -> tuple[int, list[Path]]:
    """Run each selected set into its result file; (exit status so far, files written)."""
    check_selected(files, selection.apply)  # every bad phone at once, before the first turn
    status = 0
    written = []
    for set_name, path in files:
        scenarios, errors = load_scenarios(path)
        for e in errors:
            print(f"orvena-bench run: skipped: {e}", file=sys.stderr)
        status = 1 if errors else status
        chosen = selection.apply(scenarios)
        if not chosen:
            continue
        result = run_set(set_name, path, chosen, spec)
        written.append(result.path)
        failures = ", ".join(f"{k} {v}" for k, v in sorted(result.failures.items())) or "none"
        retried = f" ({result.retried} of them run again" if result.retried else ""
        if result.rerun_finished:
            retried += f", {result.rerun_finished} owed by a stopped --rerun"
        retried += ")" if result.retried else ""
        print(f"{set_name}: {result.passed}/{result.ran} passed{retried}, {result.skipped} already "
              f"recorded, failed turns: {failures} -> {result.path}")
        if result.not_run:
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(result.not_run.items()))
            print(f"orvena-bench run: {set_name}: {sum(result.not_run.values())} scenarios not run "
                  f"(failed outside the model: {kinds}); fix the cause and use --resume to run "
                  "them again", file=sys.stderr)
            status = 1
        if result.stopped:
            print(f"orvena-bench run: {set_name}: {result.stopped}; later sets not started",
                  file=sys.stderr)
            status = 1
            break
        if result.dropped:
            print(f"{set_name}: replaced {result.dropped} earlier lines of the rerun scenarios")
        for sid, found in result.divergences.items():
            print(f"replay diverges: {sid}: " + "; ".join(found))
        if backend_name == "replay":
            print(f"replay: {result.ran - len(result.divergences)}/{result.ran} lines reproduced exactly")
    return status, written


def write_tables(out: Path, scenario_files: list[Path]) -> None:
    """The summary CSVs over every result file under ``out``, read as every command reads them
    (``formats.result_files``), from the verdicts recorded in the lines."""
    from orvena_bench.reports.csvfiles import write_tables_of

    for path in write_tables_of(out, scenario_files):
        print(f"wrote {path}")


def finish_launch(ranks: Ranks, args: argparse.Namespace, files: list[tuple[str, Path]],
                  selection: Selection | None, model: str, *, status: int = 0,
                  failed: BaseException | None = None) -> int:
    """Every rank, after its share: say whether it failed, then (when none did) send its lines to
    rank 0, which writes each set's one results file and the tables (harness/distributed.py)."""
    if failed is not None:
        print(f"orvena-bench run: rank {ranks.rank} of {ranks.size}: {failed}", file=sys.stderr)
    stopped = ranks.failed_ranks(failed is not None)
    if stopped:
        print(f"orvena-bench run: rank {', '.join(map(str, stopped))} of {ranks.size} stopped; "
              f"every rank's lines are kept under {rank_out(args.out)}: run the same launch with "
              "--resume to go on", file=sys.stderr)
        return 1
    written = []
    for set_name, path in files:
        share = results_path(rank_out(args.out), set_name, model, ranks.shard)
        payloads = ranks.gather(share_payload(share))
        if not ranks.first or not any(payloads):
            continue
        scenarios, _ = load_scenarios(path)
        order = [s.id for s in selection.whole(scenarios)]
        target = results_path(args.out, set_name, model)
        count = write_gathered(target, gathered_lines(payloads), order)
        runs = read_manifest(share)
        if runs:
            add_run(target, {**runs[-1], "ranks": ranks.size})
        print(f"{set_name}: gathered {count} lines from {ranks.size} ranks -> {target}")
        written.append(target)
    if ranks.first and written:
        write_tables(args.out, [path for _, path in files])
    return status
