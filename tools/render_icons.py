"""Render the app's icons from the two SVGs we drew (static/img/icons/icon.svg, icon-maskable.svg).

The PNGs and favicon.ico are committed, so a deployment needs no SVG renderer; run this after changing
either SVG (`.venv/bin/python tools/render_icons.py`, needs the `tools` extra: cairosvg and Pillow).
tests/pwa/test_pwa.py checks each file's size and that the full-bleed ones have no transparent corner.
"""

from __future__ import annotations

import io
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "img" / "icons"

# file name -> (source SVG, size in px). "any" icons keep their rounded corners; the maskable ones fill the
# square (the platform cuts its own shape) and keep the tile inside the central safe circle; the
# apple-touch-icon is full-bleed too because iOS rounds the corners itself and shows transparency as black.
PNGS = {
    "icon-192.png": ("icon.svg", 192),
    "icon-512.png": ("icon.svg", 512),
    "icon-maskable-192.png": ("icon-maskable.svg", 192),
    "icon-maskable-512.png": ("icon-maskable.svg", 512),
    "apple-touch-icon.png": ("icon-maskable.svg", 180),
}
FAVICON_SIZES = (16, 32, 48)


def render_png(svg: str, size: int) -> bytes:
    import cairosvg

    png = cairosvg.svg2png(bytestring=(ICONS / svg).read_bytes(), output_width=size, output_height=size)
    return bytes(png)


def render_favicon() -> bytes:
    from PIL import Image

    image = Image.open(io.BytesIO(render_png("icon.svg", 256)))
    out = io.BytesIO()
    image.save(out, format="ICO", sizes=[(size, size) for size in FAVICON_SIZES])
    return out.getvalue()


def main() -> None:
    for name, (svg, size) in PNGS.items():
        (ICONS / name).write_bytes(render_png(svg, size))
        print(f"{name}: {size} px from {svg}")
    (ICONS / "favicon.ico").write_bytes(render_favicon())
    print(f"favicon.ico: {', '.join(map(str, FAVICON_SIZES))} px from icon.svg")


if __name__ == "__main__":
    main()
