"""The two names of an MCP tool, and the one place that maps between them.

- The model sees ``mcp.<uuid>.<operation>`` (the app's internal id; the transcript keeps it).
- Scenarios, ``expect``, ``forbid`` and recorded ``calls`` use ``<connection>/<operation>``.

The UUID is ``uuid5(NAMESPACE, connection)``, written lowercase with hyphens, where NAMESPACE is
``uuid5(NAMESPACE_URL, "https://huggingface.co/datasets/Orvena/orvena-bench")``. Any tool can
compute the same ids from the connection id alone (docs/mcp.md).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

# uuid5(uuid.NAMESPACE_URL, "https://huggingface.co/datasets/Orvena/orvena-bench"), written out so
# that the value is visible and a test pins it.
NAMESPACE = uuid.UUID("8add4780-b029-5446-bd22-cc90a94b00cd")

PREFIX = "mcp"
SEPARATOR = "/"


def connection_uuid(connection: str) -> str:
    """The connection's UUID as the internal id writes it."""
    return str(uuid.uuid5(NAMESPACE, connection))


def internal_id(connection: str, operation: str) -> str:
    """``mcp.<uuid>.<operation>``: the name the model sees."""
    return f"{PREFIX}.{connection_uuid(connection)}.{operation}"


def parse_internal(name: str, connections: Iterable[str]) -> tuple[str, str] | None:
    """(connection, operation) of an internal id among the given connections, else None.

    The UUID is compared case-insensitively, so an id written in Swift's uppercase form parses.
    """
    prefix, _, rest = name.partition(".")
    ident, _, operation = rest.partition(".")
    if prefix != PREFIX or not operation:
        return None
    ident = ident.lower()
    for connection in connections:
        if connection_uuid(connection) == ident:
            return connection, operation
    return None


def public_name(connection: str, operation: str) -> str:
    """``<connection>/<operation>``: the name scenarios and result lines use."""
    return f"{connection}{SEPARATOR}{operation}"


def split_public(name: str) -> tuple[str, str] | None:
    """(connection, operation) of a public MCP name, or None for a native tool's name."""
    connection, sep, operation = name.partition(SEPARATOR)
    if not sep or not connection or not operation:
        return None
    return connection, operation


# `mcp serve` of several connections in one server: MCP tool names may only use
# [A-Za-z0-9_.-], so the public "/" cannot be used; connection ids have no dots, so the first
# dot separates them.
SERVED_SEPARATOR = "."


def served_name(connection: str, operation: str, *, prefixed: bool) -> str:
    """A tool's name in ``mcp serve``: the operation itself when one connection is served, else
    ``<connection>.<operation>``."""
    return f"{connection}{SERVED_SEPARATOR}{operation}" if prefixed else operation


def split_served(name: str, connections: Iterable[str], *,
                 prefixed: bool) -> tuple[str, str] | None:
    """(connection, operation) of a served tool name, or None when it names no served
    connection."""
    served = list(connections)
    if not prefixed:
        return (served[0], name) if len(served) == 1 and name else None
    connection, sep, operation = name.partition(SERVED_SEPARATOR)
    return (connection, operation) if sep and operation and connection in served else None
