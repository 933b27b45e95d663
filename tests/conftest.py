"""Shared fixtures: the tiny random MLX models, built once per test session. Tests marked
``network`` (they install from a package registry) run only with ``--run-network``."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-network", action="store_true",
                     help="also run the tests that install from a package registry")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-network"):
        return
    skip = pytest.mark.skip(reason="installs from a package registry: opt in with --run-network")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)


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
