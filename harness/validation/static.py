"""Static checks of scenario files: schema, ids, languages, categories, tokens, tools, rules and
privacy. Each problem is one line naming the file, line, scenario and field."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.clock import clock_for, find_tokens
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.languages import CATEGORIES, LANGUAGES, LOADER_TOOLS
from orvena_bench.formats.scenario_files import Located, read_file
from harness.phone_check import phone_problems
from harness.validation.privacy import email_problems, phone_number_problems

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SUFFIXES = ("-h3", "-conn")


def problem(item: Located, message: str, field: str | None = None) -> FormatError:
    return FormatError(f"{item.scenario.id}: {message}", file=item.file, line=item.line, field=field)


def load_located(path: str | Path) -> tuple[list[Located], list[FormatError]]:
    """Every parseable scenario of a file, and one error per bad line (the rest still load)."""
    errors: list[FormatError] = []
    return read_file(path, errors), errors


def id_suffix(scenario_id: str) -> str:
    return next((s for s in SUFFIXES if scenario_id.endswith(s)), "")


def check_id(item: Located) -> Iterator[FormatError]:
    s = item.scenario
    if s.language not in LANGUAGES:
        yield problem(item, f"language {s.language!r} is not one of the 30 bench languages", "language")
    if s.category not in CATEGORIES:
        yield problem(item, f"category {s.category!r} is not one of the 20 categories", "category")
    prefix = f"{s.language}-{s.category}-"
    if not s.id.startswith(prefix):
        yield problem(item, f"id must start with {prefix!r} (<language>-<category>-<slug>)", "id")
        return
    slug = s.id[len(prefix):]
    if not _SLUG.match(slug):
        yield problem(item, "id slug must be lowercase ASCII words joined by hyphens", "id")


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string inside JSON data, with its field path."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _strings(v, f"{path}[{i}]")


def check_tokens(item: Located) -> Iterator[FormatError]:
    s = item.scenario
    try:
        clock = clock_for(s.phone, s.language)
    except FormatError as e:
        yield problem(item, e.reason, "phone")
        return
    for path, text in _strings(s.dump(), ""):
        for token in find_tokens(text):
            try:
                clock.expand(token)
            except ValueError as e:
                yield problem(item, str(e), path)


def check_tools(item: Located, catalog: Catalog, operations: dict[str, set[str]]) -> Iterator[FormatError]:
    """Every expected, forbidden or scripted tool exists; rules name installed connections.

    operations: connection id -> operation names of its fixture.
    """
    s = item.scenario
    for conn in s.connections:
        if conn not in operations:
            yield problem(item, f"connection {conn!r} has no fixture", "connections")

    def known(name: str, field: str) -> Iterator[FormatError]:
        if "/" in name:
            conn, op = name.split("/", 1)
            if conn not in s.connections:
                yield problem(item, f"{name}: connection {conn!r} is not installed", field)
            elif op not in operations.get(conn, set()):
                yield problem(item, f"{name}: {conn} has no operation {op!r}", field)
        elif catalog.tool(name) is None:
            yield problem(item, f"unknown tool {name!r}", field)

    for field, call in s.expect.located_calls():
        yield from known(call.tool, f"{field}.tool")
    for i, name in enumerate(s.expect.forbid):
        yield from known(name, f"expect.forbid[{i}]")
    for key, rules in s.tools.items():
        if "/" not in key:
            yield problem(item, f"scripted tool {key!r} must be <connection>/<operation>", f"tools.{key}")
        else:
            yield from known(key, f"tools.{key}")
        if not rules:
            yield problem(item, "a scripted tool needs at least one rule", f"tools.{key}")


def check_expect(item: Located) -> Iterator[FormatError]:
    """Expectations that can be satisfied at all."""
    s, e = item.scenario, item.scenario.expect
    strings = [("expect.answer", e.answer), ("expect.answerAny", e.answerAny),
               ("expect.answerNot", e.answerNot)]
    strings += [(f"expect.answerGroups[{i}]", g) for i, g in enumerate(e.answerGroups)]
    for field, call in s.expect.located_calls():
        strings += [(f"{field}.args", call.args), (f"{field}.argsAny", call.argsAny),
                    (f"{field}.argsNot", call.argsNot)]
        strings += [(f"{field}.argsGroups[{i}]", g) for i, g in enumerate(call.argsGroups)]
        if call.tool in LOADER_TOOLS:
            yield problem(item, "loader calls never need listing", f"{field}.tool")
    for field, values in strings:
        if any(not v.strip() for v in values):
            yield problem(item, "an empty string matches everything", field)
    if e.noTools and (e.calls or e.anyOf):
        yield problem(item, "noTools with expected calls can never pass", "expect.noTools")
    for field, call in s.expect.located_calls():
        if call.tool in e.forbid:
            yield problem(item, f"{call.tool} is both expected and forbidden", field)
    if e.language and e.language not in LANGUAGES:
        yield problem(item, f"answer language {e.language!r} is not a bench language", "expect.language")


def has_reference(item: Located) -> bool:
    """Whether the scenario carries our ``reference`` field (the card's format has none)."""
    return "reference" in (item.scenario.model_extra or {})


def check_privacy(item: Located) -> Iterator[FormatError]:
    for path, text in _strings(item.scenario.dump(), ""):
        for message in phone_number_problems(text):
            yield problem(item, message, path)


def check_emails(item: Located) -> Iterator[FormatError]:
    """Every e-mail at ``.example``: our rule, beyond the card (which keeps large companies' role
    addresses), so a problem for our scenarios and a warning for others' (no ``reference``)."""
    for path, text in _strings(item.scenario.dump(), ""):
        for message in email_problems(text):
            yield problem(item, message, path)


def check_unexpanded_tokens(item: Located) -> Iterator[FormatError]:
    """Tokens in the request or history: the card expands tokens in expectations only, so the
    model would read ``{+1d}`` as it is (a warning)."""
    s = item.scenario
    texts = [("request", s.request)] + [(f"history[{i}].content", t.content) for i, t in enumerate(s.history)]
    for path, text in texts:
        for token in find_tokens(text):
            yield problem(item, f"the token {token} is not expanded in {path.split('[')[0]} "
                                "(the card expands tokens in expectations only); write the date", path)


def check_unique(items: Iterable[Located]) -> Iterator[FormatError]:
    seen: dict[str, Located] = {}
    for item in items:
        first = seen.setdefault(item.scenario.id, item)
        if first is not item:
            yield problem(item, f"id also used at {first.file}:{first.line}", "id")


def static_problems(items: list[Located], catalog: Catalog,
                    operations: dict[str, set[str]]) -> list[FormatError]:
    out: list[FormatError] = list(check_unique(items))
    for item in items:
        for check in (check_id(item), check_tokens(item), check_tools(item, catalog, operations),
                      check_expect(item), check_privacy(item), phone_problems(item)):
            out.extend(check)
        if has_reference(item):
            out.extend(check_emails(item))
    return out


def static_warnings(items: list[Located]) -> list[FormatError]:
    """Rules that warn instead of failing: tokens in request/history; for scenarios without
    ``reference`` (written to the card alone), the e-mail rule."""
    out: list[FormatError] = []
    for item in items:
        out.extend(check_unexpanded_tokens(item))
        if not has_reference(item):
            out.extend(check_emails(item))
    return out
