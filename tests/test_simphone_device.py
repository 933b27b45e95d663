"""Device state and settings, and run_tool's contract: arguments checked against the catalog
first, then the permission, and every model mistake a one-line failure, never an exception."""

from __future__ import annotations

import pytest
from test_simphone_support import call, catalog, fails, make_phone, ok

from simphone import NATIVE_TOOLS


def test_device_status_reads_every_part_of_the_state():
    phone = make_phone({"device": {"battery": 14, "charging": True, "network": "cellular",
                                   "carrier": "Vodafone IE", "wifi": False, "focus": "work",
                                   "focusUntil": "17:00", "storage": {"totalGB": 128, "usedGB": 97.4},
                                   "permissions": {"contacts": "denied", "photos": "denied"}}})
    assert ok(phone, "get_device_status").splitlines() == [
        "battery: 14% (charging)",
        "storage: 97.4 GB of 128 GB used (30.6 GB free)",
        "network: cellular (Vodafone IE)",
        "Wi-Fi: off, Bluetooth: on, Airplane Mode: off",
        "focus: Work until Wed 2026-11-04 17:00",
        "brightness: 50%, volume: 50%",
        "flashlight: off, Low Power Mode: off, Dark Mode: off",
        "permissions: denied for contacts, photos; all others granted",
    ]


def test_do_not_disturb_until_a_time_then_status_shows_it():
    phone = make_phone()
    assert ok(phone, "set_device_setting", setting="focus", value="do not disturb",
              until="2026-11-04T14:00") == "Focus: Do Not Disturb until Wed 2026-11-04 14:00."
    assert "focus: Do Not Disturb until Wed 2026-11-04 14:00" in ok(phone, "get_device_status")
    assert ok(phone, "set_device_setting", setting="focus", value="off") == "Focus: off."
    assert "is in the past" in fails(phone, "set_device_setting", setting="focus", value="sleep",
                                     until="2026-11-04T09:00")
    assert "expected do-not-disturb, sleep" in fails(phone, "set_device_setting", setting="focus", value="party")


def test_switches_change_state_and_the_network_follows_the_radios():
    phone = make_phone()
    assert ok(phone, "set_device_setting", setting="wifi", value=False) == \
        "Wi-Fi is now off (network: cellular (Vodafone IE))."
    assert ok(phone, "set_device_setting", setting="airplaneMode", value="on") == \
        "Airplane Mode is now on (network: no connection (airplane mode))."
    assert "no internet connection" in fails(phone, "search_web", query="louvre")
    assert ok(phone, "set_device_setting", setting="airplaneMode", value="off").endswith(
        "(network: cellular (Vodafone IE)).")
    assert ok(phone, "set_device_setting", setting="flashlight", value=True) == "Flashlight is now on."
    assert phone.device.flashlight is True
    assert "expected on or off" in fails(phone, "set_device_setting", setting="bluetooth", value="maybe")


def test_levels_are_percentages():
    phone = make_phone()
    assert ok(phone, "set_device_setting", setting="brightness", value="80%") == "Brightness set to 80%."
    assert ok(phone, "set_device_setting", setting="volume", value=20) == "Volume set to 20%."
    assert (phone.device.brightness, phone.device.volume) == (80, 20)
    assert "from 0 to 100" in fails(phone, "set_device_setting", setting="volume", value=120)
    assert "until applies only to focus" in fails(phone, "set_device_setting", setting="volume",
                                                  value=20, until="2026-11-04T14:00")


# --- run_tool -------------------------------------------------------------------------------
@pytest.mark.parametrize("tool, args, expected", [
    ("set_device_setting", {"setting": "nfc", "value": True},
     "Error: field 'setting': expected one of wifi, bluetooth, focus, brightness, volume, "
     'flashlight, lowPower, airplaneMode, darkMode; got "nfc"'),
    ("list_events", {"start": 20261105},
     "Error: field 'start': expected a date like 2026-11-05 or a local date-time like "
     "2026-11-05T07:30, got 20261105"),
    ("load_tools", {"names": ["gmail/search"]}, "Error: unknown tool 'load_tools'"),
    ("schedule_alarm", {"time": "2026-11-05T07:30", "repeat": ["monday"]},
     "Error: field 'repeat.0': expected one of mon, tue, wed, thu, fri, sat, sun, daily, "
     'weekdays, weekends; got "monday"'),
    ("play_music", {"query": "x", "shuffle": "yes"},
     "Error: field 'shuffle': expected true or false, got \"yes\""),
])
def test_invalid_arguments_are_unmatched_failures_naming_the_field(tool, args, expected):
    outcome = call(make_phone(), tool, **args)
    assert (outcome.failed, outcome.matched, outcome.text) == (True, False, expected)


def test_null_for_an_optional_argument_means_not_given():
    phone = make_phone()
    assert ok(phone, "list_events", start="2026-11-05", end=None, query=None).startswith("3 events")
    assert fails(phone, "send_message", to=None, text="hi") == \
        "Error: field 'to': expected a string, got null"


def test_arguments_that_are_not_an_object_fail():
    from simphone import run_tool
    outcome = run_tool(make_phone(), "list_events", ["2026-11-05"], catalog())
    assert (outcome.failed, outcome.matched) == (True, False)


def test_a_failed_tool_leaves_the_phone_unchanged():
    phone = make_phone({"device": {"permissions": {"calendar": "denied"}}})
    before = phone.model_dump()
    fails(phone, "create_event", title="x", start="2026-11-05T10:00")
    fails(phone, "delete_event", id="evt-1")
    assert phone.model_dump() == before


@pytest.mark.parametrize("tool", sorted(NATIVE_TOOLS))
def test_every_tool_answers_an_empty_phone_without_raising(tool):
    # The smallest valid arguments of each tool, on a phone with no data at all.
    examples = {"string": "x", "boolean": True, "integer": 1, "array": ["x"]}
    entry = catalog().tool(tool)
    args = {}
    for name in entry.parameters["required"]:
        prop = entry.parameters["properties"][name]
        if "enum" in prop:
            args[name] = prop["enum"][0]
        elif prop.get("pattern", "").startswith("^P"):
            args[name] = "PT5M"
        elif "pattern" in prop:
            args[name] = "2026-11-05T09:00" if "T" in prop["pattern"] and "(T" not in prop["pattern"] \
                else "2026-11-05"
        else:
            args[name] = examples[prop["type"] if isinstance(prop["type"], str) else prop["type"][0]]
    outcome = call(make_phone(base={}), tool, **args)
    assert outcome.text and (not outcome.failed or outcome.text.startswith("Error: "))
    assert "\n" not in outcome.text or not outcome.failed
