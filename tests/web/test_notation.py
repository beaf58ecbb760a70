"""web.notation reads a form's rules fields as the server and the offline engine both must."""

from web.notation import MAX_JSON_BRACKETS, rules_payload


def test_a_pattern_fan_object_is_read_as_json():
    assert rules_payload({"rule_pattern_fan": '{"qing_yi_se": 5}'})["pattern_fan"] == {"qing_yi_se": 5}


def test_deeply_nested_text_goes_to_the_engine_as_text_never_to_the_json_parser():
    """Nesting this deep overflows the browser's stack under Pyodide (docs/offline.md): not a rules value."""
    deep = "[" * (MAX_JSON_BRACKETS + 1) + "]" * (MAX_JSON_BRACKETS + 1)
    assert rules_payload({"rule_pattern_fan": deep})["pattern_fan"] == deep
    shallow = "[" * MAX_JSON_BRACKETS + "]" * MAX_JSON_BRACKETS
    assert rules_payload({"rule_pattern_fan": shallow})["pattern_fan"] != shallow
