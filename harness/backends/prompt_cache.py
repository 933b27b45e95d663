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
- ``plan_start`` decides where a round starts (the live cache as it is or cut back, a session
  snapshot, a shared prefix, or nothing) and ``plan_shared_prefix`` which new shared prefix a
  prompt adds: pure functions of the tokens kept and the prompt's, which touch no cache. Both
  engines go through them (``MlxSession.plan``, ``MlxBackend.learn_shared_prefix``).

mlx-lm's ``LRUPromptCache`` (its server's) was considered: it keys caches by the tokens they
hold and also evicts by bytes, but it hands back the longest cache for a prompt and trims it;
the backend needs to choose what to store (a static prefix probed before the first round,
prefixes between scenarios) and copies of caches that cannot be trimmed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

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
        return longest_start(self.kept, prompt)

    def add(self, snapshot: Snapshot) -> None:
        self.touch(snapshot)
        self.kept.append(snapshot)
        self.kept.sort(key=lambda s: s.used)
        sizes = [s.nbytes for s in self.kept]
        while len(self.kept) > 1 and sum(sizes) > self.max_bytes:
            self.kept.pop(0)
            sizes.pop(0)


def longest_start(snapshots: Iterable[Snapshot], prompt: list[int],
                  limit: int | None = None) -> Snapshot | None:
    """The longest of ``snapshots`` the prompt starts with (of at most ``limit`` tokens); the
    first of equally long ones."""
    return max((s for s in snapshots
                if (limit is None or len(s.tokens) <= limit) and s.starts(prompt)),
               key=lambda s: len(s.tokens), default=None)


@dataclass(frozen=True)
class Plan:
    """Where a round starts: a cache holding ``prompt[:cached]``.

    ``how`` is the cache path, as counted in the backend's totals: ``append`` (the live cache
    as it is), ``trim`` (the live cache cut back by ``trim`` tokens), ``snapshot`` (a copy of
    ``snapshot``; ``shared`` when it is a shared prefix, whose use its store records) or
    ``fresh`` (an empty cache: the whole prompt is prefilled)."""

    how: Literal["append", "trim", "snapshot", "fresh"]
    cached: int
    trim: int = 0
    snapshot: Snapshot | None = None
    shared: bool = False


def plan_start(prompt: list[int], reuse: Reuse, *, live: Sequence[int] | None = None,
               live_trimmable: bool = False, snapshots: Sequence[Snapshot] = (),
               shared: Sequence[Snapshot] = ()) -> Plan:
    """Where a round with this prompt starts, given the tokens the session's live cache holds
    (``live``; None when it has none) and whether that cache can be cut back, the session's
    snapshots and the shared prefixes. The last prompt token is always run, for its logits,
    so at most ``len(prompt) - 1`` tokens are reused.

    - The live cache is continued when the prompt extends what it holds (``append``).
    - Otherwise a cache that can be trimmed is cut back to the common prefix (``trim``), when
      there is one.
    - Otherwise (or with no common prefix) the longest snapshot that is a prefix of the prompt,
      the session's own or a shared one, is copied (``snapshot``); the session's wins a tie.
    - Nothing reusable: ``fresh``.
    ``reuse.rounds`` off ignores the live cache and the session's snapshots, ``reuse.shared``
    off the shared prefixes."""
    limit = len(prompt) - 1
    if reuse.rounds and live is not None:
        n = common_prefix(live, prompt)
        if n == len(live) and n <= limit:
            return Plan("append", n)
        if live_trimmable and n > 0:
            keep = min(n, limit)
            return Plan("trim", keep, trim=len(live) - keep)
    own = longest_start(snapshots, prompt, limit) if reuse.rounds else None
    common = longest_start(shared, prompt, limit) if reuse.shared else None
    if common is not None and (own is None or len(common.tokens) > len(own.tokens)):
        return Plan("snapshot", len(common.tokens), snapshot=common, shared=True)
    if own is not None:
        return Plan("snapshot", len(own.tokens), snapshot=own)
    return Plan("fresh", 0)


def snapshot_at_end(reuse: Reuse, trimmable: bool) -> bool:
    """Whether a round snapshots the end of its prompt (``prompt[:-1]``): when its cache cannot
    be cut back and the next round may start from this one's, that is where the next round
    falls back to if the re-rendered history differs from what was generated."""
    return reuse.rounds and not trimmable


@dataclass(frozen=True)
class PrefixPlan:
    """A new shared prefix, ``prompt[:tokens]``, prefilled from ``base`` (a kept prefix the
    prompt starts with) or from nothing."""

    tokens: int
    base: Snapshot | None


def plan_shared_prefix(prompt: list[int], kept: Sequence[Snapshot], *, static: int = 0,
                       previous_first: Sequence[int] | None = None) -> PrefixPlan | None:
    """Which shared prefix this prompt adds, or None. The candidate is the longest prefix the
    prompt shares with its own static part (``static``: the tool schemas and system prompt,
    found by ``MlxBackend.static_prefix``), with a kept prefix it does not start with (tools
    loaded in a round are appended after the shared schemas: the schemas alone are worth
    keeping) or, for a first prompt, with the previous scenario's first prompt
    (``previous_first``). It is kept when it adds enough to the longest kept prefix the prompt
    starts with (``worth_keeping``; a part only two first prompts share must add
    ``MIN_EXTENSION_TOKENS``)."""
    ends = [common_prefix(s.tokens, prompt) for s in kept if not s.starts(prompt)]
    ends.append(static)
    between = common_prefix(previous_first, prompt) if previous_first is not None else 0
    n = min(max([*ends, between]), len(prompt) - 1)
    base = longest_start(kept, prompt)
    if not worth_keeping(n, base, first_only=between > max(ends)):
        return None
    return PrefixPlan(n, base)
