"""Plain-text renderings of the report's tables, for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

from orvena_bench.reports.compare import Comparison, Delta
from orvena_bench.reports.runs import Key
from orvena_bench.reports.seeds import SeedReport
from orvena_bench.reports.summary import Row
from orvena_bench.reports.taxonomy import Taxonomy


def grid(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Columns padded to their widest cell; the first column left-aligned, the rest right."""
    cells = [list(map(str, headers)), *([str(c) for c in r] for r in rows)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule, *map(fmt, cells[1:])])


def results_table(rows: Sequence[Row], models: Sequence[str], *, title: str) -> str:
    body = [[f"{r.group.heading} ({r.total})",
             *(r.text(m) for m in models)] for r in rows]
    return f"{title}\n{grid(['', *models], body)}"


def comparison(c: Comparison, *, flips_shown: int = 40) -> str:
    out = [c.sentence()]
    if c.unpaired_a or c.unpaired_b:
        out.append(f"Not compared: {c.unpaired_a} scenarios only {c.a} ran, "
                   f"{c.unpaired_b} only {c.b} ran.")
    for title, deltas in c.deltas.items():
        out += ["", f"Deltas by {title} (points, {c.b} minus {c.a})", delta_grid(c, deltas)]
    for who, keys in ((c.b, c.only_b), (c.a, c.only_a)):
        out += ["", f"Passed in {who} only ({len(keys)})", flip_list(keys, flips_shown)]
    return "\n".join(out)


def delta_grid(c: Comparison, deltas: Sequence[Delta]) -> str:
    return grid(["", "n", c.a, c.b, "delta"],
                [[d.name, d.total, d.a_passed, d.b_passed, f"{d.points:+.1f}"] for d in deltas])


def flip_list(keys: Sequence[Key], shown: int) -> str:
    if not keys:
        return "  (none)"
    lines = [f"  {key_text(k)}" for k in keys[:shown]]
    if len(keys) > shown:
        lines.append(f"  ... and {len(keys) - shown} more (the report lists them all)")
    return "\n".join(lines)


def key_text(key: Key) -> str:
    set_name, scenario_id = key
    return scenario_id if set_name == "bench" else f"{scenario_id} ({set_name})"


def seeds(r: SeedReport) -> str:
    per_seed = ", ".join(f"seed {s} {100 * x:.1f}%"
                         for s, x in zip(r.seeds, r.rates, strict=True))
    head = (f"{r.model}: {r.n} seeds over the {r.scenarios} scenarios every seed ran ({per_seed}); "
            f"run-to-run spread (sample SD) {100 * r.spread:.1f} points")
    table = grid(["k", *map(str, range(1, r.n + 1))],
                 [["pass@k", *(f"{100 * x:.1f}%" for x in r.pass_at)],
                  ["pass^k", *(f"{100 * x:.1f}%" for x in r.pass_hat)]])
    return f"{head}\n{table}"


def taxonomy(t: Taxonomy, models: Sequence[str]) -> str:
    if not t.kinds:
        return "Failure taxonomy: no failed scenario."
    out = ["Failure taxonomy: failed scenarios per kind of failed check (a scenario counts "
           "under each kind it failed)"]
    for model in models:
        rows = [r for r in t.rows if r.model == model and r.failed]
        total = t.totals(model)
        if not total.failed:
            out += ["", f"{model}: no failed scenario of {total.scenarios}"]
            continue
        body = [[r.group, r.scenarios, r.failed, *(r.kinds.get(k, 0) or "" for k in t.kinds)]
                for r in [*rows, total]]
        out += ["", model, grid(["", "ran", "failed", *t.kinds], body)]
    return "\n".join(out)
