"""The picture for the group chat: a PNG a phone long-presses to save or forward, drawn on the server.

WeChat cannot be told a web page's share card without an official account, so what travels is an image.
The page layer fills a ``Card`` with words already in the reader's language; this module only lays it out:

1. a header band: the group and session, the date and the number of hands;
2. each player's net, large and signed (+/−, so a gain reads without colour), with a short aside when
   given (a coin session's nets are coins, each player's score beside them);
3. the fewest transfers (``老张 → 小王 36``, with their unit when they are not points: ``36 币``);
4. the biggest hand (or each win of one hand): who, how, its fan explained, and its tiles drawn with the
   pages' own faces;
5. a line of counts (杠 · 花猪 · 查叫) and the rules in a few words;
6. the QR code of the read-only summary link, with its caption.

Any part given empty is left out (the summary link's picture is 1-3 only). Text is set in Noto Sans SC
and the tiles' characters in Noto Serif SC, both from the ``pylopdf-fonts-zh-cn`` package (SIL Open Font
License 1.1), installed with the project: nothing is fetched at run time and no system font is needed.
The tile faces are painted from ``static/img/tiles/*.svg`` by a painter of the four elements those files
use (svg, rect, circle, text), so the picture and the pages show one set of faces. Fonts and painted
faces are made once per process; a picture is then a few milliseconds of drawing and the PNG encoding.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache

import pylopdf_fonts_zh_cn
import segno
from django.contrib.staticfiles import finders
from PIL import Image, ImageDraw, ImageFont

WIDTH = 1080
MARGIN = 64
INNER = WIDTH - 2 * MARGIN
TILE_RATIO = 4 / 3  # the faces' viewBox is 60 x 80
SUPERSAMPLE = 3  # faces are painted this much larger, then reduced: Pillow's shapes have no antialiasing

# The light scheme of static/css/site.css (the picture is light only).
BG = "#f2efe6"
SURFACE = "#ffffff"
INK = "#1a1f1c"
MUTED = "#5c6660"
LINE = "#ddd8ca"
ACCENT = "#0f6b4f"
ACCENT_INK = "#ffffff"
GAIN = "#0d7048"
LOSS = "#b3261e"
TILE_FACE = "#fffdf6"
TILE_EDGE = "#e2dac4"
TILE_BACK = "#2a8a66"


@dataclass(frozen=True, slots=True)
class HandTiles:
    """A winning hand to draw: the concealed tiles (sorted), the melds (each its tiles), the winning tile."""

    concealed: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...] = ()
    win: str | None = None


@dataclass(frozen=True, slots=True)
class Highlight:
    """The hand the picture shows: a heading, the fan explained, and the tiles when they were entered."""

    heading: str
    lines: tuple[str, ...]
    tiles: HandTiles | None = None


@dataclass(frozen=True, slots=True)
class Card:
    title: str
    subtitle: str
    nets_heading: str
    nets: tuple[tuple[str, int], ...]
    transfers_heading: str
    transfers: tuple[tuple[str, str, int], ...]
    all_square: str  # said instead of the transfers when there are none
    net_asides: tuple[str, ...] = ()  # one per net, in small type beside it; none when empty
    unit: str = ""  # what the nets and transfers count when not points (coins), said after each transfer
    highlights: tuple[Highlight, ...] = ()
    facts: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()  # the rules in a few words, the table fee
    qr_text: str = ""
    qr_caption: str = ""
    brand: str = "川麻计分"


# --- fonts and faces, once per process -----------------------------------------------------------------


@cache
def font(size: int, *, serif: bool = False) -> ImageFont.FreeTypeFont:
    path = pylopdf_fonts_zh_cn.serif_path() if serif else pylopdf_fonts_zh_cn.sans_path()
    return ImageFont.truetype(str(path), size)


def _number(element: ET.Element, name: str, default: float = 0.0) -> float:
    return float(element.get(name, default))


def _layer_for(size: tuple[int, int]) -> Image.Image:
    return Image.new("RGBA", size, (0, 0, 0, 0))


def _paint(element: ET.Element, scale: float, size: tuple[int, int]) -> Image.Image:
    """One element of a face on a layer of its own, so its opacity composites as the SVG says."""
    layer = _layer_for(size)
    draw = ImageDraw.Draw(layer)
    fill = element.get("fill", INK)
    tag = element.tag.rsplit("}", 1)[-1]
    if tag == "circle":
        cx, cy, r = (_number(element, key) * scale for key in ("cx", "cy", "r"))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif tag == "rect":
        x, y, w, h = (_number(element, key) * scale for key in ("x", "y", "width", "height"))
        draw.rounded_rectangle((x, y, x + w, y + h), radius=_number(element, "rx") * scale, fill=fill)
    elif tag == "text":
        serif = "serif" in element.get("font-family", "") and "sans-serif" not in element.get(
            "font-family", ""
        )
        face = font(round(_number(element, "font-size") * scale), serif=serif)
        bold = element.get("font-weight") in ("700", "bold")
        anchor = "ms" if element.get("text-anchor") == "middle" else "ls"
        draw.text(
            (_number(element, "x") * scale, _number(element, "y") * scale),
            element.text or "",
            font=face,
            fill=fill,
            anchor=anchor,
            stroke_width=max(1, round(scale * 0.6)) if bold else 0,
            stroke_fill=fill,
        )
    opacity = float(element.get("opacity", 1))
    if opacity < 1:
        alpha = layer.getchannel("A").point(lambda value: round(value * opacity))
        layer.putalpha(alpha)
    return layer


@cache
def tile_face(name: str, width: int) -> Image.Image:
    """The face of tile ``name`` (``5p``) ``width`` px wide: the SVG's drawing on the pages' tile (face,
    edge and the green back below), painted large and reduced for smooth edges."""
    big_w = width * SUPERSAMPLE
    big_h = round(big_w * TILE_RATIO)
    back = max(SUPERSAMPLE, round(big_w * 0.06))
    tile = _layer_for((big_w, big_h + back))
    draw = ImageDraw.Draw(tile)
    radius = round(big_w * 0.12)
    draw.rounded_rectangle((0, back, big_w - 1, big_h + back - 1), radius=radius, fill=TILE_BACK)
    draw.rounded_rectangle(
        (0, 0, big_w - 1, big_h - 1), radius=radius, fill=TILE_FACE, outline=TILE_EDGE, width=SUPERSAMPLE
    )
    root = ET.parse(str(finders.find(f"img/tiles/{name}.svg"))).getroot()  # a checkout's or the wheel's  # noqa: S314 - the project's own tile SVGs, not outside input
    scale = big_w / float(root.get("viewBox", "0 0 60 80").split()[2])
    for element in root:
        tile = Image.alpha_composite(tile, _paint(element, scale, tile.size))
    return tile.resize((width, round(tile.height / SUPERSAMPLE)), Image.Resampling.LANCZOS)


# --- layout ---------------------------------------------------------------------------------------------


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"\u2212{-points}" if points < 0 else "0"


def fitted(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with … to fit ``width``: a long name never runs into the number beside it."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def wrapped(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines of at most ``width``: at spaces where there are some, anywhere in Chinese."""
    lines: list[str] = []
    line = ""
    for char in text:
        if face.getlength(line + char) <= width:
            line += char
            continue
        cut = line.rfind(" ") if " " in line and char != " " else -1
        if cut > 0:
            lines.append(line[:cut])
            line = line[cut + 1 :] + char
        else:
            lines.append(line)
            line = char.lstrip()
    return [*lines, line] if line else lines


class Sheet:
    """A tall canvas written top to bottom; ``y`` is where the next part starts."""

    def __init__(self, height: int) -> None:
        self.image = Image.new("RGB", (WIDTH, height), BG)
        self.draw = ImageDraw.Draw(self.image)
        self.y = 0

    def text(self, x: float, text: str, size: int, fill: str = INK, *, anchor: str = "la") -> None:
        self.draw.text((x, self.y), text, font=font(size), fill=fill, anchor=anchor)

    def panel(self, height: int) -> None:
        self.draw.rounded_rectangle(
            (MARGIN - 24, self.y, WIDTH - MARGIN + 24, self.y + height), radius=28, fill=SURFACE, outline=LINE
        )


HEADING = 34
NAME = 46
BODY = 34
SMALL = 28
ROW = 72
GAP = 36
QR_SIZE = 264


def _header(sheet: Sheet, card: Card) -> None:
    title_lines = wrapped(card.title, font(54), INNER)[:2]
    height = 56 + 70 * len(title_lines) + 56
    sheet.draw.rectangle((0, 0, WIDTH, height), fill=ACCENT)
    sheet.y = 48
    for line in title_lines:
        sheet.text(MARGIN, line, 54, ACCENT_INK)
        sheet.y += 70
    sheet.text(MARGIN, card.subtitle, SMALL, ACCENT_INK)
    sheet.text(WIDTH - MARGIN, card.brand, SMALL, ACCENT_INK, anchor="ra")
    sheet.y = height + GAP


def _rows_panel(sheet: Sheet, heading: str, rows: int) -> None:
    sheet.panel(40 + HEADING + 20 + rows * ROW + 16)
    sheet.y += 32
    sheet.text(MARGIN, heading, HEADING, MUTED)
    sheet.y += HEADING + 28


def _nets(sheet: Sheet, card: Card) -> None:
    _rows_panel(sheet, card.nets_heading, len(card.nets))
    name_width = INNER * (0.45 if card.net_asides else 0.6)
    for index, (name, points) in enumerate(card.nets):
        colour = GAIN if points > 0 else LOSS if points < 0 else INK
        baseline = sheet.y + 56  # names and numbers of two sizes share one baseline
        sheet.draw.text(
            (MARGIN, baseline), fitted(name, font(NAME), name_width), font=font(NAME), fill=INK, anchor="ls"
        )
        if card.net_asides:
            aside = fitted(card.net_asides[index], font(SMALL), INNER * 0.25)
            sheet.draw.text(
                (MARGIN + INNER * 0.48, baseline), aside, font=font(SMALL), fill=MUTED, anchor="ls"
            )
        sheet.draw.text(
            (WIDTH - MARGIN, baseline),
            signed(points),
            font=font(56),
            fill=colour,
            anchor="rs",
            stroke_width=1,
        )
        sheet.y += ROW
    sheet.y += 16 + GAP


def _transfers(sheet: Sheet, card: Card) -> None:
    rows = len(card.transfers) or 1
    _rows_panel(sheet, card.transfers_heading, rows)
    if not card.transfers:
        sheet.text(MARGIN, card.all_square, BODY)
        sheet.y += ROW
    for payer, payee, amount in card.transfers:
        line = f"{payer} → {payee}"
        sheet.text(MARGIN, fitted(line, font(NAME - 4), INNER * 0.75), NAME - 4)
        sheet.text(WIDTH - MARGIN, f"{amount} {card.unit}".rstrip(), NAME, anchor="ra")
        sheet.y += ROW
    sheet.y += 16 + GAP


def _tiles_width(tiles: HandTiles) -> tuple[int, int]:
    """The face width that fits the hand on one line, and the number of gaps (between melds, before the
    winning tile)."""
    count = len(tiles.concealed) + sum(len(meld) for meld in tiles.melds) + (1 if tiles.win else 0)
    gaps = len(tiles.melds) + (1 if tiles.win else 0)
    return min(64, int((INNER - gaps * 18) / max(count, 1))), gaps


def _tiles_height(tiles: HandTiles | None) -> int:
    if tiles is None:
        return 0
    width, _gaps = _tiles_width(tiles)
    return tile_face("1m", width).height + 24


def _highlight_lines(highlight: Highlight) -> list[str]:
    return [line for text in highlight.lines for line in wrapped(text, font(BODY), INNER)]


def _highlight_height(highlight: Highlight) -> int:
    return 32 + HEADING + 24 + len(_highlight_lines(highlight)) * 50 + _tiles_height(highlight.tiles) + 24


def _highlight(sheet: Sheet, highlight: Highlight) -> None:
    lines = _highlight_lines(highlight)
    sheet.panel(_highlight_height(highlight))
    sheet.y += 32
    sheet.text(MARGIN, fitted(highlight.heading, font(HEADING), INNER), HEADING, MUTED)
    sheet.y += HEADING + 24
    for line in lines:
        sheet.text(MARGIN, line, BODY)
        sheet.y += 50
    if highlight.tiles is not None:
        sheet.y += 8
        _draw_tiles(sheet, highlight.tiles)
    sheet.y += 24 + GAP


def _draw_tiles(sheet: Sheet, tiles: HandTiles) -> None:
    width, _gaps = _tiles_width(tiles)
    x = MARGIN
    groups = [tiles.concealed, *tiles.melds, *([(tiles.win,)] if tiles.win else [])]
    for group in groups:
        for name in group:
            face = tile_face(name, width)
            sheet.image.paste(face, (x, sheet.y), face)
            x += width
        x += 18
    sheet.y += tile_face("1m", width).height + 16


def _notes_lines(card: Card) -> list[str]:
    facts = "   ".join(f"{label} {count}" for label, count in card.facts)
    texts = ([facts] if facts else []) + list(card.notes)
    return [
        line for text in texts for line in wrapped(text, font(SMALL), INNER - (300 if card.qr_text else 0))
    ]


def _footer_height(card: Card) -> int:
    lines = len(_notes_lines(card)) * 44
    return max(lines, QR_SIZE + 48 if card.qr_text else 0) + 40


def _footer(sheet: Sheet, card: Card) -> None:
    top = sheet.y
    for line in _notes_lines(card):
        sheet.text(MARGIN, line, SMALL, MUTED)
        sheet.y += 44
    if card.qr_text:
        code = qr_image(card.qr_text, QR_SIZE)
        sheet.image.paste(code, (WIDTH - MARGIN - QR_SIZE, top))
        sheet.y = top + QR_SIZE + 8
        sheet.text(WIDTH - MARGIN - QR_SIZE / 2, card.qr_caption, 24, MUTED, anchor="ma")


def qr_image(text: str, size: int) -> Image.Image:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=8, border=4)
    buffer.seek(0)
    return Image.open(buffer).convert("RGB").resize((size, size), Image.Resampling.NEAREST)


def _height(card: Card) -> int:
    title_lines = min(2, len(wrapped(card.title, font(54), INNER)))
    height = 56 + 70 * title_lines + 56 + GAP
    height += 40 + HEADING + 20 + len(card.nets) * ROW + 16 + 16 + GAP
    height += 40 + HEADING + 20 + (len(card.transfers) or 1) * ROW + 16 + 16 + GAP
    for highlight in card.highlights:
        height += _highlight_height(highlight) + GAP
    if card.facts or card.notes or card.qr_text:
        height += _footer_height(card)
    return height


def render(card: Card) -> bytes:
    """The picture as PNG bytes, 1080 px wide, as tall as its parts."""
    sheet = Sheet(_height(card))
    _header(sheet, card)
    _nets(sheet, card)
    _transfers(sheet, card)
    for highlight in card.highlights:
        _highlight(sheet, highlight)
    if card.facts or card.notes or card.qr_text:
        _footer(sheet, card)
    return encoded(sheet.image)


def encoded(image: Image.Image) -> bytes:
    """PNG with a palette of 32 colours: the picture is a few flat colours and their antialiased edges,
    which 32 keep (checked by eye), at four fifths of the bytes of 128, so the settle page loads it with
    everything else within the 60 KB a first load may weigh (tests/e2e/test_page_weight.py). zlib level
    8: measured on the demo card, 30.7 KB in 45 ms where level 6 gave 33.8 KB in 26 ms (which put the
    settle page 60 bytes over) and level 9 29.9 KB in 89 ms."""
    buffer = io.BytesIO()
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(buffer, format="PNG", compress_level=8)
    return buffer.getvalue()
