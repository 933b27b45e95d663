"""Property: whatever a model writes (call blocks, arguments, answers), the turn ends in one
result line that the line writer stores and the reader gives back unchanged, and the run goes
on. Random texts go through the parser, the router (the real phone and connections), the scorer,
the line writer and the reader. Bounded: 60 examples, about 15 s of CPU."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orvena_bench.formats.catalog import load_catalog
from orvena_bench.formats.jsonl import appending, as_data, dumps, loads, read_models
from orvena_bench.formats.paths import catalog_path
from orvena_bench.formats.result import ResultLine
from orvena_bench.formats.scenario import Scenario
from harness.backends.scripted import ScriptedBackend
from harness.loop import run_scenario
from harness.runner import score_line, write_line

SCENARIO = Scenario.model_validate({
    "id": "en-calendar-property", "language": "en", "category": "calendar",
    "request": "what's on tomorrow?", "connections": ["todoist"],
    "phone": {"locale": "en_IE", "timeZone": "Europe/Dublin",
              "events": [{"title": "Dentist", "start": "+1d 09:00", "duration": "PT45M"}]},
    "tools": {"todoist/add-tasks": [{"match": ["passport"], "result": "Added task 1"}]},
    "expect": {"calls": [{"tool": "list_events"}], "answerAny": ["Dentist", "{+1d}"]}})
CATALOG = load_catalog(catalog_path())
TOOLS = [t.name for t in CATALOG.tools][:12] + [
    "load_connectors", "load_tools", "todoist/add-tasks", "add-tasks", "no_such_tool", ""]

# What breaks writers: lone surrogates, control characters, markers, huge numbers.
odd = st.sampled_from(["\ud83d", "\udc00", "\x00", "\u2028", "</tool_call>", "<tool_call>",
                       "</parameter>", "{+1d}", "{+xd}", "<script>", "\\", '"'])
texts = st.lists(st.one_of(st.text(max_size=12), odd), max_size=5).map("".join)
scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
                    st.floats(allow_nan=False, allow_infinity=False), texts,
                    st.sampled_from(["9999-12-31", "0001-01-01", "9999-12-31T23:59", "2026-11-05"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(texts, inner, max_size=3)), max_leaves=8)
arguments = st.dictionaries(st.one_of(st.sampled_from(["start", "end", "title", "query", "id",
                                                       "value", "tasks", "setting"]), texts),
                            values, max_size=4)


@st.composite
def call_block(draw) -> str:
    body = json.dumps({"name": draw(st.one_of(st.sampled_from(TOOLS), texts)),
                       "arguments": draw(arguments)}, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        body = body[: draw(st.integers(0, len(body)))]  # cut off mid-call
    return f"{draw(texts)}<tool_call>\n{body}\n</tool_call>{draw(texts)}"


rounds = st.lists(st.one_of(call_block(), texts), min_size=1, max_size=4)


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return tmp_path_factory.mktemp("prop") / "r.jsonl"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(rounds=rounds)
def test_any_model_text_ends_in_one_line_that_is_read_back_unchanged(results, rounds):
    before = len(read_models(results, ResultLine)) if results.exists() else 0
    line = run_scenario(SCENARIO, ScriptedBackend(rounds), CATALOG, model="m", max_rounds=4)
    line = score_line(SCENARIO, line)
    assert line.failure is None or line.failure.kind in ("round-limit", "backend")
    with appending(results) as writer:
        written = write_line(writer, line)
    assert written is line  # never replaced: every line can be written
    stored = read_models(results, ResultLine)
    assert len(stored) == before + 1
    assert as_data(stored[-1]) == loads(dumps(as_data(line)))
    assert results.read_bytes().decode("utf-8").endswith("\n")  # the file stays valid UTF-8
