"""Shared fixtures: the tiny random MLX models, built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory) -> dict[str, Path]:
    """Both tiny 4-bit models (qwen3: JSON calls, trimmable caches; qwen3_5: XML calls,
    recurrent caches), keyed by arch. About a second to build."""
    from harness.tiny_model import ARCHES, build_tiny_model

    root = tmp_path_factory.mktemp("tiny-models")
    return {arch: build_tiny_model(root / arch, arch) for arch in ARCHES}


@pytest.fixture(scope="session", params=["qwen3", "qwen3_5"])
def tiny_model(request, tiny_models) -> Path:
    """Each tiny model in turn."""
    return tiny_models[request.param]
