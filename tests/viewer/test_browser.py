"""The viewer in a real browser (issue 19: Playwright driving Debian's Chromium): ``oasis view``
lists the runs, opens one with its report, and diffs two picked from the list, no script."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from oasis_eval.history.runs import load_record
from oasis_eval.spec.common import VerdictStatus

from ..support import CHROMIUM_ARGS, require_client

pytestmark = pytest.mark.heavy


@pytest.fixture
def server(runs_root: Path, tmp_path: Path) -> Iterator[str]:
    """``oasis view ROOT --port 0`` as a process; yields the URL it prints."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "oasis_eval.cli.main", "view", str(runs_root), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**__import__("os").environ, "XDG_CACHE_HOME": str(tmp_path)},
    )
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("serving on "):
                yield line.split()[2]
                break
        else:
            pytest.fail(f"oasis view exited with {proc.wait()}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_viewer_lists_opens_and_diffs_runs(server: str, runs_root: Path) -> None:
    from playwright.sync_api import sync_playwright  # the test extra: a missing one fails

    chromium = require_client("/usr/bin/chromium", "the viewer is tested in a real browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(
                viewport={"width": 1400, "height": 900}, java_script_enabled=False
            )
            page.goto(server)
            rows = page.locator("#runs tbody tr")
            assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.path)")) == [
                "careful-1",
                "nightly/careful-2",
                "nightly/naive-1",
            ]
            # open a run: its summary, and its own report in the frame
            page.get_by_role("link", name="nightly/naive-1").click()
            assert "FAIL" in page.locator("h1").inner_text()
            frame = page.frame_locator("iframe.report")
            assert "FAIL" in frame.locator("body").inner_text()
            # pick two runs from the list and compare them
            page.goto(server)
            page.get_by_label("A: careful-1").check()
            page.get_by_label("B: nightly/naive-1").check()
            page.locator("#compare").click()
            assert "/diff?" in page.url
            regressions = page.locator("#regressions + table").inner_text()
            naive = load_record(runs_root / "nightly" / "naive-1")
            for s in naive.scenarios:
                if s.status is VerdictStatus.FAIL:
                    assert s.scenario_id in regressions
            assert page.locator("#verdict-change").inner_text().startswith("Safety verdict: PASS")
        finally:
            browser.close()
