"""A backend that plays given texts, one per round, for tests and demos of every loop path.

The texts are raw model text (call blocks in the chosen tool format, malformed ones included) and
go through the same parser as a real model's. Scripts are per scenario id, with ``"*"`` for any
scenario without its own. A file form for the command line (``--script FILE``)::

    {"toolFormat": "json_tools", "delaySeconds": 0, "texts": {"*": ["..."], "en-x": ["...", "..."]}}
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

from orvena_bench.formats.errors import FormatError
from harness.backend import Generation, SessionContext
from harness.toolcalls import DEFAULT_FORMAT, parse_text


class ScriptExhausted(RuntimeError):
    """The model was asked for a round the script does not have."""


class ScriptedSession:
    def __init__(self, backend: ScriptedBackend, scenario_id: str, texts: Sequence[str]):
        self.backend, self.scenario_id, self.texts = backend, scenario_id, list(texts)
        self.round = 0

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        # What the model was given, for tests to check (deep enough: the loop never mutates them).
        self.backend.seen.setdefault(self.scenario_id, []).append(
            ([dict(m) for m in messages], [t["function"]["name"] for t in tools]))
        if self.round >= len(self.texts):
            raise ScriptExhausted(f"the script of {self.scenario_id} has {len(self.texts)} rounds")
        text = self.texts[self.round]
        self.round += 1
        if self.backend.delay:
            time.sleep(self.backend.delay)
        # No model ran: the round's timing stays zero.
        return parse_text(text, self.backend.tool_format, tools)

    def close(self) -> None:
        pass


class ScriptedBackend:
    name = "scripted"

    def __init__(self, texts: Mapping[str, Sequence[str]] | Sequence[str], *,
                 tool_format: str = DEFAULT_FORMAT, delay: float = 0.0):
        self.scripts = {"*": list(texts)} if not isinstance(texts, Mapping) else dict(texts)
        self.tool_format = tool_format
        self.delay = delay
        # scenario id -> [(messages, declared tool names)] per round, as generate received them.
        self.seen: dict[str, list[tuple[list[dict[str, Any]], list[str]]]] = {}

    @classmethod
    def from_file(cls, path: str | Path) -> ScriptedBackend:
        try:
            data = orjson.loads(Path(path).read_bytes())
        except (OSError, orjson.JSONDecodeError) as e:
            raise FormatError(f"cannot read script ({e})", file=str(path)) from e
        texts = data.get("texts") if isinstance(data, dict) else None
        if not isinstance(texts, dict) or not all(
                isinstance(v, list) and all(isinstance(t, str) for t in v) for v in texts.values()):
            raise FormatError("expected {\"texts\": {scenario id or \"*\": [text, ...]}}",
                              file=str(path), field="texts")
        return cls(texts, tool_format=str(data.get("toolFormat", DEFAULT_FORMAT)),
                   delay=float(data.get("delaySeconds", 0.0)))

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "toolFormat": self.tool_format, "scripts": sorted(self.scripts)}

    def open(self, context: SessionContext) -> ScriptedSession:
        sid = context.scenario.id
        texts = self.scripts.get(sid, self.scripts.get("*"))
        if texts is None:
            raise ScriptExhausted(f"no script for {sid}")
        return ScriptedSession(self, sid, texts)
