"""Opening hours of a place: reading them and saying whether it is open at a moment.

Hours are a text for every day ("09:00-19:00", "24h", "closed") or a map of day keys (mon..sun,
and the shorthands daily, weekdays, weekends; a named day wins over a shorthand) to such texts.
A day may hold several ranges ("09:00-12:30, 14:00-19:00"); a range may run past midnight
("18:00-02:00"). Hours are in the phone's time zone.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from simphone.times import WEEKDAY_CODES, show_datetime

_RANGE = re.compile(r"^(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})$")
_SHORTHANDS = {"daily": WEEKDAY_CODES, "weekdays": WEEKDAY_CODES[:5], "weekends": WEEKDAY_CODES[5:]}

# Per weekday: (opening minute, closing minute) pairs; closing may exceed 1440 (past midnight).
Week = dict[str, list[tuple[int, int]]]


def _ranges(text: str) -> list[tuple[int, int]]:
    text = text.strip().lower()
    if text in ("closed", ""):
        return []
    if text in ("24h", "24/7", "open 24 hours"):
        return [(0, 1440)]
    out = []
    for part in re.split(r"[,;]", text):
        m = _RANGE.match(part.strip())
        if not m:
            raise ValueError(f"hours: expected '09:00-19:00', '24h' or 'closed', got {part.strip()!r}")
        h1, m1, h2, m2 = map(int, m.groups())
        if h1 > 24 or h2 > 24 or m1 > 59 or m2 > 59:
            raise ValueError(f"hours: not a clock time in {part.strip()!r}")
        start, end = h1 * 60 + m1, h2 * 60 + m2
        out.append((start, end if end > start else end + 1440))
    return out


def parse_hours(hours: dict[str, str] | str | None) -> Week | None:
    """The week's ranges, or None when the place has no hours."""
    if hours is None:
        return None
    if isinstance(hours, str):
        return {day: _ranges(hours) for day in WEEKDAY_CODES}
    week: Week = {}
    for key in ("daily", "weekdays", "weekends"):
        if key in hours:
            for day in _SHORTHANDS[key]:
                week[day] = _ranges(hours[key])
    for key, text in hours.items():
        code = key.strip().lower()[:3]
        if key in _SHORTHANDS:
            continue
        if code not in WEEKDAY_CODES:
            raise ValueError(f"hours: unknown day {key!r} (expected mon..sun, daily, weekdays, weekends)")
        week[code] = _ranges(text)
    return {day: week.get(day, []) for day in WEEKDAY_CODES}


def _intervals(week: Week, around: datetime) -> list[tuple[datetime, datetime]]:
    """Opening intervals from the day before `around` to a week after it."""
    midnight = around.replace(hour=0, minute=0, second=0, microsecond=0)
    out = []
    for offset in range(-1, 8):
        day = midnight + timedelta(days=offset)
        for start, end in week[WEEKDAY_CODES[day.weekday()]]:
            out.append((day + timedelta(minutes=start), day + timedelta(minutes=end)))
    return sorted(out)


def open_status(week: Week | None, at: datetime) -> str:
    """"open now until 20:00", "closed now, opens Thu 2026-11-05 09:00", or "" without hours."""
    if week is None:
        return ""
    intervals = _intervals(week, at)
    for start, end in intervals:
        if start <= at < end:
            # Ranges that touch (a 24h day before another) read as one opening.
            for nxt_start, nxt_end in intervals:
                if nxt_start == end:
                    end = nxt_end
            if end - at >= timedelta(days=7):
                return "open 24 hours"
            return f"open now until {end:%H:%M}" if end.date() == at.date() \
                else f"open now until {show_datetime(end)}"
    upcoming = [start for start, _ in intervals if start > at]
    if not upcoming:
        return "closed now"
    return f"closed now, opens {show_datetime(upcoming[0])}"


def week_lines(week: Week | None) -> list[str]:
    """One line per weekday: "Mon 09:00-19:00", "Sun closed"."""
    if week is None:
        return []
    names = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    lines = []
    for code, name in zip(WEEKDAY_CODES, names):
        ranges = week[code]
        if not ranges:
            text = "closed"
        elif ranges == [(0, 1440)]:
            text = "open 24 hours"
        else:
            text = ", ".join(f"{s // 60:02d}:{s % 60:02d}-{(e % 1440) // 60:02d}:{e % 60:02d}"
                             for s, e in ranges)
        lines.append(f"{name} {text}")
    return lines
