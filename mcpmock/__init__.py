"""Scripted MCP connections: fixtures (captured tool lists), the responder that answers calls
from a scenario's rules, the id mapping, and capture/serve over the real protocol."""

from mcpmock.fixtures import Fixture, fixture_for, load_fixture
from mcpmock.ids import internal_id, parse_internal, public_name, split_public
from mcpmock.render import result_text, tool_declaration
from mcpmock.responder import Responder

__all__ = [
    "Fixture", "Responder", "fixture_for", "internal_id", "load_fixture", "parse_internal",
    "public_name", "result_text", "split_public", "tool_declaration",
]
