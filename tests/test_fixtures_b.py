"""The MCP fixtures of Home Assistant, Notion, Linear, Airtable, Atlassian and Zapier: each file is a
tools/list result the MCP SDK accepts, with the card's tool count, unique and well-formed names,
valid input schemas and the four annotation hints on every tool."""

import json
import re

import pytest
from jsonschema import Draft202012Validator, validators
from mcp.types import ListToolsResult

from orvena_bench.formats.paths import fixtures_dir

# The card's capture counts ("MCP tool lists" table).
COUNTS = {
    "home-assistant": 39,
    "notion": 44,
    "linear": 76,
    "airtable": 46,
    "atlassian": 40,
    "zapier": 22,
}
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def load(connection: str) -> dict:
    return json.loads((fixtures_dir() / f"{connection}.json").read_text(encoding="utf-8"))


def tools(connection: str) -> list[dict]:
    return load(connection)["tools"]


def validator_class(schema: dict):
    """The validator of the draft the schema declares, 2020-12 when it declares none."""
    return validators.validator_for(schema, default=Draft202012Validator)


@pytest.mark.parametrize("connection", COUNTS)
def test_the_file_is_a_tools_list_result_the_mcp_sdk_accepts(connection):
    result = ListToolsResult.model_validate(load(connection))
    assert len(result.tools) == COUNTS[connection]


@pytest.mark.parametrize("connection", COUNTS)
def test_tool_names_are_unique_and_valid_mcp_names(connection):
    names = [t["name"] for t in tools(connection)]
    assert len(set(names)) == len(names), [n for n in names if names.count(n) > 1]
    assert [n for n in names if not NAME.match(n)] == []


@pytest.mark.parametrize("connection", COUNTS)
def test_every_input_schema_is_a_valid_object_schema(connection):
    for tool in tools(connection):
        schema = tool["inputSchema"]
        assert schema["type"] == "object", tool["name"]
        validator_class(schema).check_schema(schema)
        missing = set(schema.get("required", [])) - set(schema.get("properties", {}))
        assert not missing, f"{tool['name']} requires undeclared {missing}"


@pytest.mark.parametrize("connection", COUNTS)
def test_every_output_schema_present_is_valid(connection):
    for tool in tools(connection):
        if "outputSchema" in tool:
            validator_class(tool["outputSchema"]).check_schema(tool["outputSchema"])


@pytest.mark.parametrize("connection", COUNTS)
def test_every_tool_has_a_title_a_description_and_the_four_hints(connection):
    for tool in tools(connection):
        assert tool.get("title"), tool["name"]
        assert len(tool.get("description", "")) >= 20, tool["name"]
        annotations = tool["annotations"]
        assert all(isinstance(annotations.get(h), bool) for h in HINTS), tool["name"]
        if annotations["readOnlyHint"]:
            assert not annotations["destructiveHint"], tool["name"]


@pytest.mark.parametrize("connection", COUNTS)
def test_a_call_without_required_arguments_fails_validation(connection):
    """The schemas are strict enough for the responder to reject a call that leaves out a required field."""
    for tool in tools(connection):
        schema = tool["inputSchema"]
        if schema.get("required"):
            errors = list(validator_class(schema)(schema).iter_errors({}))
            assert errors, tool["name"]


def test_closed_schemas_reject_unknown_arguments():
    schema = next(t for t in tools("linear") if t["name"] == "get_issue")["inputSchema"]
    validator = validator_class(schema)(schema)
    assert validator.is_valid({"id": "ENG-142"})
    assert not validator.is_valid({"id": "ENG-142", "issueKey": "ENG-142"})


def test_typical_calls_validate():
    """Calls a model would make in the bench's MCP scenarios pass their tool's schema."""
    calls = [
        ("home-assistant", "HassTurnOn", {"name": "Kitchen light"}),
        ("home-assistant", "HassLightSet", {"area": "Living Room", "domain": ["light"], "brightness": 40}),
        ("home-assistant", "GetLiveContext", {"domain": ["sensor", "climate"]}),
        ("notion", "notion-search", {"query": "Q4 budget"}),
        ("notion", "notion-create-pages", {"pages": [{"properties": {"title": "Trip notes"}, "content": "# Day 1"}]}),
        ("linear", "save_issue", {"team": "ENG", "title": "Fix login", "priority": 2, "assignee": "me"}),
        ("airtable", "create_records_for_table",
         {"baseId": "appAbc", "tableId": "Leads", "records": [{"fields": {"Name": "Aoife Byrne"}}]}),
        ("atlassian", "searchJiraIssuesUsingJql", {"cloudId": "c1", "jql": "assignee = currentUser()"}),
        ("zapier", "gmail_send_email", {"instructions": "Send the agenda", "to": ["ciara@gmail.example"]}),
    ]
    for connection, name, arguments in calls:
        schema = next(t for t in tools(connection) if t["name"] == name)["inputSchema"]
        validator = validator_class(schema)(schema)
        assert validator.is_valid(arguments), (name, [e.message for e in validator.iter_errors(arguments)])


def test_the_six_files_hold_267_tools():
    assert sum(len(tools(c)) for c in COUNTS) == 267
