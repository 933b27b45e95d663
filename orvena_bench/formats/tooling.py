"""What a tool call returns, whichever side answered it (the phone or a scripted connection)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ToolOutcome:
    """The text the model reads, and how the call went.

    failed: the call did not do what it asked (bad argument, unknown id, permission denied,
    an MCP error result); matched: the phone or a scripted rule answered it (False for unknown
    tools, invalid arguments and MCP calls no rule matched).
    """

    text: str
    failed: bool = False
    matched: bool = True
    structured: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
