"""The model backends by name, each made from one set of options (the ``run`` command's flags).

Backends are imported only when chosen, so a reference or replay run never loads mlx.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from orvena_bench.formats.errors import FormatError
from harness.backend import Backend


@dataclass(frozen=True)
class BackendOptions:
    model: str | None = None
    tool_format: str | None = None
    thinking: bool = False
    base_url: str | None = None
    replay: str | None = None  # a result file (replay)
    script: str | None = None  # a script file (scripted)
    extra: dict[str, Any] = field(default_factory=dict)


def _mlx(o: BackendOptions) -> Backend:
    from harness.backends.mlx_backend import MlxBackend

    if not o.model:
        raise FormatError("the mlx backend needs --model (a local path or a Hugging Face id)")
    return MlxBackend(o.model, tool_format=o.tool_format, thinking=o.thinking, **o.extra)


def _openai(o: BackendOptions) -> Backend:
    from harness.backends.openai_backend import OpenAIBackend

    if not o.model or not o.base_url:
        raise FormatError("the openai backend needs --model and --base-url")
    return OpenAIBackend(o.model, base_url=o.base_url, thinking=o.thinking, **o.extra)


def _reference(o: BackendOptions) -> Backend:
    from harness.backends.reference import ReferenceBackend

    return ReferenceBackend()


def _replay(o: BackendOptions) -> Backend:
    from harness.backends.replay import ReplayBackend

    if not o.replay:
        raise FormatError("the replay backend needs --replay FILE (a recorded result file)")
    return ReplayBackend(o.replay, tool_format=o.tool_format)


def _scripted(o: BackendOptions) -> Backend:
    from harness.backends.scripted import ScriptedBackend

    if not o.script:
        raise FormatError("the scripted backend needs --script FILE")
    return ScriptedBackend.from_file(o.script)


def _apple(o: BackendOptions) -> Backend:
    from harness.backends.apple_backend import AppleBackend

    return AppleBackend(**o.extra)


BACKENDS: dict[str, Callable[[BackendOptions], Backend]] = {
    "apple": _apple,
    "mlx": _mlx,
    "openai": _openai,
    "reference": _reference,
    "replay": _replay,
    "scripted": _scripted,
}


def create(name: str, options: BackendOptions) -> Backend:
    try:
        factory = BACKENDS[name]
    except KeyError:
        raise FormatError(f"unknown backend {name!r} (one of {', '.join(BACKENDS)})") from None
    return factory(options)


def make_backend(name: str, **options: Any) -> Backend:
    """The backend called ``name``: options named like BackendOptions fields fill them, any other
    option goes to the backend's constructor (``extra``), e.g. ``sampling``, ``max_tokens``."""
    known = {f.name for f in fields(BackendOptions)} - {"extra"}
    return create(name, BackendOptions(
        **{k: v for k, v in options.items() if k in known},
        extra={k: v for k, v in options.items() if k not in known}))


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """Sampling and generation flags of the model backends (mlx, openai); defaults are those of
    harness/sampling.py and docs/backends.md."""
    from harness.sampling import SamplingConfig

    d = SamplingConfig()
    g = parser.add_argument_group("sampling (mlx, openai)")
    g.add_argument("--temperature", type=float, default=d.temperature,
                   help=f"0 is greedy (default {d.temperature})")
    g.add_argument("--top-p", type=float, default=d.top_p, help=f"default {d.top_p}")
    g.add_argument("--top-k", type=int, default=d.top_k, help=f"0 is off (default {d.top_k})")
    g.add_argument("--min-p", type=float, default=d.min_p, help=f"default {d.min_p}")
    g.add_argument("--max-tokens", type=int, default=None,
                   help="tokens per round (default 1024, 4096 with --thinking)")
    g.add_argument("--cache-reuse", choices=["none", "rounds", "shared"], default="shared",
                   help="mlx: what a round may take from earlier prefills (default shared: the "
                        "conversation's cache and the prefix shared by all scenarios)")
    g.add_argument("--context-window", type=int, default=4096, metavar="TOKENS",
                   help="apple: the on-device model's context window (4096 on M1/M2-class Macs, "
                        "8192 on newer ones); tools that do not fit are declared through the loaders")
    g.add_argument("--batch", type=int, default=1,
                   help="run this many scenarios at once (mlx: their rounds are decoded "
                        "together; openai: as many requests in flight); results do not change")


def model_extra(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """BackendOptions.extra for the mlx and openai backends from ``add_model_arguments`` flags."""
    if name == "apple":
        return {"window": args.context_window}
    if name not in ("mlx", "openai"):
        return {}
    from harness.sampling import SamplingConfig

    extra: dict[str, Any] = {
        "sampling": SamplingConfig(temperature=args.temperature, top_p=args.top_p,
                                   top_k=args.top_k, min_p=args.min_p),
        "max_tokens": args.max_tokens}
    if name == "mlx":
        extra["reuse"] = args.cache_reuse
        extra["batch"] = args.batch
    return extra
