"""Seeded sampling, reproducible per scenario.

A scenario's tokens must depend only on (model, scenario, seed, flags): not on which scenarios
ran before it, nor on which ran beside it in a batch. mlx-lm's samplers draw from the global
``mx.random`` state, which every sequence of a process shares, so this module gives each draw
its own key instead: the key of token ``i`` of round ``r`` is derived from (run seed, scenario
id, r, i). A cached, a fresh and a batched run of the same scenario draw the same numbers, even
though they call the sampler a different number of times (generation steps look one token
ahead and throw the extra draw away).

Defaults. The card's models ran "with some sampling": two seeds of the same model give different
results, so temperature is above 0. The defaults are the values Qwen publishes for its models in
non-thinking mode, which is how the bench runs them: temperature 0.7, top-p 0.8, top-k 20,
min-p 0. Penalties are off: a presence penalty punishes the repeated keys and punctuation that
tool-call JSON is made of. ``temperature=0`` is greedy decoding (the seed then changes nothing).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class SamplingConfig:
    temperature: float = 0.7
    top_p: float = 0.8
    top_k: int = 20
    min_p: float = 0.0

    def __post_init__(self) -> None:
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            raise ValueError(f"top_k must be >= 0, got {self.top_k}")
        if not 0 <= self.min_p <= 1:
            raise ValueError(f"min_p must be in [0, 1], got {self.min_p}")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0

    def describe(self) -> dict[str, Any]:
        return asdict(self)


GREEDY = SamplingConfig(temperature=0.0)


def round_seed(seed: int, scenario_id: str, round_index: int) -> int:
    """A stable 63-bit number for one round of one scenario in a run (a hash, so that it does
    not change between processes or Python versions)."""
    digest = hashlib.sha256(f"{seed}\x00{scenario_id}\x00{round_index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class KeyedSampler:
    """A sampler for ``generate_step`` and ``BatchGenerator``: log-probabilities of shape
    (1, vocab) in, one token out. Draw ``i`` uses the key ``base + i``."""

    def __init__(self, config: SamplingConfig, base: int):
        self.config = config
        self.base = base
        self.draws = 0

    def __call__(self, logprobs):
        import mlx.core as mx
        from mlx_lm.sample_utils import apply_min_p, apply_top_k, apply_top_p

        c = self.config
        if c.greedy:
            return mx.argmax(logprobs, axis=-1)
        key = mx.random.key((self.base + self.draws) % (1 << 63))
        self.draws += 1
        # The same filters, in the same order, as mlx-lm's make_sampler.
        if 0 < c.top_p < 1:
            logprobs = apply_top_p(logprobs, c.top_p)
        if c.min_p > 0:
            logprobs = apply_min_p(logprobs, c.min_p)
        if 0 < c.top_k < logprobs.shape[-1]:
            logprobs = apply_top_k(logprobs, c.top_k)
        return mx.random.categorical(logprobs * (1.0 / c.temperature), key=key)


# Greedy decoding draws nothing, so every round can share one sampler; BatchGenerator then takes
# the argmax of the whole batch in one call instead of one call per sequence.
_GREEDY_SAMPLER = KeyedSampler(GREEDY, 0)


def round_sampler(config: SamplingConfig, seed: int, scenario_id: str,
                  round_index: int) -> KeyedSampler:
    """The sampler of one round: a fresh key per round, so that a round's draws do not depend
    on how many draws earlier rounds made."""
    if config.greedy:
        return _GREEDY_SAMPLER
    return KeyedSampler(config, round_seed(seed, scenario_id, round_index))
