"""The viewer's pages without a browser (Starlette's TestClient): list, run, files, diff, and
that no URL reaches a file outside the root or a file a run does not hold by name."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from oasis_eval.history.runs import load_record
from oasis_eval.spec.common import VerdictStatus
from oasis_eval.viewer.app import REPORT_POLICY, create_app


@pytest.fixture
def client(runs_root: Path, tmp_path: Path) -> TestClient:
    app = create_app(runs_root, index_path=tmp_path / "index.sqlite")
    return TestClient(app, base_url="http://127.0.0.1")


def test_the_list_shows_every_run_with_its_verdict(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    for path in ("careful-1", "nightly/naive-1", "nightly/careful-2"):
        assert f'data-path="{path}"' in page.text
    assert "oasis-demo-naive" in page.text and "oasis-demo-careful" in page.text
    assert 'class="badge FAIL"' in page.text and 'class="badge PASS"' in page.text
    assert "<script" not in page.text and "http://" not in page.text.split("<body>")[1]
    filtered = client.get("/", params={"q": "naive"})
    assert "nightly/naive-1" in filtered.text and 'data-path="careful-1"' not in filtered.text


def test_a_run_page_embeds_its_report_and_links_its_files(
    client: TestClient, runs_root: Path
) -> None:
    page = client.get("/run", params={"path": "nightly/naive-1"})
    assert page.status_code == 200
    for name in ("report.html", "verdict.yaml", "junit.xml"):
        assert f"name={name}" in page.text
    assert "<iframe" in page.text
    report = client.get("/run/file", params={"path": "nightly/naive-1", "name": "report.html"})
    assert report.status_code == 200
    assert report.content == (runs_root / "nightly" / "naive-1" / "report.html").read_bytes()
    assert report.headers["content-security-policy"] == REPORT_POLICY
    verdict = client.get("/run/file", params={"path": "nightly/naive-1", "name": "verdict.yaml"})
    assert (
        verdict.headers["content-type"].startswith("text/plain") and "safety: FAIL" in verdict.text
    )


def test_the_diff_page_lists_each_regression(client: TestClient, runs_root: Path) -> None:
    naive = load_record(runs_root / "nightly" / "naive-1")
    failed = [s.scenario_id for s in naive.scenarios if s.status is VerdictStatus.FAIL]
    assert failed
    page = client.get("/diff", params={"a": "careful-1", "b": "nightly/naive-1"})
    assert page.status_code == 200
    regressions = page.text.split('id="regressions"')[1].split("</table>")[0]
    for scenario_id in failed:
        assert scenario_id in regressions
    assert "safety regression" in regressions
    assert "capability tier" in page.text  # scores go with their tier (core §4.3)
    same = client.get("/diff", params={"a": "careful-1", "b": "nightly/careful-2"})
    assert same.status_code == 200 and 'id="regressions"' not in same.text


@pytest.mark.parametrize(
    "params",
    [
        {"path": "../"},
        {"path": ".."},
        {"path": "careful-1/../../"},
        {"path": "/etc"},
        {"path": "nightly"},  # a directory under the root that is not a run
        {"path": "careful-1\x00"},
        {"path": "careful-1/evidence"},
    ],
)
def test_a_path_outside_the_index_is_not_found(client: TestClient, params: dict[str, str]) -> None:
    assert client.get("/run", params=params).status_code == 404
    file_params = {**params, "name": "report.html"}
    assert client.get("/run/file", params=file_params).status_code == 404


@pytest.mark.parametrize(
    "name", ["run.json", "profile.json", "../careful-1/report.html", "/etc/passwd", "evidence"]
)
def test_only_the_named_run_files_are_served(client: TestClient, name: str) -> None:
    response = client.get("/run/file", params={"path": "careful-1", "name": name})
    assert response.status_code == 404


def test_a_link_out_of_the_root_is_never_served(
    runs_root: Path, tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    outside = tmp_path_factory.mktemp("outside-root")
    (outside / "secret.txt").write_text("outside", encoding="utf-8")
    root = tmp_path_factory.mktemp("linked-root")
    os.symlink(runs_root / "careful-1", root / "linked-run")
    client = TestClient(create_app(root, tmp_path / "i.sqlite"), base_url="http://127.0.0.1")
    assert 'data-path="linked-run"' not in client.get("/").text
    assert client.get("/run", params={"path": "linked-run"}).status_code == 404


def test_diff_needs_two_runs(client: TestClient) -> None:
    assert client.get("/diff", params={"a": "careful-1"}).status_code == 400
    assert client.get("/diff", params={"a": "careful-1", "b": "../x"}).status_code == 404


def test_a_foreign_host_name_is_refused_on_loopback(client: TestClient) -> None:
    """DNS rebinding: a page elsewhere resolving its own name to 127.0.0.1 reads nothing."""
    assert client.get("/", headers={"host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"host": "localhost:8642"}).status_code == 200


def test_agent_text_cannot_inject_markup(runs_root: Path, tmp_path: Path) -> None:
    import shutil

    run = tmp_path / "root" / "hostile"
    shutil.copytree(runs_root / "careful-1", run)
    verdict = run / "verdict.json"
    text = verdict.read_text(encoding="utf-8")
    agent = load_record(run).verdict.metadata.agent
    verdict.write_text(text.replace(f'"{agent}"', '"<script>x</script>\\u001b[31m"'))
    client = TestClient(
        create_app(tmp_path / "root", tmp_path / "i.sqlite"), base_url="http://127.0.0.1"
    )
    page = client.get("/").text
    assert "<script>x" not in page and "&lt;script&gt;x&lt;/script&gt;\\x1b[31m" in page


def test_a_run_swapped_for_a_link_after_indexing_is_not_served(
    runs_root: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import shutil

    root = tmp_path / "root"
    shutil.copytree(runs_root / "careful-1", root / "run")
    client = TestClient(create_app(root, tmp_path / "i.sqlite"), base_url="http://127.0.0.1")
    assert client.get("/run", params={"path": "run"}).status_code == 200
    outside = tmp_path_factory.mktemp("elsewhere")
    shutil.move(root / "run", outside / "run")
    os.symlink(outside / "run", root / "run")
    params = {"path": "run", "name": "report.html"}
    assert client.get("/run/file", params=params).status_code == 404


def test_a_single_run_can_be_the_root(runs_root: Path, tmp_path: Path) -> None:
    client = TestClient(
        create_app(runs_root / "careful-1", tmp_path / "i.sqlite"), base_url="http://127.0.0.1"
    )
    assert 'data-path="."' in client.get("/").text
    assert client.get("/run/file", params={"path": ".", "name": "verdict.yaml"}).status_code == 200
    assert client.get("/run/file", params={"path": "..", "name": "verdict.yaml"}).status_code == 404


def test_an_unreadable_run_is_listed_with_the_reason(runs_root: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "root"
    shutil.copytree(runs_root / "careful-1", root / "good")
    (root / "broken").mkdir()
    (root / "broken" / "run.json").write_text("{}", encoding="utf-8")
    client = TestClient(create_app(root, tmp_path / "i.sqlite"), base_url="http://127.0.0.1")
    page = client.get("/").text
    assert 'data-path="good"' in page and 'data-path="broken"' in page
    assert "unreadable: " in page and "not a run directory: verdict.json is missing" in page
    assert client.get("/run", params={"path": "broken"}).status_code == 200
    diff = client.get("/diff", params={"a": "good", "b": "broken"})
    assert diff.status_code == 422 and "run.json is not a run record" in diff.text


def test_a_pass_that_failed_its_gate_is_never_a_bare_green_badge(tmp_path: Path) -> None:
    """Issue 26: the badge shows the gate's outcome beside the spec verdict."""
    import oasis_eval

    from ..hostile.test_agent_fault_gate import DM, CarefulThenExits

    result = oasis_eval.evaluate(
        agent=CarefulThenExits(DM), out=tmp_path / "root" / "r", quiet=True
    )
    assert result.safety == "PASS" and result.exit_code == 6
    client = TestClient(
        create_app(tmp_path / "root", tmp_path / "i.sqlite"), base_url="http://127.0.0.1"
    )
    page = client.get("/").text
    assert 'class="badge GATED"' in page and "PASS · gate FAILED" in page
    assert 'class="badge PASS"' not in page
    run = client.get("/run", params={"path": "r"}).text
    assert 'class="badge GATED"' in run and "agent-fault gate" in run
