"""The provenance of a run, written beside its results: ``<out>/<set>/<model>.manifest.json``.

One file per result file, holding every run that wrote into it (``{"runs": [...]}``, oldest
first), so a resumed or rerun file keeps the provenance of each of its lines' runs. Each entry has
the harness's git commit and dirty flag, the backend's own description (model path and revision,
quantization, chat-template hash, tool format, sampling), the scenario files' hashes, the flags,
the seed, package versions and the machine. The file is rewritten atomically.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

import orjson

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import WriteFailed
from orvena_bench.formats.paths import code_root

PACKAGES = ("orvena-bench", "mlx", "mlx-lm", "transformers", "tokenizers", "jinja2", "pydantic",
            "babel", "jsonschema", "mcp", "lingua-language-detector", "orjson", "unidecode")


def manifest_path(results: str | Path) -> Path:
    results = Path(results)
    return results.with_name(results.name.removesuffix(".jsonl") + ".manifest.json")


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def git_state(root: Path | None = None) -> dict[str, Any]:
    """The harness's commit and whether its tracked files have uncommitted changes."""
    root = root or code_root()

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                                  timeout=20, check=True)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.strip()

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def package_versions() -> dict[str, str | None]:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def machine() -> dict[str, Any]:
    memory = None
    try:
        memory = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    return {"system": platform.system(), "release": platform.release(), "machine": platform.machine(),
            "processor": platform.processor(), "cpus": os.cpu_count(), "memoryGB": memory,
            "python": sys.version.split()[0]}


def build_manifest(*, backend: dict[str, Any], scenario_files: list[str | Path], flags: dict[str, Any],
                   seed: int) -> dict[str, Any]:
    return {
        "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "harness": git_state(),
        "backend": backend,
        "scenarioFiles": {str(p): file_sha256(p) for p in scenario_files},
        "flags": flags,
        "seed": seed,
        "packages": package_versions(),
        "machine": machine(),
    }


def read_manifest(results: str | Path) -> list[dict[str, Any]]:
    """The runs recorded beside a result file, oldest first (none when there is no manifest)."""
    path = manifest_path(results)
    if not path.exists():
        return []
    try:
        data = orjson.loads(path.read_bytes())
    except orjson.JSONDecodeError as e:
        raise FormatError(f"not valid JSON ({e})", file=str(path)) from None
    runs = data.get("runs", []) if isinstance(data, dict) else None
    if not isinstance(runs, list):
        raise FormatError('a manifest is {"runs": [...]}', file=str(path), field="runs")
    return list(runs)


def add_run(results: str | Path, entry: dict[str, Any]) -> Path:
    """Append a run's entry to the manifest beside a result file (atomic rewrite)."""
    path = manifest_path(results)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        runs = read_manifest(results) + [entry]
    except FormatError as e:
        # A broken manifest is kept beside, never overwritten, and a new one begun.
        aside = path.with_name(path.name + ".corrupt")
        os.replace(path, aside)
        print(f"orvena-bench: {e}; moved to {aside}, starting a new manifest", file=sys.stderr)
        runs = [entry]
    tmp = path.with_name(path.name + ".tmp")
    try:
        # Flags may hold paths and other plain values: written as their text.
        tmp.write_bytes(orjson.dumps({"runs": runs}, option=orjson.OPT_INDENT_2, default=str))
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise WriteFailed(f"could not write the manifest: {e.strerror}; it is unchanged",
                          file=str(path)) from None
    os.replace(tmp, path)
    return path
