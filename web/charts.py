"""Line charts drawn on the server as inline SVG: no script, no CDN, nothing the CSP refuses.

``line_chart(series, x_labels, title=...)`` takes one ``(label, values)`` pair per line (a player and his
running total, say) and one label per x position (第N手, a session's date), and returns the ``<svg>``
markup as a ``SafeString``, every label escaped (player names are typed by anyone). How it is drawn:

1. The y range spans every value and 0, so the zero line is always there; "nice" ticks (1, 2 or 5 × 10ⁿ,
   about five of them) cover it, labelled by ``compact_number`` (``36``, ``−1200``, ``12万``, ``900亿``).
2. The plot's margins come from the widest tick label (left) and the widest end label (right), measured
   in character widths: a CJK character counts one em, anything else 0.6 em.
3. x positions are evenly spaced; at most about eight x labels are printed (every 1st, 2nd, 5th, 10th …),
   each cut with "…" to the room it has (a session's name is typed by anyone and may be long): the gap to
   the next printed label, and no further than the edge of the image.
4. One polyline per series, with a dot on each point while there are few (a single point is a dot only).
5. At the end of each line its last value, signed; end labels closer than a line's height are pushed
   apart, then kept inside the plot, so four lines ending together stay readable.
6. A legend below the plot, two columns, each name cut to its column with "…" (the full name in a
   ``<title>``).

A line of more points than a 360-unit plot can show apart is drawn through some of them (``sampled``): the
caller picks them, and its page says so (the 走势 page, the statistics' standings).

Colours are CSS: every element has a class (``chart-grid``, ``chart-zero``, ``chart-axis``,
``chart-tick``, ``chart-line``, ``chart-dot``, ``chart-end``, ``chart-legend``; each series in a
``chart-series chart-series-N``, N = 0..7, cycling) styled in ``static/css/site.css``
with the page's custom properties, so the chart follows ``prefers-color-scheme``; series also differ by
dash pattern (set there too), so they read without colour. No ``style=`` attribute is ever written (the
CSP refuses inline styles); only SVG presentation attributes. The viewBox is 360 units wide and the
element ``width="100%"``: at 360 px one unit is one pixel, wider screens scale it up.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language

WIDTH = 360
PLOT_HEIGHT = 170
TOP = 10
X_LABELS_HEIGHT = 20
LEGEND_ROW = 20
TICK_FONT = 11  # tick and end labels
LEGEND_FONT = 12
SERIES_STYLES = 8  # chart-series-0 .. 7 in site.css; more series cycle
DOTS_UP_TO = 24  # points per line that still get a dot each
TARGET_TICKS = 5
MAX_X_LABELS = 8
X_LABEL_GAP = 4  # between two printed x labels
PLAIN_BELOW = 100_000  # smaller numbers are printed in full
# The units players read big numbers in: 万 and 亿 in Chinese, thousands and up in English.
UNITS = {
    "zh": ((10**8, "亿"), (10**4, "万")),
    "en": ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "k")),
}
MAX_POINTS = 120  # points per line worth drawing: three units apart at 360
MINUS = "\u2212"  # the pages' minus sign (web.templatetags.signed), not a hyphen

Series = tuple[str, Sequence[int]]


def compact_number(value: int, *, language: str | None = None) -> str:
    """``36``, ``−1200``, ``12万`` / ``120k``, ``90亿`` / ``9B``: at most three significant digits past
    ``PLAIN_BELOW``, in the units of the page's language (Chinese unless English)."""
    sign = MINUS if value < 0 else ""
    size = abs(value)
    if size < PLAIN_BELOW:
        return f"{sign}{size}"
    code = (language or get_language() or "zh").lower()
    units = UNITS["zh" if code.startswith("zh") else "en"]
    # Rounded before the unit is chosen: 999,999 is "1M", never "1000k"; 99,995,000 is "1亿".
    shown = round(size, 3 - len(str(size)))
    scale, unit = next((scale, unit) for scale, unit in units if shown >= scale)
    scaled = shown / scale
    digits = max(0, 2 - int(math.log10(scaled))) if scaled < 1000 else 0
    text = f"{scaled:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{round(scaled)}"
    return f"{sign}{text}{unit}"


def signed_number(value: int, *, language: str | None = None) -> str:
    """A compact number with its sign, as a total reads: ``+36``, ``−12``, ``0``."""
    return ("+" if value > 0 else "") + compact_number(value, language=language)


def text_width(text: str, font_size: float) -> float:
    """The width a label takes, near enough for margins: CJK one em a character, the rest 0.6 em."""
    return font_size * sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in text)


def fit(text: str, width: float, font_size: float) -> str:
    """``text`` cut with "…" to fit ``width``."""
    if text_width(text, font_size) <= width:
        return text
    while text and text_width(text + "…", font_size) > width:
        text = text[:-1]
    return text + "…"


def sampled(count: int, limit: int = MAX_POINTS) -> list[int]:
    """At most ``limit`` of the indexes ``0 .. count - 1``, evenly spread, the first and the last always
    among them: the points a long line is drawn through, its ends exact."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(number * step) for number in range(limit)})


def nice_ticks(low: int, high: int) -> tuple[int, ...]:
    """Ticks at a step of 1, 2 or 5 × 10ⁿ covering ``low``..``high`` (which include 0)."""
    if low == high:
        low, high = low - 1, high + 1
    raw = (high - low) / TARGET_TICKS
    magnitude = 10 ** max(0, math.floor(math.log10(raw)))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return tuple(range(first, last + step, step))


def x_label_step(count: int) -> int:
    """Print every k-th x label, k in 1, 2, 5, 10, 20 …, so at most ``MAX_X_LABELS`` show."""
    step, factors = 1, (2, 2.5, 2)
    index = 0
    while math.ceil(count / step) > MAX_X_LABELS:
        step = round(step * factors[index % 3])
        index += 1
    return step


def spread(positions: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions moved apart by at least ``gap`` and kept within ``low``..``high``, order kept."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed = [positions[i] for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if placed and placed[-1] > high:
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    placed = [max(low, p) for p in placed]
    result = [0.0] * len(positions)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the plot sits in the viewBox and how values map onto it."""

    left: float
    right: float
    top: float
    bottom: float
    ticks: tuple[int, ...]
    count: int

    def x(self, index: int) -> float:
        if self.count < 2:
            return (self.left + self.right) / 2
        return self.left + index * (self.right - self.left) / (self.count - 1)

    def y(self, value: int) -> float:
        low, high = self.ticks[0], self.ticks[-1]
        return self.bottom - (value - low) * (self.bottom - self.top) / (high - low)


def _num(value: float) -> str:
    return f"{value:.1f}"


def line_chart(
    series: Sequence[Series],
    x_labels: Sequence[str],
    *,
    title: str,
    number: Callable[[int], str] = compact_number,
    end_label: Callable[[int], str] = signed_number,
) -> SafeString:
    """The SVG of one line per ``(label, values)`` over ``x_labels`` (every ``values`` as long as
    ``x_labels``), titled ``title`` (its accessible name). ``number`` prints the ticks, ``end_label`` the
    last value of each line. See the module docstring for how it is laid out."""
    if any(len(values) != len(x_labels) for _label, values in series):
        raise ValueError("every series needs one value per x label")
    values = [value for _label, line in series for value in line]
    ticks = nice_ticks(min([0, *values]), max([0, *values]))
    ends = [end_label(line[-1]) if line else "" for _label, line in series]
    left = 6 + max(text_width(number(tick), TICK_FONT) for tick in ticks)
    right = WIDTH - 8 - max([0.0, *(text_width(end, TICK_FONT) for end in ends)])
    frame = Frame(left, right, TOP, TOP + PLOT_HEIGHT, ticks, len(x_labels))
    legend_top = frame.bottom + X_LABELS_HEIGHT + 6
    rows = math.ceil(len(series) / 2)
    height = legend_top + rows * LEGEND_ROW + 4
    parts = [
        _grid(frame, number),
        _x_labels(frame, x_labels),
        format_html_join("", "{}", ((_line(frame, i, line),) for i, (_label, line) in enumerate(series))),
        _end_labels(frame, series, ends),
        _legend(series, legend_top),
    ]
    return format_html(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {} {}" width="100%" '
        'role="img" aria-label="{}"><title>{}</title>{}</svg>',
        WIDTH,
        _num(height),
        title,
        title,
        format_html_join("", "{}", ((part,) for part in parts)),
    )


def _grid(frame: Frame, number: Callable[[int], str]) -> SafeString:
    lines = format_html_join(
        "",
        '<line class="{}" x1="{}" x2="{}" y1="{}" y2="{}"/>'
        '<text class="chart-tick" x="{}" y="{}" text-anchor="end" dominant-baseline="middle">{}</text>',
        (
            (
                "chart-zero" if tick == 0 else "chart-grid",
                _num(frame.left),
                _num(frame.right),
                _num(frame.y(tick)),
                _num(frame.y(tick)),
                _num(frame.left - 4),
                _num(frame.y(tick)),
                number(tick),
            )
            for tick in frame.ticks
        ),
    )
    axis = format_html(
        '<path class="chart-axis" d="M{} {}V{}" fill="none"/>',
        _num(frame.left),
        _num(frame.top),
        _num(frame.bottom),
    )
    return format_html("{}{}", lines, axis)


def _x_labels(frame: Frame, labels: Sequence[str]) -> SafeString:
    step = x_label_step(len(labels))
    gap = frame.x(step) - frame.x(0) - X_LABEL_GAP if len(labels) > 1 else WIDTH
    return format_html_join(
        "",
        '<text class="chart-tick" x="{}" y="{}" text-anchor="middle">{}</text>',
        (
            (
                _num(frame.x(i)),
                _num(frame.bottom + X_LABELS_HEIGHT - 5),
                fit(label, min(gap, 2 * frame.x(i), 2 * (WIDTH - frame.x(i))), TICK_FONT),
            )
            for i, label in enumerate(labels)
            if i % step == 0
        ),
    )


def _line(frame: Frame, index: int, values: Sequence[int]) -> SafeString:
    points = [(frame.x(i), frame.y(value)) for i, value in enumerate(values)]
    line = (
        format_html(
            '<polyline class="chart-line" fill="none" points="{}"/>',
            " ".join(f"{_num(x)},{_num(y)}" for x, y in points),
        )
        if len(points) > 1
        else ""
    )
    dotted = points if len(points) <= DOTS_UP_TO else points[-1:]
    dots = format_html_join(
        "", '<circle class="chart-dot" cx="{}" cy="{}" r="2.5"/>', ((_num(x), _num(y)) for x, y in dotted)
    )
    return format_html('<g class="chart-series chart-series-{}">{}{}</g>', index % SERIES_STYLES, line, dots)


def _end_labels(frame: Frame, series: Sequence[Series], ends: Sequence[str]) -> SafeString:
    drawn = [(i, line) for i, (_label, line) in enumerate(series) if line]
    heights = spread(
        [frame.y(line[-1]) for _i, line in drawn], TICK_FONT + 1, frame.top, frame.bottom + TICK_FONT
    )
    return format_html_join(
        "",
        '<text class="chart-series chart-series-{} chart-end" x="{}" y="{}" '
        'dominant-baseline="middle">{}</text>',
        (
            (i % SERIES_STYLES, _num(frame.right + 5), _num(y), ends[i])
            for (i, _line), y in zip(drawn, heights, strict=True)
        ),
    )


def _legend(series: Sequence[Series], top: float) -> SafeString:
    column = (WIDTH - 16) / 2
    return format_html_join(
        "",
        '<g class="chart-series chart-series-{}"><title>{}</title>'
        '<path class="chart-line" d="M{} {}h20" fill="none"/>'
        '<text class="chart-legend" x="{}" y="{}" dominant-baseline="middle">{}</text></g>',
        (
            (
                i % SERIES_STYLES,
                label,
                _num(8 + (i % 2) * column),
                _num(top + (i // 2) * LEGEND_ROW + LEGEND_ROW / 2),
                _num(8 + (i % 2) * column + 26),
                _num(top + (i // 2) * LEGEND_ROW + LEGEND_ROW / 2),
                fit(label, column - 40, LEGEND_FONT),
            )
            for i, (label, _line) in enumerate(series)
        ),
    )
