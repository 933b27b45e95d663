"""Connection fixtures: ``fixtures/mcp/<connection>.json``, a ``tools/list`` result in MCP wire
shape (``{"tools": [...]}``), loaded as the SDK's ``Tool`` objects with argument validators."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator, SchemaError
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from mcp_types import Tool
from pydantic import ValidationError

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors, line_errors
from orvena_bench.formats.paths import data_root, fixtures_dir


def _schema_validator(schema: dict[str, Any], *, check: bool = True) -> Validator:
    """A validator of the schema's own draft ($schema), 2020-12 when it names none. With check,
    a schema that is not valid JSON Schema raises SchemaError (checking against the draft's
    metaschema costs a few milliseconds a schema, so it is done once, when the file loads)."""
    cls = validator_for(schema, default=Draft202012Validator)
    if check:
        cls.check_schema(schema)
    return cls(schema)


def _tool_errors(path: str, index: int, raw: Any) -> tuple[Tool | None, list[FormatError]]:
    where = f"tools[{index}]"
    try:
        tool = Tool.model_validate(raw)
    except ValidationError as e:
        # Name the tool's place in the file, not just the field inside the tool.
        return None, [FormatError(err.reason, file=path,
                                  field=f"{where}.{err.field}" if err.field else where)
                      for err in line_errors(e, path, None)]
    errors = []
    if not tool.name:
        errors.append(FormatError("a tool needs a name", file=path, field=f"{where}.name"))
    if tool.input_schema.get("type") != "object":
        errors.append(FormatError('inputSchema must have "type": "object"', file=path,
                                  field=f"{where}.inputSchema"))
    for key, schema in (("inputSchema", tool.input_schema), ("outputSchema", tool.output_schema)):
        if schema is None:
            continue
        try:
            _schema_validator(schema)
        except SchemaError as e:
            errors.append(FormatError(f"not a valid JSON Schema ({e.message})", file=path,
                                      field=f"{where}.{key}"))
    return tool, errors


def load_fixture(path: str | Path) -> list[Tool]:
    """The tools of a fixture file; one FormatError names the file and every bad field."""
    path = str(path)
    try:
        data = orjson.loads(Path(path).read_bytes())
    except (OSError, orjson.JSONDecodeError) as e:
        raise FormatError(f"cannot read MCP fixture ({e})", file=path) from e
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise FormatError('an MCP fixture is a tools/list result: {"tools": [...]}', file=path,
                          field="tools")
    tools, errors, seen = [], [], set()
    for index, raw in enumerate(data["tools"]):
        tool, problems = _tool_errors(path, index, raw)
        errors.extend(problems)
        if tool is None:
            continue
        if tool.name in seen:
            errors.append(FormatError(f"duplicate tool name {tool.name!r}", file=path,
                                      field=f"tools[{index}].name"))
        seen.add(tool.name)
        tools.append(tool)
    if errors:
        raise FormatErrors(errors) if len(errors) > 1 else errors[0]
    return tools


@dataclass(frozen=True, eq=False)
class Fixture:
    """One connection's tools, by name, with a compiled validator of each inputSchema."""

    connection: str
    path: Path
    tools: tuple[Tool, ...]
    _by_name: Mapping[str, Tool] = field(init=False, repr=False)
    _validators: Mapping[str, Validator] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {t.name: t for t in self.tools})
        object.__setattr__(self, "_validators",
                           {t.name: _schema_validator(t.input_schema, check=False) for t in self.tools})

    @classmethod
    def load(cls, connection: str, path: str | Path) -> Fixture:
        return cls(connection, Path(path), tuple(load_fixture(path)))

    def tool(self, name: str) -> Tool | None:
        return self._by_name.get(name)

    def validator(self, name: str) -> Validator | None:
        return self._validators.get(name)

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools)

    def __len__(self) -> int:
        return len(self.tools)


def fixture_path(connection: str, catalog: Catalog | None = None) -> Path:
    """The catalog's fixture path of the connection, else ``fixtures/mcp/<connection>.json``. A
    connection id is a plain name: one that would reach outside the fixtures folder ("/etc/passwd",
    "../../catalog/x") is refused, naming only the id."""
    entry = catalog.connection(connection) if catalog is not None else None
    if entry is not None:
        return data_root() / entry.fixture
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", connection or ""):
        raise FormatError(f"connection {connection!r} is not a connection id (letters, digits, "
                          "'.', '_' and '-')")
    return fixtures_dir() / f"{connection}.json"


@lru_cache(maxsize=64)
def _cached(connection: str, path: str, mtime_ns: int, size: int) -> Fixture:
    # Keyed on the file's mtime and size as well, so an edited or re-captured file is reread.
    return Fixture.load(connection, path)


def fixture_for(connection: str, catalog: Catalog | None = None) -> Fixture:
    """The connection's fixture, loaded once per process (and again when the file changes)."""
    path = fixture_path(connection, catalog)
    try:
        stat = path.stat()
    except OSError as e:
        raise FormatError(f"no MCP fixture for connection {connection!r} ({e.strerror})",
                          file=str(path)) from e
    return _cached(connection, str(path), stat.st_mtime_ns, stat.st_size)
