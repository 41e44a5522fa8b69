"""Draw the page's PNG icons from the shape of ``solver/web/static/icon.svg``
(a white die showing five on a green square), with Pillow: 192 and 512
pixels for the web manifest (rounded corners, transparent outside), and
the 180-pixel apple-touch icon (square and opaque: iOS rounds it itself).

    python benchmarks/icons.py [FOLDER]     # default: solver/web/static

tests/web/test_icons.py draws them again and compares them pixel by pixel
with the files committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

GREEN, WHITE, PIP = (0x1F, 0x51, 0x35, 255), (255, 255, 255, 255), (0x1B, 0x1B, 0x1B, 255)
SIZES = {"icon-192.png": (192, True), "icon-512.png": (512, True),
         "apple-touch-icon.png": (180, False)}
SCALE = 4                      # drawn at 4x, then reduced: smooth edges


def icon(size: int, rounded: bool) -> Image.Image:
    """The icon at ``size`` pixels (the SVG's 100 units scaled)."""
    big = size * SCALE
    u = big / 100
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0) if rounded else GREEN)
    draw = ImageDraw.Draw(img)
    if rounded:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=20 * u, fill=GREEN)
    draw.rounded_rectangle((16 * u, 16 * u, 84 * u, 84 * u), radius=12 * u, fill=WHITE)
    for x, y in ((34, 34), (66, 34), (50, 50), (34, 66), (66, 66)):
        draw.ellipse(((x - 7) * u, (y - 7) * u, (x + 7) * u, (y + 7) * u), fill=PIP)
    img = img.resize((size, size), Image.LANCZOS)
    return img if rounded else img.convert("RGB")


def main(folder: str | Path = Path(__file__).resolve().parents[1] / "solver/web/static") -> None:
    for name, (size, rounded) in SIZES.items():
        icon(size, rounded).save(Path(folder) / name, optimize=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
