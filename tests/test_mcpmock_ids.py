"""The model sees mcp.<uuid>.<operation>; scenarios and calls use <connection>/<operation>."""

import re
import uuid
from pathlib import Path

import pytest

from mcpmock.ids import (
    NAMESPACE,
    connection_uuid,
    internal_id,
    parse_internal,
    public_name,
    served_name,
    split_public,
    split_served,
)

CONNECTIONS = ["gmail", "google-drive", "google-calendar", "github", "todoist", "home-assistant",
               "notion", "linear", "airtable", "atlassian", "granola", "zapier"]
# MCP tool names: 1 to 128 characters of [A-Za-z0-9_.-].
MCP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


def test_namespace_is_the_documented_derivation():
    assert NAMESPACE == uuid.uuid5(uuid.NAMESPACE_URL,
                                   "https://huggingface.co/datasets/Orvena/orvena-bench")


def test_internal_id_is_uuid5_of_the_connection_id():
    # Pinned so that a change of namespace or form cannot pass unnoticed (docs/mcp.md quotes it).
    assert internal_id("todoist", "add-tasks") == \
        "mcp.0541a296-35f5-5422-ba82-fdad44f2ed8b.add-tasks"
    assert internal_id("gmail", "search_threads") == \
        f"mcp.{uuid.uuid5(NAMESPACE, 'gmail')}.search_threads"


def test_every_connection_gets_its_own_uuid():
    ids = {internal_id(c, "x").split(".")[1] for c in CONNECTIONS}
    assert len(ids) == len(CONNECTIONS)


@pytest.mark.parametrize("connection", CONNECTIONS)
@pytest.mark.parametrize("operation", ["add-tasks", "search_threads", "getJiraIssue", "a.b"])
def test_internal_id_maps_back(connection, operation):
    name = internal_id(connection, operation)
    assert MCP_NAME.match(name)
    assert parse_internal(name, CONNECTIONS) == (connection, operation)


def test_uppercase_uuid_parses():
    name = internal_id("notion", "notion-search")
    prefix, ident, operation = name.split(".", 2)
    assert parse_internal(f"{prefix}.{ident.upper()}.{operation}", CONNECTIONS) == \
        ("notion", "notion-search")


def test_names_that_are_not_internal_ids_of_these_connections():
    assert parse_internal("create_reminder", CONNECTIONS) is None
    assert parse_internal(internal_id("todoist", "x"), ["gmail"]) is None
    assert parse_internal(f"mcp.{uuid.uuid5(NAMESPACE, 'todoist')}.", CONNECTIONS) is None
    assert parse_internal("todoist/add-tasks", CONNECTIONS) is None


def test_public_names_map_both_ways():
    assert public_name("todoist", "add-tasks") == "todoist/add-tasks"
    assert split_public("todoist/add-tasks") == ("todoist", "add-tasks")
    assert split_public("home-assistant/HassTurnOn") == ("home-assistant", "HassTurnOn")
    assert split_public("create_reminder") is None
    assert split_public("todoist/") is None
    assert split_public("/add-tasks") is None


def test_served_names_follow_the_mcp_name_syntax_and_map_back():
    for connection in CONNECTIONS:
        name = served_name(connection, "list_events", prefixed=True)
        assert MCP_NAME.match(name)
        assert split_served(name, CONNECTIONS, prefixed=True) == (connection, "list_events")
    assert served_name("todoist", "add-tasks", prefixed=False) == "add-tasks"
    assert split_served("add-tasks", ["todoist"], prefixed=False) == ("todoist", "add-tasks")
    assert split_served("slack.post", CONNECTIONS, prefixed=True) is None
    assert split_served("add-tasks", CONNECTIONS, prefixed=True) is None


def test_the_documented_uuids_are_the_computed_ones():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "mcp.md").read_text()
    table = dict(re.findall(r"^\| ([a-z-]+) \| `([0-9a-f-]{36})` \|$", doc, re.MULTILINE))
    assert sorted(table) == sorted(CONNECTIONS)
    assert table == {c: connection_uuid(c) for c in CONNECTIONS}
