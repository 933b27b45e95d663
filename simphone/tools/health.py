"""get_health_data: one Health metric over a range of days, with the figures a user asks for."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from typing import Any

from simphone.data import HEALTH_UNITS, HealthSample
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.times import argument_date, show_date, show_datetime, show_duration
from simphone.units import Units, number

# Metrics whose samples add up to a day's total; the others are readings.
_ADDITIVE = frozenset({"steps", "distance", "flights", "activeEnergy", "exerciseMinutes"})
# Readings listed per day (a day of a watch's heart rate can hold hundreds).
_READINGS_PER_DAY = 48


def _value(metric: str, value: float, units: Units) -> str:
    if metric == "distance":
        return units.distance(value)
    if metric == "weight":
        return units.weight(value)
    if metric == "sleep":
        return f"{number(value, 2)} h ({show_duration(timedelta(minutes=round(value * 60)))})"
    digits = 0 if metric in ("steps", "flights", "heartRate", "restingHeartRate") else 1
    return f"{number(value, digits)} {HEALTH_UNITS[metric]}"


def _workouts(samples: list[HealthSample], units: Units, span: str) -> str:
    lines = [f"{len(samples)} workout{'s' if len(samples) != 1 else ''} {span}:"]
    for w in samples:
        when = show_datetime(w.time) if w.time else show_date(w.date)
        parts = [when, w.type, show_duration(w.duration)]
        if w.distance is not None:
            parts.append(units.distance(w.distance))
        if w.energy is not None:
            parts.append(f"{number(w.energy, 0)} kcal")
        lines.append("- " + " | ".join(parts))
    total = sum((w.duration for w in samples), timedelta())
    summary = [f"total time {show_duration(total)}"]
    km = sum(w.distance or 0 for w in samples)
    if km:
        summary.append(f"total distance {units.distance(km)}")
    kcal = sum(w.energy or 0 for w in samples)
    if kcal:
        summary.append(f"total energy {number(kcal, 0)} kcal")
    lines.append("; ".join(summary))
    return "\n".join(lines)


def get_health_data(phone: Phone, args: dict[str, Any]) -> str:
    metric, units = args["metric"], phone.units
    first = argument_date(args["start"], "start")
    last = argument_date(args["end"], "end") if args.get("end") else first
    if last < first:
        raise ToolError(f"end ({last}) must not be before start ({first})")
    days = (last - first).days + 1
    span = f"on {show_date(first)}" if days == 1 else \
        f"from {show_date(first)} to {show_date(last)} ({days} days)"
    samples = sorted((s for s in phone.health if s.metric == metric and first <= s.date <= last),
                     key=lambda s: (s.date, s.time or phone.now))
    if not samples:
        return f"No {metric} data {span}."
    if metric == "workouts":
        return _workouts(samples, units, span)
    per_day: dict[date, list[float]] = defaultdict(list)
    timed: dict[date, list[HealthSample]] = defaultdict(list)
    for sample in samples:
        per_day[sample.date].append(sample.value)
        if sample.time is not None:
            timed[sample.date].append(sample)
    lines = [f"{metric} {span}:"]
    values = []
    for day, readings in sorted(per_day.items()):
        if metric in _ADDITIVE:
            value = sum(readings)
            lines.append(f"- {show_date(day)}: {_value(metric, value, units)}")
        else:
            value = sum(readings) / len(readings)
            spread = (f" (min {_value(metric, min(readings), units)}, max "
                      f"{_value(metric, max(readings), units)}, {len(readings)} readings)"
                      if len(readings) > 1 else "")
            lines.append(f"- {show_date(day)}: {_value(metric, value, units)}{spread}")
            # Each reading with its time, as the Health app lists a day's samples.
            if len(readings) > 1 and timed.get(day):
                shown = timed[day][:_READINGS_PER_DAY]
                lines.extend(f"  {r.time:%H:%M} {_value(metric, r.value, units)}" for r in shown)
                if len(timed[day]) > len(shown):
                    lines.append(f"  ... and {len(timed[day]) - len(shown)} more readings")
        values.append((value, day))
    average = sum(v for v, _ in values) / len(values)
    low, high = min(values), max(values)
    summary = []
    if metric in _ADDITIVE:
        summary.append(f"total {_value(metric, sum(v for v, _ in values), units)}")
    per = "per night" if metric == "sleep" else "per day"
    summary.append(f"average {_value(metric, average, units)} {per} over {len(values)} "
                   f"day{'s' if len(values) != 1 else ''} with data")
    if len(values) > 1:
        summary.append(f"lowest {_value(metric, low[0], units)} ({show_date(low[1])}), "
                       f"highest {_value(metric, high[0], units)} ({show_date(high[1])})")
    if len(values) < days:
        summary.append(f"no data for {days - len(values)} of {days} days")
    lines.append("; ".join(summary))
    return "\n".join(lines)


TOOLS = {"get_health_data": get_health_data}
