"""The ``mlx`` backend: an mlx-lm model in this process.

Each round renders the whole conversation with the model's own chat template (``tools=``,
``add_generation_prompt=True`` and ``enable_thinking`` passed explicitly: mlx-lm's wrapper turns
thinking on when the argument is missing), generates with the scenario's keyed sampler and
splits the text with mlx-lm's tool parser.

Each token is prefilled once: round to round the conversation's cache is kept (cut back, or
restarted from a snapshot, when the re-rendered history differs from what was generated), and the
prefix every scenario's first prompt shares is prefilled once per run. How and why:
docs/backends.md, "Prefilling each token once".

None of this changes a token: the prompt is always the template's rendering of the messages, and
the sampler's keys depend on the scenario, round and draw only (harness/sampling.py).
"""

from __future__ import annotations

import copy
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from orvena_bench.formats.result import RoundTiming
from harness.backend import Generation, SessionContext
from harness.backends.chat_side import ChatSide, local_path
from harness.backends.mlx_batch import BatchEngine
from harness.backends.mlx_rounds import ReuseStats, RoundRun
from harness.backends.prompt_cache import Plan, SharedPrefixes, Snapshot, common_prefix
from harness.backends.prompt_cache import Reuse as ReuseOptions
from harness.backends.prompt_cache import plan_shared_prefix, plan_start, snapshot_at_end
from harness.backends.prompt_tokens import Encoded, PromptEncoder
from harness.sampling import SamplingConfig, round_sampler
from harness.toolcalls import parse_text, parser_module

Reuse = Literal["none", "rounds", "shared"]
REUSE_MODES: tuple[Reuse, ...] = ("none", "rounds", "shared")

# Default round limits on generated tokens: a tool call with a long argument (an email body)
# fits in 1024; thinking models need room to reason before they call.
MAX_TOKENS = 1024
MAX_TOKENS_THINKING = 4096
# Snapshots a session keeps (the newest): a fallback needs the end of the previous prompt;
# one more covers a model whose text diverges twice in a row.
SESSION_SNAPSHOTS = 2


def _revision(path: Path) -> str | None:
    """The commit of a Hugging Face cache snapshot (…/snapshots/<commit>), else None."""
    return path.name if path.parent.name == "snapshots" else None


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


class MlxBackend:
    name = "mlx"

    def __init__(self, model: str, *, tool_format: str | None = None, thinking: bool = False,
                 sampling: SamplingConfig | None = None, max_tokens: int | None = None,
                 reuse: Reuse = "shared", prefill_step_size: int = 2048, batch: int = 1,
                 logit_bias: dict[int, float] | None = None):
        import mlx_lm

        self.options = ReuseOptions.of(reuse)
        if tool_format is not None:
            parser_module(tool_format)  # fail early on an unknown name
        tokenizer_config = {"tool_parser_type": tool_format} if tool_format else None
        self.model_name = str(model)
        self.model, self.tokenizer, self.config = mlx_lm.load(
            self.model_name, tokenizer_config=tokenizer_config, return_config=True)
        self.path = local_path(self.model_name)  # already local after load: no download
        self.chat = ChatSide(self.tokenizer, tool_format=tool_format, thinking=thinking,
                             name=self.model_name)
        self.tool_format = self.chat.tool_format
        # The last scenario's first prompt, which the next one's shares its tool schemas with.
        self._last_first: Encoded | None = None
        self.thinking = thinking
        # Whether generated text starts inside a think block (a replay parses it so); rendering
        # it also compiles the template before the run starts.
        self.starts_in_reasoning = self.ends_in_reasoning(
            self.render([{"role": "user", "content": "?"}], []))
        self.sampling = sampling or SamplingConfig()
        self.max_tokens = max_tokens or (MAX_TOKENS_THINKING if thinking else MAX_TOKENS)
        self.reuse: Reuse = reuse
        self.prefill_step_size = prefill_step_size
        # Added to the logits of these token ids at every step (mlx-lm's logit bias); the
        # throughput benchmark uses it to make a random model write call blocks.
        self.logit_bias = dict(logit_bias or {})
        from mlx_lm.sample_utils import make_logits_processors

        self.logits_processors = make_logits_processors(logit_bias=self.logit_bias or None)
        self.stats = ReuseStats()
        self.prefixes = SharedPrefixes()
        self._last_first_prompt: tuple[int, ...] = ()
        if batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        self.batch = batch
        self.engine: Any = SequentialEngine(self) if batch == 1 else BatchEngine(self, batch)

    def close(self) -> None:
        """Stop the batch engine's thread, if any."""
        close = getattr(self.engine, "close", None)
        if close:
            close()

    # -- provenance -------------------------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "model": self.model_name,
            "path": str(self.path),
            "revision": _revision(self.path),
            "modelType": self.config.get("model_type"),
            "quantization": self.config.get("quantization"),
            "chatTemplateSha256": self.chat.template_sha256,
            "toolFormat": self.tool_format,
            # Whether generated text starts inside a think block (a replay parses it so).
            "startsInReasoning": self.starts_in_reasoning,
            "eosTokenIds": sorted(self.tokenizer.eos_token_ids),
            "thinking": self.thinking,
            "sampling": self.sampling.describe(),
            "maxTokens": self.max_tokens,
            "cacheReuse": self.reuse,
            "batch": self.batch,
            "logitBias": {str(k): v for k, v in self.logit_bias.items()},
            "versions": {p: _version(p) for p in ("mlx", "mlx-lm", "transformers")},
        }

    def open(self, context: SessionContext) -> "MlxSession":
        return MlxSession(self, context, self.stats)

    # -- prompts ----------------------------------------------------------------------------

    def render(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
               encoder: PromptEncoder | None = None) -> list[int]:
        """The prompt's tokens; an encoder reuses the tokens of the conversation's last prompt."""
        return self.chat.render(messages, tools, encoder)

    def encoder(self) -> PromptEncoder:
        return self.chat.encoder(start=self._last_first)

    def first_prompt_rendered(self, encoded: Encoded | None) -> None:
        """A scenario's first prompt: the next scenario's encoder starts from its tokens."""
        self._last_first = encoded

    def ends_in_reasoning(self, prompt: list[int]) -> bool:
        """Whether the prompt leaves a think block open (Qwen3.5 with thinking on), so the
        model's text starts as reasoning."""
        return self.chat.ends_in_reasoning(prompt)

    # -- shared prefixes ----------------------------------------------------------------------

    def shared_snapshots(self) -> list[Snapshot]:
        return list(self.prefixes)

    def static_prefix(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                      prompt: list[int]) -> int:
        """The tokens of a first prompt that come before anything its scenario wrote: the
        common prefix of the prompt and of the same conversation with the first non-system
        message's text replaced. With the phone context in the first user message (harness/
        prompt.py) that is the tool schemas and the system prompt, in either template layout,
        so the run's first scenario already snapshots what every later one shares. 0 when a
        kept prefix already starts this prompt (nothing to learn: no second render)."""
        if self.prefixes.longest_start(prompt) is not None:
            return 0
        at = next((i for i, m in enumerate(messages) if m.get("role") != "system"), None)
        if at is None:
            return 0
        probe = [*messages[:at], {**messages[at], "content": "\u2063"}, *messages[at + 1:]]
        try:
            return common_prefix(self.render(probe, tools), prompt)
        except Exception:  # noqa: BLE001 - a template that rejects the probe only loses the hint
            return 0

    def learn_shared_prefix(self, prompt: list[int], first: bool, static: int = 0) -> int:
        """Keeps a snapshot of the longest prefix this prompt shares with its static part
        (``static``, from ``static_prefix``), with the previous scenario's first prompt
        (``first``: this is a first prompt) or with a kept prefix it leaves (tools loaded in a
        round are appended after the shared schemas: the schemas are a prefix worth keeping),
        unless a kept prefix this prompt starts with covers as much. A new prefix is prefilled
        from the longest kept one it extends; the round then starts from it, so nothing is
        prefilled twice. Returns the tokens prefilled here."""
        previous = None
        if first:
            previous, self._last_first_prompt = self._last_first_prompt, tuple(prompt)
        plan = plan_shared_prefix(prompt, self.prefixes.kept, static=static,
                                  previous_first=previous)
        if plan is None:
            return 0
        from mlx_lm.models.cache import make_prompt_cache

        n, base = plan.tokens, plan.base
        started = time.perf_counter()
        start = len(base.tokens) if base else 0
        cache = copy.deepcopy(base.cache) if base else make_prompt_cache(self.model)
        self._prefill(cache, prompt[start:n])
        self.prefixes.add(Snapshot(tuple(prompt[:n]), cache))
        self.stats.prefix_prefilled(n - start, time.perf_counter() - started)
        return n - start

    def _prefill(self, cache: list[Any], tokens: list[int]) -> None:
        import mlx.core as mx
        from mlx_lm.generate import generation_stream

        with mx.stream(generation_stream):
            for i in range(0, len(tokens), self.prefill_step_size):
                self.model(mx.array(tokens[i:i + self.prefill_step_size])[None], cache=cache)
                mx.eval([c.state for c in cache])


class ForceTokens:
    """A logits processor that leaves only the next of ``tokens`` possible, whatever the sampler:
    the round generates exactly them (then the last one again, were it not a stop token)."""

    def __init__(self, tokens: list[int]):
        self.tokens, self.at = tokens, 0

    def __call__(self, history: Any, logits: Any) -> Any:
        import mlx.core as mx

        target = self.tokens[min(self.at, len(self.tokens) - 1)]
        self.at += 1
        keep = mx.arange(logits.shape[-1]) == target
        return mx.where(keep, logits, mx.array(-mx.inf, dtype=logits.dtype))


class SequentialEngine:
    """One sequence at a time in the caller's thread, through ``generate_step``."""

    def __init__(self, backend: MlxBackend):
        self.backend = backend

    def run(self, session: "MlxSession", prompt: list[int], sampler) -> RoundRun:
        import mlx.core as mx
        from mlx_lm.generate import generate_step

        b = self.backend
        started = time.perf_counter()
        mx.reset_peak_memory()
        cache, cached, reported, want_snapshot = session.plan(prompt)
        snapshot: Snapshot | None = None

        def at_progress(done: int, total: int) -> None:
            nonlocal snapshot
            # generate_step prefills all but the last token, then calls back: the cache then
            # holds exactly prompt[:-1], the point the next round's prompt may branch from.
            if want_snapshot and snapshot is None and done == total - 1:
                snapshot = Snapshot(tuple(prompt[:-1]), copy.deepcopy(cache))

        generated: list[int] = []
        first_token_at = None
        eos = b.tokenizer.eos_token_ids
        steps = generate_step(
            mx.array(prompt[cached:]), b.model, max_tokens=b.max_tokens, sampler=sampler,
            prompt_cache=cache, prefill_step_size=b.prefill_step_size,
            logits_processors=session.processors(), prompt_progress_callback=at_progress)
        for token, _ in steps:
            if first_token_at is None:
                first_token_at = time.perf_counter()
            generated.append(token)
            if token in eos:
                break
        steps.close()
        finished = time.perf_counter()
        b.stats.model_busy(finished - started)
        # generate_step has run every yielded token (the end-of-turn one too) through the
        # model, so the cache now holds the prompt and all generated tokens.
        return RoundRun(generated, cache, reported, snapshot, started,
                        first_token_at or finished, finished, mx.get_peak_memory() / 1e9)


class MlxSession:
    """One scenario's conversation: its live cache and its snapshots."""

    def __init__(self, backend: MlxBackend, context: SessionContext, stats: ReuseStats):
        self.backend = backend
        self.context = context
        self.stats = stats  # the backend's totals, which this session counts rounds into
        self.round = 0
        self.cache: list[Any] | None = None
        self.tokens: list[int] = []  # what self.cache holds
        self.snapshots: list[Snapshot] = []
        self.encoder = backend.encoder()
        self._learned = -1  # the last round whose prompt went to learn_shared_prefix
        self._prefix_prefilled = 0  # tokens that prefilled, reported with the round
        self._static = 0  # the first prompt's static prefix (MlxBackend.static_prefix)
        self._forced: list[int] | None = None  # the next round's tokens, when forced

    def force(self, tokens: list[int]) -> None:
        """Make the next round generate exactly these tokens (check-model --generate: a
        template's own turn through the real generation path)."""
        self._forced = list(tokens)

    def processors(self, backend: bool = True) -> list[Any]:
        """This round's logits processors: the backend's (unless ``backend`` is False: the batch
        engine adds its logit bias to the whole batch at once), and the forcing one if any
        (taken once)."""
        forced, self._forced = self._forced, None
        extra = [ForceTokens(forced)] if forced else []
        return [*(self.backend.logits_processors if backend else []), *extra]

    def close(self) -> None:
        self.cache, self.tokens, self.snapshots = None, [], []

    def plan(self, prompt: list[int]) -> tuple[list[Any], int, int, bool]:
        """Where this round starts: a cache holding ``prompt[:cached]``, ``cached`` itself, the
        tokens to report as reused, and whether to snapshot the end of this prompt. Runs in
        the engine's thread (it touches MLX arrays)."""
        from mlx_lm.models.cache import can_trim_prompt_cache

        self.learn(prompt)
        prefilled_here, self._prefix_prefilled = self._prefix_prefilled, 0
        cache, cached, how = self._start(prompt)
        self.stats.round_planned(len(prompt), cached, how)
        # Shared-prefix tokens prefilled in this very round were not reused: report them as
        # prefilled.
        reported = max(cached - prefilled_here, 0)
        return (cache, cached, reported,
                snapshot_at_end(self.backend.options, can_trim_prompt_cache(cache)))

    def learn(self, prompt: list[int]) -> None:
        """Offer this round's prompt to the backend's shared prefixes (once per round). The
        batch engine calls it for every round that arrives together before planning any, so
        that the first scenarios of a run already start from their common prefix."""
        if self.backend.options.shared and self._learned != self.round:
            self._learned = self.round
            self._prefix_prefilled = self.backend.learn_shared_prefix(
                prompt, self.round == 0, self._static if self.round == 0 else 0)

    def _start(self, prompt: list[int]) -> tuple[list[Any], int, str]:
        """A cache holding ``prompt[:n]`` for the largest n this session can offer, n < len:
        the last prompt token is always run, for its logits."""
        from mlx_lm.models.cache import can_trim_prompt_cache, make_prompt_cache
        from mlx_lm.models.cache import trim_prompt_cache

        b = self.backend
        live = self.tokens if self.cache is not None else None
        plan: Plan = plan_start(
            prompt, b.options, live=live,
            live_trimmable=live is not None and can_trim_prompt_cache(self.cache),
            snapshots=self.snapshots, shared=b.shared_snapshots())
        if plan.how == "append":
            return self.cache, plan.cached, plan.how
        if plan.how == "trim":
            trim_prompt_cache(self.cache, plan.trim)
            return self.cache, plan.cached, plan.how
        if plan.snapshot is not None:
            if plan.shared:
                b.prefixes.touch(plan.snapshot)
            return copy.deepcopy(plan.snapshot.cache), plan.cached, plan.how
        return make_prompt_cache(b.model), 0, plan.how

    def keep(self, prompt: list[int], run: RoundRun) -> None:
        """The round's cache becomes the live one (engine thread)."""
        self.cache, self.tokens = run.cache, prompt + run.generated
        if run.snapshot is not None:
            self.snapshots = (self.snapshots + [run.snapshot])[-SESSION_SNAPSHOTS:]
        self.stats.round_generated(len(run.generated))

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        b = self.backend
        prompt = b.render(messages, tools, self.encoder)
        if self.round == 0:
            b.first_prompt_rendered(self.encoder.last)
            if b.options.shared:
                self._static = b.static_prefix(messages, tools, prompt)
        sampler = round_sampler(b.sampling, self.context.seed, self.context.scenario.id,
                                self.round)
        run = b.engine.run(self, prompt, sampler)
        self.round += 1
        self.keep(prompt, run)
        eos = b.tokenizer.eos_token_ids
        generated = run.generated
        text = b.tokenizer.decode(generated[:-1] if generated and generated[-1] in eos
                                  else generated)
        out = parse_text(text, b.tool_format, tools, in_reasoning=b.ends_in_reasoning(prompt))
        out.timing = RoundTiming(
            promptTokens=len(prompt), cachedTokens=run.cached, generatedTokens=len(generated),
            prefillSeconds=round(run.first_token_at - run.started, 6),
            decodeSeconds=round(run.finished - run.first_token_at, 6),
            peakMemoryGB=round(run.peak_memory_gb, 6))
        return out
