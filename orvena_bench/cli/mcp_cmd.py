"""``orvena-bench mcp capture|serve``: record a real MCP server's tool list as a fixture, and
serve a scenario's scripted connections as a real MCP server."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import anyio
import orjson
from pydantic import ValidationError

from orvena_bench.formats.clock import clock_for
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.jsonl import FormatErrors, iter_lines, line_errors
from orvena_bench.formats.paths import fixtures_dir, scenarios_dir
from orvena_bench.formats.scenario import Scenario

# Connection ids name fixture files and feed the internal ids: keep them plain.
_CONNECTION_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def register(subparsers: argparse._SubParsersAction) -> None:
    mcp = subparsers.add_parser("mcp", help="capture real MCP tool lists; serve scripted connections")
    sub = mcp.add_subparsers(dest="mcp_command", required=True, metavar="ACTION")

    cap = sub.add_parser(
        "capture", help="record a real MCP server's tools/list as fixtures/mcp/NAME.json",
        description="Start COMMAND as an MCP server over stdio, page through tools/list and write "
                    "the fixture. The server inherits this environment (credentials, base URLs).")
    _capture_options(cap)
    cap.add_argument("name", metavar="NAME", help="connection id, e.g. todoist")
    # argparse cannot put options between two positionals when the second is open-ended, so
    # everything after NAME is taken as is and split at "--" in run_capture.
    cap.add_argument("rest", nargs=argparse.REMAINDER, metavar="[OPTIONS] -- COMMAND ...",
                     help="options, then the server command and its arguments after --")
    cap.set_defaults(func=run_capture)

    srv = sub.add_parser(
        "serve", help="serve a scenario's scripted connections as an MCP server",
        description="Serve the scenario's connections over stdio (default) or streamable HTTP on "
                    "127.0.0.1, answering calls from its rules. With --connection the tools keep "
                    "their real names; serving all connections they are <connection>.<operation>.")
    srv.add_argument("scenario_id", metavar="SCENARIO_ID")
    srv.add_argument("--connection", metavar="NAME", help="serve only this connection")
    srv.add_argument("--scenarios", type=Path, action="append", metavar="FILE",
                     help="scenario JSONL file to search (repeatable; default scenarios/*.jsonl)")
    srv.add_argument("--http", type=int, metavar="PORT",
                     help="serve streamable HTTP at http://127.0.0.1:PORT/mcp (0 picks a port)")
    srv.set_defaults(func=run_serve)


def _capture_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, help="output file (default fixtures/mcp/NAME.json)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds (default 120)")


def _split_capture_args(args: argparse.Namespace) -> list[str]:
    """The server command; options written between NAME and -- are parsed into args."""
    if "--" not in args.rest:
        return list(args.rest)
    cut = args.rest.index("--")
    head, command = args.rest[:cut], args.rest[cut + 1:]
    if head:
        options = argparse.ArgumentParser(prog="orvena-bench mcp capture NAME", add_help=False)
        _capture_options(options)
        options.parse_args(head, namespace=args)
    return command


def _leaf(error: BaseException) -> BaseException:
    """The first real error inside anyio's task-group wrappers."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def run_capture(args: argparse.Namespace) -> int:
    from mcpmock.capture import capture_tools, write_fixture

    if not _CONNECTION_ID.match(args.name):
        raise FormatError(f"connection id {args.name!r} must be lowercase letters, digits and -",
                          field="NAME")
    command = _split_capture_args(args)
    try:
        capture = anyio.run(lambda: capture_tools(command, timeout=args.timeout))
    except FormatError:
        raise
    except Exception as e:  # whatever the child did wrong, as one line
        cause = _leaf(e)
        raise FormatError(f"capture of {' '.join(command)!r} failed: "
                          f"{type(cause).__name__}: {cause}") from e
    out = args.out or fixtures_dir() / f"{args.name}.json"
    write_fixture(out, capture.document())
    print(f"{out}: {len(capture.tools)} tools from {capture.server_name} "
          f"{capture.server_version} (protocol {capture.protocol_version})")
    return 0


def find_scenario(scenario_id: str, files: list[Path]) -> Scenario:
    """The scenario with this id; only its own line is validated, so a broken line elsewhere
    does not stop it."""
    for path in files:
        if not path.is_file():
            raise FormatError("no such scenario file", file=str(path))
        for number, raw in iter_lines(path):
            try:
                data = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            if isinstance(data, dict) and data.get("id") == scenario_id:
                try:
                    return Scenario.model_validate(data)
                except ValidationError as e:
                    raise FormatErrors(line_errors(e, str(path), number)) from e
    where = ", ".join(str(p) for p in files) or f"{scenarios_dir()} (no *.jsonl files)"
    raise FormatError(f"no scenario {scenario_id!r} in {where}")


def run_serve(args: argparse.Namespace) -> int:
    from mcpmock.responder import Responder
    from mcpmock.serve import bind_loopback, build_server, serve_http, serve_stdio, served_connections

    files = args.scenarios or sorted(scenarios_dir().glob("*.jsonl"))
    scenario = find_scenario(args.scenario_id, files)
    connections = served_connections(scenario, args.connection)
    responder = Responder(scenario, clock_for(scenario.phone, scenario.language))
    server = build_server(responder, connections, prefixed=args.connection is None)
    try:
        if args.http is None:
            anyio.run(serve_stdio, server)
        else:
            sock = bind_loopback(args.http)
            print(f"serving {scenario.id} ({', '.join(connections)})", file=sys.stderr, flush=True)
            anyio.run(serve_http, server, sock)
    except KeyboardInterrupt:
        pass  # Ctrl-C is how a server is meant to stop
    return 0
