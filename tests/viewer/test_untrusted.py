"""The viewer trusts neither links nor its index (issue 26 item 5).

Every listed run is read again from its directory and checked against its manifest: a link
out of the root is never followed, a linked or edited verdict is listed as tampered (never
the PASS it claims), an edited index row shows what the run says, a number no run writes
does not stop the viewer starting, and a damaged row does not take the page down.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from oasis_eval.engine.manifest import write_manifest
from oasis_eval.viewer.app import create_app


@pytest.fixture
def root(runs_root: Path, tmp_path: Path) -> Path:
    """A root holding a PASS run and a FAIL run (copies: the tests change them)."""
    root = tmp_path / "root"
    shutil.copytree(runs_root / "careful-1", root / "pass")
    shutil.copytree(runs_root / "nightly" / "naive-1", root / "fail")
    return root


def _client(root: Path, tmp_path: Path) -> TestClient:
    app = create_app(root, tmp_path / "index.sqlite")
    app.state.viewer.index.refresh()  # what `oasis view` does before it serves
    return TestClient(app, base_url="http://127.0.0.1")


def _row(page: str, path: str) -> str:
    return page.split(f'data-path="{path}"')[1].split("</tr>")[0]


def test_a_report_linked_out_of_the_root_is_not_served(root: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("a system file", encoding="utf-8")
    report = root / "pass" / "report.html"
    report.unlink()
    os.symlink(outside, report)
    client = _client(root, tmp_path)
    got = client.get("/run/file", params={"path": "pass", "name": "report.html"})
    assert got.status_code == 404 and "a system file" not in got.text
    assert "name=report.html" not in client.get("/run", params={"path": "pass"}).text


def test_a_linked_verdict_is_listed_as_tampered_not_as_another_runs_pass(
    root: Path, tmp_path: Path
) -> None:
    for name in ("verdict.json", "verdict.yaml"):
        (root / "fail" / name).unlink()
        os.symlink(root / "pass" / name, root / "fail" / name)
    page = _client(root, tmp_path).get("/").text
    row = _row(page, "fail")
    assert "badge PASS" not in row and "tampered" in row


def test_an_edited_verdict_is_tampered_and_its_files_are_not_served(
    root: Path, tmp_path: Path
) -> None:
    verdict = root / "fail" / "verdict.json"
    verdict.write_text(verdict.read_text().replace('"FAIL"', '"PASS"'), encoding="utf-8")
    client = _client(root, tmp_path)
    row = _row(client.get("/").text, "fail")
    assert "badge TAMPERED" in row and "modified: verdict.json" in row
    assert "badge PASS" not in row
    got = client.get("/run/file", params={"path": "fail", "name": "report.html"})
    assert got.status_code == 404 and "tampered" in got.text
    assert "badge PASS" in _row(client.get("/").text, "pass")  # the intact run is unaffected


def test_an_edited_index_row_is_never_believed(root: Path, tmp_path: Path) -> None:
    client = _client(root, tmp_path)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("UPDATE runs SET safety = 'PASS', failed = 0 WHERE path = 'fail'")
        db.execute(
            "INSERT INTO runs (path, signature, safety, dimensions, categories, aborted) "
            "VALUES ('../../etc', 'x', 'PASS', '{}', '{}', 0)"
        )
    db.close()
    page = client.get("/").text
    assert "badge FAIL" in _row(page, "fail") and "badge PASS" not in _row(page, "fail")
    assert 'data-path="../../etc"' not in page
    assert client.get("/run", params={"path": "../../etc"}).status_code == 404


def test_a_damaged_index_row_does_not_take_the_page_down(root: Path, tmp_path: Path) -> None:
    client = _client(root, tmp_path)
    with sqlite3.connect(tmp_path / "index.sqlite") as db:
        db.execute("UPDATE runs SET dimensions = '{not json', aborted = 'x' WHERE path = 'pass'")
    db.close()
    page = client.get("/")
    assert page.status_code == 200
    assert "badge PASS" in _row(page.text, "pass") and "badge FAIL" in _row(page.text, "fail")
    assert client.get("/run", params={"path": "pass"}).status_code == 200


def test_a_huge_count_does_not_stop_the_viewer(root: Path, tmp_path: Path) -> None:
    """``passed: 10**30`` in a verdict (manifest recomputed: not tampering, a broken writer)."""
    verdict = root / "pass" / "verdict.json"
    data = json.loads(verdict.read_text())
    data["verdict"]["safety_details"]["passed"] = 10**30
    verdict.write_text(json.dumps(data), encoding="utf-8")
    write_manifest(root / "pass", None)
    client = _client(root, tmp_path)  # starting refreshes the index: it must not fail
    page = client.get("/")
    assert page.status_code == 200
    assert "passed of 31 digits is out of range" in _row(page.text, "pass")
    assert "badge FAIL" in _row(page.text, "fail")


def test_an_index_name_linked_elsewhere_is_not_written_through(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from oasis_eval.history.index import INDEX_NAME, default_index_path

    victim = tmp_path / "victim.db"
    victim.write_bytes(b"precious")
    os.symlink(victim, root / INDEX_NAME)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_index_path(root).is_relative_to(tmp_path / "cache")
    create_app(root).state.viewer.index.refresh()
    assert victim.read_bytes() == b"precious"


def test_a_run_without_manifest_is_marked_unverifiable(root: Path, tmp_path: Path) -> None:
    (root / "pass" / "manifest.json").unlink()
    client = _client(root, tmp_path)
    assert "unverifiable: no manifest" in _row(client.get("/").text, "pass")
    assert "unverifiable" in client.get("/run", params={"path": "pass"}).text
    assert "unsigned" in _row(client.get("/").text, "fail")
