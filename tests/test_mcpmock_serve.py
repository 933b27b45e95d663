"""`orvena-bench mcp serve`: the same answers as the responder reach a real MCP client, over
stdio and over streamable HTTP on loopback."""

import os
import re
import subprocess
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters
from test_mcpmock_support import SCENARIO, clock_of, scenario, write_root

from orvena_bench.formats.errors import FormatError
from mcpmock.fixtures import fixture_for
from mcpmock.responder import NOT_FOUND, Responder
from mcpmock.serve import build_server, served_connections

ID = SCENARIO["id"]


@pytest.fixture
def root(tmp_path, monkeypatch):
    write_root(tmp_path)
    monkeypatch.setenv("ORVENA_BENCH_ROOT", str(tmp_path))
    return tmp_path


def serve_command(*args):
    return [sys.executable, "-m", "orvena_bench.cli", "mcp", "serve", ID, *args]


def expected(name, operation, arguments):
    """What the bench's own responder answers, for comparison with what the client gets."""
    s = scenario()
    return Responder(s, clock_of(s)).call_result(name, operation, arguments)


async def exercise(client, prefix):
    listed = (await client.list_tools()).tools
    names = [t.name for t in listed]
    passport = {"searchText": "Passport"}
    first = await client.call_tool(f"{prefix}find-tasks", passport)
    second = await client.call_tool(f"{prefix}find-tasks", passport)
    missing = await client.call_tool(f"{prefix}add-tasks", {"tasks": [{"content": "milk"}]})
    invalid = await client.call_tool(f"{prefix}add-tasks", {"tasks": []})
    return names, listed, first, second, missing, invalid


def check_answers(first, second, missing, invalid):
    assert first.is_error and first.content[0].text == "Temporary failure"
    assert not second.is_error
    assert second.content[0].text == "1 task: Renew passport, due Monday"
    assert missing.is_error and missing.content[0].text == NOT_FOUND
    assert invalid.is_error and invalid.content[0].text.startswith("Invalid arguments for add-tasks")


def test_served_connections_default_to_every_installed_one():
    s = scenario()
    assert served_connections(s, None) == ["todoist", "gmail"]
    assert served_connections(s, "gmail") == ["gmail"]
    with pytest.raises(FormatError, match="does not install 'notion'"):
        served_connections(s, "notion")
    with pytest.raises(FormatError, match="installs no MCP connections"):
        served_connections(scenario(connections=[]), None)


def test_in_process_one_connection_keeps_real_names(root):
    s = scenario()
    server = build_server(Responder(s, clock_of(s)), ["todoist"], prefixed=False)

    async def run():
        async with Client(server) as client:
            return await exercise(client, "")

    names, listed, *answers = anyio.run(run)
    assert names == fixture_for("todoist").names
    check_answers(*answers)


def test_listing_leaves_output_schemas_out_and_structured_content_still_arrives(root):
    s = scenario()
    server = build_server(Responder(s, clock_of(s)), ["gmail"], prefixed=False)
    arguments = {"query": "receipt"}

    async def run():
        async with Client(server) as client:
            listed = (await client.list_tools()).tools
            return listed, await client.call_tool("search_threads", arguments)

    listed, result = anyio.run(run)
    assert fixture_for("gmail").tool("search_threads").output_schema is not None
    assert listed[0].output_schema is None and listed[0].title == "Search threads"
    assert result.structured_content == expected("gmail", "search_threads", arguments) \
        .structured_content == {"threads": [{"id": "t-1", "date": "2026-11-05"}]}


def test_an_unknown_served_name_is_an_unknown_tool_error(root):
    s = scenario()
    server = build_server(Responder(s, clock_of(s)), ["todoist", "gmail"], prefixed=True)

    async def run():
        async with Client(server) as client:
            return await client.call_tool("slack.post_message", {})

    result = anyio.run(run)
    assert result.is_error and result.content[0].text == "Unknown tool: slack.post_message"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_stdio_serves_every_connection_with_prefixed_names(root, mode):
    params = StdioServerParameters(command=sys.executable, args=serve_command()[1:],
                                   env=dict(os.environ), cwd=os.getcwd())

    async def run():
        async with Client(params, mode=mode) as client:
            return await exercise(client, "todoist.")

    names, _, *answers = anyio.run(run)
    assert names == ["todoist.add-tasks", "todoist.find-tasks", "gmail.search_threads"]
    check_answers(*answers)


def test_streamable_http_on_loopback(root):
    proc = subprocess.Popen(serve_command("--connection", "todoist", "--http", "0"),
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        url = None
        for line in proc.stderr:
            found = re.search(r"http://127\.0\.0\.1:\d+/mcp", line)
            if found:
                url = found.group(0)
                break
        assert url, "the server never printed its URL"

        async def run():
            async with Client(url) as client:
                return await exercise(client, "")

        names, _, *answers = anyio.run(run)
        assert names == ["add-tasks", "find-tasks"]
        check_answers(*answers)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        proc.stderr.close()


@pytest.mark.parametrize(("args", "message"), [
    (["--connection", "notion"], "does not install 'notion'"),
    (["--scenarios", "missing.jsonl"], "missing.jsonl"),
])
def test_bad_requests_are_one_line_errors(root, args, message, capsys):
    from orvena_bench.cli.main import main

    assert main(["mcp", "serve", ID, *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_scenario_lookup_skips_broken_lines_of_other_scenarios(root):
    from orvena_bench.cli.mcp_cmd import find_scenario

    path = root / "scenarios" / "bench.jsonl"
    path.write_bytes(b"{broken\n" + path.read_bytes())
    assert find_scenario(ID, [path]).id == ID
    with pytest.raises(FormatError, match="no scenario 'en-mcp-nothing'"):
        find_scenario("en-mcp-nothing", [path])


def test_arguments_json_accepts_but_orjson_refuses_are_answered_as_tool_results(root):
    s = scenario()
    server = build_server(Responder(s, clock_of(s)), ["todoist"], prefixed=False)
    odd = [{"searchText": "Passport", "limit": 10**24}, {"searchText": "Pass\ud83d"},
           {"\ud83d": 1, "searchText": "x"}]

    async def run():
        async with Client(server) as client:
            return [await client.call_tool("find-tasks", a) for a in odd]

    for result in anyio.run(run):
        assert result.content and result.content[0].text  # an answer, never a JSON-RPC error
