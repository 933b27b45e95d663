"""The one exception a tool raises for a request it cannot do; run_tool turns it into a failed
result the model reads ("Error: <reason>"), so model mistakes never escape as exceptions."""

from __future__ import annotations


class ToolError(Exception):
    """A failure the model can act on: the message is one line saying what went wrong."""
