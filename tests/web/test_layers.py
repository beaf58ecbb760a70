"""The apps are peers (issue 7 item 5): their pages stand on web/ and their APIs on api/, and no app imports
another app's pages, views or serializers. web/, api/ and pwa/ stand on the engines alone.
"""

from pathlib import Path

from tests.test_layers import ROOT, copy_of_the_project, imported_modules, project_files

APPS = ("calculator", "settlement", "ledger", "web", "api", "pwa", "sczmj_site")
# Each package of layer 4 and what of the others it may stand on, beside the engines' public names.
PEERS = {
    "web": (),
    "api": (),
    "pwa": (),
    "calculator": ("web", "api"),
    "settlement": ("web", "api"),
    "ledger": ("web", "api"),
}
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


def test_web_api_and_pwa_stand_on_the_engines_alone_and_the_apps_on_them_not_on_each_other():
    assert {folder: web_layer_imports(ROOT, folder, allowed) for folder, allowed in PEERS.items()} == {
        folder: [] for folder in PEERS
    }


# One import across the peers for each of them, written into a copy of the real tree: each is named.
ACROSS = {
    "web/tiles.py": ("from api.hand_shapes import SUITS\n", "web/tiles.py imports api.hand_shapes"),
    "api/stateless.py": ("from calculator.api import ScoreView\n", "api/stateless.py imports calculator.api"),
    "pwa/views.py": ("from web.language import in_language\n", "pwa/views.py imports web.language"),
    "calculator/views.py": ("from settlement import views\n", "calculator/views.py imports settlement"),
    "settlement/api.py": (
        "from calculator.serializers import MeldSerializer\n",
        "settlement/api.py imports calculator.serializers",
    ),
    "ledger/pages/session.py": (
        "from settlement.views import round_page\n",
        "ledger/pages/session.py imports settlement.views",
    ),
}


def test_the_peers_scan_of_the_real_tree_names_an_import_across_in_every_package(tmp_path):
    copy_of_the_project(tmp_path)
    for name, (line, _) in ACROSS.items():
        with (tmp_path / name).open("a", encoding="utf-8") as file:
            file.write(line)
    found = sorted(
        found for folder, allowed in PEERS.items() for found in web_layer_imports(tmp_path, folder, allowed)
    )
    assert found == sorted(found for _, found in ACROSS.values())
    assert {name.split("/")[0] for name in ACROSS} == set(PEERS)


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
    from calculator.engine import WinBy
    from calculator.hand_input import WIN_BY
    from calculator.views import WIN_BY_LABELS
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
        (WIN_BY_LABELS, WinBy),
        (WIN_BY, WinBy),
    ):
        assert set(labels) == set(values)
