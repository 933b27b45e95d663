"""The openai backend against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from orvena_bench.formats.scenario import Scenario
from harness.backend import SessionContext
from harness.backends import make_backend
from harness.backends.openai_backend import OpenAIBackend
from harness.sampling import SamplingConfig
from harness.toolcalls import parse_text

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The forecast for a place.",
    "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}}]


class Server:
    """Answers each POST with the next scripted list of stream chunks and keeps the bodies."""

    def __init__(self):
        self.replies: list[list[dict] | tuple[int, str]] = []
        self.bodies: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers["Content-Length"])
                server.bodies.append(json.loads(self.rfile.read(length)))
                server.paths.append(self.path)
                reply = server.replies.pop(0)
                if isinstance(reply, tuple):
                    self.send_response(reply[0])
                    self.end_headers()
                    self.wfile.write(reply[1].encode())
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in reply:
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.paths: list[str] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02},
                         daemon=True).start()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


def delta(**d) -> dict:
    return {"choices": [{"index": 0, "delta": d}]}


def call_parts(index: int, name: str, arguments: str) -> list[dict]:
    """A call streamed the way servers do: the name first, the arguments in pieces."""
    half = len(arguments) // 2
    return [
        delta(tool_calls=[{"index": index, "id": f"call_{index}", "type": "function",
                           "function": {"name": name, "arguments": ""}}]),
        delta(tool_calls=[{"index": index, "function": {"arguments": arguments[:half]}}]),
        delta(tool_calls=[{"index": index, "function": {"arguments": arguments[half:]}}]),
    ]


USAGE = {"choices": [], "usage": {"prompt_tokens": 812, "completion_tokens": 31,
                                  "prompt_tokens_details": {"cached_tokens": 640}}}


def session(backend, sid="en-weather-dublin", seed=7):
    sc = Scenario(id=sid, language="en", category="weather", request="Weather in Dublin?")
    return backend.open(SessionContext(scenario=sc, seed=seed))


MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather?"}]


def test_calls_content_and_usage_come_from_the_stream(server):
    server.replies.append([delta(role="assistant", content="Let me check. "),
                           *call_parts(0, "get_weather", '{"place": "Dublin"}'),
                           *call_parts(1, "get_weather", '{"place": "Cork"}'), USAGE])
    backend = OpenAIBackend("orvena-4b", base_url=server.url)
    g = session(backend).generate(MESSAGES, TOOLS)
    assert g.content == "Let me check."
    assert [(c.name, c.arguments) for c in g.calls] == [
        ("get_weather", {"place": "Dublin"}), ("get_weather", {"place": "Cork"})]
    assert g.parse_errors == []
    t = g.timing
    assert (t.promptTokens, t.cachedTokens, t.generatedTokens) == (812, 640, 31)
    assert t.prefillSeconds > 0 and t.peakMemoryGB == 0


def test_arguments_that_are_not_a_json_object_are_parse_errors(server):
    server.replies.append([*call_parts(0, "get_weather", '{"place": "Dub'),
                           *call_parts(1, "get_weather", '["Dublin"]'),
                           *call_parts(2, "get_weather", '{"place": "Cork"}')])
    g = session(OpenAIBackend("m", base_url=server.url)).generate(MESSAGES, TOOLS)
    assert [c.arguments for c in g.calls] == [{"place": "Cork"}]
    assert len(g.parse_errors) == 2
    assert '{"place": "Dub' in g.parse_errors[0] and '["Dublin"]' in g.parse_errors[1]


def test_the_recorded_text_parses_back_to_the_same_calls_and_errors(server):
    server.replies.append([delta(content="Checking."),
                           *call_parts(0, "get_weather", '{"place": "Dublin"}'),
                           *call_parts(1, "get_weather", '{"place": ')])
    g = session(OpenAIBackend("m", base_url=server.url)).generate(MESSAGES, TOOLS)
    again = parse_text(g.text, "json_tools", TOOLS)
    assert again.content == g.content and again.calls == g.calls
    assert len(again.parse_errors) == len(g.parse_errors) == 1


def test_the_request_carries_tools_sampling_a_round_seed_and_dict_arguments_as_json(server):
    server.replies += [[delta(content="Rain.")], [delta(content="Rain.")]]
    backend = make_backend("openai", model="orvena-4b", base_url=server.url + "/",
                           sampling=SamplingConfig(temperature=0.5, top_p=0.9, top_k=10),
                           max_tokens=77)
    s = session(backend)
    history = MESSAGES + [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function",
         "function": {"name": "get_weather", "arguments": {"place": "Dublin"}}}]},
        {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": "Rain"}]
    s.generate(MESSAGES, TOOLS)
    s.generate(history, TOOLS)
    first, second = server.bodies
    assert server.paths == ["/v1/chat/completions"] * 2
    assert first["model"] == "orvena-4b" and first["tools"] == TOOLS
    assert (first["temperature"], first["top_p"], first["top_k"], first["max_tokens"]) == (
        0.5, 0.9, 10, 77)
    assert first["chat_template_kwargs"] == {"enable_thinking": False}
    assert first["stream"] is True
    # Each round has its own seed, the same on every rerun of this scenario and seed.
    assert first["seed"] != second["seed"]
    server.replies.append([delta(content="Rain.")])
    session(backend).generate(MESSAGES, TOOLS)
    assert server.bodies[-1]["seed"] == first["seed"]
    assert second["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"place": "Dublin"}'


def test_reasoning_is_kept_apart(server):
    server.replies.append([delta(reasoning_content="The user wants weather."),
                           delta(content="Rain in Dublin.")])
    g = session(OpenAIBackend("m", base_url=server.url, thinking=True)).generate(MESSAGES, TOOLS)
    assert g.reasoning == "The user wants weather." and g.content == "Rain in Dublin."
    assert server.bodies[0]["chat_template_kwargs"] == {"enable_thinking": True}


def test_a_server_error_is_raised_with_its_status_and_text(server):
    server.replies.append((400, '{"error": "model not found"}'))
    with pytest.raises(RuntimeError, match="HTTP 400.*model not found"):
        session(OpenAIBackend("m", base_url=server.url)).generate(MESSAGES, TOOLS)


def test_the_backend_needs_a_base_url():
    with pytest.raises(ValueError, match="--base-url"):
        OpenAIBackend("m", base_url="")
