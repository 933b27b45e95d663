"""The scenario format of the card's "Reading a scenario" section.

Unknown fields are kept (``extra="allow"``) so that newer files still load and round-trip.
Lists of strings may also be written as a single string; they are read as a one-item list.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool


def _as_list(value: Any) -> Any:
    return [value] if isinstance(value, str) else value


StrList = Annotated[list[str], BeforeValidator(_as_list)]


class Open(BaseModel):
    """Base of every format model: unknown fields are kept, not dropped."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    def dump(self) -> dict[str, Any]:
        """The model as plain JSON data, without defaults that were never set."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class Turn(Open):
    role: Literal["user", "assistant"]
    content: str


class ExpectedCall(Open):
    """One expected tool call. String tests are case- and accent-insensitive substrings of the
    call's JSON arguments."""

    tool: str
    args: StrList = Field(default_factory=list)
    argsAny: StrList = Field(default_factory=list)
    argsGroups: list[StrList] = Field(default_factory=list)
    argsNot: StrList = Field(default_factory=list)
    # None: the default rule (must succeed, except in recovery/unsupported); True/False override.
    ok: bool | None = None


class Expect(Open):
    calls: list[ExpectedCall] = Field(default_factory=list)
    anyOf: list[list[ExpectedCall]] = Field(default_factory=list)
    forbid: StrList = Field(default_factory=list)
    # JSON true or false only: "yes" coerced to true made a scenario that can never pass.
    noTools: StrictBool = False
    answer: StrList = Field(default_factory=list)
    answerAny: StrList = Field(default_factory=list)
    answerGroups: list[StrList] = Field(default_factory=list)
    answerNot: StrList = Field(default_factory=list)
    language: str | None = None

    def located_calls(self) -> Iterator[tuple[str, ExpectedCall]]:
        """Every expected call with its field path: ``calls``, then each ``anyOf`` sequence's."""
        for i, call in enumerate(self.calls):
            yield f"expect.calls[{i}]", call
        for j, seq in enumerate(self.anyOf):
            for i, call in enumerate(seq):
                yield f"expect.anyOf[{j}][{i}]", call


class McpRule(Open):
    """A scripted MCP answer: the first rule whose match strings all appear in the call's
    arguments, and whose nth (1-based) equals the call's count for that operation, answers."""

    match: StrList = Field(default_factory=list)
    nth: int | None = None
    result: str = ""
    error: bool = False
    structured: Any = None


class Scenario(Open):
    id: str
    language: str
    category: str
    request: str
    history: list[Turn] = Field(default_factory=list)
    connections: StrList = Field(default_factory=list)
    phone: dict[str, Any] = Field(default_factory=dict)
    # Scripted MCP answers keyed "<connection>/<operation>".
    tools: dict[str, list[McpRule]] = Field(default_factory=dict)
    expect: Expect = Field(default_factory=Expect)

    @property
    def locale(self) -> str:
        """The phone's locale (e.g. ``en_IE``), else the request's language."""
        return str(self.phone.get("locale") or self.language)

    @property
    def time_zone(self) -> str:
        return str(self.phone.get("timeZone") or "UTC")

    @property
    def expected_language(self) -> str:
        return self.expect.language or self.language
