"""Tool calls in raw model text: splitting reasoning, answer and call blocks, and parsing the
blocks with mlx-lm's own tool parsers (``mlx_lm.tool_parsers.<format>``).

One function serves every backend that holds raw text (mlx, replay, scripted, reference), so a
replayed run is parsed exactly as it was recorded. A block that cannot be parsed becomes a parse
error with its text; it is never dropped (mlx_lm.server only logs a warning for it).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from types import ModuleType
from typing import Any


from orvena_bench.formats.jsonl import json_text, loads
from harness.backend import Generation, ParsedCall

# The format the harness writes itself (reference and scripted backends) and assumes when a
# recorded run does not say: the Hermes/Qwen3 JSON block.
DEFAULT_FORMAT = "json_tools"
THINK_MARKERS = ("<think>", "</think>")


@lru_cache(maxsize=None)
def parser_module(tool_format: str) -> ModuleType:
    """mlx-lm's parser module for a format name (json_tools, qwen3_coder, pythonic, ...)."""
    try:
        return importlib.import_module(f"mlx_lm.tool_parsers.{tool_format}")
    except ModuleNotFoundError as e:
        raise ValueError(f"unknown tool format {tool_format!r} (no mlx_lm.tool_parsers.{tool_format})") from e


@dataclass
class Split:
    """Raw text cut into its parts, markers removed."""

    content: str = ""
    reasoning: str = ""
    blocks: list[str] = field(default_factory=list)


@lru_cache(maxsize=16)
def _machine(tool_format: str, think: tuple[str, str]):
    """The state machine that cuts one format's text (built once: it is read-only)."""
    from mlx_lm.generate import TextStateMachine

    module = parser_module(tool_format)
    start, end = module.tool_call_start, module.tool_call_end
    return TextStateMachine({
        "normal": [(think[0], "reasoning"), (start, "tool")],
        "reasoning": [(think[1], "normal"), (start, "tool")],
        "tool": [(end, "normal")] if end else [],
    })


def split_text(text: str, tool_format: str, *, in_reasoning: bool = False,
               think: tuple[str, str] = THINK_MARKERS) -> Split:
    """Cut raw text into answer, reasoning and call blocks.

    in_reasoning: the prompt ended inside a think block (thinking on with Qwen3.5-style
    templates), so the text starts as reasoning. An unterminated call block at the end is still
    a block: its parse fails and is recorded.
    """
    from mlx_lm.generate import TextStateMachine  # heavy import, only when text is parsed

    machine = _machine(tool_format, think)
    state, segments = TextStateMachine.split(
        machine.make_state("reasoning" if in_reasoning else "normal"), text)
    _, rest, last = TextStateMachine.flush(state)
    segments.append((last, rest))

    out = Split()
    content, reasoning = [], []
    block: list[str] | None = None
    previous = None
    for name, piece in segments:
        if name == "tool":
            if previous != "tool" or block is None:
                block = []
                out.blocks.append("")
            block.append(piece)
            out.blocks[-1] = "".join(block)
        elif name == "reasoning":
            reasoning.append(piece)
        else:
            content.append(piece)
        previous = name
    out.content = "".join(content).strip()
    out.reasoning = "".join(reasoning).strip()
    return out


def _as_call(item: Any) -> ParsedCall:
    if not isinstance(item, dict) or not isinstance(item.get("name"), str):
        raise ValueError("a call needs a string 'name'")
    arguments = item.get("arguments", {})
    if isinstance(arguments, str):
        # Some models write the arguments object as a JSON string; read it as the object.
        try:
            arguments = loads(arguments)  # lossless: an integer beyond 64 bits stays one
        except ValueError as e:
            raise ValueError(f"arguments are not JSON ({e})") from None
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ValueError("arguments must be an object")
    return ParsedCall(item["name"], arguments)


# Formats whose argument values are bare text, typed by the parser from the declared schema.
_TEXT_VALUED = frozenset({"qwen3_coder"})


def _union_types(tools: list[dict[str, Any]] | None, name: str) -> dict[str, set[str]]:
    """The parameters of a declared tool whose schema allows several JSON types."""
    for tool in tools or []:
        function = tool.get("function", tool)
        if function.get("name") == name:
            properties = (function.get("parameters") or {}).get("properties") or {}
            return {k: set(v["type"]) for k, v in properties.items()
                    if isinstance(v, dict) and isinstance(v.get("type"), list)}
    return {}


def _typed(call: ParsedCall, tools: list[dict[str, Any]] | None) -> ParsedCall:
    """A bare-text call with its union-typed values read as the model meant them: mlx-lm's
    qwen3_coder reads a parameter typed ``["string", "integer", "boolean"]`` with Python's
    literal rules, so the template's own ``True`` is a boolean but a JSON-style ``true`` stays
    the string "true". ``true``/``false`` is a boolean wherever the schema allows one."""
    unions = _union_types(tools, call.name)
    fixed = {k: (v.strip().lower() == "true")
             for k, v in call.arguments.items()
             if k in unions and "boolean" in unions[k] and isinstance(v, str)
             and v.strip() in ("true", "false")}
    return ParsedCall(call.name, {**call.arguments, **fixed}) if fixed else call


def parse_text(text: str, tool_format: str, tools: list[dict[str, Any]] | None = None, *,
               in_reasoning: bool = False) -> Generation:
    """A Generation from raw text: answer, reasoning, parsed calls and one parse error per
    block that could not be parsed. Timing is left for the caller."""
    split = split_text(text, tool_format, in_reasoning=in_reasoning)
    module = parser_module(tool_format)
    parse = module.parse_tool_call
    calls: list[ParsedCall] = []
    errors: list[str] = []
    unread: list[str] = []
    for block in split.blocks:
        try:
            parsed = parse(block, tools)
            items = parsed if isinstance(parsed, list) else [parsed]
            found = [_as_call(item) for item in items]
            if tool_format in _TEXT_VALUED:
                found = [_typed(c, tools) for c in found]
            calls.extend(found)
        except Exception as e:  # noqa: BLE001 - parsers raise anything; every failure is recorded
            errors.append(f"{type(e).__name__}: {e} in {block.strip()[:500]!r}")
            unread.append(_raw_block(text, block, module.tool_call_start, module.tool_call_end))
    # An unreadable block stays in the turn's text, as written: the next prompt shows the model
    # its own turn (not an empty one before an error), and re-renders the text it generated.
    content = "\n\n".join(p for p in (split.content, "\n".join(unread)) if p)
    return Generation(text=text, content=content, reasoning=split.reasoning,
                      calls=calls, parse_errors=errors)


def _bare(value: Any) -> str:
    """A qwen3_coder value as Qwen3.5's template writes it: objects and arrays as tojson
    (``json.dumps`` with its spacing, non-ASCII kept), anything else through Jinja's
    ``| string`` (Python's ``str``: ``True``, ``30``)."""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _raw_block(text: str, block: str, start: str, end: str | None) -> str:
    """A call block with its markers, as it stands in the text (unterminated: no end)."""
    raw = f"{start}{block}"
    at = text.find(raw)
    return raw + end if end and at >= 0 and text.startswith(end, at + len(raw)) else raw


def render_calls(calls: list[ParsedCall], tool_format: str = DEFAULT_FORMAT) -> str:
    """Calls as a model would write them, for backends that make their own text."""
    module = parser_module(tool_format)
    blocks = []
    for call in calls:
        if tool_format == "json_tools":
            # "</" only occurs inside JSON strings; written "<\/" (the same string), a value
            # holding "</tool_call>" cannot end the block early.
            body = json_text({"name": call.name, "arguments": call.arguments}).replace("</", "<\\/")
        elif tool_format == "qwen3_coder":
            params = "".join(f"<parameter={k}>\n{_bare(v)}\n</parameter>\n"
                             for k, v in call.arguments.items())
            body = f"<function={call.name}>\n{params}</function>"
        else:
            raise ValueError(f"cannot write calls in tool format {tool_format!r}")
        blocks.append(f"{module.tool_call_start}\n{body}\n{module.tool_call_end}")
    return "\n".join(blocks)
