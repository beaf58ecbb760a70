"""tools/fetch_pyodide.py: the pinned package, verified before use, only its runtime files, and a setup that
goes on without a network."""

import base64
import hashlib
import importlib.util
import io
import tarfile
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "fetch_pyodide.py"
spec = importlib.util.spec_from_file_location("fetch_pyodide", TOOL)
assert spec and spec.loader
fetch_pyodide = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fetch_pyodide)


def package(files: dict[str, bytes]) -> bytes:
    """An npm tarball: every file under package/."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


@pytest.fixture
def npm(tmp_path):
    """A registry on disk: the package with every runtime file and some the browser never fetches."""
    files = {name: name.encode() for name in fetch_pyodide.RUNTIME_FILES}
    data = package({**files, "console.html": b"<html>", "pyodide.js.map": b"{}"})
    tarball = tmp_path / "pyodide.tgz"
    tarball.write_bytes(data)
    return {"url": tarball.as_uri(), "integrity": integrity(data), "root": tmp_path / "vendor"}


def test_it_extracts_only_the_runtime_files_into_a_folder_named_by_the_version(npm):
    assert fetch_pyodide.fetch(npm["root"], npm["url"], npm["integrity"], "1.0") == 0
    folder = npm["root"] / "1.0"
    assert sorted(path.name for path in folder.iterdir()) == sorted(fetch_pyodide.RUNTIME_FILES)
    assert (folder / "pyodide.mjs").read_bytes() == b"pyodide.mjs"


def test_a_download_that_does_not_match_the_pin_is_refused_and_nothing_is_written(npm):
    wrong = integrity(b"another package")
    assert fetch_pyodide.fetch(npm["root"], npm["url"], wrong, "1.0") == 1
    assert not (npm["root"] / "1.0").exists()


def test_without_a_network_setup_goes_on(npm, capsys):
    assert fetch_pyodide.fetch(npm["root"], "http://127.0.0.1:9/pyodide.tgz", npm["integrity"], "1.0") == 0
    assert "offline scoring is unavailable" in capsys.readouterr().err
    assert not (npm["root"] / "1.0").exists()


def test_a_fetched_version_is_not_downloaded_again_and_an_upgrade_drops_the_old_one(npm):
    assert fetch_pyodide.fetch(npm["root"], npm["url"], npm["integrity"], "1.0") == 0
    assert fetch_pyodide.fetch(npm["root"], "http://127.0.0.1:9/gone.tgz", npm["integrity"], "1.0") == 0
    assert fetch_pyodide.fetch(npm["root"], npm["url"], npm["integrity"], "2.0") == 0
    assert [path.name for path in npm["root"].iterdir()] == ["2.0"]


def test_a_package_without_a_runtime_file_is_refused(tmp_path):
    data = package({"pyodide.mjs": b"x"})
    tarball = tmp_path / "pyodide.tgz"
    tarball.write_bytes(data)
    assert fetch_pyodide.fetch(tmp_path / "vendor", tarball.as_uri(), integrity(data), "1.0") == 1
    assert not (tmp_path / "vendor" / "1.0").exists()


def test_the_pin_is_an_https_url_of_the_npm_registry_with_its_sha512():
    assert f"https://registry.npmjs.org/pyodide/-/pyodide-{fetch_pyodide.VERSION}.tgz" == fetch_pyodide.URL
    assert fetch_pyodide.INTEGRITY.startswith("sha512-")
