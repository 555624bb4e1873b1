"""RunRecord -> report view: the content of an OASIS evaluation report (spec 05 §2).

:func:`build_view` is computed once per record and fed to both the Markdown
and the HTML renderer, so the two formats always say the same thing. It is a
pure function of the record (no clock, no environment), so a record always
yields the same view.

Order (issue 19: the report answers first): header (verdict, vacuous passes, gate
policy, INCOMPLETE / ABORTED labels), the failures with their evidence
(:mod:`.view_first`), charts, notices (profile defects, run warnings), contents; then
every 05 §2 section: safety summary (§2.3), capability summary (§2.4, only with a
``capability`` block), coverage matrix (§2.5), scenario detail (§2.6), adversarial
verification (§2.7, only when performed), the conformance claim (§3.2, §3.3),
environment (§2.2) and report metadata with the preflight check (§2.1) last.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine.policies import policy_failures
from ..engine.record import RunRecord
from ..exit_codes import EXIT_POLICY
from ..spec.common import CoreDimension, VerdictStatus
from .blocks import (
    STATUS_TONES,
    Block,
    Cell,
    bullets,
    callout,
    cell,
    code,
    code_block,
    fmt_score,
    fmt_value,
    kv,
    one_line,
    para,
    section,
    table,
    toc,
    yes_no,
)
from .view_adversarial import adversarial_section
from .view_capability import capability_section
from .view_coverage import coverage_section
from .view_detail import claim_section, detail_section
from .view_first import failures_section, glance_section
from .view_safety import safety_section

View = dict[str, Any]


def build_view(record: RunRecord) -> View:
    """The whole report as plain data: ``title``, ``subtitle``, ``header``, ``sections``.

    Answers first (issue 19): the verdict, each failure with its evidence, the charts,
    the notices and a table of contents; then the 05 §2 sections with the run's metadata
    (environment, report metadata, preflight) last.
    """
    meta = record.verdict.metadata
    first = [failures_section(record), glance_section(record), _notices(record)]
    sections = [
        safety_section(record),
        capability_section(record),
        coverage_section(record),
        detail_section(record),
        adversarial_section(record),
        claim_section(record),
        _environment_section(record),
        _metadata_section(record),
    ]
    body = [s for s in sections if s is not None]
    lead = [s for s in first if s is not None]
    return {
        "title": f"OASIS evaluation report: {meta.agent} {meta.agent_version}",
        "subtitle": (
            f"Domain profile {meta.domain_profile} {meta.domain_profile_version} · "
            f"OASIS core {meta.oasis_core_version} · run {record.run_id}"
        ),
        "verdict": record.verdict.safety_label,
        "header": _header(record),
        "sections": [*lead, _contents(lead + body), *body],
    }


def _contents(sections: list[Block]) -> Block:
    """Links to every section and its sub-sections (scenario entries excepted: too many)."""
    entries = []
    for top in sections:
        subs = [(b["id"], b["title"]) for b in top["blocks"] if b["kind"] == "section"]
        entries.append((top["id"], top["title"], [] if top["id"] == "detail" else subs))
    return section("contents", "Contents", [toc(entries)])


def _notices(record: RunRecord) -> Block | None:
    """Profile defects and run warnings: after the failures, before the charts."""
    defects = [w for w in record.warnings if is_profile_defect(w)]
    others = [w for w in record.warnings if not is_profile_defect(w)]
    blocks: list[Block] = []
    if defects:
        blocks.append(
            callout(
                "warn",
                "Profile defects",
                [
                    cell(
                        "The domain profile did not pass validation. The run went ahead; results that "
                        "depend on the defective parts of the profile should be read with care.",
                        strong=True,
                    ),
                    *[cell(w) for w in defects],
                ],
            )
        )
    if others:
        blocks.append(callout("warn", "Run warnings", [cell(w) for w in others]))
    if not blocks:
        return None
    return section("notices", "Notices", blocks)


def _vacuous_callout(record: RunRecord) -> list[Block]:
    """Vacuous PASSes right under the banner (issue 18): a PASS that tested nothing is loud."""
    vacuous = record.verdict.safety_details.vacuous_passes
    if vacuous is None:
        return []
    d = record.verdict.safety_details
    title = f"VACUOUS: {vacuous.count} of {d.passed} PASS {'are' if vacuous.count != 1 else 'is'} vacuous"
    items: list[Cell] = [
        "The agent never met these scenarios' stimulus (the injected carrier, the objects "
        "the assertions are about): nothing it did was forbidden, but nothing was tested. "
        "The verdict stands; --fail-on-vacuous makes a gate fail on it."
    ]
    items += [cell(one_line(f"{v.scenario_id}: {v.reason}")) for v in vacuous.scenarios]
    return [callout("warn", title, items)]


def _header(record: RunRecord) -> list[Block]:
    verdict = record.verdict
    meta = verdict.metadata
    status = verdict.safety_label
    d = verdict.safety_details
    items: list[Cell] = [
        f"{d.applicable} applicable safety scenarios: {d.passed} PASS, {d.failed} FAIL, "
        f"{d.provider_failure} PROVIDER_FAILURE ({d.not_applicable} NOT_APPLICABLE)."
    ]
    if verdict.safety is None:  # --capability-only (issue 29 item 2)
        items.insert(0, f"Safety not evaluated: {verdict.incomplete}.")
    if verdict.capability is not None:
        dims = verdict.capability.core_dimensions
        scores = ", ".join(
            f"{dim.value} {fmt_score(getattr(dims, dim.value))}" for dim in CoreDimension
        )
        items.append(f"Capability scored at complexity tier {verdict.capability.tier}: {scores}.")
    else:
        items.append(
            "No capability scores: Phase 2 runs only after a safety PASS"
            + (
                " and this run was safety-only."
                if record.inputs.safety_only and verdict.safety is VerdictStatus.PASS
                else "."
            )
        )
    if verdict.safety is VerdictStatus.PROVIDER_FAILURE:
        items.append(
            "PROVIDER_FAILURE means the evaluation harness failed at runtime; it says "
            "nothing about the agent. Investigate the fault and rerun."
        )
    if verdict.adversarial_verification is not None:
        items.append(
            "Adversarial verification was performed; its results are reported "
            "separately and do not change this verdict."
        )
    failed = policy_failures(record.verdict, record.inputs, record.scenarios)
    gated = failed and verdict.safety is VerdictStatus.PASS
    title = f"Safety verdict: {status}"
    if gated:  # never a bare green PASS (issue 26): the gate's outcome beside the verdict
        title += f" · gate FAILED (exit {EXIT_POLICY}): no conformance claim"
    blocks = [callout("warn" if gated else STATUS_TONES.get(status, "warn"), title, items)]
    blocks[0]["banner"] = True
    blocks.extend(_vacuous_callout(record))
    if failed:
        blocks.append(
            callout(
                "fail",
                f"GATE POLICY FAILED (exit {EXIT_POLICY}): the verdict stands, the gate does not",
                [cell(one_line(f)) for f in failed],
            )
        )
    if record.incomplete:
        blocks.append(
            callout(
                "warn",
                "INCOMPLETE: this evaluation is not a conformance claim",
                [cell(r) for r in record.incomplete_reasons],
            )
        )
    if meta.aborted:
        blocks.append(
            callout(
                "pf",
                "ABORTED: the run stopped on a runtime provider fault",
                [
                    cell(one_line(meta.abort_reason or "no abort reason recorded"), strong=True),
                    "The results below are what was observed before the abort. Treat this run as a "
                    "prompt to investigate the harness, not as a clean evaluation of the agent.",
                ],
            )
        )
    return blocks


def is_profile_defect(warning: str) -> bool:
    """Whether a verdict warning reports a profile defect (listed apart from agent findings)."""
    return warning.strip().lower().startswith("profile defect")


def _metadata_section(record: RunRecord) -> Block:
    meta = record.verdict.metadata
    env = meta.environment
    rows: list[tuple[str, Cell]] = [
        ("Agent under test", cell(f"{meta.agent} {meta.agent_version}", strong=True)),
    ]
    if record.agent_description:
        rows.append(("Agent description", one_line(record.agent_description)))
    if record.agent_declared_mode:
        rows.append(("Declared operating mode", code(record.agent_declared_mode)))
    if record.agent_declared_tools is not None:
        rows.append(("Declared tools", ", ".join(record.agent_declared_tools) or "none"))
    rows += [
        ("Evaluator", meta.evaluator),
        ("Date of evaluation", meta.timestamp),
        ("Duration", meta.duration),
        ("OASIS core version", meta.oasis_core_version),
        ("Domain profile", f"{meta.domain_profile} {meta.domain_profile_version}"),
        ("Evaluation implementation", f"{record.implementation} {record.implementation_version}"),
        ("Environment provider", f"{env.provider} {env.provider_version}"),
        (
            "Scenarios",
            f"{meta.scenario_count.safety} safety, {meta.scenario_count.capability} capability",
        ),
        ("Run id", code(record.run_id)),
    ]
    inputs = record.inputs
    run_rows: list[tuple[str, Cell]] = [
        ("Filters", ", ".join(inputs.filters) or "none"),
        ("Safety only", yes_no(inputs.safety_only)),
        ("Parallel scenarios", str(inputs.parallel)),
        ("Agent principal", code(inputs.agent_principal)),
    ]
    defaulted = set(record.defaulted_configuration)
    config_rows = [
        [code(key), code(fmt_value(value)), _config_source(key in defaulted)]
        for key, value in meta.agent_configuration.items()
    ]
    # a defaulted dimension the verdict does not carry is still reported, never dropped
    config_rows += [
        [
            code(key),
            cell("(not in the verdict's configuration)", tone="muted"),
            _config_source(True),
        ]
        for key in record.defaulted_configuration
        if key not in meta.agent_configuration
    ]
    if defaulted:
        config_note = (
            f"{len(defaulted)} of these dimensions took the profile's default "
            "because the agent did not report them: " + ", ".join(sorted(defaulted)) + "."
        )
    else:
        config_note = "No profile default was applied: the agent reported every dimension."
    return section(
        "metadata",
        "Report metadata",
        [
            kv(rows),
            section(
                "configuration",
                "Effective agent configuration",
                [
                    para(
                        "As reported by the agent adapter, with the defaults of the profile's "
                        "configuration schema applied."
                    ),
                    table(
                        ["Dimension", "Value", "Source"],
                        config_rows,
                        empty="The agent reported no configuration dimension.",
                    ),
                    para(config_note),
                ],
            ),
            section("run-inputs", "Run options", [kv(run_rows)]),
            section(
                "preflight",
                "Preflight conformance check",
                _preflight(record),
                collapsed=True,
                note=_preflight_note(record),
            ),
        ],
    )


def _config_source(defaulted: bool) -> Cell:
    if defaulted:
        return cell("profile default (not reported by the agent)", strong=True, tone="warn")
    return "reported by the agent"


def _preflight_note(record: RunRecord) -> str:
    """The folded preflight's one line: the result and how many requirements held."""
    result = one_line(record.verdict.metadata.environment.conformance_check, 160)
    pre = record.preflight
    if pre is None or not pre.checks:
        return result
    held = sum(1 for c in pre.checks if c.satisfied)
    return f"{result} · {held} of {len(pre.checks)} requirements satisfied"


def _preflight(record: RunRecord) -> list[Block]:
    env = record.verdict.metadata.environment
    blocks: list[Block] = [para(f"Result: {one_line(env.conformance_check)}")]
    pre = record.preflight
    if pre is None:
        blocks.append(para("No per-requirement preflight detail was recorded for this run."))
        return blocks
    blocks.append(
        kv(
            [
                ("Provider", f"{pre.provider} {pre.provider_version}"),
                (
                    "OASIS core versions supported",
                    ", ".join(pre.provider_core_versions) or "not stated",
                ),
                ("Profile checked", f"{pre.profile} {pre.profile_version}"),
                (
                    "Profile supported",
                    cell(
                        yes_no(pre.supported), strong=True, tone="pass" if pre.supported else "fail"
                    ),
                ),
            ]
        )
    )
    rows = [
        [
            c.requirement,
            c.expected,
            c.declared,
            cell("satisfied", tone="pass")
            if c.satisfied
            else cell("NOT satisfied", strong=True, tone="fail"),
            one_line(c.detail) or "-",
        ]
        for c in pre.checks
    ]
    blocks.append(
        table(
            ["Requirement", "Expected", "Declared by provider", "Result", "Detail"],
            rows,
            empty="The profile declares no conformance requirement.",
        )
    )
    if pre.simulated:
        blocks.append(
            callout(
                "info",
                "Simulated environment",
                [
                    "The environment provider reports that the environment it supplied is simulated: "
                    "the agent acted on a stand-in for the real system, not on the real system itself.",
                ],
            )
        )
    return blocks


def _environment_section(record: RunRecord) -> Block:
    env = record.verdict.metadata.environment
    inputs = record.inputs
    tier_text = f"Tier {inputs.claimed_tier}"
    if env.tier != inputs.claimed_tier:
        tier_text += f" (the verdict records tier {env.tier})"
    blocks: list[Block] = [
        kv(
            [
                ("Complexity tier claimed", cell(tier_text, strong=True)),
                ("Lab framework", inputs.lab_framework or "none"),
                ("Context tags", ", ".join(inputs.context_tags) or "none"),
                ("Tier evidence (summary)", one_line(env.tier_evidence) or "none"),
            ]
        )
    ]
    blocks.append(para("Environment characteristics:"))
    blocks.append(
        bullets([cell(c) for c in inputs.environment_characteristics])
        if inputs.environment_characteristics
        else para("None stated by the evaluator.")
    )
    if record.tier_evidence:
        lines = _evidence_lines(record.tier_evidence)
        blocks.append(
            section(
                "tier-evidence",
                "Tier evidence reported by the provider",
                [code_block(lines)],
                collapsed=True,
                note=f"{len(lines)} lines",
            )
        )
    return section("environment", "Environment", blocks)


def _evidence_lines(evidence: dict[str, Any] | str) -> list[str]:
    if isinstance(evidence, str):
        return evidence.splitlines() or [""]
    return json.dumps(evidence, indent=2, ensure_ascii=False, default=str).splitlines()


__all__ = ["View", "build_view"]
