"""Our tools as the Foundation Models framework's ``Tool`` objects.

The framework takes a tool's arguments as a ``GenerationSchema`` made by its ``@generable``
decorator from a class's annotated fields, and hands the model's arguments back as
``GeneratedContent`` read property by property. A JSON schema maps onto that: strings, integers,
numbers, booleans and lists of them as typed fields, ``enum`` as the guide's ``anyOf``. What a
dataclass field cannot be (a property named like a Python keyword, nested objects, a union of
types) is declared as one string field holding JSON, and parsed back before routing, so every
tool of the catalog and of the connections can be declared.
"""

from __future__ import annotations

import keyword
from collections.abc import Awaitable, Callable
from typing import Any, Optional

import orjson

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}
JSON_FIELD = "json"


def _field_type(prop: dict[str, Any]) -> type | None:
    """The Python type of a JSON schema property, or None when it needs the JSON fallback."""
    kind = prop.get("type")
    if isinstance(kind, str) and kind in _SCALARS:
        return _SCALARS[kind]
    if kind == "array":
        items = prop.get("items") or {}
        item = items.get("type") if isinstance(items, dict) else None
        if isinstance(item, str) and item in _SCALARS:
            return list[_SCALARS[item]]
    return None


def plain_fields(schema: dict[str, Any]) -> dict[str, type] | None:
    """Each property's field type when every property maps onto a typed field, else None."""
    out = {}
    for name, prop in (schema.get("properties") or {}).items():
        kind = _field_type(prop) if isinstance(prop, dict) else None
        if kind is None or not name.isidentifier() or keyword.iskeyword(name):
            return None
        out[name] = kind
    return out


def generable_arguments(sdk: Any, name: str, schema: dict[str, Any]) -> Any:
    """A ``@generable`` class for a tool's JSON schema (the framework derives the schema from it)."""
    fields = plain_fields(schema)
    annotations: dict[str, Any] = {}
    defaults: dict[str, Any] = {}
    if fields is None:
        annotations[JSON_FIELD] = str
        defaults[JSON_FIELD] = sdk.guide("The arguments as one JSON object, following this schema: "
                                         + orjson.dumps(schema).decode())
    else:
        required = set(schema.get("required") or [])
        for prop_name, kind in fields.items():
            prop = schema["properties"][prop_name]
            annotations[prop_name] = kind if prop_name in required else Optional[kind]
            options = {"anyOf": prop["enum"]} if isinstance(prop.get("enum"), list) else {}
            defaults[prop_name] = sdk.guide(prop.get("description") or prop_name, **options)
    cls = type(f"{name.replace('.', '_').replace('/', '_')}_arguments", (),
               {"__annotations__": annotations, **defaults})
    return sdk.generable(f"Arguments of {name}")(cls)


def read_arguments(content: Any, schema: dict[str, Any]) -> dict[str, Any]:
    """The model's arguments as a dict: the properties it gave, or the JSON field parsed (a text
    that is not a JSON object goes on as it is, so the router reports it to the model)."""
    fields = plain_fields(schema)
    if fields is None:
        text = content.value(str, for_property=JSON_FIELD)
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            return {JSON_FIELD: text}
        return value if isinstance(value, dict) else {JSON_FIELD: text}
    out = {}
    for prop_name, kind in fields.items():
        try:
            value = content.value(list if kind not in _SCALARS.values() else kind,
                                  for_property=prop_name)
        except Exception:  # noqa: BLE001 - an optional property the model left out
            continue
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # a number field read as float: 21, as JSON writes it
        if value is not None:
            out[prop_name] = value
    return out


def make_tool(sdk: Any, declaration: dict[str, Any],
              answer: Callable[[str, dict[str, Any]], Awaitable[str]]) -> Any:
    """A ``sdk.Tool`` for an OpenAI-form declaration whose ``call`` awaits ``answer(name, args)``."""
    function = declaration["function"]
    name = function["name"]
    schema = function.get("parameters") or {"type": "object", "properties": {}}
    arguments_class = generable_arguments(sdk, name, schema)

    async def call(self, args):
        return await answer(name, read_arguments(args, schema))

    # Name and description are class attributes, as the framework reads them when a tool is made.
    tool_class = type("DeclaredTool", (sdk.Tool,), {
        "name": name,
        "description": function.get("description") or name,
        "arguments_schema": property(lambda self: arguments_class.generation_schema()),
        "call": call,
    })
    return tool_class()
