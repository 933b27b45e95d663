"""Which failed turns count against the model, and which mean the scenario did not really run.

A turn fails with a recorded ``failure.kind``:
- ``round-limit``: the model's own failure (it never answered); a result like any other;
- ``backend``: the backend raised (a dead server, a missing model);
- ``harness``: a bug in the loop, the phone or the responder;
- ``scenario``: the scenario's own input is broken, found only at run time (a bad token, a broken
  fixture, an unknown zone or connection).

The last three say nothing about the model: ``run`` counts them and exits non-zero, ``run
--resume`` runs such lines again, and summaries and reports show them as not run rather than
failed. Other harnesses may write other kinds; those count as the model's.
"""

from __future__ import annotations

from typing import Any

NOT_RUN_KINDS = frozenset({"backend", "harness", "scenario"})


def not_run(line: Any) -> bool:
    """Whether a result line's turn ended for a reason outside the model (its ``failure.kind``
    is backend, harness or scenario), so the line is no verdict on the model."""
    failure = getattr(line, "failure", None)
    return failure is not None and getattr(failure, "kind", None) in NOT_RUN_KINDS
