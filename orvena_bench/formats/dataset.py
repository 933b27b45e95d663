"""The published dataset (the card's "Contents" table) as a data root: what a folder must hold,
and fetching it from the Hugging Face Hub with huggingface_hub."""

from __future__ import annotations

from pathlib import Path

from orvena_bench.formats.errors import FormatError

REPO = "Orvena/orvena-bench"

# The card's Contents table: what every command needs of a data root.
REQUIRED = ("catalog/orvena-catalog.json", "scenarios/*.jsonl", "fixtures/mcp/*.json")


def layout_problems(root: Path) -> list[str]:
    """What a data root lacks, one line per missing path of the card's table."""
    if not root.is_dir():
        return [f"{root}: no such folder"]
    return [f"{root}: no {pattern} (the card's Contents table)"
            for pattern in REQUIRED if not any(root.glob(pattern))]


def fetch(repo: str = REPO, to: Path | None = None, revision: str | None = None,
          with_results: bool = True) -> Path:
    """The dataset downloaded with huggingface_hub's snapshot_download: into ``to``, or into the
    hub's own cache (its path is returned). Offline (``HF_HUB_OFFLINE=1``) huggingface_hub gives
    back the cached snapshot or the filled ``to`` folder, and this checks that either is a data
    root."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    try:
        path = snapshot_download(repo, repo_type="dataset", revision=revision,
                                 local_dir=str(to) if to is not None else None,
                                 ignore_patterns=None if with_results else ["results/*"])
    except (LocalEntryNotFoundError, HfHubHTTPError, OSError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise FormatError(f"could not fetch the dataset {repo}: {first}") from None
    root = Path(path)
    problems = layout_problems(root)
    if problems:
        raise FormatError(f"{repo} was fetched to {root} but is not a data folder: "
                          + "; ".join(problems))
    return root
