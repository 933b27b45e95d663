"""Reminders, alarms, timers and the assistant's scheduled tasks."""

from __future__ import annotations

from test_simphone_support import call, fails, make_phone, ok


# --- reminders ------------------------------------------------------------------------------
def test_open_reminders_by_default_soonest_first_with_overdue_marked():
    text = ok(make_phone(), "list_reminders")
    assert text.splitlines() == [
        "3 open reminders:",
        "- id: rem-4 | Renew car tax | due Tue 2026-11-03 18:00 (overdue) | list: Personal | priority: high",
        "- id: rem-1 | Call the bank | due Thu 2026-11-05 09:00 | list: Personal",
        "- id: rem-2 | Oat milk | list: Groceries",
        "Lists: Groceries, Personal",
    ]


def test_reminders_by_list_status_text_and_due_date():
    phone = make_phone()
    assert "Oat milk" in ok(phone, "list_reminders", list="groceries")
    assert ok(phone, "list_reminders", status="completed").splitlines()[1].startswith("- id: rem-3 | Pay rent")
    assert ok(phone, "list_reminders", status="all").startswith("4 reminders:")
    assert ok(phone, "list_reminders", query="BANK").startswith('1 open reminder matching "BANK":')
    text = ok(phone, "list_reminders", dueBefore="2026-11-04")
    assert text.startswith("1 open reminder due before Thu 2026-11-05 00:00:") and "rem-4" in text
    assert ok(phone, "list_reminders", list="Work") == "No open reminders found in list Work."


def test_a_created_reminder_is_listed_in_the_list_as_spelt_on_the_phone():
    phone = make_phone()
    assert ok(phone, "create_reminder", title="Buy bread", list="GROCERIES") == \
        "Created reminder id: rem-5 | Buy bread | list: Groceries"
    assert "rem-5 | Buy bread" in ok(phone, "list_reminders", list="Groceries")
    text = ok(phone, "create_reminder", title="Call the bank", due="2026-11-05T09:00",
              location="Liffey Analytics office")
    assert text == ("Created reminder id: rem-6 | Call the bank | due Thu 2026-11-05 09:00 | "
                    "list: Reminders | when arriving at: Liffey Analytics office")


def test_a_completed_reminder_is_done_and_no_longer_open():
    phone = make_phone()
    assert ok(phone, "complete_reminder", id="rem-1") == "Completed reminder rem-1: Call the bank"
    assert "rem-1" not in ok(phone, "list_reminders")
    assert "rem-1 | Call the bank | due Thu 2026-11-05 09:00 | list: Personal | done" in \
        ok(phone, "list_reminders", status="completed")
    assert ok(phone, "complete_reminder", id="rem-1") == \
        "Reminder rem-1 (Call the bank) was already completed."


def test_a_deleted_reminder_is_gone():
    phone = make_phone()
    assert ok(phone, "delete_reminder", id="rem-2") == "Deleted reminder rem-2: Oat milk"
    assert "Oat milk" not in ok(phone, "list_reminders", status="all")
    assert "no reminder with id 'rem-2'" in fails(phone, "complete_reminder", id="rem-2")


def test_reminders_permission_denied_and_no_reminders():
    denied = make_phone({"device": {"permissions": {"reminders": "denied"}}})
    assert "Reminders is denied" in fails(denied, "create_reminder", title="x")
    assert len(denied.reminders) == 4
    empty = make_phone(base={})
    assert ok(empty, "list_reminders") == "No open reminders found."
    assert "priority" in fails(empty, "create_reminder", title="x", priority="urgent")


# --- alarms and timers ---------------------------------------------------------------------
def test_alarms_and_running_timers_with_ids_and_next_ring():
    text = ok(make_phone(), "list_alarms")
    assert text.splitlines() == [
        "3 alarms, 1 running timer:",
        "- id: alm-1 | 06:45 | weekdays (Mon-Fri) | label: Work | on | next Thu 2026-11-05 06:45",
        "- id: alm-2 | Sat 2026-11-07 08:30 | once | label: Flight check-in | on | next Sat 2026-11-07 08:30",
        "- id: alm-3 | 09:00 | weekends (Sat-Sun) | off",
        "- id: tmr-1 | timer | Pasta | 12 min | ends Wed 2026-11-04 10:38 (8 min left)",
    ]


def test_a_finished_timer_is_not_running():
    phone = make_phone({"alarms": [{"kind": "timer", "duration": "PT5M", "started": "-10m"}]})
    assert ok(phone, "list_alarms") == "No alarms or running timers."


def test_an_alarm_set_is_listed_and_a_cancelled_one_is_gone():
    phone = make_phone()
    assert ok(phone, "schedule_alarm", time="2026-11-05T07:30", label="Gym") == \
        "Alarm set id: alm-4 | Thu 2026-11-05 07:30 | once | label: Gym | on | next Thu 2026-11-05 07:30"
    assert ok(phone, "schedule_alarm", time="2026-11-06T06:00", repeat=["mon", "wed", "fri"]) == \
        "Alarm set id: alm-5 | 06:00 | every Mon, Wed, Fri | on | next Fri 2026-11-06 06:00"
    assert ok(phone, "cancel_alarm", id="alm-1") == "Cancelled alarm alm-1 (06:45, weekdays (Mon-Fri), Work)"
    listed = ok(phone, "list_alarms")
    assert "alm-1" not in listed and "alm-4" in listed and listed.startswith("4 alarms")


def test_a_one_off_alarm_in_the_past_fails():
    assert fails(make_phone(), "schedule_alarm", time="2026-11-04T07:00") == (
        "Error: time 2026-11-04T07:00 is in the past (now is Wed 2026-11-04 10:30); give a future date-time")


def test_timers_take_an_iso_duration_and_can_be_cancelled():
    phone = make_phone()
    assert ok(phone, "start_timer", duration="PT12M", label="pasta") == \
        "Timer started id: tmr-2 | timer | pasta | 12 min | ends Wed 2026-11-04 10:42 (12 min left)"
    assert ok(phone, "start_timer", duration="PT1H30M").endswith("ends Wed 2026-11-04 12:00 (1 h 30 min left)")
    assert ok(phone, "cancel_alarm", id="TMR-1") == "Cancelled timer tmr-1 (Pasta)"
    assert fails(phone, "start_timer", duration=720) == (
        "Error: field 'duration': expected an ISO 8601 duration like PT10M or PT1H30M, got 720")
    assert "longer than zero" in fails(phone, "start_timer", duration="PT0M")
    assert "at most 24 hours" in fails(phone, "start_timer", duration="P2D")


def test_a_timer_across_midnight():
    phone = make_phone(base={"timeZone": "Europe/Dublin", "alarms": [
        {"kind": "timer", "duration": "PT2H", "started": "-1d 23:30"}]})
    # Started yesterday at 23:30, ended at 01:30 today: not running.
    assert ok(phone, "list_alarms") == "No alarms or running timers."


# --- scheduled tasks -----------------------------------------------------------------------
def test_a_scheduled_task_is_listed_and_can_be_cancelled():
    phone = make_phone()
    assert ok(phone, "schedule_task", instruction="check DART delays and tell me",
              time="2026-11-05T07:30") == \
        "Scheduled task id: tsk-2 | next run Thu 2026-11-05 07:30 | once | check DART delays and tell me"
    text = ok(phone, "list_tasks")
    assert text.splitlines() == [
        "2 scheduled tasks:",
        "- id: tsk-1 | next run Thu 2026-11-05 08:00 | weekdays (Mon-Fri) | Summarise unread email",
        "- id: tsk-2 | next run Thu 2026-11-05 07:30 | once | check DART delays and tell me",
    ]
    assert ok(phone, "cancel_task", id="tsk-1") == "Cancelled task tsk-1: Summarise unread email"
    assert ok(phone, "list_tasks").startswith("1 scheduled task:")
    assert "no scheduled task with id 'tsk-1'" in fails(phone, "cancel_task", id="tsk-1")


def test_a_repeating_task_from_a_past_time_runs_next_on_its_days():
    phone = make_phone({"tasks": []})
    text = ok(phone, "schedule_task", instruction="tell me if it will rain",
              time="2026-11-04T08:00", repeat=["weekdays"])
    assert "next run Thu 2026-11-05 08:00 | weekdays (Mon-Fri)" in text
    assert ok(make_phone({"tasks": []}), "list_tasks") == "No scheduled tasks."


def test_tasks_need_the_notifications_permission():
    phone = make_phone({"device": {"permissions": {"notifications": "denied"}}})
    assert "Notifications is denied" in fails(phone, "schedule_task", instruction="x", time="2026-11-05T08:00")
    assert call(phone, "list_tasks").failed is False
