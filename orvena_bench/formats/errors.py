"""One error type for bad input, so every command can print it as one line."""

from __future__ import annotations


class FormatError(ValueError):
    """Bad input: the message names the file, line and field where it can."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None):
        self.file, self.line, self.field = file, line, field
        where = ":".join(str(p) for p in (file, line) if p is not None)
        parts = [p for p in (where, field and f"field {field}", message) if p]
        super().__init__(": ".join(parts))
        self.reason = message
