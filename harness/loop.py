"""The agent loop: one scenario run, round after round, until the model answers without a call or
the round limit ends the turn as failed.

Each round the model gets the system prompt (the same in every round and scenario: what a loader
returns reaches the model as a tool result; why: docs/backends.md, "Prefilling each token once"),
the conversation so far (the scenario's history turns, then the request, then every
assistant message and tool result of the turn; the phone's context opens the first user message)
and the declared tools. Its calls run in the order written; each result, failed or not, goes back
as a tool message. A call block that could not be parsed goes back as a failed tool message too, so
the model can correct itself, and is counted apart in its round.
Nothing the model writes crashes the turn: a backend exception ends it as a ``backend`` failure,
the scenario's own broken input (a bad token, a broken fixture) as a ``scenario`` failure,
anything else that goes wrong as a ``harness`` failure, and in every case what was recorded so far
is kept (``orvena_bench.formats.failures``: none of the three is a verdict on the model).
"""

from __future__ import annotations

import time
import traceback
from typing import Any

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.clock import TokenError, clock_for
from orvena_bench.formats.errors import FormatError
from orvena_bench.formats.result import ResultLine, TurnFailure
from orvena_bench.formats.scenario import Scenario
from harness.backend import Backend, Generation, ModelFailure, SessionContext
from harness.loaders import McpDirectory, Toolset
from harness.prompt import first_round
from harness.recording import TurnRecord
from harness.routing import Routed, ToolHost, route

DEFAULT_MAX_ROUNDS = 12


def describe_error(error: BaseException) -> str:
    """One line: the exception and where it was raised."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" (at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    return f"{type(error).__name__}: {error}{where}"


def failure_kind(error: BaseException) -> str:
    """``scenario`` for the scenario's own broken input found at run time (a bad token, a broken
    fixture, an unknown zone or connection: all raise FormatError or TokenError), else
    ``harness`` (a bug of the loop, the phone or the responder)."""
    return "scenario" if isinstance(error, (FormatError, TokenError)) else "harness"


def parse_failure_text(error: str) -> str:
    return (f"Error: a tool call could not be read ({error[:300]}). "
            "Write each call exactly in the declared tool-call format.")


def _assistant_message(generation: Generation, first_id: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": generation.content}
    if generation.reasoning:
        # Templates that keep the last turn's reasoning render it; the rest ignore it.
        message["reasoning_content"] = generation.reasoning
    if generation.calls:
        message["tool_calls"] = [
            {"id": f"call_{first_id + i}", "type": "function",
             "function": {"name": c.name, "arguments": c.arguments}}
            for i, c in enumerate(generation.calls)]
    return message


def run_scenario(
    scenario: Scenario,
    backend: Backend,
    catalog: Catalog,
    *,
    seed: int = 7,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    model: str = "model",
    recorded: ResultLine | None = None,
    host: ToolHost | None = None,
    mcp: McpDirectory | None = None,
) -> ResultLine:
    """Run one scenario through the backend and return its result line (not yet scored).

    host and mcp default to the scenario's simulated phone and scripted connections; tests may
    pass others.
    """
    started = time.perf_counter()
    record = TurnRecord(scenario, model, seed)
    session = None
    try:
        clock = clock_for(scenario.phone, scenario.language)
        if host is None or mcp is None:
            from harness.world import scenario_world  # the phone and connections of a scenario

            world_host, world_mcp = scenario_world(scenario, clock, catalog)
            host, mcp = host or world_host, mcp or world_mcp
        toolset = Toolset(catalog, mcp)

        # The system prompt, then the opening messages, recorded as the model sees them (the
        # context block included); every round appends to this list.
        messages = first_round(scenario, clock, catalog)
        system = messages[0]["content"]
        for m in messages[1:]:
            record.message(m["role"], m["content"])

        try:
            session = backend.open(SessionContext(scenario=scenario, seed=seed, recorded=recorded))
        except Exception as e:  # noqa: BLE001 - any backend error ends the turn, recorded
            record.failure = TurnFailure(kind="backend", message=describe_error(e))
            return record.line(time.perf_counter() - started)

        records_rounds = getattr(session, "records_rounds", True)
        call_number = 0
        for _ in range(max_rounds):
            tools = toolset.declared()
            try:
                generation = session.generate(list(messages), tools)  # the loop appends to its own
            except ModelFailure as e:
                record.failure = TurnFailure(kind=e.kind, message=str(e))
                break
            except Exception as e:  # noqa: BLE001
                record.failure = TurnFailure(kind="backend", message=describe_error(e))
                break
            if records_rounds:
                record.round(system, toolset.declared_names(), generation)

            if not generation.calls and not generation.parse_errors:
                record.answer = generation.content
                messages.append(_assistant_message(generation, call_number + 1))
                record.message("assistant", generation.content)
                break

            first_id = call_number + 1
            messages.append(_assistant_message(generation, first_id))
            routed: list[Routed] = []
            for call in generation.calls:
                routed.append(route(call.name, call.arguments, toolset, host))
            record.assistant(generation, [r.internal for r in routed])
            for i, (call, result) in enumerate(zip(generation.calls, routed, strict=True)):
                messages.append({"role": "tool", "tool_call_id": f"call_{first_id + i}",
                                 "name": call.name, "content": result.outcome.text})
                record.tool_result(result, call.arguments)
            call_number += len(generation.calls)
            for error in generation.parse_errors:
                text = parse_failure_text(error)
                call_number += 1
                # No parsed call carries this id: the failure answers the unreadable block.
                messages.append({"role": "tool", "tool_call_id": f"call_{call_number}",
                                 "name": "", "content": text})
                record.parse_failure(text)
        else:
            record.answer = ""
            record.failure = TurnFailure(
                kind="round-limit", message=f"no answer without tool calls after {max_rounds} rounds")
    except Exception as e:  # noqa: BLE001 - a harness bug or broken input fails this scenario, not the run
        record.failure = TurnFailure(kind=failure_kind(e), message=describe_error(e))
    finally:
        if session is not None:
            try:
                session.close()
            except Exception as e:  # noqa: BLE001
                if record.failure is None:
                    record.failure = TurnFailure(kind="backend", message=describe_error(e))
    return record.line(time.perf_counter() - started)
