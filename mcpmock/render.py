"""How MCP objects reach the model: the one place a CallToolResult becomes the text it reads,
and a fixture tool becomes a declared function under its internal id."""

from __future__ import annotations

from typing import Any

from mcp_types import (
    AudioContent,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
)

from orvena_bench.formats.jsonl import json_text
from orvena_bench.formats.tooling import ToolOutcome
from mcpmock.ids import internal_id


def compact_json(value: Any) -> str:
    """JSON as the model reads it: compact, non-ASCII kept as is."""
    return json_text(value)


def _block_text(block: Any) -> str:
    if isinstance(block, TextContent):
        return block.text
    if isinstance(block, (ImageContent, AudioContent)):
        return f"[{block.type}: {block.mime_type}]"
    if isinstance(block, ResourceLink):
        return f"[resource: {block.name} {block.uri}]"
    if isinstance(block, EmbeddedResource):
        res = block.resource
        return res.text if isinstance(res, TextResourceContents) else f"[resource: {res.uri}]"
    return ""


def result_text(result: CallToolResult) -> str:
    """The text the model reads: the content blocks' text joined by newlines, or the structured
    content as compact JSON when there is no text."""
    text = "\n".join(t for t in (_block_text(b) for b in result.content) if t)
    if not text and result.structured_content is not None:
        return compact_json(result.structured_content)
    return text


def outcome(result: CallToolResult, *, matched: bool) -> ToolOutcome:
    """The call's outcome for the loop: an isError result is a failed call."""
    return ToolOutcome(text=result_text(result), failed=bool(result.is_error), matched=matched,
                       structured=result.structured_content)


def tool_declaration(connection: str, tool: Tool) -> dict[str, Any]:
    """A fixture tool in the OpenAI function form, named by its internal id."""
    description = tool.description or tool.title or (tool.annotations and tool.annotations.title)
    return {"type": "function", "function": {
        "name": internal_id(connection, tool.name),
        "description": description or "",
        "parameters": tool.input_schema,
    }}
