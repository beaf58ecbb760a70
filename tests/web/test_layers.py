"""The apps are peers (issue 7 item 5): their pages stand on web/ and their APIs on api/, and no app imports
another app's pages, views or serializers.
"""

from pathlib import Path

from tests.test_layers import ROOT, imported_modules, project_files

APPS = ("calculator", "settlement", "ledger", "web", "sczmj_site")
ENGINES = ("calculator.engine", "settlement.engine")


def web_layer_imports(root: Path, folder: str, allowed: tuple[str, ...]) -> list[str]:
    """Imports of project modules by ``folder`` outside itself, the engines and ``allowed``."""
    found = []
    for path in project_files(root, folder):
        if "engine" in path.relative_to(root).parts:
            continue
        for module in sorted(imported_modules(root, path)):
            inside = module == folder or module.startswith(f"{folder}.")
            ok = inside or any(
                module == name or module.startswith(f"{name}.") for name in (*ENGINES, *allowed)
            )
            if module.split(".")[0] in APPS and not ok:
                found.append(f"{path.relative_to(root)} imports {module}")
    return found


def test_web_imports_nothing_of_the_apps_but_their_engines():
    assert web_layer_imports(ROOT, "web", ()) == []


def test_the_calculator_and_settlement_apps_stand_on_web_and_api_not_on_each_other():
    assert web_layer_imports(ROOT, "calculator", ("web",)) == []
    assert web_layer_imports(ROOT, "settlement", ("web",)) == []


def test_the_scan_catches_a_page_app_importing_another(tmp_path):
    (tmp_path / "settlement").mkdir()
    (tmp_path / "settlement" / "views.py").write_text(
        "from calculator.views import picker_rows\n"
        "from calculator.engine import Rules\n"
        "from web.tiles import tile_view\n"
    )
    assert web_layer_imports(tmp_path, "settlement", ("web",)) == [
        "settlement/views.py imports calculator.views"
    ]


def test_every_value_of_the_engines_closed_sets_has_the_players_word():
    from settlement.engine import DrawStatus, EventKind, KongKind, Reason
    from web.entry.explain import EVENT_LABELS, KONG_LABELS, REASON_LABELS, STATUS_LABELS
    from web.notation import MELD_TEXT
    from web.tiles import MELD_LABELS, MeldKind

    for labels, values in (
        (REASON_LABELS, Reason),
        (EVENT_LABELS, EventKind),
        (KONG_LABELS, KongKind),
        (STATUS_LABELS, DrawStatus),
        (MELD_LABELS, MeldKind),
        (MELD_TEXT, MeldKind),
    ):
        assert set(labels) == set(values)
