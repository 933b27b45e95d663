"""Batched rounds: several scenarios' rounds decoded together through mlx-lm's BatchGenerator.

Each scenario runs in its own thread (the loop is plain sequential code); its session hands
each round to this engine and waits. One engine thread owns every MLX array: it plans where
each round starts (the session's cache, a snapshot, the shared prefix), inserts the round into
the generator with its own cache, sampler and token limit, and steps the generator, which
decodes all active rounds together and prefills newly inserted ones beside them. A round that
finishes hands its cache back to its session; a new round takes its slot at once (continuous
batching).

Results do not depend on the batch: every round samples from its own keys
(harness/sampling.py), and the tests check that batched lines equal sequential ones.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.backends.mlx_rounds import RoundRun
from harness.backends.prompt_cache import Snapshot

if TYPE_CHECKING:  # for annotations only: mlx_backend imports this module
    from harness.backends.mlx_backend import MlxBackend, MlxSession


class _BiasedModel:
    """The model as BatchGenerator sees it, with the backend's logit bias added to a decode
    step's logits for the whole batch in one operation. As a logits processor the bias would
    run row by row (BatchGenerator slices, processes and concatenates each sequence's logits
    and keeps a token history for it), about a fifth of the CPU time of a decode step at a
    short context here; the values are the same (the same add on the same elements). Prefill
    logits are thrown away, so they are left as they are."""

    def __init__(self, model: Any, bias: dict[int, float]):
        import mlx.core as mx

        self.model = model
        self.indices = mx.array(list(bias))
        self.values = mx.array(list(bias.values()))

    def __call__(self, inputs: Any, cache: Any = None, **kwargs: Any) -> Any:
        logits = self.model(inputs, cache=cache, **kwargs)
        if inputs.shape[1] != 1:
            return logits
        return logits.at[..., self.indices].add(self.values)

    def __getattr__(self, name: str) -> Any:  # make_cache, layers, ...: the model's
        return getattr(self.model, name)


@dataclass
class _Round:
    session: "MlxSession"
    prompt: list[int]
    sampler: Any
    future: Future = field(default_factory=Future)
    cached: int = 0
    reported: int = 0
    want_snapshot: bool = False
    snapshot: Any = None
    generated: list[int] = field(default_factory=list)
    started: float = 0.0
    first_token_at: float | None = None


class BatchEngine:
    def __init__(self, backend: "MlxBackend", size: int, prefill_batch: int | None = None):
        self.backend = backend
        self.size = size
        self.prefill_batch = prefill_batch or size
        self._queue: queue.Queue[_Round | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        self._lock = threading.Lock()

    def run(self, session: "MlxSession", prompt: list[int], sampler) -> RoundRun:
        item = _Round(session, prompt, sampler, started=time.perf_counter())
        with self._lock:
            if self._thread is None:
                self._stopped.clear()
                self._thread = threading.Thread(target=self._serve, name="mlx-batch",
                                                 daemon=True)
                self._thread.start()
        self._queue.put(item)
        return item.future.result()

    def close(self) -> None:
        """End the engine's work; waiting rounds fail. The thread itself stays, idle."""
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            self._stopped.wait()

    # -- the engine thread --------------------------------------------------------------------

    def _serve(self) -> None:
        try:
            self._loop()
        finally:
            self._stopped.set()
            # Park instead of ending: mlx-lm generates on a thread-local MLX stream, and a
            # thread that used one and ended can abort the process at exit ("terminate called
            # without an active exception", seen here about one run in three).
            threading.Event().wait()

    def _loop(self) -> None:
        from mlx_lm.generate import BatchGenerator

        b = self.backend
        model = _BiasedModel(b.model, b.logit_bias) if b.logit_bias else b.model
        generator = BatchGenerator(
            model, max_tokens=b.max_tokens,
            stop_tokens=[[t] for t in sorted(b.tokenizer.eos_token_ids)],
            completion_batch_size=self.size, prefill_batch_size=self.prefill_batch,
            prefill_step_size=b.prefill_step_size)
        active: dict[int, _Round] = {}
        try:
            while True:
                # Wait only when nothing is running; otherwise take whatever has arrived.
                items = [self._queue.get()] if not active else []
                while True:
                    try:
                        items.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                if None in items:
                    for item in list(active.values()) + [i for i in items if i is not None]:
                        item.future.set_exception(RuntimeError("the batch engine was closed"))
                    return
                busy = time.perf_counter()
                for item in items:
                    try:
                        item.session.learn(item.prompt)
                    except Exception as e:  # noqa: BLE001 - fails that round, not the engine
                        item.future.set_exception(e)
                for item in items:
                    if not item.future.done():
                        self._insert(generator, item, active)
                if active:
                    self._step(generator, active)
                b.stats.model_busy(time.perf_counter() - busy)
        except BaseException as e:  # every waiting round must hear of it (re-raised below)
            for item in active.values():
                if not item.future.done():
                    item.future.set_exception(e)
            self._fail_queued(e)
            with self._lock:
                self._thread = None
            raise
        finally:
            generator.close()

    def _fail_queued(self, error: BaseException) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                item.future.set_exception(error)

    def _insert(self, generator, item: _Round, active: dict[int, _Round]) -> None:
        try:
            cache, item.cached, item.reported, item.want_snapshot = item.session.plan(item.prompt)
            rest = item.prompt[item.cached:]
            if item.want_snapshot and len(rest) == 1:
                # Nothing to prefill before the last token: the cache is already the snapshot.
                item.snapshot = Snapshot(tuple(item.prompt[:-1]), copy.deepcopy(cache))
            (uid,) = generator.insert([rest], caches=[cache], samplers=[item.sampler],
                                      logits_processors=[item.session.processors(backend=False)])
        except Exception as e:  # noqa: BLE001 - the round fails, the engine goes on
            item.future.set_exception(e)
            return
        active[uid] = item

    def _step(self, generator, active: dict[int, _Round]) -> None:
        import mlx.core as mx

        prompt_responses, generation_responses = generator.next()
        for r in prompt_responses:
            item = active.get(r.uid)
            # BatchGenerator prefills all but the last token as one segment; at its end the
            # sequence's cache holds exactly prompt[:-1].
            if (item is not None and item.want_snapshot and item.snapshot is None
                    and r.end_of_segment and not r.end_of_prompt):
                cache, _ = generator.extract_cache([r.uid])[r.uid]
                item.snapshot = Snapshot(tuple(item.prompt[:-1]), cache)
        now = time.perf_counter()
        for r in generation_responses:
            item = active[r.uid]
            if item.first_token_at is None:
                item.first_token_at = now
            item.generated.append(r.token)
            if r.finish_reason is not None:
                del active[r.uid]
                item.future.set_result(RoundRun(
                    item.generated, r.prompt_cache, item.reported, item.snapshot, item.started,
                    item.first_token_at, now, mx.get_peak_memory() / 1e9))
