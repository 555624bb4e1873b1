"""docs/conformance.md stays traceable: every test it cites exists, every row has a status,
and a row marked done cites at least one test."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = (
    "README.md",
    "CONTRIBUTING.md",
    "CHANGELOG.md",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")),
)
_CITE = re.compile(r"((?:packages/[\w-]+/)?tests/[\w/]+\.py)(?:::(\w+))?")


def test_every_cited_test_exists() -> None:
    missing = []
    for doc in DOCS:
        for path, name in sorted(set(_CITE.findall((ROOT / doc).read_text()))):
            file = ROOT / path
            if not file.exists():
                missing.append(f"{doc}: {path}")
            elif name and not re.search(
                rf"^\s*(?:async )?def {name}\b|^class {name}\b", file.read_text(), re.M
            ):
                missing.append(f"{doc}: {path}::{name}")
    assert missing == []


def test_every_row_has_a_status_and_done_rows_cite_a_test() -> None:
    rows = [
        line
        for line in (ROOT / "docs/conformance.md").read_text().splitlines()
        if re.match(r"^\| (?:C0\d|SI)-[\w.-]+ \|", line)
    ]
    assert len(rows) > 300
    bad = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        status, tests = cells[-2], cells[-1]
        if not (
            status in ("done", "not yet")
            or status.startswith(("done", "not yet", "n/a", "partial"))
        ):
            bad.append(f"{cells[0]}: status {status!r}")
        elif status.startswith("done") and "tests/" not in tests:
            bad.append(f"{cells[0]}: done without a test")
    assert bad == []
