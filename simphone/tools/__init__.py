"""The 35 native tools simphone implements, one module per domain; each is a function of
(phone, arguments) returning the text the model reads, raising ToolError for a failure.
The three loaders (load_skills, load_connectors, load_tools) belong to the agent loop."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from simphone.tools import (
    alarms, calendar, contacts, device, health, media, music, places, reminders, weather, web,
)

Tool = Callable[[Any, dict[str, Any]], str]

NATIVE_TOOLS: Mapping[str, Tool] = MappingProxyType({
    name: function
    for module in (calendar, reminders, alarms, weather, places, contacts, health, media, web,
                   music, device)
    for name, function in module.TOOLS.items()
})
