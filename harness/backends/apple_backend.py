"""Apple's on-device model through the Foundation Models framework (``apple_fm_sdk``).

The framework runs the tool loop itself: ``LanguageModelSession.respond`` generates, calls a
``Tool``'s ``call`` with the model's arguments, feeds the result back and returns the final text.
Our loop drives every other backend round by round, and it must stay the one place that routes,
records and scores calls. So this session turns the framework inside out: ``respond`` runs in a
thread of its own, and each tool call it makes comes out of ``generate`` as a round's call; the
loop routes it through the same phone, connections and loaders as for any model, and the next
``generate`` hands the tool message's text back to the waiting ``call``. Calls, failures, matched
flags and the transcript are therefore recorded exactly as for the MLX backend; ``rounds`` stays
empty, as in the card, since the framework exposes no raw text per model call.

The context window is small (4,096 tokens on M1/M2-class Macs): when the instructions and every
declared schema do not fit with room for the conversation, only the loaders are declared to the
framework at first, with the native tools listed by name in the instructions, as the app does; a
``load_tools`` call (natives or a connection's operations) adds those tools. A framework session's
tools are fixed when it is made, so a change of tools starts a new session whose prompt carries the
conversation so far.
"""

from __future__ import annotations

import asyncio
import importlib
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result import RoundTiming
from harness.backend import Generation, ModelFailure, ParsedCall, SessionContext
from harness.backends.apple_tools import make_tool
from harness.loaders import LOADER_ARGUMENT
from orvena_bench.formats.languages import LOADER_TOOLS

DEFAULT_WINDOW = 4096
# Left free for the request, the phone's context, tool results and the answer.
CONVERSATION_RESERVE = 1024
# How long one framework step may take before the session counts as hung.
STEP_TIMEOUT_S = 600.0

UNAVAILABLE = {
    "APPLE_INTELLIGENCE_NOT_ENABLED": "Apple Intelligence is turned off (System Settings > Apple Intelligence & Siri)",
    "DEVICE_NOT_ELIGIBLE": "this Mac is not eligible for Apple Intelligence (Apple silicon and macOS 26 or newer are needed)",
    "MODEL_NOT_READY": "Apple's on-device model is not ready yet (it may still be downloading)",
}
# The framework's errors that are the model's outcome, recorded as such (not retried as the
# backend's): the kind each becomes.
MODEL_ERRORS = {
    "ExceededContextWindowSizeError": "context-window",
    "GuardrailViolationError": "guardrail",
    "RefusalError": "guardrail",
    "DecodingFailureError": "decoding",
}


def estimate_tokens(text: str) -> int:
    """Tokens of a text, estimated (the framework gives no tokenizer): 3.3 characters of ASCII per
    token and one per character of other scripts. Against the Qwen3.5 tokenizer on our prompts and
    schemas it is 5% high on average, from 36% low to 30% high per text (benchmarks/apple_budget.py);
    the choice it feeds is far from either window's edge (every schema declared: ~5,400 tokens)."""
    ascii_chars = sum(1 for ch in text if ch < "\x80")
    return int(ascii_chars / 3.3 + (len(text) - ascii_chars)) + 1


def declaration_tokens(declarations: list[dict[str, Any]]) -> int:
    return sum(estimate_tokens(orjson.dumps(d["function"]).decode()) for d in declarations)


def load_sdk(module: str = "apple_fm_sdk") -> Any:
    """The framework's Python bindings, or a one-line error saying why they cannot be had."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise FormatError("the apple backend needs Apple's Foundation Models framework: macOS 26+ "
                          "on Apple silicon with Apple Intelligence on, and pip install -e \".[apple]\" "
                          f"(apple-fm-sdk); here: {e}") from None


def unavailable_reason(sdk: Any, model: Any) -> str | None:
    available, reason = model.is_available()
    if available:
        return None
    name = getattr(reason, "name", str(reason))
    return UNAVAILABLE.get(name, f"Apple's on-device model is unavailable ({name})")


def conversation_text(messages: list[dict[str, Any]]) -> str:
    """The conversation after the system prompt as one prompt, for a session that starts mid-turn
    or with earlier turns (the framework's respond takes one prompt)."""
    lines = []
    for m in messages[1:]:
        role, content = m["role"], m.get("content") or ""
        if role == "user":
            lines.append(f"User: {content}")
        elif role == "assistant":
            if content:
                lines.append(f"Assistant: {content}")
            for call in m.get("tool_calls") or []:
                f = call["function"]
                lines.append(f"Assistant called {f['name']} with {orjson.dumps(f['arguments']).decode()}")
        elif role == "tool":
            lines.append(f"Tool {m.get('name') or ''} returned: {content}")
    return "\n\n".join(lines)


def native_listing(tools: list[dict[str, Any]]) -> str:
    names = [t["function"]["name"] for t in tools if t["function"]["name"] not in LOADER_TOOLS]
    return ("\n\nOnly the loaders are declared at first. Declare what you need with load_tools "
            "before calling it; the phone's tools are: " + ", ".join(names) + ".")


@dataclass
class _Call:
    name: str
    arguments: dict[str, Any]
    future: asyncio.Future


@dataclass
class _Respond:
    """One framework session and its respond() running on an event loop in a thread of its own."""

    sdk: Any
    model: Any
    instructions: str
    declarations: list[dict[str, Any]]
    prompt: str
    events: queue.Queue = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        self.names = [d["function"]["name"] for d in self.declarations]
        self.loop = asyncio.new_event_loop()
        self.task = self.loop.create_task(self._respond())  # before the thread: stop() may cancel it
        self.thread = threading.Thread(target=self._run, daemon=True, name="apple-respond")
        self.thread.start()

    async def _tool_answer(self, name: str, arguments: dict[str, Any]) -> str:
        future = self.loop.create_future()
        self.events.put(_Call(name, arguments, future))
        return await future

    async def _respond(self) -> None:
        try:
            session = self.sdk.LanguageModelSession(
                instructions=self.instructions, model=self.model,
                tools=[make_tool(self.sdk, d, self._tool_answer) for d in self.declarations])
            self.events.put(("answer", await session.respond(self.prompt)))
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - handed to the loop's thread, which records it
            self.events.put(("error", e))

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass
        finally:
            self.loop.close()

    def next_event(self) -> Any:
        try:
            return self.events.get(timeout=STEP_TIMEOUT_S)
        except queue.Empty:
            raise TimeoutError(f"the framework gave no tool call or answer in {STEP_TIMEOUT_S:.0f} s") from None

    def answer(self, call: _Call, text: str) -> None:
        self.loop.call_soon_threadsafe(call.future.set_result, text)

    def stop(self) -> None:
        if not self.task.done():
            try:
                self.loop.call_soon_threadsafe(self.task.cancel)
            except RuntimeError:  # the loop closed meanwhile: respond() has ended
                pass
        self.thread.join(timeout=5)


class AppleSession:
    """One scenario's turn on Apple's model."""

    records_rounds = False  # the card's rounds are empty for Apple's model

    def __init__(self, backend: AppleBackend):
        self.backend = backend
        self.respond: _Respond | None = None
        self.pending: _Call | None = None
        self.lazy = False  # only the loaders and what load_tools named are declared
        self.loaded: set[str] = set()

    def _declare(self, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if not self.lazy:
            return tools
        return [t for t in tools if t["function"]["name"] in LOADER_TOOLS
                or t["function"]["name"] in self.loaded or t["function"]["name"].startswith("mcp.")]

    def _start(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> None:
        instructions = messages[0]["content"]
        if self.respond is None:
            fits = (estimate_tokens(instructions) + declaration_tokens(tools) + CONVERSATION_RESERVE
                    <= self.backend.window)
            self.lazy = not fits
        if self.lazy:
            instructions += native_listing(tools)
        prompt = conversation_text(messages)
        if self.respond is not None:  # a new framework session mid-turn: tools changed
            self.respond.stop()
            prompt += "\n\nThe tools you loaded are now declared. Continue with the user's request."
        self.respond = _Respond(self.backend.sdk, self.backend.model, instructions,
                                self._declare(tools), prompt)

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        started = time.perf_counter()
        if self.respond is None:
            self._start(messages, tools)
        elif self.pending is not None:
            call, self.pending = self.pending, None
            if call.name == "load_tools":
                self.loaded.update(n for n in call.arguments.get(LOADER_ARGUMENT["load_tools"]) or [] if isinstance(n, str))
            if [d["function"]["name"] for d in self._declare(tools)] != self.respond.names:
                self._start(messages, tools)
            else:
                self.respond.answer(call, messages[-1].get("content") or "")
        event = self.respond.next_event()
        timing = RoundTiming(seconds=time.perf_counter() - started)
        if isinstance(event, _Call):
            self.pending = event
            text = orjson.dumps({"name": event.name, "arguments": event.arguments}).decode()
            return Generation(text=text, calls=[ParsedCall(event.name, event.arguments)], timing=timing)
        kind, value = event
        if kind == "answer":
            return Generation(text=value, content=value, timing=timing)
        model_kind = MODEL_ERRORS.get(type(value).__name__)
        if model_kind is not None:
            raise ModelFailure(model_kind, f"{type(value).__name__}: {value}")
        raise value

    def close(self) -> None:
        if self.respond is not None:
            self.respond.stop()


class AppleBackend:
    name = "apple"

    def __init__(self, *, window: int = DEFAULT_WINDOW, sdk_module: str = "apple_fm_sdk"):
        self.sdk = load_sdk(sdk_module)
        self.model = self.sdk.SystemLanguageModel()
        reason = unavailable_reason(self.sdk, self.model)
        if reason is not None:
            raise FormatError(f"the apple backend cannot run: {reason}")
        self.window = window

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "model": "apple-on-device", "contextWindow": self.window,
                "sdk": getattr(self.sdk, "__version__", None)}

    def open(self, context: SessionContext) -> AppleSession:
        return AppleSession(self)
