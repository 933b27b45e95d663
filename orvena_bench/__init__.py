"""orvena-bench: the card's formats, the reports and the command line (the harness, phone, MCP mock
and scorer are the top-level packages harness, simphone, mcpmock and scoring)."""
