"""The model backends by name, each made from one set of options (the ``run`` command's flags).

Backends are imported only when chosen, so a reference or replay run never loads mlx.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from formats.errors import FormatError
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


BACKENDS: dict[str, Callable[[BackendOptions], Backend]] = {
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
