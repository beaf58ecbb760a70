"""The stateless API in-process, through Django's test client (the whole middleware and DRF stack).

(a) ``POST /api/v1/score/`` against a trivial DRF endpoint with the same settings (no auth, AllowAny, no
throttle) that returns ``{"ok": true}``, measured in the same run: scoring must keep at least 85% of the
framework's own request rate, so the engine and the view are not what a server spends its time on.
(b) Rounds per second through ``POST /api/v1/settle/`` for a seven-event round: four kongs, two wins given
as tiles, and a 流局 that checks two hands given as tiles.
"""

import json
import statistics
import time

from django.test import Client
from django.test.utils import override_settings
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bench.workload import ROUND


class OkView(APIView):
    """The floor: a plain DRF view with the calculators' access settings that does no work at all."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = ()

    def post(self, request: Request) -> Response:
        return Response({"ok": True})


urlpatterns = [path("bench/ok/", OkView.as_view()), path("", include("sczmj_site.urls"))]

SCORE_BODY = json.dumps(
    {
        "concealed": "11s333s222s456s99s",
        "win_tile": "9s",
        "win_by": "discard",
        "rules": {"preset": "chengdu", "cap_multiplier": 16},
    }
)
# The same seven-event round the engine bench settles, so the two rounds-per-second figures compare.
SETTLE_BODY = json.dumps({**ROUND, "rules": {"preset": "chengdu"}})

BATCH = 50
ROUNDS = 60
TARGET_RATIO = 0.85
ENDPOINTS = {
    "ok": ("/bench/ok/", SCORE_BODY),
    "score": ("/api/v1/score/", SCORE_BODY),
    "settle": ("/api/v1/settle/", SETTLE_BODY),
}


def post_batch(client: Client, url: str, body: str) -> float:
    started = time.perf_counter()
    for _ in range(BATCH):
        client.post(url, data=body, content_type="application/json")
    return time.perf_counter() - started


def timings(client: Client) -> dict[str, list[float]]:
    """Seconds per batch of each endpoint, the batches interleaved round by round, so a busy moment of a
    shared machine hits neighbouring batches alike."""
    for url, body in ENDPOINTS.values():
        response = client.post(url, data=body, content_type="application/json")
        assert response.status_code == 200, response.content  # never measure the error path
    times: dict[str, list[float]] = {name: [] for name in ENDPOINTS}
    for _ in range(ROUNDS):
        for name, (url, body) in ENDPOINTS.items():
            times[name].append(post_batch(client, url, body))
    return times


def run() -> tuple[str, list[tuple[str, str, str, str]]]:
    with override_settings(ROOT_URLCONF=__name__):
        times = timings(Client())
    per_second = {name: BATCH / statistics.median(batches) for name, batches in times.items()}
    # the ratio of each round's neighbouring batches, then the median: robust to load that comes and goes
    ratio = statistics.median(ok / score for ok, score in zip(times["ok"], times["score"], strict=True))
    return (
        "Stateless API, in-process through Django's test client",
        [
            ("trivial DRF endpoint, POST", f"{per_second['ok']:,.0f} req/s", "(the floor)", "ok"),
            ("POST /api/v1/score/ (清一色, rules given)", f"{per_second['score']:,.0f} req/s", "", "ok"),
            (
                "score / trivial, median of paired batches",
                f"{ratio:.0%}",
                f">= {TARGET_RATIO:.0%}",
                "ok" if ratio >= TARGET_RATIO else "MISSED",
            ),
            (
                "POST /api/v1/settle/ (7 events, 4 hands as tiles)",
                f"{per_second['settle']:,.0f} rounds/s",
                "",
                "ok",
            ),
        ],
    )
