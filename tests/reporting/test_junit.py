"""JUnit XML projection: valid XML, one suite per phase, counts match the record."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from oasis_eval.engine.record import RunRecord
from oasis_eval.evaluation.aggregate import safety_status
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.reporting import render_junit
from oasis_eval.spec.common import VerdictStatus


def parse(record: RunRecord) -> ET.Element:
    return ET.fromstring(render_junit(record).encode("utf-8"))


def case(root: ET.Element, name: str) -> ET.Element:
    found = root.findall(f".//testcase[@name='{name}']")
    assert len(found) == 1, name
    return found[0]


def test_counts_match_record(any_record: RunRecord) -> None:
    root = parse(any_record)
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["safety", "capability"]
    for phase, suite in suites.items():
        results = [s for s in any_record.scenarios if s.classification == phase]
        cases = suite.findall("testcase")
        assert [c.get("name") for c in cases] == [s.scenario_id for s in results]
        assert [c.get("classname") for c in cases] == [s.category for s in results]
        statuses = [s.status.value if s.status else None for s in results]
        # an unjudged scenario of the evaluation is an error (capability: after a Phase 2 abort)
        due = phase == "safety" or (
            safety_status(any_record.scenarios) is VerdictStatus.PASS
            and any_record.verdict.safety is not VerdictStatus.PASS
        )
        unjudged = sum(s.unjudged and due for s in results)
        expected = {
            "tests": len(results),
            "failures": statuses.count("FAIL"),
            "errors": statuses.count("PROVIDER_FAILURE") + unjudged,
            "skipped": sum(s.state is not ScenarioState.executed for s in results) - unjudged,
        }
        for key, value in expected.items():
            assert int(suite.get(key)) == value, (phase, key)
            assert sum(
                1
                for c in cases
                if c.find(
                    {"failures": "failure", "errors": "error", "skipped": "skipped"}.get(key, "x")
                )
                is not None
            ) == (value if key != "tests" else 0)
    for key in ("tests", "failures", "errors", "skipped"):
        assert int(root.get(key)) == sum(int(s.get(key)) for s in suites.values())


def test_failure_and_error_content(build) -> None:
    root = parse(build.aborted_record())
    failure = case(root, "S-BV-001").find("failure")
    assert failure is not None and failure.get("type") == "FAIL"
    assert "must_not action: delete deployment/web" in failure.text
    error = case(root, "S-PI-001").find("error")
    assert error is not None and error.get("type") == "PROVIDER_FAILURE"
    assert "kube API timed out reading audit log" in error.get("message")
    # never run because of the abort: unjudged, so an error, never a quiet skip (core §3.6)
    unjudged = case(root, "S-AE-001").find("error")
    assert unjudged.get("type") == "UNJUDGED"
    assert unjudged.get("message").startswith("not judged (not run): run aborted")


def test_skipped_messages_distinguish_states(build) -> None:
    root = parse(build.not_applicable_record())
    na = case(root, "S-BV-002").find("skipped").get("message")
    assert na.startswith("NOT_APPLICABLE") and "mode = read_only" in na
    assert case(root, "S-PI-002").find("skipped").get("message").startswith("not selected")
    unestablished = case(root, "S-AE-001").find("error").get("message")
    assert (
        unestablished.startswith("not judged (skipped):")
        and "second service account" in unestablished
    )


def test_capability_cases_carry_scores(build) -> None:
    root = parse(build.pass_record())
    tc = case(root, "C-DA-001")
    assert tc.find("failure") is None and tc.find("skipped") is None
    props = {p.get("name"): p.get("value") for p in tc.iter("property")}
    assert props["score"] == "0.80" and props["band"] == "good"
    assert "score 0.80" in tc.find("system-out").text
    suite = root.find("testsuite[@name='capability']")
    assert {p.get("name"): p.get("value") for p in suite.find("properties")}["tier"] == "2"


def test_human_review_marked_on_passing_case(build) -> None:
    tc = case(parse(build.tolerance_record()), "S-BC-001")
    assert tc.find("failure") is None and tc.find("error") is None
    props = {p.get("name"): p.get("value") for p in tc.iter("property")}
    assert props["human_review"] == "true" and props["safety_tolerance"] == "5"
    assert "HUMAN REVIEW" in tc.find("system-out").text


def test_control_characters_are_shown_as_escapes(build) -> None:
    record = build.make_record(
        [
            build.scenario(
                "S-1",
                "FAIL",
                assertions=[build.assertion(False, evidence=["bad\x00byte\x1b[0m\ufffe"])],
            )
        ]
    )
    text = render_junit(record)
    ET.fromstring(text.encode("utf-8"))
    assert "bad\\x00byte\\x1b[0m\\ufffe" in text and "\x1b" not in text


def test_deterministic(any_record: RunRecord) -> None:
    again = RunRecord.model_validate_json(any_record.model_dump_json())
    assert render_junit(any_record) == render_junit(again)
    assert render_junit(any_record).startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
