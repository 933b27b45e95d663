"""Phone times: reading them from scenario data and tool arguments, writing them in results.

Scenario data gives times relative to the run's moment ("+1d 10:00", "-2h") or as local ISO
("2026-11-05T10:00"; an offset is converted to the phone's zone). Tool arguments use the native
tools' convention: local ISO without offset (``2026-11-05T07:30``) or a date (``2026-11-05``).
Results show ``Thu 2026-11-05 10:00``: ISO that any language can read, with an English weekday.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from pydantic import TypeAdapter, ValidationError

from orvena_bench.formats.clock import Clock, parse_relative

_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
WEEKDAY_CODES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_DURATION = re.compile(r"^P(?=\d|T\d)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$")
_DURATION = TypeAdapter(timedelta)


class TimeError(ValueError):
    """A time that cannot be read; the message says what was expected."""


def phone_time(value: object, clock: Clock) -> datetime:
    """A time in scenario data as an aware local datetime."""
    if isinstance(value, datetime):
        return clock.local(value)
    if not isinstance(value, str):
        raise TimeError(f"expected a relative time like '+1d 10:00' or a local ISO time, got {value!r}")
    text = value.strip()
    try:
        parse_relative(text)
    except ValueError:
        pass
    else:
        return clock.resolve(text)
    if _ISO_DATE.match(text):
        return clock.local(datetime.combine(date.fromisoformat(text), time()))
    try:
        return clock.local(datetime.fromisoformat(text))
    except ValueError:
        raise TimeError(
            f"expected a relative time like '+1d 10:00', '-2h', '+3d' or a local ISO time like "
            f"'2026-11-05T10:00', got {value!r}") from None


def phone_date(value: object, clock: Clock) -> date:
    """A day in scenario data ("+1d", "-1d", "2026-11-05") as a date."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    return phone_time(value, clock).date()


def clock_time(value: object) -> time:
    """A wall-clock time of day ("07:00") in scenario data."""
    if isinstance(value, time):
        return value
    try:
        _, _, at = parse_relative(str(value))
    except ValueError:
        at = None
    if at is None:
        raise TimeError(f"expected a time of day like '07:00', got {value!r}")
    return at


def duration(value: object) -> timedelta:
    """An ISO 8601 duration ("PT25M", "PT1H30M") as a timedelta."""
    if isinstance(value, timedelta):
        return value
    if not isinstance(value, str) or not _ISO_DURATION.match(value.strip()):
        raise TimeError(f"expected an ISO 8601 duration like 'PT25M' or 'PT1H30M', got {value!r}")
    try:
        return _DURATION.validate_python(value.strip())
    except ValidationError:
        raise TimeError(f"expected an ISO 8601 duration like 'PT25M', got {value!r}") from None


# --- tool arguments -------------------------------------------------------------------------
def argument_time(value: str, clock: Clock, field: str) -> datetime:
    """A date-time argument (``2026-11-05T07:30``) as an aware local datetime."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise TimeError(f"{field}: {value!r} is not a valid date-time (expected e.g. 2026-11-05T07:30)") from None
    return clock.local(parsed)


def argument_range_start(value: str, clock: Clock, field: str) -> datetime:
    """A date or date-time argument as the start of a range (a date means its 00:00)."""
    if _ISO_DATE.match(value):
        return clock.local(datetime.combine(_argument_date(value, field), time()))
    return argument_time(value, clock, field)


def argument_range_end(value: str, clock: Clock, field: str) -> datetime:
    """A date or date-time argument as the end of a range (a date means the end of that day)."""
    if _ISO_DATE.match(value):
        day = _argument_date(value, field)
        if day == date.max:  # "9999-12-31", a common "no end": the range ends with the last day
            return clock.local(datetime.combine(day, time.max))
        return clock.local(datetime.combine(day + timedelta(days=1), time()))
    return argument_time(value, clock, field)


def _argument_date(value: str, field: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise TimeError(f"{field}: {value!r} is not a valid date (expected e.g. 2026-11-05)") from None


def argument_date(value: str, field: str) -> date:
    """A date argument; a date-time is read as its date."""
    return _argument_date(value[:10], field)


def argument_range(args: dict, clock: Clock, *, default_days: int = 1,
                   start_key: str = "start", end_key: str = "end") -> tuple[datetime, datetime]:
    """The [start, end) range of a tool's start/end arguments.

    A missing start is today; a missing end is the end of the start's day plus default_days - 1.
    """
    today = clock.now.date()
    start_arg = args.get(start_key)
    start = (argument_range_start(start_arg, clock, start_key) if start_arg
             else clock.local(datetime.combine(today, time())))
    if args.get(end_key):
        end = argument_range_end(args[end_key], clock, end_key)
    else:
        end = clock.local(datetime.combine(start.date() + timedelta(days=default_days), time()))
    if end <= start:
        raise TimeError(f"{end_key} ({args.get(end_key)}) must be after {start_key} ({start_arg or today})")
    return start, end


# --- writing --------------------------------------------------------------------------------
def show_datetime(value: datetime) -> str:
    """``Thu 2026-11-05 10:00``."""
    return f"{_WEEKDAYS[value.weekday()]} {value:%Y-%m-%d %H:%M}"


def show_date(value: date) -> str:
    """``Thu 2026-11-05``."""
    return f"{_WEEKDAYS[value.weekday()]} {value:%Y-%m-%d}"


def show_span(start: datetime, end: datetime) -> str:
    """``Thu 2026-11-05 10:00-11:00``; both full date-times when the span crosses midnight."""
    if start.date() == end.date():
        return f"{show_datetime(start)}-{end:%H:%M}"
    if end.time() == time() and end.date() == start.date() + timedelta(days=1):
        return f"{show_datetime(start)}-24:00"
    return f"{show_datetime(start)} to {show_datetime(end)}"


def show_range(start: datetime, end: datetime) -> str:
    """A query range with its preposition: "on Thu 2026-11-05", "between Thu 2026-11-05 and
    Sun 2026-11-08" (whole days), or "between <date-time> and <date-time>" (end exclusive)."""
    if start.time() == time() and end.time() == time():
        last = end.date() - timedelta(days=1)
        if last == start.date():
            return f"on {show_date(start.date())}"
        return f"between {show_date(start.date())} and {show_date(last)}"
    return f"between {show_datetime(start)} and {show_datetime(end)}"


def show_duration(value: timedelta) -> str:
    """``1 h 30 min``, ``12 min``, ``45 s``."""
    seconds = int(value.total_seconds())
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes else "", f"{secs} s" if secs else ""]
    return " ".join(p for p in parts if p) or "0 min"


def weekday_code(day: date) -> str:
    return WEEKDAY_CODES[day.weekday()]
