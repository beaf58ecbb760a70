"""The widgets drawn in Python write Django's own markup to the byte."""

import pytest
from django import forms
from django.utils.safestring import mark_safe

from web.widgets import Select

CHOICES = [("", "as the preset"), ("a&b", "<Tom & Jerry's>"), ("2", "二番"), (3, mark_safe("<b>safe</b>"))]


@pytest.mark.parametrize(
    ("value", "attrs"),
    [
        pytest.param(None, None, id="nothing-chosen"),
        pytest.param("a&b", {"id": "id_rule_x"}, id="an-escaped-value-chosen"),
        pytest.param("3", {"id": "x", "required": True, "disabled": False, "data-q": 'say "hi"'}, id="attrs"),
    ],
)
def test_the_select_writes_what_djangos_templates_write(value, attrs):
    ours = Select(choices=CHOICES).render("rule_x", value, attrs)
    djangos = forms.Select(choices=CHOICES).render("rule_x", value, attrs)
    assert ours == djangos
