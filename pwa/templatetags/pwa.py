"""``{% offline_engine as engine %}``: what a page needs to score offline, as JSON, or "" without Pyodide."""

from __future__ import annotations

import json

from django import template

from pwa.views import engine_config

register = template.Library()


@register.simple_tag
def offline_engine() -> str:
    config = engine_config()
    return json.dumps(config) if config else ""
