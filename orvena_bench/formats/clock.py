"""The bench's clock: the fixed moment, relative phone times and the card's tokens.

Every scenario starts at the same local moment, Wednesday 2026-11-04 10:30 in the phone's time
zone. Phone data gives times relative to it:

    "+1d 10:00"   tomorrow at 10:00          "-2h"      two hours ago
    "+15d"        15 days from now, same time "10:00"    today at 10:00
    "+1w -1d 9:30" six days from now at 9:30  "now"      the moment itself

Day and week offsets move the local calendar date (so "+1d" across a DST change keeps the wall
time); hour and minute offsets move the instant. Tokens expand inside text:

    {+1d}                  2026-11-05              local date
    {weekday+1d}           Thursday / jeudi        weekday name in the phone's language (CLDR)
    {iso:+1d 10:00}        2026-11-05T10:00:00+00:00   local ISO 8601 with offset
    {utc:-2h}              2026-11-04T08:30:00Z    UTC ISO 8601
    {date:+15d}            19 November 2026        long date in the phone's language (CLDR)
    {datetime:+1d 10:00}   5 November 2026, 10:00  long date and short time (CLDR)
    {time:+2h}             12:30                   local 24-hour time (project extension)
    {local:+1d 10:00}      2026-11-05T10:00        local ISO without offset, the native tools'
                                                   form (project extension)

Names and long dates come from CLDR through Babel, never from hand-written tables.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_time, get_datetime_format

from orvena_bench.formats.errors import FormatError

# The card's fixed local moment.
DEFAULT_MOMENT = datetime(2026, 11, 4, 10, 30)

# An offset's sign may be left out after the first one: "-2h30m" is two and a half hours ago.
_OFFSET = re.compile(r"([+-]?)\s*(\d+)\s*([wdhm])")
_CLOCK_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")
_RELATIVE = re.compile(
    r"^\s*(?:now|(?P<offsets>[+-]\s*\d+\s*[wdhm]\s*(?:[+-]?\s*\d+\s*[wdhm]\s*)*)?"
    r"(?P<time>\d{1,2}:\d{2}(?::\d{2})?)?)\s*$"
)
# A token: {+1d}, {weekday+1d}, {weekday:+1d}, {iso:...}, ... Only these shapes are tokens, so
# JSON braces in scripted MCP results are never mistaken for one.
_TOKEN = re.compile(
    r"\{(?:(?P<kind>weekday|iso|utc|date|datetime|time|local)(?::\s*)?)?(?P<expr>[+-][^{}]*|now|\d{1,2}:\d{2}[^{}]*)\}"
)
_TOKEN_KINDS = ("weekday", "iso", "utc", "date", "datetime", "time", "local")
# Text that looks like a token but is not a valid one ({iso:tomorrow}, {weekdy+1d}, {+1d 25:00}):
# an error, never a silent literal. JSON objects start with a quote, so they never look like this.
_TOKEN_LIKE = re.compile(
    _TOKEN.pattern
    + r"|\{(?:[A-Za-z]+:?)?[+-]\s*\d[^{}]*\}|\{(?:" + "|".join(_TOKEN_KINDS) + r")\b[^{}]*\}"
)
# CLDR patterns quote literal text ('at', 'um'); the quotes are not part of the output.
_CLDR_LITERAL = re.compile(r"'([^']*)'")


def parse_relative(expr: str) -> tuple[timedelta, timedelta, time | None]:
    """(calendar days, instant offset, wall-clock time or None) of a relative phone time."""
    m = _RELATIVE.match(expr)
    if not m or not expr.strip():
        raise ValueError(f"not a relative time: {expr!r} (expected e.g. '+1d 10:00', '-2h', 'now')")
    days, delta, last_sign = timedelta(), timedelta(), "+"
    for sign, amount, unit in _OFFSET.findall(m.group("offsets") or ""):
        last_sign = sign or last_sign
        n = int(amount) * (1 if last_sign == "+" else -1)
        if unit == "w":
            days += timedelta(days=7 * n)
        elif unit == "d":
            days += timedelta(days=n)
        elif unit == "h":
            delta += timedelta(hours=n)
        else:
            delta += timedelta(minutes=n)
    at = None
    if m.group("time"):
        h, mi, s = _CLOCK_TIME.fullmatch(m.group("time")).groups()
        if int(h) > 23 or int(mi) > 59:
            raise ValueError(f"not a clock time: {m.group('time')!r}")
        at = time(int(h), int(mi), int(s or 0))
    return days, delta, at


@dataclass(frozen=True)
class Clock:
    """The run's clock for one phone: moment, time zone and locale."""

    time_zone: str = "UTC"
    locale: str = "en"
    moment: datetime = DEFAULT_MOMENT  # naive local wall time

    def __post_init__(self) -> None:
        try:
            ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError) as e:
            raise FormatError(f"unknown time zone {self.time_zone!r}") from e
        try:
            Locale.parse(self.locale.replace("-", "_"))
        except (UnknownLocaleError, ValueError) as e:
            raise FormatError(f"unknown locale {self.locale!r}") from e

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone)

    @property
    def babel_locale(self) -> Locale:
        return Locale.parse(self.locale.replace("-", "_"))

    @property
    def now(self) -> datetime:
        """The moment as an aware local datetime."""
        return self.moment.replace(tzinfo=self.zone)

    def resolve(self, expr: str) -> datetime:
        """A relative phone time ("+1d 10:00", "-2h") as an aware local datetime."""
        days, delta, at = parse_relative(expr)
        wall = self.moment + days
        if at is not None:
            wall = datetime.combine(wall.date(), at)
        # Through UTC and back, so a wall time in a spring-forward gap (02:30 on the night clocks
        # jump from 02:00 to 03:00) comes out as the instant it denotes (03:30), never as a
        # local time that does not exist.
        return (wall.replace(tzinfo=self.zone).astimezone(timezone.utc) + delta).astimezone(self.zone)

    def local(self, value: datetime) -> datetime:
        """Any datetime as an aware local one (naive values are local wall times)."""
        return value.replace(tzinfo=self.zone) if value.tzinfo is None else value.astimezone(self.zone)

    # --- formatting -------------------------------------------------------------------------
    def iso_local(self, value: datetime) -> str:
        """The native tools' form: local ISO 8601 without offset, minutes precision."""
        return self.local(value).strftime("%Y-%m-%dT%H:%M")

    def weekday_name(self, day: date) -> str:
        # The stand-alone name ("torstai"), not the in-sentence form ("torstaina" in Finnish):
        # as a substring it matches both.
        return format_date(day, "cccc", locale=self.babel_locale)

    def long_date(self, day: date) -> str:
        return format_date(day, "long", locale=self.babel_locale)

    def short_time(self, value: datetime | time) -> str:
        return format_time(value, "short", locale=self.babel_locale)

    def long_datetime(self, value: datetime) -> str:
        value = self.local(value)
        pattern = str(get_datetime_format("long", locale=self.babel_locale))
        pattern = _CLDR_LITERAL.sub(lambda m: m.group(1) or "'", pattern)
        return pattern.replace("{1}", self.long_date(value.date())).replace(
            "{0}", self.short_time(value.time()))

    def token(self, kind: str | None, expr: str) -> str:
        """The text of one token: kind None is the plain local date."""
        value = self.resolve(expr)
        if kind is None:
            return value.date().isoformat()
        if kind == "weekday":
            return self.weekday_name(value.date())
        if kind == "iso":
            return value.isoformat(timespec="seconds")
        if kind == "utc":
            return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        if kind == "date":
            return self.long_date(value.date())
        if kind == "datetime":
            return self.long_datetime(value)
        if kind == "time":
            return value.strftime("%H:%M")
        if kind == "local":
            return self.iso_local(value)
        raise ValueError(f"unknown token kind {kind!r}")

    def expand(self, text: str) -> str:
        """Every token in text expanded; a malformed token raises ValueError naming it."""
        if "{" not in text:
            return text

        def one(m: re.Match) -> str:
            token = _TOKEN.fullmatch(m.group(0))
            if token is None:
                raise ValueError(f"bad token {m.group(0)}: not one of the card's token forms "
                                 "(e.g. {+1d}, {weekday+1d}, {iso:+1d 10:00}, {utc:-2h})")
            try:
                return self.token(token.group("kind"), token.group("expr"))
            except ValueError as e:
                raise ValueError(f"bad token {m.group(0)}: {e}") from None
            except OverflowError:  # {+99999999d}: beyond the years a date can hold
                raise ValueError(f"bad token {m.group(0)}: the time it names is out of range "
                                 "(years 1 to 9999)") from None

        return _TOKEN_LIKE.sub(one, text)

    def expand_data(self, value: Any, where: str = "") -> Any:
        """Every string inside JSON-like data (dicts, lists, strings) expanded. A malformed token
        raises ValueError naming its place, e.g. ``expect.calls[0].args[1]``."""
        if isinstance(value, str):
            try:
                return self.expand(value)
            except ValueError as e:
                raise TokenError(str(e), where) from None
        if isinstance(value, dict):
            return {k: self.expand_data(v, f"{where}.{k}" if where else str(k))
                    for k, v in value.items()}
        if isinstance(value, list):
            return [self.expand_data(v, f"{where}[{i}]") for i, v in enumerate(value)]
        return value


class TokenError(ValueError):
    """A malformed token inside data; ``where`` is its field path (``expect.calls[0].args[1]``)."""

    def __init__(self, reason: str, where: str = ""):
        super().__init__(f"{where}: {reason}" if where else reason)
        self.reason, self.where = reason, where


def find_tokens(text: str) -> list[str]:
    """Every token-shaped piece of text, malformed or not (for validation)."""
    return [m.group(0) for m in _TOKEN_LIKE.finditer(text)]


def clock_for(phone: dict, language: str, moment: datetime | None = None) -> Clock:
    """The clock of a scenario's phone (locale and timeZone fields), at the given moment."""
    return Clock(
        time_zone=str(phone.get("timeZone") or "UTC"),
        locale=str(phone.get("locale") or language),
        moment=moment or DEFAULT_MOMENT,
    )
