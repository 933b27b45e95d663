"""Where the project's data lives. The root can be moved with ORVENA_BENCH_ROOT so that a user's
copy of the published data (scenarios/, fixtures/, catalog/) runs with no code changes."""

from __future__ import annotations

import os
from pathlib import Path


# Resolved once: resolving touches the file system, and the loop asks for paths every round.
_CHECKOUT = Path(__file__).resolve().parents[2]


def project_root() -> Path:
    env = os.environ.get("ORVENA_BENCH_ROOT")
    return Path(env) if env else _CHECKOUT


def catalog_path() -> Path:
    return project_root() / "catalog" / "orvena-catalog.json"


def scenarios_dir() -> Path:
    return project_root() / "scenarios"


def fixtures_dir() -> Path:
    return project_root() / "fixtures" / "mcp"


def results_dir() -> Path:
    return project_root() / "results"
