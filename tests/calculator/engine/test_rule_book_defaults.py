"""The defaults RULES.md documents are the options table's, option by option, and its section 11 presets
are the table's presets. ``Rules`` takes its defaults from the table (one place for a default), so this
compares the rule book with that one place.

The rule book is docs/rules.md (a copy of the shared RULES.md, which ``SCZMJ_RULES_MD`` may name instead):
its section 11 table is read and compared too, so an edit of either side alone fails.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from calculator.engine import OPTIONS, OPTIONS_BY_KEY, PRESET_RULES, OptionKind, Preset, Rules

# Every option's default as RULES.md states it, with the section that says so.
DOCUMENTED_DEFAULTS: dict[str, Any] = {
    "base_points": 1,  # 1: "1 point in home-game presets"
    "mode": "xuezhan",  # 7
    "zimo_bonus": "jia_di",  # 4.2
    "direct_kong": "chengbao",  # 4.4
    "added_kong_points": 1,  # 4.4
    "concealed_kong_points": 2,  # 4.4
    "dingque": True,  # 11 (chengdu)
    "huazhu_refunds_kongs": True,  # 5.3
    "cap_multiplier": None,  # 3.5
    "pattern_fan": {},  # 3
    "jin_gou_diao": False,  # 3.3
    "jin_gou_diao_fan": 1,  # 3.3
    "hai_di": False,  # 3.3
    "men_qing_zhong_zhang": False,  # 3.3
    "men_qing": None,  # 3.3: as men_qing_zhong_zhang
    "zhong_zhang": None,  # 3.3: as men_qing_zhong_zhang
    "tax_rate": 0.0,  # 11
    "dealer_rule": "first_winner",  # 9
    "tian_di_hu": "replace",  # 3.1
    "gen_counts_kongs": True,  # 3.2
    "gen_counts_pung_plus_held": True,  # 3.2
    "gang_shang_hua_fan": 1,  # 3.3
    "gang_shang_pao_fan": 1,  # 3.3
    "qiang_gang_fan": 1,  # 3.3
    "ting_requires_live_wait": True,  # 3.4
    "huazhu_points": 16,  # 3.5, 5.1
    "escape_points": 16,  # 3.5, 6
    "multi_win": "all",  # 4.3
    "qiang_gang_payment": "discard",  # 4.5
    "dian_gang_hua": "zimo",  # 4.6
    "gang_shang_pao_transfer": "last_kong",  # 4.7
    "multi_winner_transfer": "each",  # 4.7
    "huazhu_recipients": "non_huazhu",  # 5.1
    "huazhu_pays_chajiao": False,  # 5.1
    "tui_shui": True,  # 5.3
    "refund_to_won_payers": True,  # 5.3
    "refund_when_nobody_ready": True,  # 5.3
    "escape_penalty_to": "distribute",  # 6
    "escaped_winner": "keep",  # 6
    "yao_jiu_jiang_dui": True,  # 3.1
    "jia_xin_wu": False,  # 3.3
    "men_qing_needs_zimo": False,  # 3.3
    "chajiao_value": "max",  # 3.4
    "min_fan_to_win": 1,  # 3.6
}
# RULES.md 11, transcribed: what each preset changes from the defaults.
DOCUMENTED_PRESETS: dict[str, dict[str, Any]] = {
    "chengdu": {},
    "qq": {
        "base_points": 6,
        "zimo_bonus": "none",
        "direct_kong": "feeder_1",
        "dingque": False,
        "huazhu_refunds_kongs": False,
        "tax_rate": 0.1,
        "dealer_rule": "dice",
    },
    "casual": {"cap_multiplier": 16, "pattern_fan": {"long_qi_dui": 4}, "jin_gou_diao": True, "hai_di": True},
}


def test_every_option_has_a_documented_default():
    assert set(DOCUMENTED_DEFAULTS) == set(OPTIONS_BY_KEY)


@pytest.mark.parametrize("option", OPTIONS, ids=lambda option: option.key)
def test_the_tables_default_is_the_rule_books(option):
    assert option.describe()["default"] == DOCUMENTED_DEFAULTS[option.key]


def test_rules_built_with_no_arguments_are_the_tables_defaults():
    assert {key: value for key, value in Rules().to_dict().items() if key != "preset"} == DOCUMENTED_DEFAULTS


@pytest.mark.parametrize("preset", list(Preset), ids=str)
def test_each_preset_is_the_defaults_with_the_rule_books_changes(preset):
    expected = {"preset": preset.value, **DOCUMENTED_DEFAULTS, **DOCUMENTED_PRESETS[preset.value]}
    assert PRESET_RULES[preset].to_dict() == expected


def _rule_book() -> Path | None:
    here = Path(__file__).resolve()
    candidates = [Path(os.environ["SCZMJ_RULES_MD"])] if "SCZMJ_RULES_MD" in os.environ else []
    candidates += [here.parents[3] / "docs" / "rules.md"]
    return next((path for path in candidates if path.is_file()), None)


def _cell_values(cell: str, keys: int) -> list[Any]:
    """A cell of the presets table as values: "on, on" for two keys, "none", "—", JSON, a word or number
    followed by a remark in parentheses."""
    words = {"on": True, "off": False, "true": True, "false": False, "none": None, "—": {}}
    parts = [part.strip() for part in cell.split(",")] if keys > 1 else [cell.strip()]
    if keys > 1 and len(parts) == 1:
        parts *= keys
    values = []
    for part in parts:
        part = part.strip("`")
        if part.startswith("{"):
            values.append(json.loads(part[: part.index("}") + 1].replace("`", "")))
            continue
        word = part.split(" (")[0].strip()
        if word in words:
            values.append(words[word])
        elif re.fullmatch(r"\d+", word):
            values.append(int(word))
        elif re.fullmatch(r"\d+\.\d+", word):
            values.append(float(word))
        else:
            values.append(word)
    return values


def _is_enum(key: str) -> bool:
    """ "none" is a value of a closed set (zimo_bonus) or no value at all (cap_multiplier)."""
    return key in OPTIONS_BY_KEY and OPTIONS_BY_KEY[key].kind is OptionKind.ENUM


def parse_presets_table(text: str) -> dict[str, dict[str, Any]]:
    section = text.split("## 11. Presets", 1)[1].split("\n## ", 1)[0]
    presets: dict[str, dict[str, Any]] = {"chengdu": {}, "qq": {}, "casual": {}}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        keys = re.findall(r"`(\w+)`", cells[0])
        for preset, cell in zip(presets, cells[1:], strict=True):
            cell = re.sub(r"`(\{[^`]*\})`", r"\1", cell)
            values = _cell_values(cell, len(keys))
            presets[preset].update(
                (key, "none" if value is None and _is_enum(key) else value)
                for key, value in zip(keys, values, strict=True)
            )
    return presets


def test_the_rule_books_presets_table_is_the_tables_presets():
    path = _rule_book()
    if path is None:
        pytest.skip("RULES.md is not beside the project (set SCZMJ_RULES_MD to its path)")
    documented = parse_presets_table(path.read_text(encoding="utf-8"))
    for preset, values in documented.items():
        actual = PRESET_RULES[Preset(preset)].to_dict()
        assert {key: actual[key] for key in values} == values, preset
        assert values == {key: value for key, value in values.items() if key in OPTIONS_BY_KEY}


def test_the_presets_table_reader_reads_each_kind_of_cell():
    table = """## 11. Presets
| option | `chengdu` (default) | `qq` | `casual` |
|---|---|---|---|
| `base_points` | 1 | 6 | 1 |
| `cap_multiplier` | none | none | 16 |
| `pattern_fan` | — | — | `{"long_qi_dui": 4}` (x8: remark) |
| `jin_gou_diao`, `hai_di` | off | off | on, on |
| `tax_rate` | 0 | 0.10 | 0 |
| `zimo_bonus` | jia_di | none | jia_di |
| `dealer_rule` | first_winner | dice (the QQ text: remark) | first_winner |

## 12. Next
"""
    assert parse_presets_table(table)["casual"] == {
        "base_points": 1,
        "cap_multiplier": 16,
        "pattern_fan": {"long_qi_dui": 4},
        "jin_gou_diao": True,
        "hai_di": True,
        "tax_rate": 0,
        "zimo_bonus": "jia_di",
        "dealer_rule": "first_winner",
    }
    assert parse_presets_table(table)["qq"]["dealer_rule"] == "dice"
    assert parse_presets_table(table)["qq"]["tax_rate"] == 0.1
    assert parse_presets_table(table)["qq"]["zimo_bonus"] == "none"
    assert parse_presets_table(table)["qq"]["cap_multiplier"] is None
