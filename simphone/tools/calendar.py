"""Calendar tools: list_events, create_event, update_event, delete_event."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from simphone.data import Event
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.search import matches
from simphone.times import (
    argument_range, argument_time, show_date, show_range, show_span,
)
from simphone.tools.common import by_id, count, labelled, line, quoted, take


_SEARCH_DAYS = 90


def when(event: Event) -> str:
    if event.allDay:
        last = (event.end - timedelta(days=1)).date()
        days = show_date(event.start.date()) if last == event.start.date() else \
            f"{show_date(event.start.date())} to {show_date(last)}"
        return f"{days} all day"
    return show_span(event.start, event.end)


def event_line(event: Event) -> str:
    return line(f"id: {event.id}", when(event), event.title,
                labelled("location", event.location), labelled("attendees", event.attendees),
                labelled("calendar", event.calendar if event.calendar != "Calendar" else None),
                labelled("notes", event.notes))


def _text(event: Event) -> str:
    return " ".join([event.title, event.location or "", event.notes or "", event.calendar,
                     *event.attendees])


def list_events(phone: Phone, args: dict[str, Any]) -> str:
    # A search by text without an end looks ahead, as the Calendar app's search does.
    ahead = _SEARCH_DAYS if args.get("query") and not args.get("end") else 1
    start, end = argument_range(args, phone.clock, default_days=ahead)
    found = sorted((e for e in phone.events if e.start < end and e.end > start),
                   key=lambda e: (e.start, e.end))
    query = args.get("query")
    if query:
        found = [e for e in found if matches(query, _text(e))]
    span = show_range(start, end)
    about = f" matching {quoted(query)}" if query else ""
    if not found:
        return f"No events found {span}{about}."
    return "\n".join([f"{count(len(found), 'event')} {span}{about}:",
                      *(event_line(e) for e in found)])


def _overlaps(phone: Phone, event: Event) -> list[str]:
    others = [e for e in phone.events if e is not event and not e.allDay and not event.allDay
              and e.start < event.end and e.end > event.start]
    return [f"Overlaps: {e.id} {e.title} ({show_span(e.start, e.end)})" for e in others]


def _all_day_span(start: datetime, end: datetime | None) -> tuple[datetime, datetime]:
    first = start.replace(hour=0, minute=0, second=0)
    last = end.date() if end else first.date()
    return first, datetime.combine(last + timedelta(days=1), time(), first.tzinfo)


def create_event(phone: Phone, args: dict[str, Any]) -> str:
    clock = phone.clock
    start = argument_time(args["start"], clock, "start")
    end = argument_time(args["end"], clock, "end") if args.get("end") else None
    if args.get("allDay"):
        start, end = _all_day_span(start, end)
    end = end or start + timedelta(hours=1)
    if end <= start:
        raise ToolError(f"end ({args.get('end')}) must be after start ({args['start']})")
    event = phone.make(Event, {
        "id": phone.new_id("events"), "title": args["title"], "start": start, "end": end,
        "location": args.get("location"), "notes": args.get("notes"),
        "attendees": args.get("attendees", []), "calendar": args.get("calendar") or "Calendar",
    })
    event.allDay = bool(args.get("allDay"))
    phone.events.append(event)
    return "\n".join([f"Created event {event_line(event)[2:]}", *_overlaps(phone, event)])


def update_event(phone: Phone, args: dict[str, Any]) -> str:
    event = by_id(phone.events, args["id"], "event", "list_events")
    clock = phone.clock
    before = when(event)
    start = argument_time(args["start"], clock, "start") if args.get("start") else event.start
    if args.get("end"):
        end = argument_time(args["end"], clock, "end")
    else:
        end = start + (event.end - event.start)  # moving keeps the length
    if event.allDay and args.get("start"):
        start, end = _all_day_span(start, end - timedelta(days=1))
    if end <= start:
        raise ToolError(f"end ({end:%Y-%m-%dT%H:%M}) must be after start ({start:%Y-%m-%dT%H:%M})")
    event.start, event.end = start, end
    for field in ("title", "location", "notes"):
        if field in args:
            setattr(event, field, args[field])
    if "attendees" in args:
        event.attendees = list(args["attendees"])
    for name in args.get("addAttendees", []):
        if name not in event.attendees:
            event.attendees.append(name)
    moved = f" (was {before})" if when(event) != before else ""
    return "\n".join([f"Updated event {event_line(event)[2:]}{moved}", *_overlaps(phone, event)])


def delete_event(phone: Phone, args: dict[str, Any]) -> str:
    event = take(phone.events, args["id"], "event", "list_events")
    return f"Deleted event {event.id}: {event.title}, {when(event)}"


TOOLS = {"list_events": list_events, "create_event": create_event,
         "update_event": update_event, "delete_event": delete_event}
