"""What a model builder reads after a run: the card's tables, checkpoint comparison with its
statistics, the failure taxonomy and a self-contained HTML report.

Depends on ``formats``, ``scoring`` and ``harness`` (the report shows the first user message
without the phone context, ``harness.prompt.without_context``); used by ``cli``.
"""
