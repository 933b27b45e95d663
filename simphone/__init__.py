"""The simulated iPhone: its data (one model per list, see docs/phone-data.md), the 35 native
tools that act on it, and ``run_tool``, the one entry point the agent loop calls."""

from simphone.phone import Phone
from simphone.run import argument_problem, run_tool
from simphone.tools import NATIVE_TOOLS

__all__ = ["NATIVE_TOOLS", "Phone", "argument_problem", "run_tool"]
