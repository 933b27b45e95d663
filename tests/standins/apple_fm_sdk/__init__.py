"""A stand-in for Apple's ``apple_fm_sdk`` (Python bindings of the Foundation Models framework) with
the documented surface the apple backend uses, for tests on machines without the framework.

The real framework runs the tool loop itself: ``respond`` generates, calls a ``Tool``'s async
``call`` with the model's arguments as ``GeneratedContent``, feeds the result back, and returns the
final text. Here a test gives the "model" as a ``Script``: each ``LanguageModelSession`` created
takes the next list of steps, ``("call", tool_name, arguments)``, ``("answer", text)`` or
``("raise", exception)``. A call step's arguments are given as JSON; for a tool whose schema is
one JSON text field they become that field's text, as the model would write them. A call step checks the arguments against the tool's ``arguments_schema``
as the framework's constrained decoding would, and records the tool's result text.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from enum import IntEnum
from typing import Any, get_args, get_origin

__version__ = "0.0-standin"


class FoundationModelsError(Exception):
    pass


class GenerationError(FoundationModelsError):
    pass


class ExceededContextWindowSizeError(GenerationError):
    pass


class AssetsUnavailableError(GenerationError):
    pass


class GuardrailViolationError(GenerationError):
    pass


class UnsupportedGuideError(GenerationError):
    pass


class UnsupportedLanguageOrLocaleError(GenerationError):
    pass


class DecodingFailureError(GenerationError):
    pass


class RateLimitedError(GenerationError):
    pass


class ConcurrentRequestsError(GenerationError):
    pass


class RefusalError(GenerationError):
    pass


class InvalidGenerationSchemaError(GenerationError):
    pass


class ToolCallError(FoundationModelsError):
    def __init__(self, tool_name: str, underlying_error: BaseException):
        super().__init__(f"{tool_name}: {underlying_error}")
        self.tool_name = tool_name
        self.underlying_error = underlying_error


class SystemLanguageModelUnavailableReason(IntEnum):
    APPLE_INTELLIGENCE_NOT_ENABLED = 0
    DEVICE_NOT_ELIGIBLE = 1
    MODEL_NOT_READY = 2
    UNKNOWN = 0xFF


class SystemLanguageModelUseCase(IntEnum):
    GENERAL = 0
    CONTENT_TAGGING = 1


class SystemLanguageModelGuardrails(IntEnum):
    DEFAULT = 0
    PERMISSIVE_CONTENT_TRANSFORMATIONS = 1


class Script:
    """What the stand-in model does: one list of steps per session, taken in order."""

    def __init__(self, sessions: list[list[tuple]], *, unavailable: SystemLanguageModelUnavailableReason | None = None):
        self.sessions = list(sessions)
        self.unavailable = unavailable
        self.created: list[LanguageModelSession] = []


script = Script([])  # the test sets this (a stand-in's knob, not production state)


class SystemLanguageModel:
    def __init__(self, use_case=SystemLanguageModelUseCase.GENERAL,
                 guardrails=SystemLanguageModelGuardrails.DEFAULT):
        self.use_case = use_case
        self.guardrails = guardrails

    def is_available(self):
        if script.unavailable is None:
            return True, None
        return False, script.unavailable


@dataclasses.dataclass
class GenerationSchema:
    description: str
    properties: dict[str, tuple[Any, str, list | None]]  # name -> (type, description, anyOf)


class _Guide:
    def __init__(self, description: str, anyOf=None, **_):
        self.description = description
        self.anyOf = anyOf


def guide(description: str, **kwargs) -> Any:
    return _Guide(description, **kwargs)


def generable(description: str = ""):
    def wrap(cls):
        properties = {}
        for name, annotation in cls.__annotations__.items():
            g = cls.__dict__.get(name)
            properties[name] = (annotation, getattr(g, "description", ""), getattr(g, "anyOf", None))
        schema = GenerationSchema(description, properties)
        cls.generation_schema = classmethod(lambda c: schema)
        return cls
    return wrap


class GeneratedContent:
    def __init__(self, values: dict[str, Any]):
        self._values = values

    def value(self, typ, for_property: str | None = None):
        if for_property not in self._values:
            raise FoundationModelsError(f"no property {for_property!r}")
        v = self._values[for_property]
        if typ is float and isinstance(v, int) and not isinstance(v, bool):
            return float(v)  # a JSON number, read as the field's type
        if typ in (int, float, str, bool) and not isinstance(v, typ):
            raise FoundationModelsError(f"{for_property!r} is not a {typ.__name__}")
        return v


class Tool:
    name: str = ""
    description: str = ""

    @property
    def arguments_schema(self) -> GenerationSchema:
        raise NotImplementedError

    async def call(self, args: GeneratedContent) -> str:
        raise NotImplementedError


def _base_type(annotation):
    args = [a for a in get_args(annotation) if a is not type(None)]
    return _base_type(args[0]) if get_origin(annotation) is not None and args and get_origin(annotation) is not list else (
        list if get_origin(annotation) is list else annotation)


class LanguageModelSession:
    def __init__(self, instructions: str | None = None, model: SystemLanguageModel | None = None,
                 tools: list[Tool] | None = None):
        self.instructions = instructions
        self.model = model
        self.tools = {t.name: t for t in tools or []}
        self.prompts: list[str] = []
        self.tool_results: list[tuple[str, str]] = []
        self._busy = False
        self._steps = script.sessions.pop(0) if script.sessions else [("answer", "")]
        script.created.append(self)

    async def respond(self, prompt: str) -> str:
        if self._busy:
            raise ConcurrentRequestsError("a request is already in progress")
        self._busy = True
        self.prompts.append(prompt)
        try:
            while self._steps:
                kind, *rest = self._steps.pop(0)
                if kind == "answer":
                    return rest[0]
                if kind == "raise":
                    raise rest[0]
                name, arguments = rest
                tool = self.tools.get(name)
                if tool is None:  # constrained decoding only produces declared tools
                    raise DecodingFailureError(f"tool {name!r} is not declared")
                schema = tool.arguments_schema
                if list(schema.properties) == ["json"] and "json" not in arguments:
                    # A schema of one JSON text field: the model writes the arguments as its text.
                    arguments = {"json": json.dumps(arguments, ensure_ascii=False)}
                for key, value in arguments.items():
                    if key not in schema.properties:
                        raise DecodingFailureError(f"{name}: no argument {key!r} in the schema")
                    typ = _base_type(schema.properties[key][0])
                    number = typ is float and isinstance(value, int) and not isinstance(value, bool)
                    if typ in (int, float, str, bool, list) and not number and not isinstance(value, typ):
                        raise DecodingFailureError(f"{name}.{key}: {value!r} is not {typ.__name__}")
                result = await tool.call(GeneratedContent(arguments))
                self.tool_results.append((name, result))
                await asyncio.sleep(0)
            return ""
        finally:
            self._busy = False
