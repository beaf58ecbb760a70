"""web/charts.py: the server-drawn line chart is well-formed SVG, escapes every label, places its points in
order, labels its ticks readably and survives the edge cases a table produces."""

import itertools
import re
import xml.etree.ElementTree as ET

import pytest
from django.utils.safestring import SafeString
from django.utils.translation import override

from web.charts import (
    compact_number,
    fit,
    line_chart,
    nice_ticks,
    sampled,
    signed_number,
    spread,
    text_width,
    x_label_step,
)

SVG = "{http://www.w3.org/2000/svg}"
FOUR = [
    ("老张", [0, 12, -4, 30]),
    ("小王", [0, -8, 16, 6]),
    ("阿美", [0, 4, 4, -20]),
    ("小李", [0, -8, -16, -16]),
]


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def lines(root: ET.Element) -> list[list[tuple[float, float]]]:
    return [
        [tuple(map(float, pair.split(","))) for pair in line.get("points", "").split()]
        for line in root.iter(f"{SVG}polyline")
    ]


def texts(root: ET.Element, css_class: str) -> list[str]:
    return [
        "".join(node.itertext()) for node in root.iter(f"{SVG}text") if css_class in node.get("class", "")
    ]


def view_box(root: ET.Element) -> tuple[float, float]:
    _x, _y, width, height = map(float, root.get("viewBox", "").split())
    return width, height


def test_a_chart_is_a_well_formed_svg_image_with_its_title():
    svg = line_chart(FOUR, ["0", "1", "2", "3"], title="每手累计")
    assert isinstance(svg, SafeString)
    root = parsed(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == "每手累计"
    assert root.find(f"{SVG}title").text == "每手累计"
    assert root.get("width") == "100%"
    assert view_box(root)[0] == 360


def test_it_writes_no_inline_style_only_classes():
    svg = line_chart(FOUR, ["0", "1", "2", "3"], title="t")
    assert "style=" not in svg
    classes = {node.get("class") for node in parsed(svg).iter() if node.get("class")}
    assert {"chart-series chart-series-0", "chart-line", "chart-zero", "chart-grid"} <= classes


def test_every_label_is_escaped():
    evil = '<script>alert("x")</script>&"'
    svg = line_chart([(evil, [1, 2])], [evil, "2"], title=evil)
    assert "<script>" not in svg
    root = parsed(svg)  # still well-formed
    assert root.get("aria-label") == evil
    assert evil in "".join(root.itertext())


def test_the_points_go_left_to_right_and_higher_values_higher():
    root = parsed(line_chart(FOUR, ["0", "1", "2", "3"], title="t"))
    drawn = lines(root)
    assert len(drawn) == 4
    for line in drawn:
        xs = [x for x, _y in line]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)
    zhang = drawn[0]
    # 老张: 0, 12, -4, 30 -> SVG y grows downwards
    assert zhang[3][1] < zhang[1][1] < zhang[0][1] < zhang[2][1]


def test_every_point_lies_inside_the_view_box():
    huge = [("a", [0, 90_000_000_000, -90_000_000_000, 3])]
    root = parsed(line_chart(huge, ["0", "1", "2", "3"], title="t"))
    width, height = view_box(root)
    for x, y in lines(root)[0]:
        assert 0 <= x <= width and 0 <= y <= height


def test_ticks_are_round_numbers_covering_the_values_and_zero():
    assert nice_ticks(-16, 30) == (-20, -10, 0, 10, 20, 30)
    assert nice_ticks(0, 3) == (0, 1, 2, 3)
    assert nice_ticks(5, 5) == (4, 5, 6)
    assert nice_ticks(0, 0) == (-1, 0, 1)
    ticks = nice_ticks(-90_000_000_000, 90_000_000_000)
    assert ticks[0] <= -90_000_000_000 and ticks[-1] >= 90_000_000_000 and 0 in ticks
    assert 3 <= len(ticks) <= 8


def test_the_tick_labels_read_as_numbers_in_the_page_language():
    root = parsed(line_chart(FOUR, ["0", "1", "2", "3"], title="t"))
    ticks = texts(root, "chart-tick")
    assert {"−20", "−10", "0", "10", "20", "30"} <= set(ticks)
    with override("zh-hans"):
        big = texts(parsed(line_chart([("a", [0, 90_000_000_000])], ["0", "1"], title="t")), "chart-tick")
    assert "1000亿" in big and "200亿" in big
    with override("en"):
        big = texts(parsed(line_chart([("a", [0, 90_000_000_000])], ["0", "1"], title="t")), "chart-tick")
    assert "100B" in big and "20B" in big


@pytest.mark.parametrize(
    ("value", "language", "text"),
    [
        pytest.param(36, "zh-hans", "36", id="small"),
        pytest.param(-1200, "en", "−1200", id="negative-with-a-real-minus"),
        pytest.param(99_999, "zh-hans", "99999", id="plain-below-100000"),
        pytest.param(123_456, "zh-hans", "12.3万", id="wan"),
        pytest.param(123_456, "en", "123k", id="thousands"),
        pytest.param(90_000_000_000, "zh-hans", "900亿", id="yi"),
        pytest.param(-90_000_000_000, "en", "−90B", id="billions"),
        pytest.param(2_500_000, "en", "2.5M", id="trailing-zeros-dropped"),
        pytest.param(999_999, "en", "1M", id="rounds-up-into-the-next-unit"),
        pytest.param(999_999, "zh-hans", "100万", id="rounds-to-three-digits"),
        pytest.param(99_995_000, "zh-hans", "1亿", id="rounds-up-into-yi"),
        pytest.param(12_345_678, "zh-hans", "1230万", id="three-significant-digits-of-wan"),
    ],
)
def test_compact_numbers(value, language, text):
    assert compact_number(value, language=language) == text


def test_end_labels_are_signed_last_values():
    root = parsed(line_chart(FOUR, ["0", "1", "2", "3"], title="t"))
    assert texts(root, "chart-end") == ["+30", "+6", "−20", "−16"]
    assert signed_number(0) == "0"


def test_end_labels_of_lines_ending_together_do_not_overlap():
    together = [(name, [0, 5, 1]) for name in ("东", "南", "西", "北")]
    root = parsed(line_chart(together, ["0", "1", "2"], title="t"))
    ends = sorted(
        float(node.get("y")) for node in root.iter(f"{SVG}text") if "chart-end" in node.get("class", "")
    )
    assert all(b - a >= 11 for a, b in itertools.pairwise(ends))


def test_spread_keeps_order_gap_and_bounds():
    assert spread([50, 50, 50], 10, 0, 100) == [50, 60, 70]
    assert spread([100, 98], 10, 0, 100) == [100, 90]
    assert spread([30, 10], 5, 0, 100) == [30, 10]


def test_no_points_draws_the_frame_and_legend_without_lines():
    root = parsed(line_chart([("老张", []), ("小王", [])], [], title="t"))
    assert lines(root) == []
    assert texts(root, "chart-end") == []
    assert texts(root, "chart-legend") == ["老张", "小王"]


def test_no_series_at_all_is_still_an_image():
    root = parsed(line_chart([], [], title="空"))
    assert root.get("aria-label") == "空"


def test_one_point_is_a_dot_in_the_middle():
    root = parsed(line_chart([("a", [7])], ["1"], title="t"))
    assert lines(root) == []
    (dot,) = root.iter(f"{SVG}circle")
    assert texts(root, "chart-end") == ["+7"]
    assert 100 < float(dot.get("cx")) < 260


def test_all_zero_values_lie_on_the_zero_line():
    root = parsed(line_chart([("a", [0, 0, 0]), ("b", [0, 0, 0])], ["0", "1", "2"], title="t"))
    (zero,) = [node for node in root.iter(f"{SVG}line") if node.get("class") == "chart-zero"]
    assert {y for line in lines(root) for _x, y in line} == {float(zero.get("y1"))}


def test_many_points_keep_a_few_x_labels_and_few_dots():
    labels = [str(n) for n in range(201)]
    root = parsed(line_chart([("a", list(range(201)))], labels, title="t"))
    assert len(root.findall(f".//{SVG}circle")) == 1  # the last point only
    x_labels = [
        "".join(node.itertext()) for node in root.iter(f"{SVG}text") if node.get("text-anchor") == "middle"
    ]
    assert x_labels == ["0", "50", "100", "150", "200"]


@pytest.mark.parametrize(("count", "step"), [(1, 1), (8, 1), (9, 2), (16, 2), (17, 5), (40, 5), (41, 10)])
def test_x_label_steps(count, step):
    assert x_label_step(count) == step


def x_labels(root: ET.Element) -> list[ET.Element]:
    return [node for node in root.iter(f"{SVG}text") if node.get("text-anchor") == "middle"]


def test_long_x_labels_are_cut_to_the_room_between_them():
    """A group's standings label the x axis with its sessions' names, which anyone types."""
    names = [f"{n}号的周五晚上那一场" for n in range(1, 8)]  # with the start, eight labels: all printed
    series = [("老张", [0, *range(7)]), ("小王", [0, *range(0, -14, -2)])]
    root = parsed(line_chart(series, ["", *names], title="t"))
    printed = x_labels(root)
    assert len(printed) == 8 and all(node.text.endswith("…") for node in printed[1:])
    halves = [(float(node.get("x")), text_width(node.text, 11) / 2) for node in printed if node.text]
    edges = [(middle - half, middle + half) for middle, half in halves]
    assert all(right <= next_left for (_l, right), (next_left, _r) in itertools.pairwise(edges))
    assert edges[0][0] >= 0 and edges[-1][1] <= 360


def test_short_x_labels_are_left_whole():
    root = parsed(line_chart(FOUR, ["0", "1", "2", "3"], title="t"))
    assert [node.text for node in x_labels(root)] == ["0", "1", "2", "3"]


def test_a_very_long_name_is_cut_in_the_legend_and_whole_in_its_title():
    name = "一个名字非常非常非常非常长的玩家" + "x" * 40
    root = parsed(line_chart([(name, [0, 1]), ("b", [0, 2])], ["0", "1"], title="t"))
    (shown,) = [text for text in texts(root, "chart-legend") if text != "b"]
    assert shown.endswith("…") and text_width(shown, 12) <= (360 - 16) / 2 - 40
    assert name in [node.text for node in root.iter(f"{SVG}title")]


def test_fit_leaves_a_short_name_alone():
    assert fit("小王", 100, 12) == "小王"


def test_more_series_than_colours_cycle_through_them():
    many = [(f"p{i}", [0, i]) for i in range(10)]
    root = parsed(line_chart(many, ["0", "1"], title="t"))
    classes = [
        group.get("class") for group in root.iter(f"{SVG}g") if group.find(f"{SVG}polyline") is not None
    ]
    assert len(classes) == 10 and classes[8] == classes[0] != classes[1] == classes[9]


def test_each_series_needs_a_value_per_x_label():
    with pytest.raises(ValueError, match="one value per x label"):
        line_chart([("a", [1, 2])], ["0"], title="t")


def test_the_numbers_in_the_markup_are_plain_coordinates():
    svg = line_chart(FOUR, ["0", "1", "2", "3"], title="t")
    for value in re.findall(r' (?:x|y|x1|x2|y1|y2|cx|cy)="([^"]*)"', svg):
        float(value)


@pytest.mark.parametrize(("count", "limit"), [(0, 5), (3, 5), (5, 5), (6, 5), (10_000, 120)])
def test_a_long_line_is_sampled_evenly_keeping_its_ends(count, limit):
    kept = sampled(count, limit)
    assert len(kept) == min(count, limit) and kept == sorted(set(kept))
    if count:
        assert kept[0] == 0 and kept[-1] == count - 1
    gaps = {b - a for a, b in itertools.pairwise(kept)}
    assert max(gaps, default=1) - min(gaps, default=1) <= 1  # evenly spread
