"""Record a real MCP server's tool list as a connection fixture.

The server is started as a child process over stdio with the ``mcp`` SDK client, ``tools/list``
is paged through with its cursor, and the tools are written in wire form (camelCase keys) as a
``tools/list`` result, with where they came from under ``_meta``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import anyio
import orjson
from mcp import Client, StdioServerParameters
from mcp_types import Tool

from orvena_bench.formats.errors import FormatError

# A server whose cursor never ends would page forever; no real list comes near this.
MAX_PAGES = 1000
# Provenance key in the fixture's _meta (MCP _meta keys may carry a "prefix/" like this).
META_KEY = "orvena-bench/capture"


@dataclass(frozen=True)
class Capture:
    tools: list[Tool]
    server_name: str
    server_version: str
    protocol_version: str

    def document(self, captured_at: datetime | None = None) -> dict[str, Any]:
        """The fixture file's content: a tools/list result plus provenance."""
        when = (captured_at or datetime.now(timezone.utc)).strftime("%Y-%m-%d")
        return {
            "tools": [t.model_dump(mode="json", by_alias=True, exclude_none=True)
                      for t in self.tools],
            "_meta": {META_KEY: {
                "server": {"name": self.server_name, "version": self.server_version},
                "protocolVersion": self.protocol_version,
                "capturedAt": when,
            }},
        }


async def capture_tools(command: Sequence[str], *, env: Mapping[str, str] | None = None,
                        timeout: float = 120.0) -> Capture:
    """Start the server command over stdio and page through its whole tool list.

    The child gets this process's environment (plus ``env``), so credentials and base URLs are
    passed the usual way; the SDK's default would hand it only a few safe variables.
    """
    if not command:
        raise FormatError("no server command given (capture NAME -- COMMAND ...)")
    params = StdioServerParameters(command=command[0], args=list(command[1:]),
                                   env={**os.environ, **(env or {})})
    try:
        with anyio.fail_after(timeout):
            return await _list_all(params)
    except TimeoutError as e:
        raise FormatError(f"the server did not list its tools within {timeout:g} s") from e


async def _list_all(params: StdioServerParameters) -> Capture:
    tools: list[Tool] = []
    async with Client(params, cache=None) as client:
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(MAX_PAGES):
            page = await client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
            if cursor in seen:
                raise FormatError(f"the server repeated the tools/list cursor {cursor!r}")
            seen.add(cursor)
        else:
            raise FormatError(f"tools/list did not end after {MAX_PAGES} pages")
        info = client.server_info
        protocol = client.protocol_version
    return Capture(tools=tools, server_name=info.name if info else "",
                   server_version=info.version if info else "", protocol_version=protocol or "")


def write_fixture(path: str | Path, document: dict[str, Any]) -> None:
    """Write the fixture atomically (beside it, then rename), indented for review in diffs."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n")
    os.replace(tmp, path)
