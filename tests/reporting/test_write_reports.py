"""write_reports: files in the run directory, byte-identical to the renderers."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval.reporting import (
    load_verdict,
    render_html,
    render_junit,
    render_markdown,
    render_summary,
    rendered,
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


def test_markdown_and_html_are_laid_out_from_one_view(
    build, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rendered`` (a run's reports, and a replay's check of them) builds the view once
    and gives each renderer's own bytes (issue 30)."""
    import oasis_eval.reporting as reporting

    record = build.fail_record()
    expected = {
        "md": render_markdown(record),
        "html": render_html(record),
        "junit": render_junit(record),
        "summary": render_summary(record),
    }
    built = []
    real = reporting.build_view
    monkeypatch.setattr(reporting, "build_view", lambda r: built.append(r) or real(r))
    assert dict(rendered(record, ("html", "md", "junit", "summary"))) == expected
    assert built == [record]


def test_a_replay_check_reads_the_verdict_it_is_given(build, tmp_path: Path) -> None:
    """``derived_mismatches`` compares run.json's verdict with the recomputed one's YAML as
    the caller hands it over (the replay's own), else as it renders it."""
    from oasis_eval.api.replay import derived_mismatches
    from oasis_eval.engine.record import REPORT_FORMAT
    from oasis_eval.reporting import verdict_yaml

    # reports in this version's format: the check renders them again and compares
    record = build.fail_record().model_copy(update={"report_format": REPORT_FORMAT})
    write_reports(record, tmp_path, formats=("md", "html", "junit", "summary"))
    first = derived_mismatches(tmp_path, record, record.verdict)
    assert not any("differs" in problem for problem in first)
    same = verdict_yaml(record.verdict)
    assert derived_mismatches(tmp_path, record, record.verdict, recomputed_yaml=same) == first
    other = verdict_yaml(build.pass_record().verdict)
    assert derived_mismatches(tmp_path, record, record.verdict, recomputed_yaml=other) == [
        "run.json: its verdict differs from the verdict recomputed from the recorded evidence",
        *first,
    ]
    (tmp_path / "report.md").write_text("edited", encoding="utf-8")
    assert derived_mismatches(tmp_path, record, record.verdict) == [
        *first,
        "report.md differs from the one rendered from the recorded run",
    ]
