"""Fixture files are tools/list results in MCP wire shape; a bad file is one clear error naming
the file and field; the project's fixtures all load."""

import os

import orjson
import pytest
from mcp.types import Tool
from test_mcpmock_support import GMAIL, TODOIST

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.paths import fixtures_dir
from mcpmock.fixtures import fixture_for, fixture_path, load_fixture

CONNECTIONS = ["gmail", "google-drive", "google-calendar", "github", "todoist", "home-assistant",
               "notion", "linear", "airtable", "atlassian", "granola", "zapier"]


def write(tmp_path, data, name="todoist.json"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else orjson.dumps(data))
    return path


def test_a_fixture_loads_as_sdk_tools(tmp_path):
    tools = load_fixture(write(tmp_path, TODOIST))
    assert all(isinstance(t, Tool) for t in tools)
    assert [t.name for t in tools] == ["add-tasks", "find-tasks"]
    assert tools[0].annotations.read_only_hint is False
    assert tools[1].input_schema == {"type": "object",
                                     "properties": {"searchText": {"type": "string"}}}


def test_output_schema_and_title_are_kept(tmp_path):
    (tool,) = load_fixture(write(tmp_path, GMAIL))
    assert tool.title == "Search threads"
    assert tool.output_schema["required"] == ["threads"]


@pytest.mark.parametrize(("content", "field"), [
    (b"{not json", None),
    ([{"name": "x"}], "field tools"),
    ({"tools": {"name": "x"}}, "field tools"),
    ({"tools": [{"name": "x"}]}, "field tools[0].inputSchema"),
    ({"tools": [{"name": "x", "inputSchema": {"type": "array"}}]}, "field tools[0].inputSchema"),
    ({"tools": [{"name": "x", "inputSchema": {"type": "object",
                                              "properties": {"a": {"type": "strin"}}}}]},
     "field tools[0].inputSchema"),
    ({"tools": [{"name": "x", "inputSchema": {"type": "object"},
                 "outputSchema": {"type": 7}}]}, "field tools[0].outputSchema"),
    ({"tools": [{"name": "", "inputSchema": {"type": "object"}}]}, "field tools[0].name"),
])
def test_bad_files_name_the_file_and_field(tmp_path, content, field):
    path = write(tmp_path, content)
    with pytest.raises(FormatError) as e:
        load_fixture(path)
    assert str(e.value).startswith(str(path))
    if field:
        assert field in str(e.value)


def test_every_problem_is_listed(tmp_path):
    data = {"tools": [{"name": "a", "inputSchema": {"type": "object"}},
                      {"name": "a", "inputSchema": {"type": "object"}},
                      {"inputSchema": {"type": "object"}}]}
    with pytest.raises(FormatError) as e:
        load_fixture(write(tmp_path, data))
    lines = str(e.value).splitlines()
    assert len(lines) == 2
    assert "tools[1].name: duplicate tool name 'a'" in lines[0]
    assert "tools[2].name" in lines[1]


def test_fixture_for_resolves_under_the_project_root(tmp_path, monkeypatch):
    monkeypatch.setenv("ORVENA_BENCH_ROOT", str(tmp_path))
    (tmp_path / "fixtures" / "mcp").mkdir(parents=True)
    write(tmp_path / "fixtures" / "mcp", TODOIST)
    fixture = fixture_for("todoist")
    assert fixture.connection == "todoist"
    assert fixture.names == ["add-tasks", "find-tasks"]
    assert fixture.tool("find-tasks").name == "find-tasks" and fixture.tool("nope") is None
    assert fixture_for("todoist") is fixture  # loaded once


def test_fixture_for_rereads_a_changed_file(tmp_path, monkeypatch):
    monkeypatch.setenv("ORVENA_BENCH_ROOT", str(tmp_path))
    (tmp_path / "fixtures" / "mcp").mkdir(parents=True)
    path = write(tmp_path / "fixtures" / "mcp", TODOIST)
    assert len(fixture_for("todoist")) == 2
    write(tmp_path / "fixtures" / "mcp", {"tools": TODOIST["tools"][:1]})
    os.utime(path, ns=(1, 1))  # a different mtime even on coarse file systems
    assert len(fixture_for("todoist")) == 1


def test_fixture_for_follows_the_catalog_path(tmp_path, monkeypatch):
    monkeypatch.setenv("ORVENA_BENCH_ROOT", str(tmp_path))
    (tmp_path / "elsewhere").mkdir()
    write(tmp_path / "elsewhere", GMAIL, "mail.json")
    catalog = Catalog(systemPrompt="", tools=[], connections=[
        {"id": "gmail", "name": "Gmail", "description": "Mail", "fixture": "elsewhere/mail.json"}])
    assert fixture_path("gmail", catalog) == tmp_path / "elsewhere" / "mail.json"
    assert fixture_for("gmail", catalog).names == ["search_threads"]


def test_a_missing_fixture_names_its_path(tmp_path, monkeypatch):
    monkeypatch.setenv("ORVENA_BENCH_ROOT", str(tmp_path))
    with pytest.raises(FormatError, match="no MCP fixture for connection 'granola'") as e:
        fixture_for("granola")
    assert str(tmp_path / "fixtures" / "mcp" / "granola.json") in str(e.value)


# The card's MCP tool lists table: tools per connection, 491 in all.
CARD_COUNTS = {"gmail": 23, "google-drive": 8, "google-calendar": 9, "github": 131, "todoist": 47,
               "home-assistant": 39, "notion": 44, "linear": 76, "airtable": 46, "atlassian": 40,
               "granola": 6, "zapier": 22}


@pytest.mark.parametrize("connection", CONNECTIONS)
def test_project_fixture_loads_with_the_cards_count(connection):
    fixture = fixture_for(connection)
    assert len(fixture) == CARD_COUNTS[connection]
    for tool in fixture:
        assert tool.description, f"{connection}/{tool.name} has no description"
        assert tool.annotations is not None, f"{connection}/{tool.name} has no annotations"


def test_the_project_has_a_fixture_for_each_of_the_twelve_connections_only():
    assert sorted(p.stem for p in fixtures_dir().glob("*.json")) == sorted(CONNECTIONS)


@pytest.mark.parametrize("connection", ["/etc/passwd", "../../catalog/orvena-catalog", "", ".."])
def test_a_connection_id_cannot_reach_outside_the_fixtures_folder(connection):
    with pytest.raises(FormatError, match="is not a connection id"):
        fixture_path(connection)
