"""Reading and appending JSON Lines files of format models.

Every bad line is reported with the file name, line number and field; nothing is skipped
silently. Appends are flushed and fsynced per line, so a killed run loses nothing recorded.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from orvena_bench.formats.errors import FormatError

M = TypeVar("M", bound=BaseModel)


def _field_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def line_errors(error: ValidationError, file: str, line: int) -> list[FormatError]:
    """One FormatError per pydantic error, each naming the field path."""
    return [
        FormatError(e["msg"], file=file, line=line, field=_field_path(tuple(e["loc"])) or None)
        for e in error.errors()
    ]


def iter_lines(path: str | Path) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line) for every non-blank line."""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            if raw.strip():
                yield number, raw


def read_models(path: str | Path, model: type[M], *,
                errors: list[FormatError] | None = None) -> list[M]:
    """All lines of a file as models; raises one FormatError listing every bad line. With an
    ``errors`` list, bad lines are added to it instead and the good ones returned, so one broken
    line never stops the others."""
    items, collect = [], errors
    errors = []
    for number, raw in iter_lines(path):
        try:
            items.append(model.model_validate(orjson.loads(raw)))
        except orjson.JSONDecodeError as e:
            errors.append(FormatError(f"not valid JSON ({e})", file=str(path), line=number))
        except ValidationError as e:
            errors.extend(line_errors(e, str(path), number))
    if collect is not None:
        collect.extend(errors)
    elif errors:
        raise FormatErrors(errors)
    return items


class FormatErrors(FormatError):
    """Several bad lines at once; str() lists one per line."""

    def __init__(self, errors: list[FormatError]):
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


def dumps(data: object) -> bytes:
    """One JSON line (no ASCII escaping, so every script stays readable)."""
    return orjson.dumps(data) + b"\n"


def append_line(handle: IO[bytes], model: BaseModel | dict) -> None:
    data = model.model_dump(mode="json", by_alias=True) if isinstance(model, BaseModel) else model
    handle.write(dumps(data))
    handle.flush()
    os.fsync(handle.fileno())


def write_models(path: str | Path, models: Iterable[BaseModel | dict]) -> None:
    """Replace a file atomically (write beside it, then rename)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        for m in models:
            f.write(dumps(m.model_dump(mode="json", by_alias=True) if isinstance(m, BaseModel) else m))
        # On disk before the rename, so a crash leaves the old file or the new one, never half.
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
