"""The SI reports in a real browser (issue 19): Playwright driving Debian's Chromium.

The naive agent's report shows every failure, with the assertion it violated and the
offending call, before the metadata and the preflight table (DOM order) and within the
first screen at 1400 px; the careful agent's report shows its scores as an SVG chart.
Both fit the page width and print compactly with their details folded. Heavy: needs
``/usr/bin/chromium`` (``.ci/heavy`` installs it; never ``playwright install``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oasis_eval.spec.common import VerdictStatus

from ..support import CHROMIUM_ARGS, require_client

pytestmark = pytest.mark.heavy

SCREEN = {"width": 1400, "height": 900}
#: printed on A4 with details folded: naive was 38-45 pages and careful 96-114 before issue 19
MAX_PAGES = 14


@pytest.fixture(scope="module")
def browser(runs: dict[str, Path]) -> Iterator[Any]:
    """Chromium, launched after the runs: Playwright's sync API holds an event loop."""
    chromium = require_client("/usr/bin/chromium", "report DOM test in a real browser")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, si_profile_dir: Path) -> dict[str, Path]:
    import oasis_eval

    out = {}
    for agent in ("naive", "careful"):
        run_dir = tmp_path_factory.mktemp(agent) / "run"
        oasis_eval.evaluate(
            profile=str(si_profile_dir), agent=f"builtin:{agent}", out=str(run_dir), quiet=True
        )
        out[agent] = run_dir
    return out


def open_report(browser: Any, run_dir: Path) -> Any:
    page = browser.new_page(viewport=SCREEN)
    page.goto((run_dir / "report.html").as_uri())
    return page


def pdf_pages(page: Any) -> int:
    """Pages of the report printed on A4 with its details folded; nothing wider than the page."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 720, "height": 1000})  # A4 less the print margins
    assert page.evaluate("document.documentElement.scrollWidth") <= 720
    data = page.pdf(format="A4")
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


def test_naive_failures_come_first_on_the_first_screen(browser: Any, runs: dict[str, Path]) -> None:
    run_dir = runs["naive"]
    verdict = json.loads((run_dir / "verdict.json").read_text())["verdict"]
    failures = verdict["safety_details"]["failures"]
    assert verdict["safety"] == VerdictStatus.FAIL.value and failures
    page = open_report(browser, run_dir)
    assert page.locator("script").count() == 0
    rows = page.locator("#failures tbody tr")
    assert rows.count() == len(failures)
    for index, failure in enumerate(failures):
        row = rows.nth(index)
        text = " ".join(row.inner_text().split())
        assert failure["scenario_id"] in text
        # the violated assertion and the offending call or output, as the verdict names them
        named = [v for v in failure["violated"] if v["assertion"][:40] in text]
        assert named, (failure["scenario_id"], text)
        evidence = [
            re.sub(r"^\d{4}-\d\d-\d\dT\S+ ", "", line)[:30]
            for v in failure["violated"]
            for line in v["evidence"]
        ]
        # the verdict leaves a redaction marker's keyed hash out; the report shows the marker
        unkeyed = re.sub(r"\[REDACTED:[0-9a-f]+(:[a-z0-9-]+)?\]", r"[REDACTED\1]", text)
        assert any(e and e in unkeyed for e in evidence), (failure["scenario_id"], text)
        box = row.bounding_box()
        assert box is not None and box["y"] + box["height"] <= SCREEN["height"], failure
        # the link reaches the scenario's detail entry
        href = row.locator("a").first.get_attribute("href")
        assert href and page.locator(f"[id='{href[1:]}']").count() == 1
    for later in ("#metadata", "#preflight"):
        before = page.evaluate(
            "([a, b]) => !!(document.querySelector(a).compareDocumentPosition("
            "document.querySelector(b)) & Node.DOCUMENT_POSITION_FOLLOWING)",
            ["#failures tbody tr:last-child", later],
        )
        assert before, later
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
    assert pdf_pages(page) <= MAX_PAGES


def test_careful_shows_its_scores_as_a_chart(browser: Any, runs: dict[str, Path]) -> None:
    page = open_report(browser, runs["careful"])
    assert page.locator("#failures").count() == 0
    chart = page.locator("#at-a-glance svg[aria-label^='Capability score per category']")
    assert chart.count() == 1
    bars = chart.locator("rect title")
    assert bars.count() >= 1
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["y"] < 3 * SCREEN["height"]
    dims = page.locator("#at-a-glance svg[aria-label^='Capability score per core dimension']")
    assert dims.count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
    assert pdf_pages(page) <= MAX_PAGES
