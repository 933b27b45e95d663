"""Reminders: list_reminders, create_reminder, complete_reminder, delete_reminder."""

from __future__ import annotations

from typing import Any

from orvena_bench.formats.textmatch import fold
from simphone.data import Reminder
from simphone.phone import Phone
from simphone.search import matches
from simphone.times import argument_range_end, argument_time, show_datetime
from simphone.tools.common import by_id, count, labelled, line, quoted, take


def reminder_line(phone: Phone, reminder: Reminder) -> str:
    due = None
    if reminder.due:
        late = " (overdue)" if reminder.due < phone.now and not reminder.completed else ""
        due = f"due {show_datetime(reminder.due)}{late}"
    return line(f"id: {reminder.id}", reminder.title, due, labelled("list", reminder.list),
                labelled("when arriving at", reminder.location),
                labelled("priority", reminder.priority if reminder.priority != "none" else None),
                labelled("notes", reminder.notes), "done" if reminder.completed else None)


def list_reminders(phone: Phone, args: dict[str, Any]) -> str:
    status = args.get("status", "open")
    found = [r for r in phone.reminders
             if status == "all" or r.completed == (status == "completed")]
    filters = []
    if args.get("list"):
        wanted = fold(args["list"].strip())
        found = [r for r in found if fold(r.list) == wanted] or \
            [r for r in found if wanted in fold(r.list)]
        filters.append(f"in list {args['list']}")
    if args.get("query"):
        found = [r for r in found if matches(args["query"], f"{r.title} {r.notes or ''} {r.location or ''}")]
        filters.append(f"matching {quoted(args['query'])}")
    if args.get("dueBefore"):
        limit = argument_range_end(args["dueBefore"], phone.clock, "dueBefore")
        found = [r for r in found if r.due is not None and r.due < limit]
        filters.append(f"due before {show_datetime(limit)}")
    # Dated reminders first, soonest first; undated ones after, in list order.
    found.sort(key=lambda r: (r.due is None, r.due or phone.now))
    noun = {"open": "open reminder", "completed": "completed reminder", "all": "reminder"}[status]
    about = (" " + " ".join(filters)) if filters else ""
    if not found:
        return f"No {noun}s found{about}."
    lists = sorted({r.list for r in phone.reminders})
    return "\n".join([f"{count(len(found), noun)}{about}:",
                      *(reminder_line(phone, r) for r in found),
                      f"Lists: {', '.join(lists)}"])


def create_reminder(phone: Phone, args: dict[str, Any]) -> str:
    due = argument_time(args["due"], phone.clock, "due") if args.get("due") else None
    reminder = phone.make(Reminder, {
        "id": phone.new_id("reminders"), "title": args["title"], "due": due,
        "list": _existing_list(phone, args.get("list")) or "Reminders", "notes": args.get("notes"),
        "location": args.get("location"), "priority": args.get("priority", "none"),
    })
    phone.reminders.append(reminder)
    return f"Created reminder {reminder_line(phone, reminder)[2:]}"


def _existing_list(phone: Phone, name: str | None) -> str | None:
    """The user's list of that name as spelt on the phone; a new name makes a new list."""
    if not name:
        return None
    for reminder in phone.reminders:
        if fold(reminder.list) == fold(name.strip()):
            return reminder.list
    return name.strip()


def complete_reminder(phone: Phone, args: dict[str, Any]) -> str:
    reminder = by_id(phone.reminders, args["id"], "reminder", "list_reminders")
    if reminder.completed:
        return f"Reminder {reminder.id} ({reminder.title}) was already completed."
    reminder.completed = True
    return f"Completed reminder {reminder.id}: {reminder.title}"


def delete_reminder(phone: Phone, args: dict[str, Any]) -> str:
    reminder = take(phone.reminders, args["id"], "reminder", "list_reminders")
    return f"Deleted reminder {reminder.id}: {reminder.title}"


TOOLS = {"list_reminders": list_reminders, "create_reminder": create_reminder,
         "complete_reminder": complete_reminder, "delete_reminder": delete_reminder}
