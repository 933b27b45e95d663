"""Where the prompt's parts go: everything the scenarios share comes before the first user
message, whichever side of the system prompt a chat template puts the tools; the phone's context
opens the first user message, and the user's words can be told from it. People are fictional."""

from __future__ import annotations

from pathlib import Path

import pytest

from orvena_bench.formats.clock import clock_for
from harness.backend import Generation, SessionContext
from harness.loop import run_scenario
from harness.prompt import (
    CONTEXT_CLOSE,
    CONTEXT_HEADING,
    opening_messages,
    phone_context,
    render_context,
    without_context,
)
from test_loop_support import catalog, run, scenario

HISTORY = [{"role": "user", "content": "dinner with Sam on Friday?"},
           {"role": "assistant", "content": "Friday 19:00 at Chapter One."}]


def varied() -> list:
    """Scenarios that differ in everything the context holds: language, locale, zone, place,
    connections, history."""
    return [
        scenario(id="en-calendar-dublin", connections=["todoist", "github"]),
        scenario(id="ja-weather-tokyo", language="ja", category="weather", request="明日の東京の天気は？",
                 phone={"locale": "ja_JP", "timeZone": "Asia/Tokyo",
                        "location": {"place": "東京都渋谷区", "lat": 35.6618, "lon": 139.7041}}),
        scenario(id="de-followup-berlin", language="de", category="followup", request="und Aoife auch",
                 history=HISTORY, phone={"locale": "de_DE", "timeZone": "Europe/Berlin"}),
    ]


class FirstRound:
    """A backend that keeps what the loop gives the model at round 1 (messages and the full
    tool schemas) and answers at once."""

    name = "first-round"

    def __init__(self):
        self.given: tuple[list[dict], list[dict]] | None = None

    def describe(self) -> dict:
        return {"backend": self.name}

    def open(self, context: SessionContext) -> FirstRound:
        return self

    def generate(self, messages: list[dict], tools: list[dict]) -> Generation:
        self.given = self.given or ([dict(m) for m in messages], list(tools))
        return Generation(text="ok", content="ok")

    def close(self) -> None:
        pass


def first_round(s) -> tuple[list[dict], list[dict], str]:
    """The messages and tools the model got at round 1, and the system prompt recorded."""
    backend = FirstRound()
    line = run_scenario(s, backend, catalog(), model="first-round")
    assert backend.given is not None and line.failure is None
    return *backend.given, line.rounds[0].system


def test_every_scenario_gets_the_same_system_prompt():
    systems = {first_round(s)[2] for s in varied()}
    assert len(systems) == 1
    system = systems.pop()
    assert CONTEXT_CLOSE not in system and "Europe/" not in system and "Asia/Tokyo" not in system


def test_the_context_opens_the_request_when_there_is_no_history():
    messages, _, _ = first_round(varied()[1])
    assert [m["role"] for m in messages] == ["system", "user"]
    request = messages[1]["content"]
    assert request.startswith(CONTEXT_HEADING)
    assert "Asia/Tokyo" in request and "東京都渋谷区" in request
    assert request.endswith(CONTEXT_CLOSE + "明日の東京の天気は？")


def test_with_history_the_context_opens_the_first_user_turn_only():
    messages, _, _ = first_round(varied()[2])
    users = [m["content"] for m in messages if m["role"] == "user"]
    assert users[0].startswith(CONTEXT_HEADING) and "Europe/Berlin" in users[0]
    assert without_context(users[0]) == "dinner with Sam on Friday?"
    assert users[1] == "und Aoife auch"
    assert messages[2] == {"role": "assistant", "content": "Friday 19:00 at Chapter One."}


def test_a_history_opening_with_the_assistant_puts_the_context_on_the_first_user_turn():
    s = scenario(history=[{"role": "assistant", "content": "Good morning!"}], request="any plans today?")
    messages = opening_messages(s, "CONTEXT\n")
    assert messages == [{"role": "assistant", "content": "Good morning!"},
                        {"role": "user", "content": "CONTEXT\nany plans today?"}]


def test_the_transcript_records_the_first_user_message_as_the_model_saw_it():
    s = varied()[0]
    line, backend, _ = run(s, ["ok"])
    assert line.transcript[0].content == backend.seen[s.id][0][0][1]["content"]
    assert without_context(line.transcript[0].content) == s.request


@pytest.mark.parametrize("s", varied(), ids=lambda s: s.id)
def test_without_context_gives_back_exactly_the_words_that_followed_the_block(s):
    block = render_context(phone_context(s, clock_for(s.phone, s.language), catalog()))
    assert block.startswith(CONTEXT_HEADING) and block.endswith(CONTEXT_CLOSE)
    words = "# The user's message\nis quoted here, and\n# This phone\ntoo"
    assert without_context(block + words) == words


@pytest.mark.parametrize("text", [
    "what's on tomorrow?",
    "# This phone is broken, can you book a repair?",  # the heading's words, but no block
    "Location: Dublin\n# The user's message\nhi",  # a closing line with no block before it
])
def test_text_without_a_context_block_is_left_as_it_is(text):
    assert without_context(text) == text


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["qwen3", "qwen3_5"])
def test_round_one_prompts_share_every_token_before_the_first_user_message(tiny_models, arch):
    """Qwen3 renders the system prompt before the tools, Qwen3.5 after: either way the tool
    schemas and the system prompt are a prefix every scenario's first prompt shares."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_models[arch]))
    prompts = []
    for s in varied():
        messages, tools, _ = first_round(s)
        prompts.append(tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True,
                                                     enable_thinking=False, tokenize=False))
    shared_text = prompts[0][:prompts[0].index("<|im_start|>user\n")]
    assert "</tools>" in shared_text and catalog().systemPrompt.strip() in shared_text
    shared = len(tokenizer.encode(shared_text, add_special_tokens=False))
    first = tokenizer.encode(prompts[0], add_special_tokens=False)
    assert shared > len(first) // 2  # the 38 schemas are most of the prompt
    for other in prompts[1:]:
        tokens = tokenizer.encode(other, add_special_tokens=False)
        common = next((i for i, (a, b) in enumerate(zip(first, tokens)) if a != b),
                      min(len(first), len(tokens)))
        assert common >= shared


def test_show_and_the_report_give_the_request_without_the_context():
    from orvena_bench.cli.show_cmd import render_run
    from orvena_bench.reports.html import _request_of

    for s in varied()[:2]:  # no history: the request is the message the context opens
        line, _, _ = run(s, ["ok"])
        assert line.transcript[0].content.startswith(CONTEXT_HEADING)
        shown = render_run(line, Path("results.jsonl"), None)
        assert f"-- user: {s.request}\n" in shown and CONTEXT_HEADING not in shown
        assert _request_of(line) == s.request
