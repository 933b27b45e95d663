"""A scenario's scripted connections as a real MCP server (stdio, or streamable HTTP bound to
loopback), answering through the same Responder as the bench's loop.

Naming: serving one connection, the tools keep their real names (the server looks like the
real one); serving several in one server, each is named ``<connection>.<operation>`` (see
mcpmock.ids.served_name). Output schemas are left out of the listing: rules give structured
content only where a scenario writes ``structured``, and an MCP client must reject a result
without it when the tool declares an output schema.

The responder's call counts (``nth``) run for the life of the server: start a new server for
each run of a scenario.
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.scenario import Scenario
from mcpmock.ids import served_name, split_served
from mcpmock.responder import Responder, unknown_tool

LOOPBACK = "127.0.0.1"
HTTP_PATH = "/mcp"


def _version() -> str:
    try:
        return version("orvena-bench")
    except PackageNotFoundError:
        return "0"


def served_connections(scenario: Scenario, connection: str | None) -> list[str]:
    """The connections one server serves: the named one, else every installed one."""
    if not scenario.connections:
        raise FormatError(f"scenario {scenario.id} installs no MCP connections",
                          field="connections")
    if connection is None:
        return list(scenario.connections)
    if connection not in scenario.connections:
        raise FormatError(f"scenario {scenario.id} does not install {connection!r} "
                          f"(it installs {', '.join(scenario.connections)})", field="connections")
    return [connection]


def build_server(responder: Responder, connections: Sequence[str], *, prefixed: bool) -> Server:
    """An MCP server listing the connections' fixture tools and answering from the responder."""
    connections = list(connections)
    tools = [
        tool.model_copy(update={"name": served_name(c, tool.name, prefixed=prefixed),
                                "output_schema": None})
        for c in connections for tool in responder.fixtures[c]
    ]
    name = connections[0] if not prefixed else f"orvena-bench {responder.scenario.id}"

    async def list_tools(ctx: ServerRequestContext,
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: ServerRequestContext,
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        target = split_served(params.name, connections, prefixed=prefixed)
        if target is None:
            return unknown_tool(params.name)
        try:
            return responder.call_result(*target, params.arguments)
        except Exception as e:  # noqa: BLE001 - one odd call is a tool error, not JSON-RPC code 0
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"Error: {type(e).__name__}: {e}")],
                is_error=True)

    return Server(name, version=_version(), on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio(server: Server) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def bind_loopback(port: int) -> socket.socket:
    """A listening socket on 127.0.0.1 (port 0 picks a free one)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((LOOPBACK, port))
    except OSError as e:
        sock.close()
        raise FormatError(f"cannot listen on {LOOPBACK}:{port} ({e.strerror})",
                          field="--http") from e
    sock.listen(128)
    return sock


async def serve_http(server: Server, sock: socket.socket,
                     on_ready: Callable[[str], None] | None = None) -> None:
    """Serve streamable HTTP at ``http://127.0.0.1:<port>/mcp`` on an already bound socket."""
    import uvicorn  # only the HTTP transport needs it

    app = server.streamable_http_app(streamable_http_path=HTTP_PATH, host=LOOPBACK)
    http = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    url = f"http://{LOOPBACK}:{sock.getsockname()[1]}{HTTP_PATH}"
    if on_ready is not None:
        on_ready(url)
    else:
        print(f"serving MCP on {url}", file=sys.stderr, flush=True)
    await http.serve(sockets=[sock])
