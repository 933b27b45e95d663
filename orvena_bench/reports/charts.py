"""Grouped bar charts as inline SVG: one group per category or language, one bar per model.

Drawn here rather than in the browser so the charts show even with scripts off, and so the
report needs no charting library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from orvena_bench.reports.groups import Tally

# Paul Tol's "bright" scheme: distinguishable with the common colour-vision deficiencies.
PALETTE: tuple[str, ...] = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377",
                            "#BBBBBB")


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[Tally | None]  # one per group; None: the model did not run the group


def grouped_bars(groups: Sequence[str], series: Sequence[Series], *, title: str,
                 rotate_labels: bool = False) -> str:
    """An SVG chart of pass rates (0-100%); every bar has a tooltip with its counts."""
    bar_w = 9 if len(series) > 1 else 14
    gap = 10
    group_w = bar_w * len(series) + gap
    left, top, plot_h = 36, 24, 160
    bottom = 64 if rotate_labels else 28
    width = left + group_w * len(groups) + 8
    height = top + plot_h + bottom
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}">',
        f'<title>{escape(title)}</title>',
    ]
    for pct in (0, 25, 50, 75, 100):
        y = top + plot_h * (1 - pct / 100)
        parts.append(f'<line class="grid" x1="{left}" x2="{width - 4}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text class="tick" x="{left - 4}" y="{y + 3:.1f}" '
                     f'text-anchor="end">{pct}%</text>')
    for g, name in enumerate(groups):
        x0 = left + g * group_w + gap / 2
        for s, ser in enumerate(series):
            t = ser.values[g]
            if t is None or not t.total:
                continue
            h = plot_h * t.rate
            x = x0 + s * bar_w
            tip = f"{ser.name} · {name}: {t.passed} of {t.total} ({100 * t.rate:.1f}%)"
            parts.append(f'<rect class="bar" x="{x:.1f}" y="{top + plot_h - h:.1f}" '
                         f'width="{bar_w - 1}" height="{max(h, 0.5):.1f}" fill="{colour(s)}">'
                         f'<title>{escape(tip)}</title></rect>')
        cx = x0 + bar_w * len(series) / 2
        ly = top + plot_h + 12
        if rotate_labels:
            parts.append(f'<text class="label" x="{cx:.1f}" y="{ly}" text-anchor="end" '
                         f'transform="rotate(-40 {cx:.1f} {ly})">{escape(name)}</text>')
        else:
            parts.append(f'<text class="label" x="{cx:.1f}" y="{ly}" '
                         f'text-anchor="middle">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)
