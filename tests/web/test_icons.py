"""The page installs on a phone's home screen: PNG icons of 192 and 512
pixels in the manifest, the apple-touch icon linked from the page, each
drawn by benchmarks/icons.py (drawn again here and compared pixel by pixel)."""

import importlib.util
import json
from pathlib import Path

import pytest

Image = pytest.importorskip("PIL.Image")

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "solver" / "web" / "static"


def drawer():
    spec = importlib.util.spec_from_file_location("icons", ROOT / "benchmarks" / "icons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["icon-192.png", "icon-512.png", "apple-touch-icon.png"])
def test_each_icon_is_the_one_the_script_draws(name):
    icons = drawer()
    size, rounded = icons.SIZES[name]
    committed = Image.open(STATIC / name)
    assert committed.size == (size, size)
    assert committed.mode == ("RGBA" if rounded else "RGB")     # iOS: opaque, it rounds itself
    drawn = icons.icon(size, rounded)
    assert drawn.mode == committed.mode and drawn.tobytes() == committed.tobytes()   # every pixel
    centre = committed.getpixel((size // 2, size // 2))
    assert centre[:3] == icons.PIP[:3]                           # the middle pip of the five


def test_the_manifest_and_the_page_name_them():
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text())
    sizes = {i["sizes"]: i["src"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert sizes == {"192x192": "/static/icon-192.png", "512x512": "/static/icon-512.png"}
    page = (STATIC / "index.html").read_text()
    assert '<link rel="apple-touch-icon" href="/static/apple-touch-icon.png">' in page
    worker = (STATIC / "sw.js").read_text()
    assert all(f"/static/{n}" in worker for n in ("icon-192.png", "icon-512.png",
                                                   "apple-touch-icon.png"))
