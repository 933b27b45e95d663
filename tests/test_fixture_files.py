"""The 12 MCP fixtures (fixtures/mcp/): each file is a tools/list result the MCP SDK accepts and
mcpmock loads, with the card's tool count, the services' real operation names, unique and
well-formed names, valid schemas, the four annotation hints on every tool, and output schemas
exactly where the real servers send them."""

import json
import re
from functools import cache

import pytest
from jsonschema import Draft202012Validator, validators
from mcp.types import ListToolsResult

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.paths import fixtures_dir
from mcpmock.fixtures import load_fixture

# The card's capture counts ("MCP tool lists" table).
COUNTS = {
    "gmail": 23, "google-drive": 8, "google-calendar": 9, "github": 131, "todoist": 47,
    "granola": 6, "home-assistant": 39, "notion": 44, "linear": 76, "airtable": 46,
    "atlassian": 40, "zapier": 22,
}
NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
# GitHub's and Todoist's servers send the display title only inside annotations.
TITLE_IN_ANNOTATIONS = {"github", "todoist"}
# Captures whose every argument carries a description (the others are third-party captures).
DESCRIBED = ("gmail", "google-drive", "google-calendar", "github", "todoist", "granola")

# Names the services are known to use (fixtures/mcp/README.md says where each comes from).
KNOWN = {
    "gmail": {"search_threads", "get_thread", "get_message", "create_draft", "list_drafts", "list_labels",
              "label_message", "label_thread", "unlabel_message", "unlabel_thread", "get_draft", "update_draft",
              "trash_thread", "untrash_thread", "trash_message", "mark_thread_spam", "send_message", "reply",
              "forward"},
    "google-drive": {"search_files", "read_file_content", "download_file_content", "get_file_metadata",
                     "get_file_permissions", "list_recent_files", "create_file", "copy_file"},
    "google-calendar": {"list_calendars", "list_events", "search_events", "get_event", "create_event",
                        "update_event", "delete_event", "respond_to_event", "suggest_time"},
    "github": {"get_me", "issue_read", "issue_write", "list_issues", "search_issues", "add_issue_comment",
               "pull_request_read", "create_pull_request", "merge_pull_request", "get_file_contents",
               "search_repositories", "list_notifications", "actions_list", "projects_list"},
    "todoist": {"add-tasks", "complete-tasks", "update-tasks", "find-tasks", "find-tasks-by-date",
                "find-projects", "add-comments", "add-reminders", "get-overview", "delete-object", "user-info",
                "search", "fetch"},
    "granola": {"list_meetings", "get_meetings", "get_meeting_transcript", "list_meeting_folders",
                "get_account_info", "query_granola_meetings"},
}


@cache  # the files are read-only here; parse each once
def load(connection: str) -> dict:
    return json.loads((fixtures_dir() / f"{connection}.json").read_text(encoding="utf-8"))


def tools(connection: str) -> list[dict]:
    return load(connection)["tools"]


def tool(connection: str, name: str) -> dict:
    return next(t for t in tools(connection) if t["name"] == name)


def validator(schema: dict):
    """A validator of the draft the schema declares, 2020-12 when it declares none."""
    return validators.validator_for(schema, default=Draft202012Validator)(schema)


def undescribed(schema: dict, path: str = "") -> list[str]:
    """Arguments (also nested ones) that carry no description for the model to read."""
    out = []
    for key, sub in (schema.get("properties") or {}).items():
        here = f"{path}.{key}" if path else key
        if "description" not in sub:
            out.append(here)
        out += undescribed(sub, here)
    if isinstance(schema.get("items"), dict):
        out += undescribed(schema["items"], path)
    for alternative in schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", []):
        out += undescribed(alternative, path)
    return out


@pytest.mark.parametrize("connection", COUNTS)
def test_the_file_is_a_tools_list_of_the_cards_count_of_valid_tools(connection):
    result = ListToolsResult.model_validate(load(connection))
    names = [t.name for t in result.tools]
    assert len(names) == COUNTS[connection]
    assert [n for n in names if not NAME.match(n)] == []
    # mcpmock's loader is the project's one check of the rest: unique names, object input schemas,
    # input and output schemas valid under the draft they declare (2020-12 when none).
    load_fixture(fixtures_dir() / f"{connection}.json")
    for t in result.tools:
        assert set(t.input_schema.get("required", [])) <= set(t.input_schema.get("properties", {})), t.name


@pytest.mark.parametrize("connection", KNOWN)
def test_the_services_real_operation_names_are_there(connection):
    assert KNOWN[connection] - {t["name"] for t in tools(connection)} == set()


def test_output_schemas_only_where_the_real_server_has_them():
    with_output = {c: {t["name"] for t in tools(c) if "outputSchema" in t} for c in COUNTS}
    # MCP: structuredContent is an object, so an outputSchema describes one.
    assert all(t["outputSchema"]["type"] == "object" for c in COUNTS for t in tools(c) if "outputSchema" in t)
    for google in ("gmail", "google-drive", "google-calendar"):
        assert len(with_output[google]) == COUNTS[google], google
    assert {t["name"] for t in tools("todoist")} - with_output["todoist"] == {"view-attachment"}
    assert {c for c, names in with_output.items() if names} == {
        "gmail", "google-drive", "google-calendar", "todoist"}


def test_an_invalid_output_schema_is_refused_when_the_fixture_loads(tmp_path):
    data = load("todoist")
    broken = {**data, "tools": [{**data["tools"][0], "outputSchema": {"type": "object",
                                                                      "properties": 5}}]}
    path = tmp_path / "todoist.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    with pytest.raises(FormatError, match="outputSchema"):
        load_fixture(path)


@pytest.mark.parametrize("connection", COUNTS)
def test_every_tool_has_a_display_title_a_description_and_the_four_hints(connection):
    for t in tools(connection):
        annotations = t["annotations"]
        # MCP's display-name order is title, then annotations.title.
        title = annotations.get("title") if connection in TITLE_IN_ANNOTATIONS else t.get("title")
        assert title, t["name"]
        assert len(t.get("description", "")) >= 20, t["name"]
        assert all(isinstance(annotations.get(h), bool) for h in HINTS), t["name"]
        if annotations["readOnlyHint"]:
            assert not annotations["destructiveHint"], t["name"]


@pytest.mark.parametrize("connection", DESCRIBED)
def test_every_argument_is_described(connection):
    assert {t["name"]: undescribed(t["inputSchema"]) for t in tools(connection)
            if undescribed(t["inputSchema"])} == {}


@pytest.mark.parametrize("connection", COUNTS)
def test_a_call_without_required_arguments_fails_validation(connection):
    """The schemas are strict enough for the responder to reject a call that leaves out a
    required field."""
    for t in tools(connection):
        if t["inputSchema"].get("required"):
            assert not validator(t["inputSchema"]).is_valid({}), t["name"]


def test_closed_schemas_reject_unknown_arguments():
    v = validator(tool("linear", "get_issue")["inputSchema"])
    assert v.is_valid({"id": "ENG-142"})
    assert not v.is_valid({"id": "ENG-142", "issueKey": "ENG-142"})


def test_typical_calls_validate():
    """Calls a model would make in the bench's MCP scenarios pass their tool's schema."""
    calls = [
        ("gmail", "search_threads", {"query": "from:orla@brennan.example newer_than:7d"}),
        ("gmail", "create_draft", {"to": ["orla@brennan.example"], "subject": "Friday", "body": "See you at 7."}),
        ("gmail", "label_thread", {"threadId": "18c2a", "labelIds": ["STARRED"]}),
        ("google-drive", "search_files", {"query": "lease", "pageSize": 5}),
        ("google-calendar", "list_events", {"startTime": "2026-11-05T00:00:00+00:00",
                                            "endTime": "2026-11-06T00:00:00+00:00"}),
        ("google-calendar", "create_event", {"summary": "Dentist", "startTime": "2026-11-06T09:30:00+00:00",
                                             "endTime": "2026-11-06T10:00:00+00:00", "location": "Grafton Street"}),
        ("github", "issue_write", {"method": "create", "owner": "lumen-labs", "repo": "tide",
                                   "title": "Crash on launch", "labels": ["bug"]}),
        ("github", "list_pull_requests", {"owner": "lumen-labs", "repo": "tide", "state": "open"}),
        ("todoist", "add-tasks", {"tasks": [{"content": "Renew passport", "dueString": "next Monday"}]}),
        ("todoist", "find-tasks-by-date", {"startDate": "today", "daysCount": 7}),
        ("granola", "list_meetings", {"time_range": "last_week"}),
        ("granola", "get_meetings", {"meeting_ids": ["c81d271e-99aa-4b6e-9f3e-0d7a1c2b3e4f"]}),
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
        v = validator(tool(connection, name)["inputSchema"])
        assert v.is_valid(arguments), (name, [e.message for e in v.iter_errors(arguments)])


def test_wrong_calls_are_rejected():
    """Enums, types and array shapes are strict enough for the responder's validation to bite."""
    calls = [
        ("todoist", "add-tasks", {"tasks": [{"content": "Renew passport", "priority": "urgent"}]}),
        ("todoist", "add-tasks", {"tasks": []}),
        ("github", "issue_write", {"method": "open", "owner": "lumen-labs", "repo": "tide"}),
        ("github", "list_issues", {"owner": "lumen-labs", "repo": "tide", "perPage": 500}),
        ("gmail", "create_draft", {"to": "orla@brennan.example"}),
        ("google-calendar", "respond_to_event", {"eventId": "e1", "response": "maybe"}),
        ("granola", "list_meetings", {"time_range": "yesterday"}),
    ]
    for connection, name, arguments in calls:
        assert not validator(tool(connection, name)["inputSchema"]).is_valid(arguments), (name, arguments)


def test_github_keeps_the_go_servers_shape():
    """github-mcp-server (Go SDK) sends sorted keys and the display title inside annotations only."""
    for t in tools("github"):
        assert list(t) == sorted(t), t["name"]
        assert "title" not in t and "outputSchema" not in t, t["name"]


def test_todoist_keeps_the_typescript_servers_shape():
    for t in tools("todoist"):
        assert list(t)[:4] == ["name", "description", "inputSchema", "annotations"], t["name"]
        assert t["execution"] == {"taskSupport": "forbidden"}, t["name"]
        assert t["inputSchema"]["$schema"] == "http://json-schema.org/draft-07/schema#", t["name"]


def test_the_twelve_files_hold_491_tools():
    assert sum(len(tools(c)) for c in COUNTS) == 491
