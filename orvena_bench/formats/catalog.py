"""The tool catalog format (``catalog/orvena-catalog.json``): native tools, connections and the
assistant's base system prompt. The file is data; tool behaviour lives in simphone."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import Field, ValidationError

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors, line_errors
from orvena_bench.formats.scenario import Open

Permission = Literal[
    "none", "calendar", "reminders", "contacts", "location", "photos", "health", "files",
    "notifications", "music", "network",
]


class NativeTool(Open):
    name: str
    description: str
    # A strict JSON Schema (draft 2020-12) of the arguments object.
    parameters: dict[str, Any]
    permission: Permission = "none"
    # True when the tool changes the phone (create, update, delete, send, set).
    writes: bool = False
    # The skill that groups the tool (calendar, contacts, ...); loaders use it.
    skill: str = "core"

    def openai_schema(self) -> dict[str, Any]:
        """The tool as chat templates take it (``tools=`` of apply_chat_template)."""
        return {"type": "function", "function": {
            "name": self.name, "description": self.description, "parameters": self.parameters}}


class Skill(Open):
    """A group of native tools with the guidance a model reads when it loads the skill."""

    name: str
    description: str
    guidance: str = ""


class Connection(Open):
    id: str
    name: str
    description: str
    fixture: str  # path relative to the project root, e.g. fixtures/mcp/gmail.json


class Catalog(Open):
    version: str = "1"
    systemPrompt: str
    tools: list[NativeTool]
    skills: list[Skill] = Field(default_factory=list)
    connections: list[Connection] = Field(default_factory=list)

    def tool(self, name: str) -> NativeTool | None:
        return self._by_name().get(name)

    def _by_name(self) -> dict[str, NativeTool]:
        cache = self.__dict__.get("_tool_index")
        if cache is None:
            cache = {t.name: t for t in self.tools}
            self.__dict__["_tool_index"] = cache
        return cache

    def connection(self, connection_id: str) -> Connection | None:
        return next((c for c in self.connections if c.id == connection_id), None)


def load_catalog(path: str | Path) -> Catalog:
    """The catalog file as a model; errors name the file and field."""
    try:
        data = orjson.loads(Path(path).read_bytes())
    except (OSError, orjson.JSONDecodeError) as e:
        raise FormatError(f"cannot read catalog ({e})", file=str(path)) from e
    try:
        return Catalog.model_validate(data)
    except ValidationError as e:
        raise FormatErrors(line_errors(e, str(path), None)) from e
