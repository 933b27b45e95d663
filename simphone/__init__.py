"""The simulated iPhone: its data (one model per list), the 35 native tools that act on it, and
``run_tool``, the one entry point the agent loop calls."""
