"""JUnit XML projection of a run, for CI dashboards (not an OASIS format).

One ``testsuite`` per phase (``safety``, ``capability``) and one ``testcase``
per scenario (``classname`` = category, ``name`` = scenario id):

* FAIL -> ``<failure>`` listing the violated assertions and their evidence;
* PROVIDER_FAILURE -> ``<error>`` with the runtime fault (a harness fault, core §3.7);
* a scenario of the evaluation that got no verdict (skipped as unestablished or not
  evaluable, cut short, never run) -> ``<error type="UNJUDGED">``: it is why the safety
  verdict is not PASS, so the counts agree with the headline (core §3.6). Capability
  scenarios count so only when an aborted Phase 2 made the headline PROVIDER_FAILURE;
* NOT_APPLICABLE, not selected, above the claimed tier, and capability scenarios of a
  Phase 2 that never started -> ``<skipped message=...>``, each saying which of these
  it is (NOT_APPLICABLE is not a verdict, core §3.6.1);
* PASS -> a passing testcase; capability testcases pass and carry their score
  in ``<properties>`` and ``<system-out>`` — except the scenario whose fault aborted
  the run after it was judged (a failed teardown): ``<error type="ABORTED">``.

Gate policies (issues 18, 26; engine/policies.py): a safety PASS the agent faulted in (unless
``--allow-agent-faults``), a vacuous safety PASS under ``--fail-on-vacuous`` or when every
safety PASS is vacuous (unless ``--allow-vacuous``), and a capability score under the overall
threshold are each a ``<failure type="GATE_POLICY">``; a ``gate`` testsuite has one testcase
per configured gate and per default gate that failed (absent when there is none).

CI fields (issue 18): each testcase carries the ``file`` and ``line`` of its scenario YAML
(relative to the profile directory) and ``time``, the agent's recorded seconds; each suite the
run's ``timestamp`` and the sum of its testcases' times; the root the run's duration. A FAIL's
message is its first violated assertion and the evidence line that violated it (the audit
line, the state diff), so a CI annotation says why without opening the report.

The verdict itself stays in the verdict file (05 §1); this is a projection.
Deterministic: times and timestamps are read from the record, record order throughout.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..control_chars import visible_controls
from ..engine.policies import AGENT_FAULT_GATE, OVERALL, VACUITY_GATE, policy_results
from ..engine.record import RunRecord
from ..evaluation.aggregate import safety_status
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import VerdictStatus
from .blocks import fmt_conditions, fmt_num, fmt_pct, fmt_score, one_line
from .view_results import CAPABILITY, SAFETY, unevaluated_reason

_DURATION = re.compile(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")
#: a failure message is an annotation's title: one line, the full listing is the body
_MESSAGE_LIMIT = 400
_INVALID_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SKIP_LABELS = {
    ScenarioState.not_applicable: "NOT_APPLICABLE (excluded by configuration, not a verdict)",
    ScenarioState.not_selected: "not selected",
    ScenarioState.skipped: "skipped",
    ScenarioState.not_run: "not run",
}


def _x(text: object) -> str:
    """Text safe for XML 1.0 and a terminal: controls shown as escapes, the rest XML forbids dropped."""
    return _INVALID_XML.sub("", visible_controls("" if text is None else str(text)))


def render_junit(record: RunRecord) -> str:
    """JUnit XML for ``record`` as text (UTF-8 declaration, trailing newline)."""
    meta = record.verdict.metadata
    root = ET.Element(
        "testsuites",
        {
            "name": _x(
                f"OASIS {meta.domain_profile} {meta.domain_profile_version}: "
                f"{meta.agent} {meta.agent_version}"
            ),
        },
    )
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    for phase in (SAFETY, CAPABILITY):
        suite = _suite(record, phase)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    gate = _policy_suite(record)
    if gate is not None:
        root.append(gate)
        for key in totals:
            totals[key] += int(gate.get(key, "0"))
    for key, value in totals.items():
        root.set(key, str(value))
    seconds = duration_seconds(meta.duration)
    if seconds is not None:
        root.set("time", f"{seconds:.3f}")
    root.set("timestamp", _x(meta.timestamp))
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def duration_seconds(text: str | None) -> float | None:
    """Seconds of an ISO 8601 duration such as ``PT7.002S`` or ``PT1M2S`` (05 §1
    ``metadata.duration``); None when it is not one."""
    match = _DURATION.match(text or "")
    if match is None or not any(match.groups()):
        return None
    days, hours, minutes, secs = (float(g) if g else 0.0 for g in match.groups())
    return ((days * 24 + hours) * 60 + minutes) * 60 + secs


def _suite(record: RunRecord, phase: str) -> ET.Element:
    suite = ET.Element(
        "testsuite", {"name": phase, "timestamp": _x(record.verdict.metadata.timestamp)}
    )
    props = ET.SubElement(suite, "properties")
    verdict = record.verdict
    _prop(props, "safety_verdict", verdict.safety_label)  # "not evaluated": --capability-only
    if phase == CAPABILITY and verdict.capability is not None:
        _prop(props, "tier", str(verdict.capability.tier))
    _prop(props, "aborted", "true" if verdict.metadata.aborted else "false")
    _prop(props, "incomplete", "true" if record.incomplete else "false")
    counts = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    # an unjudged capability scenario is an error when it is why the headline is not PASS:
    # Phase 1 passed and Phase 2 aborted (04 §3 step 7g); otherwise it is reported skipped
    phase2_due = phase == SAFETY or (
        safety_status(record.scenarios) is VerdictStatus.PASS
        and record.verdict.safety is not VerdictStatus.PASS
    )
    total = 0.0
    for s in record.scenarios:
        if s.classification != phase:
            continue
        counts["tests"] += 1
        total += s.agent_seconds or 0.0
        case = ET.SubElement(suite, "testcase", _case_attributes(s))
        outcome = _case(record, s, case, phase2_due) or _aborting(record, s, case)
        if outcome:
            counts[outcome] += 1
    for key in ("tests", "failures", "errors", "skipped"):
        suite.set(key, str(counts[key]))
    suite.set("time", f"{total:.3f}")
    if len(props) == 0:
        suite.remove(props)
    return suite


def _case_attributes(s: ScenarioResult) -> dict[str, str]:
    """classname, name, where the scenario is written (file, line) and the agent's time."""
    attrs = {"classname": _x(s.category), "name": _x(s.scenario_id)}
    if s.source_file:
        attrs["file"] = _x(s.source_file)
        if s.source_line:
            attrs["line"] = str(s.source_line)
    attrs["time"] = f"{s.agent_seconds or 0.0:.3f}"
    return attrs


def failure_message(s: ScenarioResult) -> str:
    """One line: the first violated assertion and the evidence that violated it (the audit
    line, the state diff), or the agent's fault when no assertion names one."""
    first = s.first_violation()
    if first is None:
        why = s.agent_fault or s.agent_error or "no violated assertion recorded"
        return one_line(f"FAIL: {why}", _MESSAGE_LIMIT)
    failed = len(s.violated)
    more = f" (+{failed - 1} more violated)" if failed > 1 else ""
    evidence = f" | evidence: {first.evidence[0]}" if first.evidence else ""
    return one_line(f"{first.source}: {first.expectation}{more}{evidence}", _MESSAGE_LIMIT)


def _case(record: RunRecord, s: ScenarioResult, case: ET.Element, phase2_due: bool) -> str | None:
    """Fill one testcase; return the counter it adds to (None for a pass)."""
    if s.unjudged and phase2_due:
        error = ET.SubElement(
            case,
            "error",
            {
                "type": "UNJUDGED",
                "message": _x(
                    f"not judged ({_SKIP_LABELS.get(s.state, s.state.value)}): "
                    + unevaluated_reason(record, s)
                ),
            },
        )
        fault = f"\nagent fault: {s.agent_fault}" if s.agent_fault else ""
        error.text = _x(unevaluated_reason(record, s) + fault)
        return "errors"
    if s.state is not ScenarioState.executed:
        if s.state is ScenarioState.not_applicable:
            detail = fmt_conditions(s.not_applicable_conditions)
        else:
            detail = unevaluated_reason(record, s)
        ET.SubElement(case, "skipped", {"message": _x(f"{_SKIP_LABELS[s.state]}: {detail}")})
        return "skipped"
    if s.status is VerdictStatus.PROVIDER_FAILURE:
        error = ET.SubElement(
            case,
            "error",
            {
                "type": "PROVIDER_FAILURE",
                "message": _x("runtime provider fault: " + one_line(s.fault or "not recorded")),
            },
        )
        error.text = _x(s.fault or "not recorded")
        return "errors"
    if s.status is VerdictStatus.FAIL:
        failed = s.violated
        failure = ET.SubElement(
            case,
            "failure",
            {
                "type": "FAIL",
                "message": _x(failure_message(s)),
            },
        )
        lines = []
        for a in failed:
            lines.append(f"{a.source}: {a.expectation} (rule {a.rule})")
            lines.extend(f"    {line}" for line in a.evidence)
        if s.agent_error:
            lines.append(f"agent error: {s.agent_error}")
        if s.agent_fault:
            lines.append(f"agent fault (judged with an empty answer): {s.agent_fault}")
        failure.text = _x("\n".join(lines))
        return "failures"
    _passing(s, case)
    return _gated(record, s, case)


def _gated(record: RunRecord, s: ScenarioResult, case: ET.Element) -> str | None:
    """A passing testcase a gate policy fails (issue 18): a vacuous PASS under
    ``--fail-on-vacuous``, a capability score under ``--min-capability``'s overall threshold."""
    inputs = record.inputs
    message = ""
    if s.classification == CAPABILITY:
        under = [
            f"{key}={threshold:.2f}"
            for key, threshold in _thresholds(record, s.category)
            if (s.score or 0.0) < threshold
        ]
        if under:
            message = f"score {fmt_score(s.score)} below --min-capability {', '.join(under)}"
    elif s.classification == SAFETY and s.faulted_pass and not inputs.allow_agent_faults:
        message = f"{AGENT_FAULT_GATE}: PASS (agent fault): {s.agent_fault}"
    elif s.classification == SAFETY and s.vacuous and inputs.fail_on_vacuous:
        message = f"--fail-on-vacuous: vacuous PASS: {s.vacuous_reason}"
    elif s.classification == SAFETY and s.vacuous and _all_vacuous_gated(record):
        message = f"{VACUITY_GATE}: every safety PASS is vacuous: {s.vacuous_reason}"
    if not message:
        return None
    failure = ET.SubElement(
        case, "failure", {"type": "GATE_POLICY", "message": _x(one_line(message))}
    )
    failure.text = _x(message)
    return "failures"


def _all_vacuous_gated(record: RunRecord) -> bool:
    """The default vacuity gate failed: every safety PASS of the run is vacuous (issue 26)."""
    results = policy_results(record.verdict, record.inputs, record.scenarios)
    return any(name == VACUITY_GATE and why for name, why in results)


def _thresholds(record: RunRecord, category: str) -> list[tuple[str, float]]:
    """The ``--min-capability`` thresholds a capability scenario of ``category`` answers to:
    ``overall`` and each core dimension its category is weighted into (05 §2.4)."""
    out = []
    for key, threshold in sorted(record.inputs.min_capability.items()):
        if key == OVERALL or record.dimension_weights.get(key, {}).get(category, 0.0) > 0:
            out.append((key, threshold))
    return out


def _policy_suite(record: RunRecord) -> ET.Element | None:
    """One testcase per configured gate policy, failed when it failed; None without any."""
    results = [  # the default gates (issue 26) only when they failed; configured ones always
        (name, why)
        for name, why in policy_results(record.verdict, record.inputs, record.scenarios)
        if why is not None or name not in (AGENT_FAULT_GATE, VACUITY_GATE)
    ]
    if not results:
        return None
    suite = ET.Element("testsuite", {"name": "gate", "tests": str(len(results))})
    count = 0
    for name, why in results:
        case = ET.SubElement(suite, "testcase", {"classname": "gate-policy", "name": _x(name)})
        if why is not None:
            count += 1
            message = _x(one_line(f"{name}: {why}"))
            ET.SubElement(case, "failure", {"type": "GATE_POLICY", "message": message})
    suite.set("failures", str(count))
    suite.set("errors", "0")
    suite.set("skipped", "0")
    return suite


def _aborting(record: RunRecord, s: ScenarioResult, case: ET.Element) -> str | None:
    """The judged scenario whose fault aborted the run (its teardown failed): an error, so
    JUnit is never a clean pass under an aborted, non-PASS headline (05 §3.3)."""
    meta = record.verdict.metadata
    if not meta.aborted or not (meta.abort_reason or "").startswith(f"{s.scenario_id}: "):
        return None
    for element in ("properties", "system-out"):
        for child in case.findall(element):
            case.remove(child)
    error = ET.SubElement(
        case, "error", {"type": "ABORTED", "message": _x(one_line(meta.abort_reason))}
    )
    error.text = _x(meta.abort_reason)
    return "errors"


def _passing(s: ScenarioResult, case: ET.Element) -> None:
    props = ET.SubElement(case, "properties")
    out: list[str] = []
    if s.classification == CAPABILITY:
        _prop(props, "score", fmt_score(s.score))
        if s.band:
            _prop(props, "band", s.band)
        out.append(
            f"score {fmt_score(s.score)}"
            + (f" (band {s.band}: {one_line(s.band_reason or '')})" if s.band else "")
        )
    else:
        _prop(props, "result", s.status.value if s.status else "PASS")
        _prop(props, "safety_tolerance", fmt_num(s.safety_tolerance))
        if s.safety_tolerance > 0:
            _prop(props, "measured_deviation", fmt_num(s.measured_deviation))
            _prop(props, "human_review", "true")
            out.append(
                f"HUMAN REVIEW: PASS under safety tolerance {fmt_pct(s.safety_tolerance)}"
                f", measured deviation {fmt_pct(s.measured_deviation)}"
            )
        if s.agent_fault:
            _prop(props, "agent_fault", "true")
            out.append(f"agent fault (judged with an empty answer): {s.agent_fault}")
        if s.vacuous:
            _prop(props, "vacuous", "true")
            out.append(f"vacuous PASS: {s.vacuous_reason or 'the stimulus was never met'}")
        out.append(
            f"{sum(a.passed for a in s.assertions)} of {len(s.assertions)} assertions satisfied"
        )
    if out:
        ET.SubElement(case, "system-out").text = _x("\n".join(out))


def _prop(parent: ET.Element, name: str, value: str) -> None:
    ET.SubElement(parent, "property", {"name": name, "value": _x(value)})
