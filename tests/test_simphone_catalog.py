"""The native tool catalog: the 38 fixed names, one implementation per tool, strict schemas in
the date-time convention, and a size that fits one cacheable prefix."""

from __future__ import annotations

import re

import orjson
import pytest
from jsonschema import Draft202012Validator
from test_simphone_support import catalog

from orvena_bench.formats.catalog import Permission
from orvena_bench.formats.languages import LOADER_TOOLS
from simphone import NATIVE_TOOLS

DATE_TIME = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$"
FIELD_NAMES_FOR_TIMES = {"start", "end", "due", "time", "departAt", "arriveBy", "until", "dueBefore"}

# The 38 names of the app's native tool list, in its order.
NAMES = (
    "load_skills load_connectors load_tools list_events create_event update_event delete_event "
    "list_reminders create_reminder complete_reminder delete_reminder list_alarms schedule_alarm "
    "cancel_alarm start_timer schedule_task list_tasks cancel_task get_weather search_places "
    "get_place_details get_directions get_current_location search_contacts save_contact "
    "send_message place_call get_health_data search_photos search_files read_file search_web "
    "fetch_url search_music play_music control_playback get_device_status set_device_setting"
).split()


def test_the_catalog_declares_exactly_the_38_native_tools_in_the_spec_order():
    assert len(NAMES) == 38
    assert [t.name for t in catalog().tools] == NAMES


def test_every_catalog_tool_has_an_implementation_and_every_implementation_an_entry():
    declared = {t.name for t in catalog().tools}
    assert set(NATIVE_TOOLS) | LOADER_TOOLS == declared
    assert not set(NATIVE_TOOLS) & LOADER_TOOLS  # the loaders belong to the agent loop
    assert len(NATIVE_TOOLS) == 35


@pytest.mark.parametrize("tool", catalog().tools, ids=lambda t: t.name)
def test_every_schema_is_strict(tool):
    schema = tool.parameters
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) <= set(schema["properties"])
    for name, prop in schema["properties"].items():
        assert "type" in prop, f"{tool.name}.{name} has no type"
        if name in FIELD_NAMES_FOR_TIMES:
            assert prop.get("pattern", "").startswith(r"^\d{4}-\d{2}-\d{2}"), f"{tool.name}.{name}"


@pytest.mark.parametrize("tool", catalog().tools, ids=lambda t: t.name)
def test_every_tool_is_described_for_a_small_model(tool):
    # What it does, when to use it or what it returns, in a few sentences.
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", tool.description) if s]
    assert 1 <= len(sentences) <= 5
    assert 40 <= len(tool.description) <= 400
    assert tool.permission in Permission.__args__
    assert tool.skill in {s.name for s in catalog().skills} | {"core"}


def test_writes_are_flagged():
    writes = {t.name for t in catalog().tools if t.writes}
    assert {"create_event", "update_event", "delete_event", "complete_reminder", "send_message",
            "set_device_setting", "start_timer", "schedule_task", "play_music"} <= writes
    assert not writes & {"list_events", "search_contacts", "get_weather", "search_web", "read_file"}


def test_date_time_arguments_take_the_convention_of_the_card():
    validator = Draft202012Validator(catalog().tool("schedule_task").parameters)
    assert validator.is_valid({"instruction": "check the DART", "time": "2026-11-05T07:30"})
    assert validator.is_valid({"instruction": "check the DART", "time": "2026-11-05T07:30:00"})
    for bad in ("2026-11-05 07:30", "2026-11-05T07:30Z", "2026-11-05T07:30+01:00", "tomorrow 7:30"):
        assert not validator.is_valid({"instruction": "x", "time": bad}), bad
    assert catalog().tool("create_event").parameters["properties"]["start"]["pattern"] == DATE_TIME


def test_start_timer_takes_an_iso_8601_duration():
    validator = Draft202012Validator(catalog().tool("start_timer").parameters)
    for good in ("PT12M", "PT1H30M", "PT90S", "P1D"):
        assert validator.is_valid({"duration": good}), good
    for bad in ("12 minutes", 720, "12:00"):
        assert not validator.is_valid({"duration": bad}), bad


def test_all_38_tools_fit_the_size_budget_of_one_shared_prefix():
    # Descriptions and schemas of all tools, as compact JSON: under ~5,000 tokens.
    size = sum(len(orjson.dumps({"name": t.name, "description": t.description,
                                 "parameters": t.parameters})) for t in catalog().tools)
    assert size < 20_000, size


def test_system_prompt_covers_the_rules_and_stays_short():
    prompt = catalog().systemPrompt
    assert len(prompt) < 2_500
    for rule in ("language of the user's request", "Never invent", "ask one short question",
                 "load_connectors", "load_tools", "cannot be done", "arithmetic", "2026-11-05T07:30"):
        assert rule in prompt, rule


def test_the_12_connections():
    expected = {"gmail": "Gmail", "google-drive": "Google Drive", "google-calendar": "Google Calendar",
                "github": "GitHub", "todoist": "Todoist", "home-assistant": "Home Assistant",
                "notion": "Notion", "linear": "Linear", "airtable": "Airtable",
                "atlassian": "Atlassian: Jira and Confluence", "granola": "Granola", "zapier": "Zapier"}
    connections = catalog().connections
    assert {c.id: c.name for c in connections} == expected
    for c in connections:
        assert c.fixture == f"fixtures/mcp/{c.id}.json"
        assert c.description and "\n" not in c.description


def test_every_skill_groups_tools_and_has_guidance():
    skills = {s.name: s for s in catalog().skills}
    used = {t.skill for t in catalog().tools} - {"core"}
    assert used == set(skills)
    for skill in skills.values():
        assert skill.description and len(skill.guidance) > 40
    assert catalog().tool("load_skills").parameters["properties"]["skills"]["items"]["enum"] == \
        list(skills)


def test_loader_argument_names_are_those_the_agent_loop_reads():
    # harness/loaders.py reads one list argument per loader under these names.
    for tool, argument in (("load_skills", "skills"), ("load_connectors", "connections"),
                           ("load_tools", "names")):
        assert catalog().tool(tool).parameters["required"] == [argument]
