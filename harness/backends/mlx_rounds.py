"""What the MLX backend's two engines share: a round's outcome and the backend's totals.

The sequential engine (mlx_backend.py) and the batch engine (mlx_batch.py) both hand back a
``RoundRun``; both, and the sessions, count into the one ``ReuseStats`` the backend owns and
hands them, through its methods only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.backends.prompt_cache import Snapshot


@dataclass
class RoundRun:
    """What an engine returns for one round: the tokens and the cache that now holds
    prompt + generated, and when things happened."""

    generated: list[int]
    cache: list[Any]
    cached: int  # tokens reused, as reported in the round's timing
    snapshot: Snapshot | None
    started: float
    first_token_at: float
    finished: float
    peak_memory_gb: float


@dataclass
class ReuseStats:
    """Totals over a backend's life, for benchmarks and check-model: tokens prefilled and
    reused, rounds by cache path, time in the model. Read its fields; count with its methods."""

    prompt_tokens: int = 0
    cached_tokens: int = 0
    prefilled_tokens: int = 0  # includes shared prefixes prefilled once
    generated_tokens: int = 0
    rounds: int = 0
    # Time the model (prefill, decode, cache copies) kept the engine busy; the rest of a run's
    # wall time is spent outside the model.
    model_seconds: float = 0.0
    # Of which prefilling shared prefixes (mostly the first scenario's schemas and system
    # prompt: a one-time cost that batching cannot share out).
    prefix_seconds: float = 0.0
    fallbacks: dict[str, int] = field(default_factory=dict)

    def count(self, how: str) -> None:
        self.fallbacks[how] = self.fallbacks.get(how, 0) + 1

    def round_planned(self, prompt_tokens: int, cached: int, how: str) -> None:
        """A round starts from ``cached`` of its ``prompt_tokens`` by cache path ``how``."""
        self.count(how)
        self.rounds += 1
        self.prompt_tokens += prompt_tokens
        self.cached_tokens += cached
        self.prefilled_tokens += prompt_tokens - cached

    def prefix_prefilled(self, tokens: int, seconds: float) -> None:
        """A shared prefix was prefilled (once, before the round that starts from it)."""
        self.prefilled_tokens += tokens
        self.prefix_seconds += seconds

    def round_generated(self, tokens: int) -> None:
        self.generated_tokens += tokens

    def model_busy(self, seconds: float) -> None:
        self.model_seconds += seconds
