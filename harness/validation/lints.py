"""Lints: checks that a scenario's expectations misjudge a plausible behaviour, found mechanically.
Each is a warning naming the scenario and the field (``orvena-bench validate`` prints them; the
shipped sets show none). docs/scenarios.md ("Lints") says what each rule catches and what it lets
through.

- ``echo``: an answer that only repeats the request (and history) passes the answer checks, and
  the answer is not the confirmation of a successful write call;
- ``inside-value``: a required answer string that is a number or time occurs in the phone data,
  the scripted MCP answers or the reference run's tool outputs at the end of a longer number
  ("4:30" in "14:30"), or as a part of a number, time or date the reference answer does not state
  ("25" of "25.10.2026"; a year alone always), so a wrong value passes;
- ``cldr-time``: a required time lacks one of the forms CLDR gives the phone's locale (its short
  time format and its 24-hour ``Hm`` form, through Babel): an answer in that form fails;
- ``answerNot-fact``: an ``answerNot`` string occurs in a tool output of the reference run that
  also holds a required answer string, so a correct answer that reports that output in full
  (a complete list, a note about another day) fails;
- ``reference-time``: the reference answer states a clock time that nothing the agent saw holds
  (request, history, tool outputs, its own call arguments; a 12-hour reading counts): a fact no
  tool gave, which the checks then tend to require or exclude. Times the answer works out (an
  arrival from now and a duration) are exempt where ``reference.derived`` lists
  ``"reference.answer"``;
- ``reference-id``: a reference call passes an item id (of the phone data, the scripted MCP
  answers, or shaped as the phone derives them: ``alb-2``) that nothing the agent saw before the
  call holds: the reference path guesses what a model would have to look up;
- ``untimed-arg``: a date-time argument check without an offset (``{+2d}T14:00``, ``{local:..}``)
  on a connection operation whose schema accepts date-times with an offset: as a substring it also
  matches another instant written in UTC (``2026-11-06T14:00:00Z``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, time

import orjson
from babel import Locale
from babel.dates import format_date, format_time

from orvena_bench.formats.clock import Clock, clock_for
from orvena_bench.formats.languages import FAILURE_TOLERANT_CATEGORIES
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import ExpectedCall, Scenario
from orvena_bench.formats.textmatch import Folded, fold
from harness.validation.grounding import KNOWLEDGE_CATEGORIES
from simphone.phone import ID_PREFIXES

@dataclass(frozen=True)
class Lint:
    rule: str
    field: str
    message: str


def required_groups(scenario: Scenario, clock: Clock) -> list[tuple[str, list[str]]]:
    """Each required answer test as (field, options, tokens expanded): every ``answer`` string
    alone, ``answerAny``, each ``answerGroups`` group; any option satisfies its group."""
    e = scenario.expect
    groups = [(f"expect.answer[{i}]", [s]) for i, s in enumerate(e.answer)]
    if e.answerAny:
        groups.append(("expect.answerAny", list(e.answerAny)))
    groups += [(f"expect.answerGroups[{i}]", list(g)) for i, g in enumerate(e.answerGroups) if g]
    return [(f, [clock.expand(s) for s in options]) for f, options in groups]


# --- echo -------------------------------------------------------------------------------------

def _confirms_an_action(scenario: Scenario, writes: set[str] | frozenset[str]) -> bool:
    """Whether every way to pass makes a successful call that acts: the answer is then a
    confirmation, and echoing the request's time or name in it is what a correct answer does.
    Not so where failed calls count (recovery, unsupported), unless the call says ``ok: true``."""
    tolerant = scenario.category in FAILURE_TOLERANT_CATEGORIES

    def must_succeed(call: ExpectedCall) -> bool:
        return call.ok is True or (call.ok is None and not tolerant)

    ways = [scenario.expect.calls] if scenario.expect.calls else []
    ways += [scenario.expect.calls + seq for seq in scenario.expect.anyOf]
    return bool(ways) and all(any(c.tool in writes and must_succeed(c) for c in way) for way in ways)


def echo_lints(scenario: Scenario, clock: Clock, writes: set[str] | frozenset[str]) -> Iterator[Lint]:
    if _confirms_an_action(scenario, writes):
        return
    said = Folded("\n".join([scenario.request, *(t.content for t in scenario.history)]))
    groups = required_groups(scenario, clock)
    if not groups or not all(any(said.has(o) for o in options) for _, options in groups):
        return  # some required string needs more than the request: an echo fails
    if any(said.has(s) for s in map(clock.expand, scenario.expect.answerNot)):
        return  # the echo holds an excluded string and fails
    for field, options in groups:
        echoed = [o for o in options if said.has(o)]
        yield Lint("echo", field, f"{echoed[0]!r} is in the request or history, so an answer "
                   "that only repeats the request passes the answer checks")


# --- inside-value -----------------------------------------------------------------------------

_NUMERIC = re.compile(r"^[\d\s.,:h/\-]*\d[\d\s.,:h/\-]*$")
_BARE = re.compile(r"^\d+$")
_YEAR = re.compile(r"^(19|20)\d\d$")
# The same value written longer: seconds of an ISO time ("14:00" in "14:00:00"), zero decimals
# ("87,4" in "87,40", "1.300" in "1.300,00"), minutes ("8h" in "8h00"), the year of a day and
# month ("20.11" in "20.11.2026").
_ISO_SECONDS = re.compile(r"(t\d{2}:\d{2}):\d{2}")
_DAY_MONTH = re.compile(r"^\d{1,2}[./]\d{1,2}\.?$")


def _same_value_longer(needle: str, after: str) -> bool:
    if re.match(r"^[.,]0+(?![\d.,])", after) and not _BARE.match(needle):
        return True
    if re.search(r"[.,]\d+$", needle) and re.match(r"^0+(?![\d.,])", after):
        return True
    if needle.endswith("h") and re.match(r"^00(?!\d)", after):
        return True
    return bool(_DAY_MONTH.match(needle) and re.match(r"^\.?\d{4}(?!\d)", after))


def _embedded(hay: str, start: int, end: int, bare: bool) -> str | None:
    """How hay[start:end] (a number or time) lies in a longer number, time or date: "tail" when
    digits run on before it ("4:30" in "14:30": always another value), "part" when it is a part
    of one ("25" of "25.10.2026": another value unless it is the one meant), None when alone."""
    needle = hay[start:end]
    before, after = hay[max(0, start - 2):start], hay[end:end + 8]
    joiners = ".,:/-" if bare else ".,:"
    if needle[:1].isdigit():
        if before[-1:].isdigit():
            # A leading zero is the same value ("4:30" in "04:30").
            leading_zero = before[-1:] == "0" and not before[-2:-1].isdigit() and not bare
            return None if leading_zero else "tail"
        if len(before) == 2 and before[0].isdigit() and before[1] in joiners:
            return "part"
    if not (needle[-1:].isdigit() or needle.endswith("h")) or _same_value_longer(needle, after):
        return None
    if re.search(r"\d[.,]\d+$", needle) and after[:1].isdigit():
        return None  # more decimals of the same quantity ("6.7" of "6.71")
    if after[:1].isdigit() or (len(after) >= 2 and after[0] in joiners and after[1].isdigit()):
        return "part"
    return None


_VALUE_CHARS = re.compile(r"[\d.,:/\-]")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_HH_MM = re.compile(r"^(\d{1,2})[:.](\d{2})$")


def _value_around(hay: str, start: int, end: int) -> str:
    """The whole number, time or date a match lies in (one end of a range "10:00-11:00")."""
    left, right = start, end
    while left > 0 and _VALUE_CHARS.match(hay[left - 1]):
        left -= 1
    while right < len(hay) and _VALUE_CHARS.match(hay[right]):
        right += 1
    offset = left
    for piece in re.split(r"(\d{4}-\d{2}-\d{2}|-)", hay[left:right]):
        if offset <= start < offset + len(piece) and piece != "-":
            return piece.strip(".,:/-")
        offset += len(piece)
    return hay[left:right].strip(".,:/-")


def _stated(value: str, answer: str, locale: Locale) -> bool:
    """Whether the reference answer states this value (in any form CLDR writes it)."""
    forms = [value]
    if m := _ISO_DATE.match(value):
        day = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        forms += [format_date(day, f, locale=locale) for f in (
            "short", "medium", "long", "d MMMM", "d. MMMM", "MMMM d", "d MMM", "MMM d", "d.M.", "dd.MM.",
            "d/M", "M/d", "dd/MM")]
    elif (m := _HH_MM.match(value)) and int(m.group(1)) < 24 and int(m.group(2)) < 60:
        forms += time_forms(time(int(m.group(1)), int(m.group(2))), locale)
    return any(fold(f) in answer for f in forms)


def inside_value_lints(scenario: Scenario, clock: Clock, outputs: list[str],
                       answer: str = "") -> Iterator[Lint]:
    """answer: the reference answer; a value it states is the one meant, not another."""
    texts = [*_json_strings(scenario.phone), *(r.result for rules in scenario.tools.values() for r in rules)]
    hay = fold("\n".join([*map(lambda t: _expanded(clock, t), texts), *outputs]))
    hay = _ISO_SECONDS.sub(r"\1", hay)
    said = fold(answer)
    for field, options in required_groups(scenario, clock):
        for option in options:
            needle = fold(option)  # as the scorer tests it: "4 " is not "4"
            if not _NUMERIC.match(needle.strip()):
                continue
            bare = _BARE.match(needle) is not None
            for m in re.finditer(re.escape(needle), hay):
                how = _embedded(hay, m.start(), m.end(), bare)
                if how is None:
                    continue
                value = _value_around(hay, m.start(), m.end())
                # A year alone is a trap even inside the date meant: any answer naming the year
                # passes ("no photos in December 2025").
                year = bare and _YEAR.match(needle) is not None
                if how == "part" and not year and (_stated(value, said, clock.babel_locale) or (
                        bare and re.fullmatch(rf"0?{needle}[:.]00", value))):
                    continue  # the value meant, or its whole hour ("18" of "18:00")
                what = "another value" if how == "tail" else "a value the reference answer does not state"
                yield Lint("inside-value", field, f"{option!r} also matches inside {value!r} of the "
                           f"phone data or tool outputs, {what}")
                break


def _expanded(clock: Clock, text: str) -> str:
    try:
        return clock.expand(text)
    except ValueError:
        return text  # a bad token is the static check's problem


def _json_strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_strings(v)
    # Numbers (coordinates, counts) are left out: a map pin's 45.8195 is no value an answer gives.


# --- cldr-time --------------------------------------------------------------------------------

_TIME = re.compile(r"(?<![\d.,:])(\d{1,2})[:.h](\d{2})(?![\d])")


def time_forms(at: time, locale: Locale) -> list[str]:
    """The forms CLDR gives a time in a locale: the short time format and the 24-hour ``Hm``."""
    patterns = [locale.time_formats["short"].pattern, locale.datetime_skeletons.get("Hm")]
    forms = [format_time(at, str(p), locale=locale) for p in patterns if p]
    return list(dict.fromkeys(forms))


def _times_of(options: list[str], separator: str) -> list[time]:
    """The times a group's options write (a 12-hour reading joined to its 24-hour one)."""
    found = set()
    for option in options:
        for m in _TIME.finditer(option):
            h, minute = int(m.group(1)), int(m.group(2))
            sep = option[m.end(1)]
            # "12.50" is a price unless the locale writes times with a dot.
            if h < 24 and minute < 60 and (sep == ":" or sep == separator or sep == "h"):
                found.add((h, minute))
    late = {(h - 12, m) for h, m in found if h > 12}
    return [time(h, m) for h, m in sorted(found) if (h, m) not in late]


def _marker_group(options: list[str]) -> bool:
    """A group whose times come only inside phrases ("15:00 tot", "tussen 15") beside options
    with no number at all ("vrij"): it asks for what is said about a time, and a bare time
    there would be the trap it avoids (a meeting ending at 15:00), so no CLDR form is owed."""
    timed = [o for o in options if _TIME.search(o)]
    bare = any(not re.search(r"[^\W_]", _TIME.sub("", o)) for o in timed)
    return bool(timed) and not bare and any(not re.search(r"\d", o) for o in options)


_CLOCK_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d])")


def times_of_day(scenario: Scenario, clock: Clock, seen: list[str]) -> set[tuple[int, int]]:
    """The clock times of the phone data, scripted answers, expected and reference call
    arguments and tool outputs (``seen``): what a required time can be (not a timer's 4:30)."""
    calls = [*scenario.expect.calls, *(c for seq in scenario.expect.anyOf for c in seq)]
    texts = [*_json_strings(scenario.phone), *(r.result for rules in scenario.tools.values() for r in rules),
             *(s for c in calls for s in (*c.args, *c.argsAny, *(x for g in c.argsGroups for x in g))),
             *seen]
    return {(int(m.group(1)) % 24, int(m.group(2)))
            for t in texts for m in _CLOCK_TIME.finditer(_expanded(clock, t))}


def cldr_time_lints(scenario: Scenario, clock: Clock, seen: list[str] | None = None) -> Iterator[Lint]:
    """seen: the reference run's tool outputs and call arguments."""
    known = times_of_day(scenario, clock, seen or [])
    locale = clock.babel_locale
    short = format_time(time(18, 0), "short", locale=locale)
    separator = "." if "18.00" in short or "6.00" in short else ":"
    for field, options in required_groups(scenario, clock):
        if _marker_group(options):
            continue
        folded = [fold(o) for o in options]
        for at in _times_of(options, separator):
            if (at.hour, at.minute) not in known:
                continue
            # A 12-hour option ("6:00") stands for the afternoon time as well.
            missing = [f for f in time_forms(at, locale)
                       if not any(o in fold(f) for o in folded)]
            if missing:
                yield Lint("cldr-time", field, f"the time {at:%H:%M} lacks the locale's "
                           f"{' and '.join(repr(m) for m in missing)} ({locale}), which CLDR "
                           "writes for it")


# --- answerNot-fact ---------------------------------------------------------------------------

def answer_not_fact_lints(scenario: Scenario, clock: Clock, outputs: list[str]) -> Iterator[Lint]:
    required = [o for _, options in required_groups(scenario, clock) for o in options]
    folded_outputs = [Folded(o) for o in outputs]
    for i, text in enumerate(scenario.expect.answerNot):
        text = clock.expand(text)
        for output in folded_outputs:
            if output.has(text) and any(output.has(r) for r in required if len(fold(r).strip()) > 1):
                yield Lint("answerNot-fact", f"expect.answerNot[{i}]", f"{text!r} is in the same tool "
                           "output as a required answer string: a correct answer reporting that "
                           "output in full fails")
                break


# --- reference-time ----------------------------------------------------------------------------

# A clock time as answers write it: 7:30, 07.30, 9h30 (not part of a longer number or a date).
_CLOCK_TIME = re.compile(r"(?<![\d:.,/])([01]?\d|2[0-3])[:.h]([0-5]\d)(?!\d|[.,]\d)")


def _clock_times(text: str) -> set[tuple[int, int]]:
    return {(int(h), int(m)) for h, m in _CLOCK_TIME.findall(text)}


def reference_time_lints(scenario: Scenario, clock: Clock, answer: str, seen: list[str]) -> Iterator[Lint]:
    """seen: the reference run's tool outputs and call arguments."""
    reference = (scenario.model_extra or {}).get("reference")
    if not isinstance(reference, dict) or not answer or "reference.answer" in (reference.get("derived") or []):
        return
    have = _clock_times("\n".join([scenario.request, *(t.content for t in scenario.history), *seen]))
    have |= {((h + 12) % 24, m) for h, m in have}  # "3:00 PM" read as 15:00, "15:00" said as 3:00
    missing = sorted(t for t in _clock_times(_expanded(clock, answer)) if t not in have)
    if missing:
        said = ", ".join(f"{h}:{m:02d}" for h, m in missing)
        yield Lint("reference-time", "reference.answer", f"the reference answer states {said}, which "
                   "no request, history, tool output or call argument of the reference run holds: a fact "
                   "no tool gave (where the answer works it out, list \"reference.answer\" in "
                   "reference.derived)")


# --- reference-id -----------------------------------------------------------------------------

_DERIVED_ID = re.compile(r"^(?:%s)-\d+$" % "|".join(map(re.escape, ID_PREFIXES.values())))


def _item_ids(value: object, key: str = "") -> Iterator[str]:
    """The values of id fields (``id``, ``eventId``, ``file_id``) anywhere in JSON data."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _item_ids(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _item_ids(v, key)
    elif isinstance(value, str) and (key == "id" or key.endswith(("Id", "_id"))):
        yield value


def _shows(text: str, item_id: str) -> bool:
    # "evt-1" is not shown by "evt-12".
    return re.search(rf"(?<![\w-]){re.escape(item_id)}(?![\w-])", text, re.IGNORECASE) is not None


def reference_id_lints(scenario: Scenario, result: ResultLine) -> Iterator[Lint]:
    data = scenario.dump()
    known = set(_item_ids(data.get("phone"))) | set(_item_ids(data.get("tools")))
    seen: list[str] = []
    for message in result.transcript:
        if message.role == "system":
            continue  # the tool descriptions' example ids are no data the agent looked up
        if message.role != "assistant":
            seen.append(message.content)
            continue
        shown = "\n".join(seen)
        for call in message.calls:
            for value in _json_strings(call.arguments):
                item_id = value.strip()
                if (item_id in known or _DERIVED_ID.match(item_id)) and not _shows(shown, item_id):
                    yield Lint("reference-id", "reference.calls", f"the reference calls {call.name} with "
                               f"the id {item_id!r}, which nothing the agent saw before that call holds: "
                               "look it up first on the path, or name the item as a tool output shows it")


# --- untimed-arg ------------------------------------------------------------------------------

_LOCAL_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?$")


def untimed_arg_lints(scenario: Scenario, clock: Clock,
                      offsets: dict[str, bool]) -> Iterator[Lint]:
    """offsets: for each connection operation ``<connection>/<operation>``, whether its input
    schema takes a date-time that may carry an offset."""
    for j, (field, call) in enumerate(scenario.expect.located_calls()):
        if not offsets.get(call.tool):
            continue
        lists = [("args", call.args), ("argsAny", call.argsAny)]
        lists += [(f"argsGroups[{i}]", g) for i, g in enumerate(call.argsGroups)]
        for name, strings in lists:
            for k, s in enumerate(strings):
                if _LOCAL_DATETIME.search(clock.expand(s).strip()):
                    yield Lint("untimed-arg", f"{field}.{name}[{k}]", f"{s!r} has no offset: as a "
                               f"substring it also matches another instant written in UTC or with "
                               f"another offset; write the instant with {{iso:...}} and {{utc:...}} "
                               "in argsAny (docs/scenarios.md, Time checks)")




def offset_operations(schemas: dict[str, dict]) -> dict[str, bool]:
    """Which operations take a date-time with an offset: a string property whose format is
    ``date-time`` (RFC 3339, offset included) or whose description names an offset, UTC or RFC 3339."""
    out = {}
    for name, schema in schemas.items():
        text = orjson.dumps(schema).decode().lower()
        out[name] = '"date-time"' in text or any(w in text for w in ("rfc 3339", "rfc3339", "offset",
                                                                      "utc", "timezone", "time zone"))
    return out


def lints(scenario: Scenario, result: ResultLine | None, offsets: dict[str, bool] | None = None,
          set_name: str = "bench", writes: set[str] | frozenset[str] = frozenset()) -> list[Lint]:
    """Every lint of a scenario; ``result`` is the reference run (None: the rules that need its
    tool outputs use the phone data and scripted answers only); ``writes``: the tools that act
    (for ``echo``)."""
    clock = clock_for(scenario.phone, scenario.language)
    outputs = result.tool_outputs() if result is not None else []
    answer = result.answer if result is not None else ""
    seen = outputs + ([orjson.dumps(c.arguments_object()).decode() for c in result.calls]
                      if result is not None else [])
    found = [*inside_value_lints(scenario, clock, outputs, answer), *cldr_time_lints(scenario, clock, seen),
             *answer_not_fact_lints(scenario, clock, outputs)]
    if result is not None and scenario.category not in KNOWLEDGE_CATEGORIES and set_name != "restraint":
        found += reference_time_lints(scenario, clock, answer, seen)
    if result is not None:
        found += reference_id_lints(scenario, result)
    if set_name != "ask":
        found += echo_lints(scenario, clock, writes)  # the ask set's options are the request's own words
    found += untimed_arg_lints(scenario, clock, offsets or {})
    return found
