"""Reading and appending JSON Lines files of format models: the one line writer and the one line
reader every file kind goes through.

Every bad line is reported with the file name, line number and field; nothing is skipped
silently. The writer is lossless: integers beyond 64 bits and strings with a lone surrogate (a
model that cut an emoji pair in half), which orjson refuses, are written by the standard library
instead (the surrogate as its ``\\uXXXX`` escape), and the reader gives both back as they were.

A line is appended with one guarded write, then fsynced, under an exclusive lock on the file, so a
killed run loses nothing recorded and two runs never write one file at once. A write that fails
(a full disk) is cut back, so the file stays whole up to its last line. A last line without its
newline that is not JSON is a write cut off by a kill or a full disk: readers set it aside and say
so, and opening the file for appending moves it to ``<file>.torn`` first (a whole last line that
only lacks its newline gets the newline), so nothing is glued onto it. (Only files a program appends to set a torn line aside: in a
hand-written scenario file it is an error like any bad line.)
"""

from __future__ import annotations

import errno
import fcntl
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import orjson
from pydantic import BaseModel, ValidationError

from orvena_bench.formats.errors import FormatError

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

BOM = b"\xef\xbb\xbf"
# A run of 19 digits may be an integer orjson would read as a float (it keeps 64 bits).
_LONG_NUMBER = re.compile(rb"\d{19}")


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


# --- one JSON value per line -----------------------------------------------------------------

def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range")
    return value


def loads(raw: bytes | str) -> Any:
    """One JSON value, read losslessly: integers of any size stay integers and an escaped lone
    surrogate stays in its string (orjson, which reads lines fast, refuses the one and turns the
    other into a float; the standard library reads those lines). Raises orjson.JSONDecodeError
    (a ValueError) for text that is not JSON."""
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate written as itself, not as its escape
            return json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite)
    if _LONG_NUMBER.search(raw) is None:
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError as e:
            if b"\\u" not in raw and b"\\U" not in raw:
                raise
            error = e
    else:
        error = None
    try:
        return json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite)
    except ValueError:
        if error is not None:
            raise error from None
        return orjson.loads(raw)  # raises orjson's own message


def _plain(value: Any) -> Any:
    """A value as orjson writes it: non-finite floats as null, tuples as lists."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def dumps(data: object) -> bytes:
    """One JSON line (no ASCII escaping, so every script stays readable). Lossless: what orjson
    refuses (an integer beyond 64 bits, a lone surrogate) is written by the standard library.
    Raises TypeError only for a value that is not JSON data at all."""
    try:
        return orjson.dumps(data) + b"\n"
    except (TypeError, UnicodeEncodeError):  # a surrogate in a key raises the codec's error
        text = json.dumps(_plain(data), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        # Only a lone surrogate cannot be UTF-8; inside a JSON string its escape reads back as it.
        return text.encode("utf-8", "backslashreplace") + b"\n"


def json_text(value: Any) -> str:
    """Compact JSON text of any JSON-like value (non-string keys written as strings), as a model
    or a check reads it; lossless like ``dumps``, a lone surrogate kept in the text as is."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, UnicodeEncodeError):
        return json.dumps(_plain(value), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def as_data(model: BaseModel | dict) -> Any:
    """A model as JSON data (a dict is taken as it is)."""
    if not isinstance(model, BaseModel):
        return model
    try:
        return model.model_dump(mode="json", by_alias=True)
    except UnicodeEncodeError:
        # pydantic's JSON mode refuses a lone surrogate in a key; the fields here are JSON data
        # already, and dumps writes the surrogate as its escape.
        return _plain(model.model_dump(by_alias=True))


# --- reading ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class TornLine:
    """A last line without its newline that is not JSON: a write cut off."""

    file: str
    line: int
    size: int

    def __str__(self) -> str:
        return (f"{self.file}:{self.line}: torn last line set aside ({self.size} bytes without a "
                "newline: a write was cut off); the lines before it are read, and `run --resume` "
                f"moves it to {Path(self.file).name}.torn and runs that scenario again")


def say_torn(torn: TornLine) -> None:
    print(f"orvena-bench: {torn}", file=sys.stderr)


def _is_json(raw: bytes) -> bool:
    try:
        loads(raw)
    except ValueError:
        return False
    return True


def iter_lines(path: str | Path, *, on_torn: Callable[[TornLine], None] | None = None
               ) -> Iterator[tuple[int, bytes]]:
    """(line number, raw line) for every non-blank line. A UTF-8 byte order mark before the first
    line is dropped. With ``on_torn`` (files a program appends to: results), a torn last line is
    set aside (not yielded) and handed to it; without (hand-written files: scenarios), it is
    yielded like any line, so its reader reports it."""
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            if number == 1:
                raw = raw.removeprefix(BOM)
            if not raw.strip():
                continue
            if on_torn is not None and not raw.endswith(b"\n") and not _is_json(raw):
                on_torn(TornLine(str(path), number, len(raw)))
                continue
            yield number, raw


def parse_lines(path: str | Path, parse: Callable[[Any], T], errors: list[FormatError], *,
                on_torn: Callable[[TornLine], None] | None = None) -> list[tuple[int, T]]:
    """(line number, ``parse(JSON)``) for every line that parses: the one loop every reader of a
    file kind goes through. One error per bad line goes to ``errors``, so one broken line never
    stops the others; a torn last line is set aside with ``on_torn`` (``iter_lines``)."""
    items = []
    for number, raw in iter_lines(path, on_torn=on_torn):
        try:
            items.append((number, parse(loads(raw))))
        except ValidationError as e:
            errors.extend(line_errors(e, str(path), number))
        except ValueError as e:
            errors.append(FormatError(f"not valid JSON ({e})", file=str(path), line=number))
    return items


def read_models(path: str | Path, model: type[M], *,
                errors: list[FormatError] | None = None,
                on_torn: Callable[[TornLine], None] | None = None) -> list[M]:
    """All lines of a file as models; raises one FormatError listing every bad line. With an
    ``errors`` list, bad lines are added to it instead and the good ones returned."""
    found: list[FormatError] = []
    items = [item for _, item in parse_lines(path, model.model_validate, found, on_torn=on_torn)]
    if errors is not None:
        errors.extend(found)
    elif found:
        raise FormatErrors(found)
    return items


class FormatErrors(FormatError):
    """Several bad lines at once; str() lists one per line."""

    def __init__(self, errors: list[FormatError]):
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


# --- writing ---------------------------------------------------------------------------------

class WriteFailed(FormatError):
    """A line could not be written (a full disk, a read-only folder); the file was cut back to its
    last whole line."""


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _tail_start(fd: int, size: int) -> int:
    """Where the file's last line starts (just after its last newline, or 0)."""
    position, block = size, 1 << 16
    while position > 0:
        start = max(0, position - block)
        chunk = os.pread(fd, position - start, start)
        cut = chunk.rfind(b"\n")
        if cut >= 0:
            return start + cut + 1
        position = start
    return 0


class LineWriter:
    """Appends whole lines to one locked file (see ``appending``)."""

    def __init__(self, path: Path, fd: int):
        self.path, self.fd = path, fd

    def write(self, model: BaseModel | dict) -> None:
        """Append one line and fsync it. Raises TypeError (nothing written) for data that is not
        JSON, WriteFailed (the file cut back to its last whole line) when the disk refuses it."""
        data = dumps(as_data(model))
        start = os.lseek(self.fd, 0, os.SEEK_END)
        try:
            _write_all(self.fd, data)
            os.fsync(self.fd)
        except OSError as e:
            try:
                os.ftruncate(self.fd, start)
            except OSError:
                pass
            reason = "the disk is full" if e.errno in (errno.ENOSPC, errno.EDQUOT) else e.strerror
            raise WriteFailed(f"could not write a line: {reason}; the file is intact up to its "
                              "last whole line; make room and run again with --resume",
                              file=str(self.path)) from None


def _repair_tail(path: Path, fd: int, on_note: Callable[[str], None]) -> None:
    """Make the file end in a newline before anything is appended: a whole last line gets its
    newline; a torn one is moved to ``<file>.torn`` (kept, never deleted) and cut off."""
    size = os.fstat(fd).st_size
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    start = _tail_start(fd, size)
    tail = os.pread(fd, size - start, start)
    if _is_json(tail) or not tail.strip():
        _write_all(fd, b"\n")
        return
    torn = path.with_name(path.name + ".torn")
    with open(torn, "ab") as f:
        f.write(tail + b"\n")
        f.flush()
        os.fsync(f.fileno())
    os.ftruncate(fd, start)
    line = 1 + os.pread(fd, start, 0).count(b"\n") if start else 1
    on_note(f"{path}:{line}: torn last line ({len(tail)} bytes, a write cut off) moved to {torn}")


@contextmanager
def appending(path: str | Path, *, on_note: Callable[[str], None] = lambda m: print(
        f"orvena-bench: {m}", file=sys.stderr)) -> Iterator[LineWriter]:
    """A file opened for appending whole lines (its folder made if needed), locked against a
    second writer, its last line repaired first (``_repair_tail``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise FormatError("another run is writing this file; wait for it to end or use "
                              "another --out", file=str(path)) from None
        _repair_tail(path, fd, on_note)
        yield LineWriter(path, fd)
    finally:
        os.close(fd)


def append_line(handle: IO[bytes] | LineWriter, model: BaseModel | dict) -> None:
    """One line appended and fsynced: through a LineWriter (guarded), or to a plain handle."""
    if isinstance(handle, LineWriter):
        handle.write(model)
        return
    handle.write(dumps(as_data(model)))
    handle.flush()
    os.fsync(handle.fileno())


def write_models(path: str | Path, models: Iterable[BaseModel | dict]) -> None:
    """Replace a file atomically (write beside it, then rename)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            for m in models:
                f.write(dumps(as_data(m)))
            # On disk before the rename, so a crash leaves the old file or the new one, never half.
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise WriteFailed(f"could not rewrite the file: {e.strerror}; it is unchanged",
                          file=str(path)) from None
    os.replace(tmp, path)
