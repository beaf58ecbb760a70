"""The pages' shared tags write what the pages always wrote."""

from decimal import Decimal

import pytest
from django.template import engines

from web.templatetags import signed


@pytest.mark.parametrize(
    ("value", "options", "written"),
    [
        pytest.param(12, {}, '<span class="signed gain">+12</span>', id="a-gain"),
        pytest.param(-7, {}, '<span class="signed loss">\u22127</span>', id="a-loss-with-a-real-minus"),
        pytest.param(0, {}, '<span class="signed">0</span>', id="nothing"),
        pytest.param(
            Decimal("-2.5"), {"digits": "2.5"}, '<span class="signed loss">\u22122.5</span>', id="an-average"
        ),
        pytest.param(
            3, {"extra_class": "a<b"}, '<span class="signed gain a&lt;b">+3</span>', id="escaped-class"
        ),
    ],
)
def test_a_signed_number_reads_without_colour(value, options, written):
    assert signed(value, **options) == written


def test_a_template_loads_it_as_web():
    template = engines["django"].from_string('{% load web %}{% signed -4 extra_class="x" %}')
    assert template.render({}) == '<span class="signed loss x">\u22124</span>'
