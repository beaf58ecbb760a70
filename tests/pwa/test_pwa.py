"""The installable app: manifest, icons, favicon, HEAD /, the service worker and the offline page."""

import io
import json

import pytest
from django.contrib.staticfiles import finders
from PIL import Image

from pwa.views import ICONS, precache


def test_head_on_the_calculator_answers_200(client):
    assert client.head("/").status_code == 200


def test_the_favicon_is_an_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/vnd.microsoft.icon"
    assert Image.open(io.BytesIO(response.content)).format == "ICO"


def test_the_manifest_names_the_app_its_start_and_its_icons(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    body = json.loads(response.content)
    assert body["name"] == "四川麻将计分"
    assert body["start_url"] == "/app/"
    assert body["display"] == "standalone"
    assert body["theme_color"] == "#0f6b4f"
    purposes = {(icon["sizes"], icon["purpose"]) for icon in body["icons"]}
    assert purposes == {(size, purpose) for size in ("192x192", "512x512") for purpose in ("any", "maskable")}
    for icon in body["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_the_manifest_speaks_english_to_an_english_phone(client):
    body = json.loads(client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en").content)
    assert body["name"] == "Sichuan mahjong scorer"


@pytest.mark.parametrize(("path", "size", "purpose"), ICONS)
def test_each_icon_is_the_size_it_claims(path, size, purpose):
    image = Image.open(finders.find(path))
    assert image.size == (size, size)


def test_the_maskable_icons_fill_their_square():
    """A maskable icon is cut to the platform's shape: a transparent corner would show as a hole."""
    for path, _size, purpose in ICONS:
        if purpose == "maskable":
            image = Image.open(finders.find(path)).convert("RGBA")
            assert image.getpixel((0, 0))[3] == 255


def test_the_apple_touch_icon_is_180_px_and_opaque():
    image = Image.open(finders.find("img/icons/apple-touch-icon.png")).convert("RGBA")
    assert image.size == (180, 180)
    assert image.getpixel((0, 0))[3] == 255


def test_the_service_worker_precaches_the_calculator_and_every_static_file(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    first_line = response.content.decode().split("\n", 1)[0]
    config = json.loads(first_line.removeprefix("self.SCZMJ = ").removesuffix(";"))
    assert {"/", "/offline/", "/static/css/site.css", "/static/js/picker.js"} <= set(config["precache"])
    assert "/static/django_htmx/htmx-2.min.js" in config["precache"]
    assert "/static/js/service-worker.js" not in config["precache"]
    # every URL must exist, or the worker's install fails whole (the browser test fetches them for real)
    for url in config["precache"]:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url
        else:
            assert client.get(url).status_code == 200, url


def test_the_worker_version_follows_the_files():
    urls, version = precache()
    assert len(version) == 16
    assert precache() == (urls, version)


def test_the_offline_page_says_so(client):
    response = client.get("/offline/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    text = response.content.decode()
    # in a player's words: the scores are on the server, so every phone shows the same (not "the same hand
    # of tiles", which is what 同一手牌 says)
    assert "需要网络" in text and "每部手机看到的分数都一样" in text and "同一手牌" not in text
    assert "算番器" in text and "算番计算器" not in text  # one name for it, not 算番 twice over


def test_every_page_links_the_manifest_and_the_icons(client):
    html = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in html
    assert 'rel="apple-touch-icon"' in html
    assert 'href="/favicon.ico"' in html
