"""What a model builder reads after a run: the card's tables, checkpoint comparison with its
statistics, the failure taxonomy and a self-contained HTML report.

Depends on ``formats`` and ``scoring``; used by ``cli``.
"""
