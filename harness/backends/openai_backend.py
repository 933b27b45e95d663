"""The ``openai`` backend: any OpenAI-compatible chat-completions server (mlx_lm.server, vLLM,
llama.cpp's server, Ollama) at ``--base-url``, for models served elsewhere or on a cluster.

The server renders the chat template and parses the calls; this backend sends the conversation
with ``tools``, the sampling settings and a per-round seed, and reads the answer, the calls and
the token counts. Replies are streamed so that the time to the first token can be recorded as
prefill time. Only the standard library is used.

What the server does not report is reconstructed or left at zero: ``Generation.text`` is the
content followed by the calls in the JSON ``<tool_call>`` form with each arguments string exactly
as received (a replay re-parses it with the ``json_tools`` format to the same calls and errors);
peak memory is 0.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from typing import Any, Iterator

from orvena_bench.formats.result import RoundTiming
from harness.backend import Generation, ParsedCall, SessionContext
from harness.sampling import SamplingConfig, round_seed

MAX_TOKENS = 1024
MAX_TOKENS_THINKING = 4096
TIMEOUT_SECONDS = 600.0
# Servers differ in how wide a seed they take; 31 bits is accepted by all of them.
SEED_BITS = 31


def wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The harness's messages in the OpenAI wire form: call arguments as JSON strings."""
    out = []
    for m in messages:
        if m.get("tool_calls"):
            m = dict(m)
            m["tool_calls"] = [
                {**c, "function": {**c["function"], "arguments": (
                    c["function"]["arguments"] if isinstance(c["function"]["arguments"], str)
                    else json.dumps(c["function"]["arguments"], ensure_ascii=False))}}
                for c in m["tool_calls"]]
        out.append(m)
    return out


def _events(response) -> Iterator[dict[str, Any]]:
    """The JSON objects of a server-sent-events stream, up to ``data: [DONE]``."""
    for raw in response:
        line = raw.decode("utf-8").strip()
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            return
        yield json.loads(data)


class OpenAIBackend:
    name = "openai"

    def __init__(self, model: str, *, base_url: str, api_key: str | None = None,
                 thinking: bool = False, sampling: SamplingConfig | None = None,
                 max_tokens: int | None = None, timeout: float = TIMEOUT_SECONDS):
        if not base_url:
            raise ValueError("the openai backend needs --base-url (e.g. http://127.0.0.1:8080/v1)")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.thinking = thinking
        self.sampling = sampling or SamplingConfig()
        self.max_tokens = max_tokens or (MAX_TOKENS_THINKING if thinking else MAX_TOKENS)
        self.timeout = timeout

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "model": self.model, "baseUrl": self.base_url,
                "thinking": self.thinking, "sampling": self.sampling.describe(),
                "maxTokens": self.max_tokens,
                # How the rebuilt round texts parse back (see _generation).
                "toolFormat": "json_tools", "startsInReasoning": False}

    def open(self, context: SessionContext) -> "OpenAISession":
        return OpenAISession(self, context)

    def request_body(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                     seed: int) -> dict[str, Any]:
        s = self.sampling
        body: dict[str, Any] = {
            "model": self.model, "messages": wire_messages(messages), "stream": True,
            "stream_options": {"include_usage": True}, "max_tokens": self.max_tokens,
            "temperature": s.temperature, "top_p": s.top_p, "seed": seed,
            # Not in OpenAI's own API, but read by mlx_lm.server, vLLM and llama.cpp.
            "top_k": s.top_k, "min_p": s.min_p,
            "chat_template_kwargs": {"enable_thinking": self.thinking},
        }
        if tools:
            body["tools"] = tools
        return body

    def post(self, body: dict[str, Any]):
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(
            f"{self.base_url}/chat/completions", data=json.dumps(body).encode(),
            headers=headers, method="POST")
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")[:500]
            raise RuntimeError(f"{self.base_url}: HTTP {e.code}: {detail}") from None
        except urllib.error.URLError as e:
            raise RuntimeError(f"{self.base_url}: {e.reason}") from None


class OpenAISession:
    def __init__(self, backend: OpenAIBackend, context: SessionContext):
        self.backend = backend
        self.context = context
        self.round = 0

    def close(self) -> None:
        pass

    def generate(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Generation:
        b = self.backend
        seed = round_seed(self.context.seed, self.context.scenario.id, self.round) % (1 << SEED_BITS)
        self.round += 1
        started = time.perf_counter()
        first_at = None
        content: list[str] = []
        reasoning: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage: dict[str, Any] = {}
        with b.post(b.request_body(messages, tools, seed)) as response:
            for event in _events(response):
                if event.get("usage"):
                    usage = event["usage"]
                for choice in event.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if first_at is None and delta:
                        first_at = time.perf_counter()
                    content.append(delta.get("content") or "")
                    # vLLM and llama.cpp say reasoning_content, Ollama and newer vLLM reasoning.
                    reasoning.append(delta.get("reasoning_content") or delta.get("reasoning") or "")
                    for part in delta.get("tool_calls") or []:
                        call = calls.setdefault(part.get("index", len(calls)),
                                                {"name": "", "arguments": ""})
                        fn = part.get("function") or {}
                        call["name"] += fn.get("name") or ""
                        call["arguments"] += fn.get("arguments") or ""
        finished = time.perf_counter()
        first_at = first_at or finished
        out = _generation("".join(content).strip(), "".join(reasoning).strip(),
                          [calls[i] for i in sorted(calls)])
        details = usage.get("prompt_tokens_details") or {}
        out.timing = RoundTiming(
            promptTokens=int(usage.get("prompt_tokens") or 0),
            cachedTokens=int(details.get("cached_tokens") or 0),
            generatedTokens=int(usage.get("completion_tokens") or 0),
            prefillSeconds=round(first_at - started, 6),
            decodeSeconds=round(finished - first_at, 6))
        return out


def _generation(content: str, reasoning: str, calls: list[dict[str, str]]) -> Generation:
    """Calls whose arguments are not a JSON object are parse errors, recorded as written."""
    parsed: list[ParsedCall] = []
    errors: list[str] = []
    blocks: list[str] = []
    unread: list[str] = []
    for call in calls:
        raw = call["arguments"] or "{}"
        # "</" only occurs inside JSON strings: "<\/" reads the same and cannot end the block.
        block = (f'<tool_call>\n{{"name": {json.dumps(call["name"], ensure_ascii=False)}, '
                 f'"arguments": {raw}}}').replace("</", "<\\/") + '\n</tool_call>'
        blocks.append(block)
        try:
            arguments = json.loads(raw)
            if not isinstance(arguments, dict) or not call["name"]:
                raise ValueError("a call needs a name and an arguments object")
            parsed.append(ParsedCall(call["name"], arguments))
        except ValueError as e:
            errors.append(f"{type(e).__name__}: {e} in {block[:500]!r}")
            unread.append(block)
    text = "\n".join(([f"<think>\n{reasoning}\n</think>\n"] if reasoning else [])
                     + ([content] if content else []) + blocks)
    if unread:  # kept in the turn's text as written, as parse_text keeps them (toolcalls.py)
        content = "\n\n".join(p for p in (content.strip(), "\n".join(unread)) if p)
    return Generation(text=text, content=content, reasoning=reasoning, calls=parsed,
                      parse_errors=errors)
