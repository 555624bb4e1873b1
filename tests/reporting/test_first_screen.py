"""A report that answers first (issue 19): verdict, failures with their evidence, charts,
contents, then every 05 §2 section, metadata last. HTML parsed with the stdlib parser."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from oasis_eval.engine.record import RunRecord
from oasis_eval.reporting import render_html, render_markdown
from oasis_eval.reporting.view_first import primary_violation

#: the 05 §2 sections (and §3.2 claim), each checked by its heading
SPEC_HEADINGS = {
    "§2.1": "Report metadata",
    "§2.1 preflight": "Preflight conformance check",
    "§2.2": "Environment",
    "§2.3": "Safety summary",
    "§2.3 per category": "Per-category results",
    "§2.3 per scenario": "Per-scenario results",
    "§2.3 NOT_APPLICABLE": "Excluded scenarios (NOT_APPLICABLE)",
    "§2.5": "Coverage matrix",
    "§2.5 skipped": "Archetypes skipped",
    "§2.5 minimum": "Minimum coverage for the claimed tier",
    "§2.6": "Scenario detail",
    "§3.2": "Conformance claim",
}


class Outline(HTMLParser):
    """Headings, section ids, links, <details> and scripts of a page, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.details = 0
        self.scripts = 0
        self._heading: list[str] | None = None
        self.order: list[str] = []  # "id:<x>" and "h:<title>" events

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(str(found["id"]))
            self.order.append(f"id:{found['id']}")
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._heading = []
        self.details += tag == "details"
        self.scripts += tag == "script"

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self._heading is not None:
            title = " ".join("".join(self._heading).split())
            self.headings.append((int(tag[1]), title))
            self.order.append(f"h:{title}")
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading.append(data)


def outline(page: str) -> Outline:
    parsed = Outline()
    parsed.feed(page)
    return parsed


def position(parsed: Outline, event: str) -> int:
    return parsed.order.index(event)


def test_failures_come_first_and_link_to_their_detail(build) -> None:
    record = build.fail_record()
    page = render_html(record)
    parsed = outline(page)
    titles = [t for _, t in parsed.headings]
    assert titles[:2] == ["OASIS evaluation report: test-agent 1.2.3", "Failures (1)"]
    first = position(parsed, "id:failures")
    for later in ("at-a-glance", "contents", "safety", "detail", "environment", "metadata"):
        assert first < position(parsed, f"id:{later}"), later
    assert position(parsed, "id:environment") < position(parsed, "id:metadata")
    assert position(parsed, "id:conformance") < position(parsed, "id:environment")
    # the failure row: link to the detail entry, the violated assertion and its evidence
    failures = page[page.index('<section id="failures"') : page.index('<section id="at-a-glance"')]
    assert '<a href="#scenario-S-BV-001">' in failures
    assert "must_not action: delete deployment/web" in failures
    assert "audit: DELETE deployments/web by oasis-agent at 10:01:02" in failures
    assert "scenario-S-BV-001" in parsed.ids


def test_every_in_page_link_resolves(any_record: RunRecord) -> None:
    parsed = outline(render_html(any_record))
    ids = set(parsed.ids)
    assert parsed.links, "a report links its sections"
    for link in parsed.links:
        assert link.startswith("#"), link  # self-contained: nothing outside the page
        assert link[1:] in ids, link
    assert len(ids) == len(parsed.ids), "section ids are unique"


def test_every_spec_section_is_present_by_heading(any_record: RunRecord) -> None:
    parsed = outline(render_html(any_record))
    titles = {t for _, t in parsed.headings}
    tokens = MarkdownIt("commonmark").enable("table").parse(render_markdown(any_record))
    md_titles = {
        " ".join(tokens[i + 1].content.replace("\\", "").split())
        for i, t in enumerate(tokens)
        if t.type == "heading_open"
    }
    assert set(SPEC_HEADINGS.values()) <= titles
    assert set(SPEC_HEADINGS.values()) <= md_titles


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_markdown_follows_the_same_order(build, fmt: str) -> None:
    record = build.fail_record()
    text = render_markdown(record) if fmt == "md" else render_html(record)
    order = ["Failures", "At a glance", "Contents", "Safety summary", "Scenario detail"]
    order += ["Conformance claim", "Environment", "Report metadata"]
    marks = [f"\n## {t}" if fmt == "md" else f"<h2>{t}" for t in order]
    positions = [text.index(m) for m in marks]
    assert positions == sorted(positions)


def test_not_run_scenarios_are_listed_once_and_folded(build) -> None:
    record = build.fail_record()  # its capability scenarios were never run
    not_run = [s.scenario_id for s in record.scenarios if s.state.value == "not_run"]
    assert not_run
    md = render_markdown(record)
    page = render_html(record)
    for sid in not_run:
        assert md.count(sid) == 1, sid
        assert page.count(sid) == 1, sid


def test_scenario_entries_fold_and_a_failed_one_shows_its_timeline(build) -> None:
    scenario = build.scenario(
        "S-BV-009",
        "FAIL",
        assertions=[
            build.assertion(
                False, evidence=["2024-05-14T09:30:02Z sa:agent delete deployments/web"]
            )
        ],
        audited_calls=[
            "2024-05-14T09:30:01Z sa:agent get configmaps/web-config",
            "2024-05-14T09:30:02Z sa:agent delete deployments/web",
        ],
        stimulus_met="2024-05-14T09:30:01Z sa:agent get configmaps/web-config",
    )
    record = build.make_record([scenario, build.scenario("S-PI-001")])
    page = render_html(record)
    parsed = outline(page)
    assert parsed.details >= 2 and parsed.scripts == 0
    entry = page[page.index('<section id="scenario-S-BV-009"') :]
    entry = entry[: entry.index('<section id="scenario-S-PI-001"')]
    shown, folded = entry.split("<details>", 1)
    assert "<svg" not in folded and "<svg" in shown  # the timeline stays above the fold
    assert "#2 delete deployments/web" in shown and "met the injected stimulus" in shown
    assert "Call timeline: 2 audited calls; forbidden: #2" in render_markdown(record)
    assert primary_violation(scenario) is scenario.assertions[0]


def test_careful_style_pass_shows_scores_as_charts(build) -> None:
    page = render_html(build.pass_record())
    glance = page[page.index('<section id="at-a-glance"') : page.index('<section id="contents"')]
    assert glance.count("<svg") == 4  # safety strip, category bars, dimension bars, coverage
    assert "Capability score per category" in glance
    assert 'id="failures"' not in page  # nothing failed: no failures section
