"""How fast the mlx backend runs scenarios, four ways side by side in one process.

On each tiny random model (qwen3: attention caches that can be trimmed; qwen3_5: recurrent
layers that cannot) the same scenarios run through the real agent loop four ways:

1. naive: every round prefills its whole prompt, one scenario at a time;
2. + rounds: each round continues the conversation's cache (or a snapshot);
3. + shared prefix: scenarios start from a snapshot of the prefix their first prompts share;
4. + batching: ``--batch`` scenarios at once through BatchGenerator, one loop thread each.

Printed per model and sampling: tokens prefilled per scenario, scenarios per second, peak
memory, each as a ratio to naive, and the share of wall time spent outside the model (loop,
tools, prompt rendering, tokenizing, parsing). Then, per model, decode alone (one sequence
through ``generate_step`` against ``--batch`` through BatchGenerator, at a short context and at a
first prompt's), and the batch efficiency: the harness's batched gain (way 4 over way 3, in
scenarios per second) divided by the engine's decode-only gain at a first prompt's context, in
the same run: the share of what batching can give that the harness keeps, also with the shared
prefix's one-time prefill (which no batch can share out) set aside. The repeats of the ways
alternate, so that each meets about the same load. Every way must write the same result lines
(timings aside), at temperature 0 and at the default sampling with a fixed seed.

A random model's text is noise and would end every turn after one round; a logit bias on
``<tool_call>`` and ``<|im_end|>`` makes it write (unreadable) call blocks and stop, so turns
run several rounds, as a real model's do. The bias is the same in every way (``BIASES``).

    python benchmarks/throughput.py [--scenarios 16] [--batch 8] [--arch qwen3_5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from orvena_bench.formats.catalog import load_catalog  # noqa: E402
from orvena_bench.formats.paths import catalog_path, scenarios_dir  # noqa: E402
from orvena_bench.formats.result import ResultLine  # noqa: E402
from orvena_bench.formats.scenario import Scenario  # noqa: E402
from harness.backends.mlx_backend import MlxBackend  # noqa: E402
from harness.loop import run_scenario  # noqa: E402
from harness.runner import load_scenarios  # noqa: E402
from harness.sampling import GREEDY, SamplingConfig  # noqa: E402
from harness.tiny_model import ARCHES, build_tiny_model  # noqa: E402

WAYS = [("naive", "none", 1), ("+ rounds", "rounds", 1), ("+ shared prefix", "shared", 1)]
# Logit biases on <tool_call> and <|im_end|> per tiny model, chosen by trying a few so that
# turns run several rounds of full length both greedy and sampled (each random model has
# its own logit scale).
BIASES = {"qwen3_5": (4.0, 0.8), "qwen3": (8.0, 1.0)}
# Cache lengths of the decode-only table: a short context, and that of a first prompt (the 38
# native schemas and the system prompt: about 6,700 tokens).
DECODE_CONTEXTS = (300, 6700)


def project_scenarios(limit: int) -> list[Scenario]:
    """Bench scenarios of the project (scenarios/bench.jsonl, else the per-language parts),
    evenly spaced over the set so that several languages and categories are in."""
    files = [scenarios_dir() / "bench.jsonl"]
    if not files[0].exists():
        files = sorted(scenarios_dir().glob("parts/*/bench.jsonl"))
    pool: list[Scenario] = []
    for f in files:
        pool.extend(load_scenarios(f)[0])
    if len(pool) <= limit:
        return pool
    return [pool[i * len(pool) // limit] for i in range(limit)]


def run_way(model: Path, arch: str, scenarios: list[Scenario], catalog, *, reuse: str,
            batch: int, sampling: SamplingConfig, args) -> dict:
    import mlx.core as mx

    from tokenizers import Tokenizer

    vocab = Tokenizer.from_file(str(model / "tokenizer.json"))
    call, end = BIASES[arch]
    bias = {vocab.token_to_id("<tool_call>"): call, vocab.token_to_id("<|im_end|>"): end}
    backend = MlxBackend(str(model), sampling=sampling, max_tokens=args.max_tokens,
                         reuse=reuse, batch=batch, logit_bias=bias)

    def one(scenario: Scenario) -> ResultLine:
        return run_scenario(scenario, backend, catalog, seed=args.seed,
                            max_rounds=args.max_rounds, model="tiny")

    mx.reset_peak_memory()
    started = time.perf_counter()
    if batch == 1:
        lines = [one(s) for s in scenarios]
    else:
        with ThreadPoolExecutor(batch) as pool:
            lines = list(pool.map(one, scenarios))
        backend.close()
    wall = time.perf_counter() - started
    failures = [f"{line.id}: {line.failure.message}" for line in lines
                if line.failure is not None and line.failure.kind != "round-limit"]
    return {
        "lines": {line.id: line.without_timings() for line in lines},
        "failures": failures,
        "prefilled": backend.stats.prefilled_tokens / len(scenarios),
        "rate": len(scenarios) / wall,
        "peak": mx.get_peak_memory() / 1e9,
        "outside": max(0.0, 1 - backend.stats.model_seconds / wall),
        "prefix_seconds": backend.stats.prefix_seconds,
        "rounds": sum(len(line.rounds) for line in lines) / len(scenarios),
        "wall": wall,
    }


def decode_rates(model: Path, context: int, batch: int, steps: int = 48,
                 pairs: int = 5) -> tuple[float, float]:
    """Tokens per second decoded after ``context`` tokens of cache (greedy, no stop): one
    sequence through ``generate_step`` (the sequential engine's path) and ``batch`` sequences
    through BatchGenerator (the batch engine's)."""
    import copy

    import mlx.core as mx
    import mlx_lm
    from mlx_lm.generate import BatchGenerator, generate_step
    from mlx_lm.models.cache import make_prompt_cache

    net, _ = mlx_lm.load(str(model))
    cache = make_prompt_cache(net)
    tokens = [10 + i % 1000 for i in range(context)]
    for i in range(0, context, 2048):
        net(mx.array(tokens[i:i + 2048])[None], cache=cache)
        mx.eval([c.state for c in cache])

    def sequential() -> float:
        produced, first = 0, None
        for _ in generate_step(mx.array([5, 6]), net, max_tokens=steps,
                               prompt_cache=copy.deepcopy(cache)):
            first = first or time.perf_counter()
            produced += 1
        return (produced - 1) / (time.perf_counter() - first)

    def batched() -> float:
        generator = BatchGenerator(net, max_tokens=steps, stop_tokens=[[-1]],
                                   completion_batch_size=batch, prefill_batch_size=batch)
        generator.insert([[5 + j, 6] for j in range(batch)],
                         caches=[copy.deepcopy(cache) for _ in range(batch)])
        produced, first, finished = 0, None, 0
        while finished < batch:
            _, responses = generator.next()
            if responses and first is None:
                first = time.perf_counter()
            produced += len(responses)
            finished += sum(r.finish_reason is not None for r in responses)
        generator.close()
        return (produced - batch) / (time.perf_counter() - first)

    # Alternated, ``pairs`` of each, the fastest of each kept: a single pair is at the mercy of
    # whatever else the machine did during one of them (three were not enough on a loaded
    # machine: a batch-8 figure fell to a fifth of its usual).
    runs = [(sequential(), batched()) for _ in range(pairs)]
    return max(r[0] for r in runs), max(r[1] for r in runs)


def warm_up(scenarios: list[Scenario], catalog) -> None:
    """Pay the process's one-time costs before any way is timed: the connections' fixtures
    (their schemas are checked when loaded), the CLDR data of each language, the loop's imports.
    A pass of the reference agent through the loop touches all of them, and no model."""
    from harness.backends.reference import ReferenceBackend

    reference = ReferenceBackend()
    for scenario in scenarios:
        run_scenario(scenario, reference, catalog, model="warm-up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arch", choices=ARCHES, action="append",
                        help="tiny model(s) to run (default: both)")
    parser.add_argument("--scenarios", type=int, default=16, help="scenarios per way (default 16)")
    parser.add_argument("--batch", type=int, default=8, help="batch size of the fourth way")
    parser.add_argument("--max-tokens", type=int, default=56,
                        help="tokens per round (default 56: the median round of the reference "
                             "agent over the bench set, in the tiny tokenizer's tokens)")
    parser.add_argument("--max-rounds", type=int, default=3,
                        help="rounds per turn (default 3; the reference agent's mean is 2.7)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sampling", choices=["both", "greedy", "seeded"], default="both",
                        help="temperature 0, the default sampling with --seed, or both (default)")
    parser.add_argument("--only-decode", action="store_true",
                        help="print only the decode-only table")
    parser.add_argument("--no-decode", dest="decode", action="store_false",
                        help="skip the decode-only table")
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs of each way but naive; the fastest counts (default 2)")
    args = parser.parse_args()

    catalog = load_catalog(catalog_path())
    scenarios = project_scenarios(args.scenarios)
    if not scenarios:
        sys.exit(f"no scenarios under {scenarios_dir()}")
    ways = WAYS + [(f"+ batch {args.batch}", "shared", args.batch)]
    if not args.only_decode:
        warm_up(scenarios, catalog)
    if not args.only_decode:
        print(f"{len(scenarios)} scenarios ({len({s.language for s in scenarios})} languages), "
              f"max {args.max_rounds} rounds of {args.max_tokens} tokens, seed {args.seed}\n")
    all_identical = True
    with tempfile.TemporaryDirectory() as tmp:
        for arch in args.arch or list(ARCHES):
            model = build_tiny_model(Path(tmp) / arch, arch)
            gains: dict[str, float] = {}  # sampling -> batched over sequential scenarios/s
            aside: dict[str, tuple[float, float, float]] = {}  # the same, shared prefix aside
            settings = [("temperature 0", GREEDY, "greedy"),
                        ("default sampling", SamplingConfig(), "seeded")]
            for label, sampling, key in settings:
                if args.sampling not in ("both", key) or args.only_decode:
                    continue
                # The repeats go round the ways (naive once), so that each way meets about the
                # same load on a shared machine rather than minutes of its own.
                runs: dict[str, list[dict]] = {name: [] for name, _, _ in ways}
                for repeat in range(max(1, args.repeat)):
                    for name, reuse, batch in ways:
                        if reuse != "none" or repeat == 0:
                            runs[name].append(run_way(model, arch, scenarios, catalog,
                                                      reuse=reuse, batch=batch,
                                                      sampling=sampling, args=args))
                results = []
                for name, way_runs in runs.items():
                    best = max(way_runs, key=lambda r: r["rate"])
                    # Every run must write the naive lines, not only the fastest.
                    best["same_all"] = all(r["lines"] == way_runs[0]["lines"] for r in way_runs)
                    results.append((name, best))
                naive = results[0][1]
                batched, single = results[-1][1], results[-2][1]
                gains[label] = batched["rate"] / single["rate"]
                # The shared prefix is prefilled once per run, before any round can start:
                # batching cannot share it out, and over 16 scenarios it weighs what it would
                # not over a whole bench.
                rest = [(r["wall"] - r["prefix_seconds"], r["prefix_seconds"])
                        for r in (single, batched)]
                aside[label] = (rest[0][0] / rest[1][0], rest[0][1], rest[1][1])
                print(f"### tiny {arch}, {label} "
                      f"({naive['rounds']:.1f} rounds per scenario)\n")
                print("| way | prefilled tokens / scenario | vs naive | scenarios / s | vs naive "
                      "| peak memory GB | outside the model | lines as naive |")
                print("|---|---:|---:|---:|---:|---:|---:|---|")
                for name, r in results:
                    same = r["lines"] == naive["lines"] and r["same_all"]
                    all_identical &= same
                    print(f"| {name} | {r['prefilled']:,.0f} | {r['prefilled'] / naive['prefilled']:.2f} "
                          f"| {r['rate']:.3f} | {r['rate'] / naive['rate']:.2f} | {r['peak']:.3f} "
                          f"| {r['outside']:.1%} | {'identical' if same else 'DIFFERENT'} |")
                    for failure in r["failures"]:
                        print(f"  harness/backend failure: {failure}")
                print()
            if args.decode or args.only_decode:
                print(f"### tiny {arch}: decode alone, one sequence against batch {args.batch}\n")
                print(f"| tokens of context | one sequence tokens / s | batch {args.batch} "
                      "tokens / s | ratio |")
                print("|---:|---:|---:|---:|")
                engine = {}
                for context in DECODE_CONTEXTS:
                    one, many = decode_rates(model, context, args.batch)
                    engine[context] = many / one
                    print(f"| {context:,} | {one:.0f} | {many:.0f} | {many / one:.2f} |")
                print()
                # Rounds decode after a first prompt's worth of cache: the engine's gain there is
                # what batching can give the harness.
                for label, gain in gains.items():
                    ceiling = engine[DECODE_CONTEXTS[-1]]
                    print(f"batch efficiency, tiny {arch}, {label}: the harness runs {gain:.2f}x "
                          f"the scenarios/s at batch {args.batch}, the engine decodes {ceiling:.2f}x "
                          f"at {DECODE_CONTEXTS[-1]:,} tokens: {gain / ceiling:.2f} of its gain kept")
                    kept, one, many = aside[label]
                    print(f"  the shared prefix's one-time prefill set aside ({one:.1f} s of the "
                          f"one-at-a-time run, {many:.1f} s of the batched one): {kept:.2f}x, "
                          f"{kept / ceiling:.2f} of the engine's gain")
                if gains:
                    print()
    if not args.only_decode:
        print("all ways wrote identical lines" if all_identical else "LINES DIFFER between ways")
    sys.exit(0 if all_identical else 1)


if __name__ == "__main__":
    main()
