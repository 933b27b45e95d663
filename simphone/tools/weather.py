"""get_weather: conditions and forecasts, only from the phone's weather data (no network)."""

from __future__ import annotations

import re

from datetime import date, timedelta
from typing import Any

from simphone.data import Weather, WeatherDay
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.placenames import other_names
from simphone.search import fold, word_in, words
from simphone.times import argument_date, show_date
from simphone.units import Units, number


def _name(place: str) -> str:
    """A weather place's name: its first part ("Lyon" of "Lyon, France"; Arabic and CJK commas
    too: "الغردقة، مصر")."""
    return re.split("[,،、，]", place, maxsplit=1)[0].strip()


def find_weather(phone: Phone, query: str) -> Weather | None:
    """The weather entry a place text names: "Lyon", "lyon france", or an address in Lyon; else
    the entry another name of the city names ("मुंबई" finds "Mumbai, India", simphone.placenames).

    An entry whose name the query holds beats one whose name merely holds the query, so
    "Brașov" is Brașov and not Poiana Brașov; among the first the longest (most specific) name
    wins, among the second the shortest."""
    found = _find_weather(phone, query)
    if found is None and phone.weather:
        found = next((e for e in map(lambda n: _find_weather(phone, n), other_names(query)) if e), None)
    return found


def _find_weather(phone: Phone, query: str) -> Weather | None:
    folded = fold(query)
    best, best_rank = None, None
    for entry in phone.weather:
        name = fold(_name(entry.place))
        full = fold(entry.place)
        name_words = words(name)
        if name and (name in folded or
                     (name_words and all(word_in(w, folded) for w in name_words))):
            rank = (1, len(name))
        elif name and folded in full:
            rank = (0, -len(full))
        else:
            continue
        if best_rank is None or rank > best_rank:
            best, best_rank = entry, rank
    return best


def _day_line(day: WeatherDay, units: Units, hourly: bool) -> list[str]:
    parts = [f"{show_date(day.date)}: {day.condition}",
             f"high {units.temperature(day.high)}", f"low {units.temperature(day.low)}"]
    if day.precipitation is not None:
        rain = f" ({number(day.rain)} mm)" if day.rain else ""
        parts.append(f"precipitation {day.precipitation}%{rain}")
    if day.wind is not None:
        parts.append(f"wind {units.speed(day.wind)}")
    if day.humidity is not None:
        parts.append(f"humidity {day.humidity}%")
    if day.sunrise and day.sunset:
        parts.append(f"sunrise {day.sunrise:%H:%M}, sunset {day.sunset:%H:%M}")
    out = ["- " + ", ".join(parts)]
    if hourly:
        for hour in day.hourly:
            extra = f", precipitation {hour.precipitation}%" if hour.precipitation is not None else ""
            out.append(f"  {hour.time:%H:%M} {units.temperature(hour.temperature)}"
                       f"{', ' + hour.condition if hour.condition else ''}{extra}")
    return out


def get_weather(phone: Phone, args: dict[str, Any]) -> str:
    units = phone.units
    query = args.get("place") or phone.here().place
    entry = find_weather(phone, query)
    if entry is None:
        raise ToolError(f"no weather data for {query!r}; give a city name, e.g. Lyon")
    today = phone.now.date()
    first = argument_date(args["start"], "start") if args.get("start") else today
    last = argument_date(args["end"], "end") if args.get("end") else first
    if last < first:
        raise ToolError(f"end ({last}) must not be before start ({first})")
    by_date = {d.date: d for d in entry.days}
    wanted = [first + timedelta(days=i) for i in range((last - first).days + 1)]
    lines = [f"Weather for {entry.place}:"]
    if entry.current and first <= today <= last:
        now = entry.current
        extra = [f"feels like {units.temperature(now.feelsLike)}" if now.feelsLike is not None else "",
                 f"humidity {now.humidity}%" if now.humidity is not None else "",
                 f"wind {units.speed(now.wind)}" if now.wind is not None else ""]
        lines.append(", ".join([f"Now: {units.temperature(now.temperature)}, {now.condition}",
                                *(e for e in extra if e)]))
    days = [by_date[d] for d in wanted if d in by_date]
    if not days and len(lines) == 1:
        raise ToolError(f"no forecast for {entry.place} {_span(first, last)}; "
                        f"{_coverage(entry, today)}")
    for day in days:
        lines.extend(_day_line(day, units, bool(args.get("hourly"))))
    missing = [d for d in wanted if d not in by_date]
    if missing and days:
        lines.append(f"No forecast yet for {', '.join(show_date(d) for d in missing[:7])}"
                     + (" ..." if len(missing) > 7 else ""))
    return "\n".join(lines)


def _span(first: date, last: date) -> str:
    return f"on {show_date(first)}" if first == last else \
        f"between {show_date(first)} and {show_date(last)}"


def _coverage(entry: Weather, today: date) -> str:
    if not entry.days:
        return "only current conditions are available"
    dates = sorted(d.date for d in entry.days)
    return f"the forecast covers {show_date(dates[0])} to {show_date(dates[-1])}"


TOOLS = {"get_weather": get_weather}
