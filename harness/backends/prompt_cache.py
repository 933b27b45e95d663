"""The MLX backend's prompt-cache policy: what is kept, and which kept cache a prompt starts from.

- A ``Snapshot`` is a cache that holds exactly its tokens; it is only ever copied.
- ``SharedPrefixes`` keeps the prefixes scenarios share (the tool schemas and system prompt;
  with Qwen3.5's layout also the native schemas alone, which a round after ``load_tools``
  starts from), least recently used first out, by bytes rather than by count: a prefix is
  worth what it saves, and a count let each scenario's first prompt push the native-schema
  prefix out after three scenarios (the round after ``load_tools`` then prefilled its whole
  prompt: 18-22% of a real-template run's prefill).
- ``worth_keeping`` says whether a new prefix adds enough to the kept one it extends: the part
  of the ``# This phone`` block two scenarios happen to share (40-80 tokens) is not worth a
  copy of the whole cache.
- ``Reuse`` is the ``--cache-reuse`` mode as plain options.

mlx-lm's ``LRUPromptCache`` (its server's) was considered: it keys caches by the tokens they
hold and also evicts by bytes, but it hands back the longest cache for a prompt and trims it;
the backend needs to choose what to store (a static prefix probed before the first round,
prefixes between scenarios) and copies of caches that cannot be trimmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Bytes of shared prefixes kept per backend. A Qwen3.5-4B first prompt (about 6,700 tokens) is
# about 0.25 GB; the tiny models' are a few MB.
SHARED_BYTES = 2 * 1024**3
# A new shared prefix must add this many tokens to the kept one it extends.
MIN_SHARED_TOKENS = 16
MIN_EXTENSION_TOKENS = 256


def common_prefix(a: list[int] | tuple[int, ...], b: list[int] | tuple[int, ...]) -> int:
    """Length of the common prefix; slices compare in C, so blocks first, then tokens."""
    if type(a) is not type(b):  # a list slice never equals a tuple slice
        a, b = list(a), list(b)
    n = min(len(a), len(b))
    i = 0
    for step in (1024, 64, 8, 1):
        while i + step <= n and a[i:i + step] == b[i:i + step]:
            i += step
    return i


def cache_bytes(cache: list[Any]) -> int:
    return sum(int(getattr(c, "nbytes", 0) or 0) for c in cache)


@dataclass
class Snapshot:
    """A cache that holds exactly ``tokens``; never used directly, only copied."""

    tokens: tuple[int, ...]
    cache: list[Any]
    used: int = 0  # when it was last copied (a counter of its store), for eviction

    def starts(self, prompt: list[int]) -> bool:
        """Whether the prompt starts with this snapshot's tokens."""
        return len(self.tokens) <= len(prompt) and tuple(prompt[:len(self.tokens)]) == self.tokens

    @property
    def nbytes(self) -> int:
        return cache_bytes(self.cache)


@dataclass(frozen=True)
class Reuse:
    """What a round may start from: its conversation's own cache and snapshots (``rounds``),
    and the prefixes every scenario shares (``shared``)."""

    rounds: bool = True
    shared: bool = True

    MODES = ("none", "rounds", "shared")

    @classmethod
    def of(cls, mode: str) -> "Reuse":
        if mode not in cls.MODES:
            raise ValueError(f"reuse must be one of {cls.MODES}, got {mode!r}")
        return cls(rounds=mode != "none", shared=mode == "shared")

    @property
    def mode(self) -> str:
        return "shared" if self.shared else "rounds" if self.rounds else "none"


def worth_keeping(n: int, base: Snapshot | None, *, first_only: bool) -> bool:
    """Whether a prefix of ``n`` tokens is worth a snapshot beside ``base``, the longest kept
    prefix it extends. One that only two first prompts share (``first_only``) must add
    ``MIN_EXTENSION_TOKENS``; any other ``MIN_SHARED_TOKENS``."""
    start = len(base.tokens) if base else 0
    return n >= start + (MIN_EXTENSION_TOKENS if first_only and base else MIN_SHARED_TOKENS)


class SharedPrefixes:
    """The kept shared prefixes of one backend, least recently used evicted past a byte budget
    (the newest is always kept)."""

    def __init__(self, max_bytes: int = SHARED_BYTES):
        self.max_bytes = max_bytes
        self.kept: list[Snapshot] = []
        self._clock = 0

    def __iter__(self):
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)

    def touch(self, snapshot: Snapshot) -> None:
        self._clock += 1
        snapshot.used = self._clock

    def longest_start(self, prompt: list[int]) -> Snapshot | None:
        """The longest kept prefix the prompt starts with."""
        return max((s for s in self.kept if s.starts(prompt)), key=lambda s: len(s.tokens),
                   default=None)

    def add(self, snapshot: Snapshot) -> None:
        self.touch(snapshot)
        self.kept.append(snapshot)
        self.kept.sort(key=lambda s: s.used)
        sizes = [s.nbytes for s in self.kept]
        while len(self.kept) > 1 and sum(sizes) > self.max_bytes:
            self.kept.pop(0)
            sizes.pop(0)
