"""Alarms, timers and the assistant's scheduled tasks: list_alarms, schedule_alarm,
cancel_alarm, start_timer, schedule_task, list_tasks, cancel_task."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from simphone.data import Alarm, ScheduledTask
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.times import (
    WEEKDAY_CODES, argument_time, duration, show_datetime, show_duration, weekday_code,
)
from simphone.tools.common import count, labelled, line, take

_DAY_NAMES = dict(zip(WEEKDAY_CODES, ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")))


def repeat_text(days: list[str]) -> str:
    if not days:
        return "once"
    if len(days) == 7:
        return "daily"
    if days == list(WEEKDAY_CODES[:5]):
        return "weekdays (Mon-Fri)"
    if days == list(WEEKDAY_CODES[5:]):
        return "weekends (Sat-Sun)"
    return "every " + ", ".join(_DAY_NAMES[d] for d in days)


def next_time(at: datetime, days: list[str], now: datetime) -> datetime:
    """When something set for `at` (repeating on `days`) next happens after now."""
    if not days:
        return at
    candidate = now.replace(hour=at.hour, minute=at.minute, second=0, microsecond=0)
    for _ in range(8):
        if candidate > now and weekday_code(candidate.date()) in days:
            return candidate
        candidate = (candidate + timedelta(days=1)).replace(hour=at.hour, minute=at.minute)
    return candidate


def _future(phone: Phone, at: datetime, field: str, value: str) -> None:
    if at <= phone.now:
        raise ToolError(f"{field} {value} is in the past (now is {show_datetime(phone.now)}); "
                        "give a future date-time")


def alarm_line(phone: Phone, alarm: Alarm) -> str:
    if alarm.kind == "timer":
        left = alarm.ends - phone.now
        return line(f"id: {alarm.id}", "timer", alarm.label, show_duration(alarm.duration),
                    f"ends {show_datetime(alarm.ends)} ({show_duration(left)} left)")
    at = f"{alarm.time:%H:%M}" if alarm.repeat else show_datetime(alarm.time)
    state = "on" if alarm.enabled else "off"
    nxt = next_time(alarm.time, alarm.repeat, phone.now)
    upcoming = f"next {show_datetime(nxt)}" if alarm.enabled and nxt > phone.now else None
    return line(f"id: {alarm.id}", at, repeat_text(alarm.repeat), labelled("label", alarm.label),
                state, upcoming)


def list_alarms(phone: Phone, args: dict[str, Any]) -> str:
    alarms = sorted((a for a in phone.alarms if a.kind == "alarm"), key=lambda a: (a.time.time(), a.time))
    timers = sorted((a for a in phone.alarms if a.kind == "timer" and a.ends > phone.now),
                    key=lambda a: a.ends)
    if not alarms and not timers:
        return "No alarms or running timers."
    head = ", ".join(p for p in (count(len(alarms), "alarm") if alarms else "",
                                 count(len(timers), "running timer") if timers else "") if p)
    return "\n".join([f"{head}:", *(alarm_line(phone, a) for a in alarms),
                      *(alarm_line(phone, t) for t in timers)])


def schedule_alarm(phone: Phone, args: dict[str, Any]) -> str:
    at = argument_time(args["time"], phone.clock, "time")
    alarm = phone.make(Alarm, {"id": phone.new_id("alarms"), "time": at,
                               "repeat": args.get("repeat", []), "label": args.get("label")})
    if not alarm.repeat:
        _future(phone, at, "time", args["time"])
    phone.alarms.append(alarm)
    return f"Alarm set {alarm_line(phone, alarm)[2:]}"


def cancel_alarm(phone: Phone, args: dict[str, Any]) -> str:
    alarm = take(phone.alarms, args["id"], "alarm or timer", "list_alarms")
    if alarm.kind == "timer":
        return f"Cancelled timer {alarm.id}" + (f" ({alarm.label})" if alarm.label else "")
    at = f"{alarm.time:%H:%M}" if alarm.repeat else show_datetime(alarm.time)
    label = f", {alarm.label}" if alarm.label else ""
    return f"Cancelled alarm {alarm.id} ({at}, {repeat_text(alarm.repeat)}{label})"


def start_timer(phone: Phone, args: dict[str, Any]) -> str:
    length = duration(args["duration"])
    if length <= timedelta(0):
        raise ToolError("duration must be longer than zero, e.g. PT10M")
    if length > timedelta(hours=24):
        raise ToolError("a timer can run at most 24 hours (PT24H); use schedule_alarm for later times")
    timer = phone.make(Alarm, {"id": phone.new_id("timers"), "kind": "timer", "duration": length,
                               "started": phone.now, "label": args.get("label")})
    phone.alarms.append(timer)
    return f"Timer started {alarm_line(phone, timer)[2:]}"


def task_line(phone: Phone, task: ScheduledTask) -> str:
    nxt = next_time(task.time, task.repeat, phone.now) if task.time <= phone.now else task.time
    return line(f"id: {task.id}", f"next run {show_datetime(nxt)}", repeat_text(task.repeat),
                task.instruction)


def schedule_task(phone: Phone, args: dict[str, Any]) -> str:
    at = argument_time(args["time"], phone.clock, "time")
    task = phone.make(ScheduledTask, {"id": phone.new_id("tasks"), "instruction": args["instruction"],
                                      "time": at, "repeat": args.get("repeat", [])})
    if not task.repeat:
        _future(phone, at, "time", args["time"])
    phone.tasks.append(task)
    return f"Scheduled task {task_line(phone, task)[2:]}"


def list_tasks(phone: Phone, args: dict[str, Any]) -> str:
    if not phone.tasks:
        return "No scheduled tasks."
    return "\n".join([f"{count(len(phone.tasks), 'scheduled task')}:",
                      *(task_line(phone, t) for t in phone.tasks)])


def cancel_task(phone: Phone, args: dict[str, Any]) -> str:
    task = take(phone.tasks, args["id"], "scheduled task", "list_tasks")
    return f"Cancelled task {task.id}: {task.instruction}"


TOOLS = {"list_alarms": list_alarms, "schedule_alarm": schedule_alarm,
         "cancel_alarm": cancel_alarm, "start_timer": start_timer,
         "schedule_task": schedule_task, "list_tasks": list_tasks, "cancel_task": cancel_task}
