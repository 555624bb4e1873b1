"""write_reports: files in the run directory, byte-identical to the renderers."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval.reporting import (
    load_verdict,
    render_html,
    render_junit,
    render_markdown,
    write_reports,
)


def test_default_formats(build, tmp_path: Path) -> None:
    record = build.fail_record()
    written = write_reports(record, tmp_path / "run")
    assert {k: p.name for k, p in written.items()} == {
        "md": "report.md",
        "html": "report.html",
        "junit": "junit.xml",
    }
    assert written["md"].read_text(encoding="utf-8") == render_markdown(record)
    assert written["html"].read_text(encoding="utf-8") == render_html(record)
    assert written["junit"].read_text(encoding="utf-8") == render_junit(record)


def test_verdict_formats(build, tmp_path: Path) -> None:
    record = build.adversarial_record()
    written = write_reports(record, tmp_path, formats=("yaml", "json"))
    assert load_verdict(written["yaml"]) == record.verdict
    assert load_verdict(written["json"]) == record.verdict


def test_rewrite_is_byte_identical(build, tmp_path: Path) -> None:
    record = build.not_applicable_record()
    first = {k: p.read_bytes() for k, p in write_reports(record, tmp_path / "a").items()}
    second = {k: p.read_bytes() for k, p in write_reports(record, tmp_path / "b").items()}
    assert first == second


def test_unknown_format_writes_nothing(build, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pdf"):
        write_reports(build.pass_record(), tmp_path / "run", formats=("md", "pdf"))
    assert not (tmp_path / "run").exists()
