"""The adversarial verification section (05 §2.7, 07 §6): separate from the core verdict.

Built from the verdict's ``adversarial_verification`` block (07 §6.1) and, when
the run record has it, the phase detail (``record.adversarial``): the
generator's full method declaration (07 §3.1), every probe with its result,
why a probe was not executed, a phase cut short by a provider fault, and the
reserved-scenario summary with coverage stated with and without them (07 §5.3).
Reserved scenarios appear as counts only. The section is marked ``separate``
so both layouts set it apart, and it opens with our reading of 07 §6.2.
"""

from __future__ import annotations

from ..engine.adversarial_record import AdversarialDetail, CoverageStatement, ProbeOutcome
from ..engine.plugin_watch import judgement_fault
from ..engine.record import RunRecord
from ..evaluation.results import ScenarioState
from ..spec.verdict import AdversarialVerification
from .blocks import (
    Block,
    Cell,
    bullets,
    callout,
    cell,
    code,
    fmt_score,
    kv,
    one_line,
    para,
    section,
    status_cell,
    table,
    yes_no,
)

#: our own reading of 07 §6.2 (the report must carry that note or an equivalent)
ADVERSARIAL_NOTE = [
    "The probes in this section are generated anew for each evaluation, so their results are "
    "not deterministic: the numbers change from one run to the next and cannot be compared "
    "between evaluations.",
    "They do not alter the safety verdict or the capability scores above: those come from the "
    "fixed scenario corpus and are the repeatable outcome of this evaluation.",
    "A clean probe run adds some confidence. A probe that breached a safety boundary is a "
    "finding to investigate: it suggests the agent's safe behaviour may not carry over to "
    "situations the fixed scenarios do not cover.",
]
TITLE = "Adversarial verification (separate from the core verdict)"


def adversarial_section(record: RunRecord) -> Block | None:
    """The adversarial-verification section (07), or None when the run had none."""
    adv = record.verdict.adversarial_verification
    detail = record.adversarial
    if adv is None and detail is None:
        return None
    blocks: list[Block] = [callout("info", "How to read this section", list(ADVERSARIAL_NOTE))]
    if adv is None or not adv.performed:
        reason = detail.not_performed_reason if detail is not None else None
        blocks.append(
            para(
                cell(
                    "Adversarial verification was not performed"
                    + (f": {one_line(reason)}" if reason else "."),
                    strong=True,
                )
            )
        )
        return section("adversarial", TITLE, blocks, separate=True)
    if adv.aborted:
        blocks.append(
            callout(
                "pf",
                "The adversarial phase was cut short",
                [
                    cell(one_line(adv.abort_reason or "no reason recorded"), strong=True),
                    "A runtime provider fault ended this phase only: the core evaluation above is "
                    "complete and unchanged. Probes after the fault were not run.",
                ],
            )
        )
    if adv.judgement_faults:
        blocks.append(_faulted(adv.judgement_faults))
    blocks.append(_generator(adv, detail))
    blocks.append(_summary(adv, detail))
    blocks.append(_safety(adv))
    blocks.append(_capability(adv))
    if detail is not None and detail.probes:
        blocks.append(_probes(detail))
    if adv.reserved_scenarios is not None or (detail is not None and detail.reserved is not None):
        blocks.append(_reserved(adv, detail))
    return section("adversarial", TITLE, blocks, separate=True)


def _faulted(faults: list[str]) -> Block:
    """The judgements a plugin faulted: a harness fault, loud, never a PASS or a FAIL."""
    return callout(
        "pf",
        "A behavior evaluator plugin faulted: these were not judged (exit code 4)",
        [
            *[cell(one_line(f), strong=True) for f in faults],
            "A harness fault, not a finding about the agent: neither passed nor failed, and not "
            "counted below. The core evaluation above is complete and unchanged (07 §4.3); fix "
            "the plugin and run again.",
        ],
    )


def _generator(adv: AdversarialVerification, detail: AdversarialDetail | None) -> Block:
    gen = adv.generator
    rows: list[tuple[str, Cell]] = []
    if detail is not None and detail.generator_name:
        rows.append(("Generator", code(detail.generator_name)))
    elif detail is not None and detail.method is None:
        rows.append(("Generator", "none: reserved scenarios only"))
    rows += [
        ("Type", gen.type.value),
        ("Model / tool", gen.model or "not declared"),
        ("Reproducibility", gen.reproducibility.value),
        ("Configuration hash", code(gen.config_hash) if gen.config_hash else "not declared"),
    ]
    method = detail.method if detail is not None else None
    if method is not None:
        for label, value in (
            ("Base scenario set", method.base_scenario_set),
            ("Mutation strategy", method.strategy),
            ("Team size", None if method.team_size is None else str(method.team_size)),
            ("Team expertise", method.team_expertise),
            ("Approach", method.description),
        ):
            if value:
                rows.append((label, one_line(value)))
    if detail is not None and detail.method is not None:
        rows += [
            ("Target archetypes", ", ".join(detail.archetypes) or "every safety archetype"),
            ("Probes requested", str(detail.requested)),
            ("Seed", "-" if detail.seed is None else str(detail.seed)),
            ("Generator options", ", ".join(detail.option_keys) or "none"),
        ]
    blocks: list[Block] = [kv(rows)]
    if detail is not None and detail.generation_notes:
        blocks += [
            para("The generator reported:"),
            bullets([cell(n) for n in detail.generation_notes]),
        ]
    return section("adversarial-generator", "Generator", blocks)


def _summary(adv: AdversarialVerification, detail: AdversarialDetail | None) -> Block:
    probes = adv.probe_summary
    rows: list[tuple[str, Cell]] = [
        ("Total probes", str(probes.total_probes)),
        ("Safety probes", str(probes.safety_probes)),
        ("Capability probes", str(probes.capability_probes)),
        (
            "Composition probes",
            "-" if probes.composition_probes is None else str(probes.composition_probes),
        ),
    ]
    blocks: list[Block] = []
    if detail is not None and detail.probes:
        unjudged = [p for p in detail.probes if not p.judged]
        rows.append(("Probes without a verdict or score", str(len(unjudged))))
    blocks.append(kv(rows))
    blocks.append(
        para(
            "Each probe is attributed to its primary archetype, whose category makes it a "
            "safety probe (PASS or FAIL) or a capability probe (scored); secondary "
            "archetypes are recorded for analysis only (07 §4.4)."
        )
    )
    if detail is not None and detail.rejected:
        blocks += [
            para("Generated probes that were not executed as they stood:"),
            bullets([cell(one_line(r)) for r in detail.rejected]),
        ]
    return section("adversarial-probes", "Probe summary", blocks)


def _safety(adv: AdversarialVerification) -> Block:
    res = adv.safety_results
    headline = (
        callout(
            "fail",
            "Adversarial probes found a safety violation.",
            [
                "This does not change the core safety verdict. Review the serialized probes below; "
                "they are candidates for the deterministic corpus once refined (07 §6.3, §7.2)."
            ],
        )
        if res.any_safety_violation
        else callout("pass", "No adversarial safety probe found a violation.")
    )
    rows = [
        [
            code(f.primary_archetype),
            ", ".join(f.secondary_archetypes) or "-",
            one_line(f.description),
            code(f.probe_serialized),
        ]
        for f in res.failures
    ]
    return section(
        "adversarial-safety",
        "Safety probe results",
        [
            headline,
            kv(
                [
                    ("Any safety violation", yes_no(res.any_safety_violation)),
                    ("Probes judged", str(res.total)),
                    ("Passed", str(res.passed)),
                    ("Failed", str(res.failed)),
                ]
            ),
            table(
                ["Primary archetype", "Secondary archetypes", "Description", "Serialized probe"],
                rows,
                empty="No failed safety probe.",
            ),
        ],
    )


def _capability(adv: AdversarialVerification) -> Block:
    res = adv.capability_results
    rows = [
        [code(arch), str(score.probes), fmt_score(score.mean)]
        for arch, score in (res.per_archetype or {}).items()
    ]
    return section(
        "adversarial-capability",
        "Capability probe results",
        [
            kv([("Probes scored", str(res.total)), ("Mean score", fmt_score(res.mean_score))]),
            table(
                ["Archetype", "Probes", "Mean score"], rows, empty="No capability probe was scored."
            ),
        ],
    )


def _outcome_cell(p: ProbeOutcome) -> Cell:
    r = p.result
    if judgement_fault(r) is not None:
        return cell("not judged: plugin fault", strong=True, tone="pf")
    if r.state is ScenarioState.executed and r.status is not None:
        return status_cell(r.status.value)
    if r.state is ScenarioState.executed and r.score is not None:
        return cell(fmt_score(r.score), strong=True)
    return cell(r.state.value.replace("_", " "), tone="muted")


def _probes(detail: AdversarialDetail) -> Block:
    rows = []
    for p in detail.probes:
        r = p.result
        why = (
            r.skip_reason
            or r.fault
            or (
                ", ".join(f"{k}={v}" for k, v in r.not_applicable_conditions.items())
                if r.not_applicable_conditions
                else ""
            )
        )
        rows.append(
            [
                code(p.probe.scenario.id),
                p.classification,
                code(p.probe.primary_archetype),
                ", ".join(p.probe.secondary_archetypes) or "-",
                _outcome_cell(p),
                one_line(why, 240) or one_line(p.probe.description, 240),
            ]
        )
    return section(
        "adversarial-probe-list",
        "Probes",
        [
            table(
                ["Probe", "Classification", "Primary archetype", "Secondary", "Result", "Note"],
                rows,
            ),
            para(
                "Probe evidence is in the run directory under probes/evidence/; `oasis replay` judges "
                "it again."
            ),
        ],
    )


def _coverage(statement: CoverageStatement) -> str:
    parts = [
        "safety: complete"
        if not statement.safety_gaps
        else f"safety: {len(statement.safety_gaps)} categor{'y' if len(statement.safety_gaps) == 1 else 'ies'} "
        "below the minimum"
    ]
    cap = statement.capability
    if cap is not None:
        parts.append(
            f"capability: {cap.evaluated_archetypes} archetype(s) evaluated, {cap.required_archetypes} "
            f"required at the claimed tier ({'complete' if cap.complete else 'incomplete'})"
        )
    return "; ".join(parts)


def _reserved(adv: AdversarialVerification, detail: AdversarialDetail | None) -> Block:
    counts = adv.reserved_scenarios
    rows: list[tuple[str, Cell]] = []
    if counts is not None:
        rows += [
            ("Executed", str(counts.executed)),
            ("Passed", str(counts.passed)),
            ("Failed", str(counts.failed)),
        ]
    info = detail.reserved if detail is not None else None
    if info is not None and info.faulted:
        rows.append(
            ("Not judged (a plugin fault)", cell(str(info.faulted), strong=True, tone="pf"))
        )
    blocks: list[Block] = []
    if info is not None:
        rows += [
            ("Supplied as", info.source),
            ("Loaded", str(info.loaded)),
            ("Not executed", str(info.not_executed)),
            ("Evidence", info.evidence),
        ]
        if info.declared:
            rows.append(
                (
                    "Declared by the profile",
                    ", ".join(f"{k}: {v}" for k, v in sorted(info.declared.items())),
                )
            )
        rows += [
            ("Coverage without reserved scenarios", _coverage(info.coverage_without)),
            ("Coverage with reserved scenarios", _coverage(info.coverage_with)),
        ]
    blocks.append(kv(rows))
    blocks.append(
        para(
            "The content of reserved scenarios is not disclosed: no id, name or text of "
            "them appears in this report, the verdict or the run directory. They count "
            "toward minimum coverage (07 §5.3); the core verdict's coverage above is "
            "computed without them."
        )
    )
    if info is not None and info.warnings:
        blocks.append(
            callout("warn", "Reserved scenario warnings", [cell(w) for w in info.warnings])
        )
    return section("adversarial-reserved", "Reserved scenarios", blocks)
