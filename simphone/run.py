"""``run_tool``: the one entry point of the agent loop into the phone.

Order: the tool must exist, its arguments must satisfy the catalog's schema, its permission must
be granted; then it runs. Every model mistake comes back as a failed ToolOutcome whose text is
one line starting "Error:", never as an exception.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from orvena_bench.formats.catalog import Catalog
from orvena_bench.formats.jsonl import json_text
from orvena_bench.formats.tooling import ToolOutcome
from simphone.errors import ToolError
from simphone.phone import Phone
from simphone.times import TimeError
from simphone.tools import NATIVE_TOOLS

# What a pattern of the catalog asks for, in words the model can act on.
_PATTERN_WORDS = {
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$": "a local date-time like 2026-11-05T07:30 (no offset)",
    r"^\d{4}-\d{2}-\d{2}$": "a date like 2026-11-05",
    r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$": "a date like 2026-11-05 or a local date-time like 2026-11-05T07:30",
    r"^P(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$": "an ISO 8601 duration like PT10M or PT1H30M",
}
_TYPE_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number",
               "boolean": "true or false", "array": "a list", "object": "an object"}


def run_tool(phone: Phone, name: str, arguments: dict[str, Any], catalog: Catalog) -> ToolOutcome:
    """Run one native tool call on the phone; writes change ``phone`` in place."""
    entry = catalog.tool(name)
    implementation = NATIVE_TOOLS.get(name)
    if entry is None or implementation is None:
        return ToolOutcome(f"Error: unknown tool {name!r}", failed=True, matched=False)
    if not isinstance(arguments, dict):
        return ToolOutcome("Error: the arguments must be a JSON object", failed=True, matched=False)
    arguments = _without_nulls(arguments, entry.parameters)
    problem = argument_problem(entry.parameters, arguments)
    if problem:
        return ToolOutcome(f"Error: {problem}", failed=True, matched=False)
    try:
        phone.require(entry.permission)
        text = implementation(phone, arguments)
    except TimeError as e:
        return ToolOutcome(f"Error: {e}", failed=True, matched=False)
    except OverflowError:
        # A boundary date (9999-12-31T23:59 plus an hour, 0001-01-01 in another zone) is the
        # model's input, not a harness bug: it gets an error it can recover from.
        return ToolOutcome("Error: a date or time in the arguments is out of the range the phone "
                           "keeps (years 1 to 9999); use a nearer date", failed=True, matched=False)
    except ToolError as e:
        return ToolOutcome(f"Error: {e}", failed=True)
    return ToolOutcome(text)


def _without_nulls(arguments: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    # An optional argument sent as null means "not given", as JSON decoders of apps read it.
    required = set(schema.get("required", ()))
    return {k: v for k, v in arguments.items() if v is not None or k in required}


@lru_cache(maxsize=256)
def _validator(schema_json: bytes) -> Draft202012Validator:
    return Draft202012Validator(orjson.loads(schema_json))


def argument_problem(schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """One line naming the field and what was expected, or None when the arguments fit."""
    validator = _validator(orjson.dumps(schema, option=orjson.OPT_SORT_KEYS))
    error = best_match(validator.iter_errors(arguments))
    return None if error is None else _describe(error, schema)


def _describe(error: ValidationError, schema: dict[str, Any]) -> str:
    field = ".".join(str(p) for p in error.absolute_path)
    got = json_text(error.instance)[:60]
    kind, expected = error.validator, error.validator_value
    if kind == "required":
        missing = [k for k in expected if k not in error.instance]
        return f"missing required field {missing[0]!r}" + (f" in {field}" if field else "")
    if kind == "additionalProperties":
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        return (f"unknown field {extra[0]!r}; allowed fields: " + (", ".join(allowed) or "none"))
    where = f"field {field!r}" if field else "arguments"
    if kind == "type":
        types = expected if isinstance(expected, list) else [expected]
        wanted = _PATTERN_WORDS.get(error.schema.get("pattern", "")) or \
            " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        return f"{where}: expected {wanted}, got {got}"
    if kind == "enum":
        return f"{where}: expected one of {', '.join(map(str, expected))}; got {got}"
    if kind == "pattern":
        return f"{where}: expected {_PATTERN_WORDS.get(expected, f'text matching {expected}')}, got {got}"
    if kind == "minLength":
        return f"{where}: must not be empty"
    if kind == "minItems":
        return f"{where}: must list at least {expected} item" + ("s" if expected != 1 else "")
    if kind in ("minimum", "maximum"):
        bounds = error.schema
        return (f"{where}: expected a number from {bounds.get('minimum', '')} to "
                f"{bounds.get('maximum', '')}, got {got}")
    return f"{where}: {error.message}"
