"""Where the project's files live.

Two kinds, found two ways:

- Code assets (the prompt templates in ``prompts/``) belong to the code: they are always the
  installed package's, never looked up under the data root.
- Data (``scenarios/``, ``fixtures/mcp/``, ``catalog/``, ``results/``) is read under the data
  root: the folder given with ``orvena-bench --data DIR`` or ``ORVENA_BENCH_ROOT``, else the
  bundled copy. A folder that holds only the published data (``orvena-bench data fetch``) is a
  data root.

The bundled copy is the checkout's own folders when running from a checkout (an editable
install), and ``orvena_bench/bundled/`` inside an installed wheel, which pyproject.toml fills
from the same folders.
"""

from __future__ import annotations

import os
from pathlib import Path

# Resolved once: resolving touches the file system, and the loop asks for paths every round.
_PACKAGE = Path(__file__).resolve().parents[1]
_CHECKOUT = _PACKAGE.parent
_BUNDLED = _PACKAGE / "bundled" if (_PACKAGE / "bundled" / "catalog").is_dir() else _CHECKOUT

ROOT_VARIABLE = "ORVENA_BENCH_ROOT"


def code_root() -> Path:
    """The checkout the code runs from (for the manifest's git state)."""
    return _CHECKOUT


def prompts_dir() -> Path:
    """The prompt templates: code, so always the package's own."""
    return _BUNDLED / "prompts"


def bundled_root() -> Path:
    """The data that comes with the code: the checkout's folders, or the wheel's copy."""
    return _BUNDLED


def data_root() -> Path:
    env = os.environ.get(ROOT_VARIABLE)
    return Path(env) if env else _BUNDLED


def catalog_path() -> Path:
    return data_root() / "catalog" / "orvena-catalog.json"


def scenarios_dir() -> Path:
    return data_root() / "scenarios"


def fixtures_dir() -> Path:
    return data_root() / "fixtures" / "mcp"


def results_dir() -> Path:
    return data_root() / "results"
