"""`orvena-bench mcp capture NAME -- COMMAND...`: a real MCP server over stdio, every page of
tools/list, written as a fixture that loads."""

import shutil
import subprocess
import sys
import textwrap

import orjson
import pytest

from orvena_bench.cli.main import main
from mcpmock.capture import META_KEY
from mcpmock.fixtures import load_fixture

# A small real MCP server (the SDK's low-level Server) that lists five tools two per page.
PAGED_SERVER = textwrap.dedent('''
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    TOOLS = [types.Tool(name=f"op-{i}", description=f"Operation {i}.",
                        input_schema={"type": "object", "properties": {"n": {"type": "integer"}}},
                        output_schema={"type": "object"} if i == 0 else None,
                        annotations=types.ToolAnnotations(read_only_hint=i % 2 == 0))
             for i in range(5)]

    async def list_tools(ctx, params):
        start = int(params.cursor) if params and params.cursor else 0
        end = start + 2
        return types.ListToolsResult(tools=TOOLS[start:end],
                                     next_cursor=str(end) if end < len(TOOLS) else None)

    async def main():
        server = Server("paged-demo", version="1.2.3", on_list_tools=list_tools)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)
''')


def test_capture_pages_through_tools_list(tmp_path, capsys):
    script = tmp_path / "server.py"
    script.write_text(PAGED_SERVER)
    out = tmp_path / "demo.json"
    assert main(["mcp", "capture", "demo", "--out", str(out), "--",
                 sys.executable, str(script)]) == 0
    assert "5 tools from paged-demo 1.2.3" in capsys.readouterr().out
    tools = load_fixture(out)
    assert [t.name for t in tools] == ["op-0", "op-1", "op-2", "op-3", "op-4"]
    raw = orjson.loads(out.read_bytes())
    # Wire keys, not the SDK's attribute names.
    assert raw["tools"][0]["inputSchema"]["properties"] == {"n": {"type": "integer"}}
    assert raw["tools"][0]["outputSchema"] == {"type": "object"}
    assert raw["tools"][1]["annotations"] == {"readOnlyHint": False}
    assert raw["_meta"][META_KEY]["server"] == {"name": "paged-demo", "version": "1.2.3"}


@pytest.mark.parametrize(("args", "message"), [
    (["Bad_Name", "--", "true"], "connection id 'Bad_Name'"),
    (["demo", "--"], "no server command given"),
    (["demo", "--", "/nonexistent/server"], "FileNotFoundError"),
    (["demo", "--timeout", "20", "--", sys.executable, "-c", "print(1)"], "failed"),
])
def test_capture_failures_are_one_line_errors(tmp_path, capsys, args, message):
    assert main(["mcp", "capture", *args[:1], "--out", str(tmp_path / "x.json"), *args[1:]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("orvena-bench: ")
    assert not (tmp_path / "x.json").exists()


# The open-source Todoist server from the npm registry, pinned to the version the registry here
# has. Pointed at a closed loopback port so it never reaches Todoist.
TODOIST_PACKAGE = "@doist/todoist-mcp@11.0.0"


@pytest.fixture(scope="session")
def todoist_install(tmp_path_factory):
    """Runs npm install: only for tests marked ``network`` (opt in with --run-network)."""
    if shutil.which("npx") is None or shutil.which("npm") is None:
        pytest.skip("npx/npm not installed: the npm-registry capture test needs Node.js")
    prefix = tmp_path_factory.mktemp("npm")
    try:
        # No retries and a short fetch timeout, so an unreachable registry skips quickly;
        # --prefer-offline reuses npm's own cache from earlier sessions without asking again.
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefer-offline",
                        "--fetch-retries=0", "--fetch-timeout=30000", "--prefix", str(prefix),
                        TODOIST_PACKAGE], check=True, capture_output=True, text=True, timeout=300)
    except subprocess.CalledProcessError as e:
        errors = [line for line in e.stderr.splitlines()
                  if line.startswith("npm error") and "complete log" not in line]
        pytest.skip(f"npm install {TODOIST_PACKAGE} failed: {' / '.join(errors[:2])}")
    except subprocess.TimeoutExpired:
        pytest.skip(f"npm install {TODOIST_PACKAGE} took over 300 s")
    return prefix


@pytest.mark.network
def test_capture_a_real_server_from_the_npm_registry(todoist_install, tmp_path, monkeypatch,
                                                     capsys):
    monkeypatch.setenv("TODOIST_API_KEY", "dummy")
    monkeypatch.setenv("TODOIST_BASE_URL", "http://127.0.0.1:9")
    out = tmp_path / "todoist.json"
    assert main(["mcp", "capture", "todoist", "--out", str(out), "--",
                 "npx", "--no-install", "--prefix", str(todoist_install), "todoist-mcp"]) == 0
    tools = {t.name: t for t in load_fixture(out)}
    assert len(tools) == 45  # what 11.0.0 lists
    assert {"add-tasks", "find-tasks", "complete-tasks", "find-projects"} <= tools.keys()
    assert tools["find-tasks"].annotations.read_only_hint is True
    meta = orjson.loads(out.read_bytes())["_meta"][META_KEY]
    assert meta["server"]["version"] == "11.0.0"
