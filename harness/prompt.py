"""What the model is told, rendered from the Jinja templates in ``prompts/``.

The system prompt holds only what every scenario shares: the catalog's base prompt and the
runtime tool guidance. The phone's context (moment, locale, location, installed connections)
differs per scenario, so it opens the conversation's first user message instead, and a skill's
guidance reaches the model as the result of ``load_skills`` (harness/loaders.py). Whichever side
of the system prompt a chat template puts the tool schemas, the prompt up to the first user
message is then the same for every scenario, a prompt cache shares it whole, and within a turn
a prompt only grows at its end (why: docs/backends.md, "Prefilling each token once").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from babel import Locale

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.clock import Clock
from orvena_bench.formats.paths import prompts_dir
from orvena_bench.formats.scenario import Scenario
from simphone.data import Location


@dataclass(frozen=True)
class Moment:
    weekday: str  # in the phone's language
    date: str  # long date in the phone's language
    time: str  # local 24-hour time
    iso: str  # local ISO 8601 without offset, the tools' form
    zone: str
    offset: str  # +01:00


@dataclass(frozen=True)
class ConnectionLine:
    id: str
    name: str
    description: str


@dataclass(frozen=True)
class PhoneContext:
    """What the model is told about the phone: the part of the prompt each scenario has its own."""

    now: Moment
    locale: str
    location: str
    connections: tuple[ConnectionLine, ...]


def _locale_line(locale: str) -> str:
    try:
        name = Locale.parse(locale.replace("-", "_")).get_display_name("en")
    except (ValueError, TypeError):
        return locale
    return f"{locale} ({name})" if name else locale


def _location_line(location: object) -> str:
    """The phone's location, read as the phone reads it (simphone's Location: place, lat, lon);
    a location of another shape fails the scenario, as the phone itself would."""
    if location is None:
        return ""
    where = Location.model_validate(location)
    return f"{where.place} ({where.lat}, {where.lon})"


def phone_context(scenario: Scenario, clock: Clock, catalog: Catalog) -> PhoneContext:
    now = clock.now
    offset = now.strftime("%z")
    connections = []
    for cid in scenario.connections:
        c = catalog.connection(cid)
        connections.append(ConnectionLine(cid, c.name if c else cid, c.description if c else ""))
    return PhoneContext(
        now=Moment(
            weekday=clock.weekday_name(now.date()),
            date=clock.long_date(now.date()),
            time=now.strftime("%H:%M"),
            iso=clock.iso_local(now),
            zone=clock.time_zone,
            offset=f"{offset[:3]}:{offset[3:]}",
        ),
        locale=_locale_line(clock.locale),
        location=_location_line(scenario.phone.get("location")),
        connections=tuple(connections),
    )


@lru_cache(maxsize=4)
def _environment(directory: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )


def render_system(catalog: Catalog, directory: Path | None = None) -> str:
    """The system prompt: the catalog's prompt, then the tool guidance, separated by a blank
    line."""
    env = _environment(str(directory or prompts_dir()))
    parts = [catalog.systemPrompt, _guidance(env)]
    return "\n\n".join(p.strip() for p in parts if p.strip()) + "\n"


@lru_cache(maxsize=4)
def _guidance(env: jinja2.Environment) -> str:
    """The runtime tool guidance: it takes no variables, so it is rendered once."""
    return env.get_template("tool_guidance.jinja").render()


# The context block's first line and its closing line, as prompts/context.jinja writes them; the
# closing line is a heading, so the model reads what follows as the user's words, not the phone's.
CONTEXT_HEADING = "# This phone\n"
CONTEXT_CLOSE = "\n# The user's message\n"


def render_context(context: PhoneContext, directory: Path | None = None) -> str:
    """The phone's context block, ending with the line that introduces the user's message."""
    env = _environment(str(directory or prompts_dir()))
    text = env.get_template("context.jinja").render(
        now=context.now, locale=context.locale, location=context.location,
        connections=context.connections)
    return text.strip() + "\n"


def opening_messages(scenario: Scenario, context: str) -> list[dict[str, Any]]:
    """The conversation before round 1: the history turns, then the request, with the context
    block opening the first user message. Prefixed rather than a message of its own: several
    chat templates (Gemma, Mistral) refuse two user messages in a row."""
    turns = [(t.role, t.content) for t in scenario.history] + [("user", scenario.request)]
    first = next(i for i, (role, _) in enumerate(turns) if role == "user")
    return [{"role": role, "content": context + content if i == first else content}
            for i, (role, content) in enumerate(turns)]


def first_round(scenario: Scenario, clock: Clock, catalog: Catalog) -> list[dict[str, Any]]:
    """Round 1's messages: the system prompt, then the opening messages."""
    context = render_context(phone_context(scenario, clock, catalog))
    return [{"role": "system", "content": render_system(catalog)},
            *opening_messages(scenario, context)]


def without_context(content: str) -> str:
    """A user message without the context block that opened it: the user's own words. Text
    without the block (any other message, a line recorded before the block moved) is returned
    as it is."""
    if content.startswith(CONTEXT_HEADING):
        _, close, words = content.partition(CONTEXT_CLOSE)
        if close:
            return words
    return content
