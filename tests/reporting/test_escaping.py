"""Agent text is escaped in every report format and on the terminal (issue 11 item 7).

A real `oasis run` with a hostile in-process agent (tests/reporting/oasis_hostile_agent.py)
that writes markup, links, images, comments, code-span breakers, pipes, ANSI sequences,
bidi overrides and XML-invalid characters into every field it controls.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from oasis_eval.reporting import render_html, render_junit, render_markdown

from ..support import run_cli

HERE = Path(__file__).resolve().parent
SCENARIO = "k8s.safety.ae.self-bind-cluster-admin-001"
#: anything that makes a terminal act: ESC/CSI/OSC, BEL, C1 controls, bidi overrides
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufffe]")


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """(run directory, everything `oasis run` printed)."""
    import sys

    from oasis_eval.cli.main import main

    out_dir = tmp_path_factory.mktemp("hostile") / "run"
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(HERE))
        mp.delenv("OASIS_RUN_KEY", raising=False)
        capture = _Capture()
        mp.setattr(sys, "stdout", capture)
        mp.setattr(sys, "stderr", capture)
        mp.setattr(
            sys,
            "argv",
            [
                "oasis",
                "run",
                "--agent",
                "python:oasis_hostile_agent:HostileAgent",
                "--filter",
                SCENARIO,
                "--out",
                str(out_dir),
            ],
        )
        with pytest.raises(SystemExit) as exit_info:
            main()
    assert exit_info.value.code == 1  # the naive behaviour still FAILs
    return out_dir, capture.text


class _Capture:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str | bytes) -> int:
        self.parts.append(text.decode("utf-8") if isinstance(text, bytes) else text)
        return len(text)

    def flush(self) -> None:
        return None

    def isatty(self) -> bool:
        return False

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _inline_tokens(markdown: str) -> list[str]:
    md = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
    kinds = []
    for token in md.parse(markdown):
        kinds.append(token.type)
        kinds += [child.type for child in token.children or []]
    return kinds


def test_report_md_carries_no_markup_from_the_agent(hostile_run: tuple[Path, str]) -> None:
    text = (hostile_run[0] / "report.md").read_text(encoding="utf-8")
    assert "hidden -->" in text or "hidden --\\>" in text  # the agent's text is there, shown
    kinds = _inline_tokens(text)
    for forbidden in ("html_inline", "html_block", "image", "link_open", "s_open"):
        assert forbidden not in kinds, forbidden
    assert not RAW_CONTROL.search(text)
    assert "\\x1b[2J" in text and "\\u202e" in text
    # the only headings are the report's own: none opened by the agent's "# heading"
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings and not any("heading" in h for h in headings)


def test_report_html_escapes_markup_and_shows_controls(hostile_run: tuple[Path, str]) -> None:
    page = (hostile_run[0] / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<b>bold" not in page and "<!-- hidden" not in page
    assert "&lt;script&gt;" in page and "\\x1b[31m" in page
    assert not RAW_CONTROL.search(page)


def test_junit_is_valid_xml_without_raw_controls(hostile_run: tuple[Path, str]) -> None:
    text = (hostile_run[0] / "junit.xml").read_text(encoding="utf-8")
    ET.fromstring(text.encode("utf-8"))
    assert not RAW_CONTROL.search(text) and "\\x1b[31m" in text


def test_the_terminal_never_receives_raw_escape_sequences(
    hostile_run: tuple[Path, str], capsys
) -> None:  # type: ignore[no-untyped-def]
    printed = hostile_run[1]
    assert "hostile" in printed  # the agent's name reached the progress output, made inert
    assert not RAW_CONTROL.search(printed)
    code, out, err = run_cli(capsys, "replay", hostile_run[0])
    assert code == 1 and not RAW_CONTROL.search(out + err)
    code, out, err = run_cli(capsys, "report", hostile_run[0], "--format", "md")
    assert code == 0 and not RAW_CONTROL.search(out + err)


@pytest.mark.parametrize("render", [render_markdown, render_html, render_junit])
def test_every_agent_field_is_escaped_in_every_format(build, render) -> None:  # type: ignore[no-untyped-def]
    nasty = "<img src=x onerror=alert(1)> [l](http://e) \x1b[31m\u202e\x07"
    record = build.make_record(
        [
            build.scenario(
                "S-1",
                "FAIL",
                final_answer=nasty,
                reasoning=nasty,
                reported_tool_calls=[nasty],
                agent_error=nasty,
            )
        ],
        aborted=True,
        abort_reason=nasty,
    )
    record.verdict.metadata.agent = nasty
    record.agent_description = nasty
    text = render(record)
    assert not RAW_CONTROL.search(text)
    assert ("<img" not in text) if render is not render_markdown else "\\<img" in text
    if render is render_markdown:
        assert not {"html_inline", "link_open", "image"} & set(_inline_tokens(text))


def test_the_rich_progress_display_shows_agent_text_inert() -> None:
    import io

    from rich.console import Console

    from oasis_eval.cli.progress import TerminalProgress
    from oasis_eval.engine.phase_runner import ProgressEvent

    sink = io.StringIO()
    progress = TerminalProgress(
        Console(file=sink, force_terminal=False, width=200)
    )  # no styling codes
    progress(ProgressEvent("agent: evil\x1b[2J\x1b]0;title\x07 [link=http://evil.example]x[/link]"))
    progress(ProgressEvent("  aborting the run: \x1b[2J [bold]y[/bold]", "abort"))
    progress.close()
    text = sink.getvalue()
    assert not RAW_CONTROL.search(text)
    assert "\\x1b[2J" in text and "[link=http://evil.example]" in text and "[bold]y[/bold]" in text
