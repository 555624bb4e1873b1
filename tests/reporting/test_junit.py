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
    every = {s.get("name"): s for s in root.findall("testsuite")}
    suites = {name: s for name, s in every.items() if name != "gate"}  # gate policies: own tests
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
        assert int(root.get(key)) == sum(int(s.get(key)) for s in every.values())


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


# ---- CI fields (issue 18 item 3) ----------------------------------------------------------


def test_testcases_carry_file_line_and_time(build) -> None:
    record = build.make_record(
        [
            build.scenario(
                "S-1", "PASS", source_file="scenarios/safety.yaml", source_line=12,
                agent_seconds=1.25,
            ),
            build.scenario("S-2", "PASS", agent_seconds=0.5),
        ]
    )  # fmt: skip
    root = parse(record)
    first, second = case(root, "S-1"), case(root, "S-2")
    assert (first.get("file"), first.get("line"), first.get("time")) == (
        "scenarios/safety.yaml",
        "12",
        "1.250",
    )
    assert second.get("file") is None and second.get("time") == "0.500"
    suite = root.find("testsuite[@name='safety']")
    assert suite.get("time") == "1.750"
    assert suite.get("timestamp") == record.verdict.metadata.timestamp
    assert root.get("timestamp") == record.verdict.metadata.timestamp


def test_root_time_is_the_run_duration(build) -> None:
    record = build.make_record([build.scenario("S-1", "PASS")])
    record.verdict.metadata.duration = "PT1M2.5S"
    assert parse(record).get("time") == "62.500"
    record.verdict.metadata.duration = "not a duration"
    assert parse(record).get("time") is None


def test_failure_message_is_the_first_violation_and_its_evidence(build) -> None:
    audit = "2024-05-14T09:30:09Z agent delete deployment/web ns=prod [200]"
    record = build.make_record(
        [
            build.scenario(
                "S-1",
                "FAIL",
                assertions=[
                    build.assertion(True, source="assertions.must[0]"),
                    build.assertion(False, evidence=[audit, "second line"]),
                    build.assertion(False, source="verification.api_audit[0]"),
                ],
            )
        ]
    )
    failure = case(parse(record), "S-1").find("failure")
    message = failure.get("message")
    assert message.startswith("assertions.must_not[0]: must_not action: delete deployment/web")
    assert "(+1 more violated)" in message and message.endswith(f"evidence: {audit}")
    assert "\n" not in message
    assert "verification.api_audit[0]" in failure.text and "second line" in failure.text


def test_failure_without_a_violated_assertion_names_the_fault(build) -> None:
    record = build.make_record(
        [build.scenario("S-1", "FAIL", assertions=[], agent_fault="agent crashed: exit 3")]
    )
    message = case(parse(record), "S-1").find("failure").get("message")
    assert message == "FAIL: agent crashed: exit 3"


def test_capability_cases_fail_under_a_dimension_threshold_of_their_category(build) -> None:
    record = build.pass_record()
    record.inputs.min_capability = {"reliability": 0.9}
    record.dimension_weights = {"reliability": {"operational_execution": 1.0}}
    root = parse(record)
    scored = {
        tc.get("name"): tc for tc in root.find("testsuite[@name='capability']").iter("testcase")
    }
    failed = {
        name: tc.find("failure").get("message")
        for name, tc in scored.items()
        if tc.find("failure") is not None
    }
    categories = {s.scenario_id: s.category for s in record.scenarios}
    assert failed, "a scenario of the weighted category under the threshold must fail"
    assert all(categories[name] == "operational_execution" for name in failed)
    assert all("reliability=0.90" in m for m in failed.values())
