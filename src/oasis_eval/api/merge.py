"""``oasis merge``: the shards of a run (``oasis run --shard I/N``, engine/shard.py) judged as
the one run they are (issue 30 item 4).

Each shard is first verified as ``oasis replay`` verifies a run (its manifest, its recorded
states, its verdict recomputed from its evidence): one that fails is exit 5, as tampering.
The shards must be the same run cut apart: the same profile (byte for byte), agent, agent
configuration, provider, options and selection (exit 2 otherwise, each difference named),
and their slices must partition the phase's scenarios exactly (a missing or duplicated shard
or scenario is exit 2). The union is then judged as one run judges it: triage of the whole
selection, each slice's results, the same pure verdict (core §3.5.4), the same report. Only
run-specific metadata differs from an unsharded run: run id, timestamp, duration.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import UnusableInput
from ..engine.conclude import claim, exit_code, incomplete_reasons, tier_summary
from ..engine.configuration import EffectiveConfiguration
from ..engine.journal import Finished
from ..engine.manifest import load_run_key, write_manifest
from ..engine.policies import gate_failed, gated_exit_code
from ..engine.record import MergeRecord, RunInputs, RunRecord
from ..engine.rundir import PROFILE, recorded_run_id, write_run
from ..engine.selection import Selection, triage
from ..engine.shard import PHASES, ShardError, ShardRecord, ShardSpec, shard_slices
from ..engine.verdict import build_verdict
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import base_result
from ..evaluation.results import ScenarioResult, ScenarioState
from ..exit_codes import EXIT_INTERNAL, EXIT_TAMPERED
from ..files import RUN_FILE_LIMIT, one_sync, read_bytes
from ..spec.common import VerdictStatus
from ..spec.profile import Profile
from .inputs import check_output
from .publish import absolute, publish, staging_for
from .replay import replay

__all__ = ["MergeOutcome", "ShardTampered", "merge_shards", "phase1_after"]


class ShardTampered(UnusableInput):
    """A shard that does not verify as ``oasis replay`` verifies a run (exit 5)."""

    exit_code = EXIT_TAMPERED


@dataclass
class Shard:
    """One verified shard: its directory, record, profile and evidence."""

    path: Path
    record: RunRecord
    spec: ShardRecord
    profile: Profile
    profile_bytes: bytes
    evidence: dict[str, ScenarioEvidence]


@dataclass
class MergeOutcome:
    run_dir: Path
    record: RunRecord
    exit_code: int


def _verified(path: Path) -> tuple[RunRecord, Profile, dict[str, ScenarioEvidence], bytes]:
    """A run directory checked as ``oasis replay`` checks it; ShardTampered when it fails."""
    report = replay(path)
    if report.exit_code in (EXIT_INTERNAL, EXIT_TAMPERED):
        raise ShardTampered(
            "does not verify as `oasis replay` verifies a run: " + "; ".join(report.problems[:5]),
            file=str(path),
        )
    # what replay verified, not a second read of the directory (issue 30)
    assert report.record is not None and report.profile is not None
    return (
        report.record,
        report.profile,
        report.evidence,
        read_bytes(path / PROFILE, RUN_FILE_LIMIT),
    )


#: a redaction marker (engine/redaction.py): keyed by a key random per run, so two runs of
#: one profile write different markers for the same secret
_MARKER = re.compile(rb"\[REDACTED:[0-9a-f]{12}(:[A-Za-z0-9_-]+)?\]")


def unmarked(data: bytes) -> bytes:
    """``data`` with every redaction marker made the same: what two runs of one profile share."""
    return _MARKER.sub(b"[REDACTED]", data)


def _load(path: Path) -> Shard:
    record, profile, evidence, raw = _verified(path)
    if record.inputs.shard is None:
        raise ShardError("not a shard run (it was run without --shard)", file=str(path))
    if record.adversarial is not None and record.adversarial.performed:
        raise ShardError("a shard with an adversarial phase cannot be merged", file=str(path))
    return Shard(path, record, record.inputs.shard, profile, raw, evidence)


def _sameness(shard: Shard) -> dict[str, Any]:
    """What every shard of one run shares: all but the slice and run-specific metadata."""
    record, meta = shard.record, shard.record.verdict.metadata
    inputs = record.inputs.model_dump(mode="json", exclude={"shard"})
    spec = shard.spec
    return {
        "profile.json (sha256)": hashlib.sha256(unmarked(shard.profile_bytes)).hexdigest(),
        "implementation": f"{record.implementation} {record.implementation_version}",
        "report format": record.report_format,
        "agent": [meta.agent, meta.agent_version, record.agent_description],
        "agent configuration": meta.agent_configuration,
        "agent declared tools and mode": [record.agent_declared_tools, record.agent_declared_mode],
        "provider": [meta.environment.provider, meta.environment.provider_version],
        "preflight": record.preflight.model_dump(mode="json") if record.preflight else None,
        "options": inputs,
        "selection": [spec.selected, spec.partial],
        "phase": spec.phase,
        "shard count": spec.count,
        "merged Phase 1 run (--after)": spec.after,
        "warnings": record.warnings,
    }


def _check_same(shards: list[Shard]) -> None:
    first = _sameness(shards[0])
    for shard in shards[1:]:
        other = _sameness(shard)
        differ = [k for k in first if first[k] != other[k]]
        if differ:
            raise ShardError(
                f"not a shard of the same run as {shards[0].path}: its "
                + ", ".join(differ)
                + " differ(s)",
                file=str(shard.path),
            )


def _check_partition(shards: list[Shard]) -> None:
    """Every shard index once, each slice the one the selection gives it (exit 2 otherwise)."""
    count = shards[0].spec.count
    seen: dict[int, Path] = {}
    for shard in shards:
        index = shard.spec.index
        if index in seen:
            raise ShardError(
                f"shard {index}/{count} given twice ({seen[index]} and {shard.path})",
                file=str(shard.path),
            )
        seen[index] = shard.path
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        raise ShardError(
            f"shard(s) {', '.join(f'{i}/{count}' for i in missing)} missing: a merge needs "
            f"all {count} shards of the run",
            file=str(shards[0].path),
        )
    profile, spec = shards[0].profile, shards[0].spec
    in_phase = [
        s
        for s in profile.scenarios
        if s.id in set(spec.selected) and s.is_safety is (spec.phase == "safety")
    ]
    expected = shard_slices(in_phase, count)
    for shard in shards:
        want = expected[shard.spec.index - 1]
        if shard.spec.scenarios != want:
            extra = sorted(set(shard.spec.scenarios) - set(want))
            lacking = sorted(set(want) - set(shard.spec.scenarios))
            raise ShardError(
                f"shard {shard.spec.index}/{count} ran another slice than the selection gives it"
                + (f"; not its own: {', '.join(extra)}" if extra else "")
                + (f"; missing: {', '.join(lacking)}" if lacking else ""),
                file=str(shard.path),
            )


def _results(
    shards: list[Shard],
) -> tuple[list[ScenarioResult], dict[str, ScenarioEvidence], bool]:
    """The union judged as one run: (results by id, evidence, Phase 2 ran)."""
    first = shards[0]
    record, profile, spec = first.record, first.profile, first.spec
    config = EffectiveConfiguration(values=dict(record.verdict.metadata.agent_configuration))
    selected = [s for s in profile.scenarios if s.id in set(spec.selected)]
    custom = set(record.inputs.custom_scenarios)
    results, runnable = triage(profile, selected, config, record.inputs.claimed_tier, custom)
    evidence: dict[str, ScenarioEvidence] = {}
    own = {sid: shard for shard in shards for sid in shard.spec.scenarios}
    by_id = [{r.scenario_id: r for r in shard.record.scenarios} for shard in shards]
    capability = spec.phase == "capability"
    for scenario in runnable:
        owner = own.get(scenario.id)
        if owner is None and capability and scenario.is_safety:
            owner = first  # carried from the merged Phase 1 run: the same in every shard
            _same_phase1(shards, by_id, scenario.id)
        if owner is None:  # Phase 2 waits for the capability stage
            results[scenario.id] = base_result(
                scenario, ScenarioState.not_run, scenario.id in custom
            )
            continue
        results[scenario.id] = by_id[shards.index(owner)][scenario.id]
        if scenario.id in owner.evidence:
            evidence[scenario.id] = owner.evidence[scenario.id]
    for sid, result in results.items():  # profile.json keeps no source location: the runs do
        if result.source_file is None and sid in by_id[0]:
            recorded = by_id[0][sid]
            result.source_file, result.source_line = recorded.source_file, recorded.source_line
    return [results[k] for k in sorted(results)], evidence, capability


def _same_phase1(shards: list[Shard], by_id: list[dict[str, ScenarioResult]], sid: str) -> None:
    dumped = {json.dumps(r[sid].model_dump(mode="json"), sort_keys=True) for r in by_id}
    if len(dumped) > 1:
        raise ShardError(
            f"{sid}: the capability shards carry different Phase 1 results (started --after "
            "different merged runs)",
            file=str(shards[0].path),
        )


def _tier_evidence(shards: list[Shard], ordered: list[ScenarioResult]) -> object:
    """The first tier evidence in phase order, as a run keeps it (engine/phase_runner.py)."""
    evidence = {sid: e for shard in shards for sid, e in shard.evidence.items()}
    for safety in (True, False):
        for result in ordered:
            captured = evidence.get(result.scenario_id)
            if captured is None or (result.classification == "safety") is not safety:
                continue
            found = captured.provision.get("tier_evidence")
            if found is not None:
                return found
    return None


def merged_record(shards: list[Shard]) -> tuple[RunRecord, dict[str, ScenarioEvidence], int]:
    """The merged run's record, evidence and exit code (pure: no file is read or written)."""
    shards = sorted(shards, key=lambda s: s.spec.index)
    first = shards[0]
    ordered, evidence, phase2_ran = _results(shards)
    metas = [s.record.verdict.metadata for s in shards]
    aborted = next((m for m in metas if m.aborted), None)
    tier_evidence = _tier_evidence(shards, ordered)
    preflight = first.record.preflight
    metadata = metas[0].model_copy(deep=True)
    metadata.timestamp = min(m.timestamp for m in metas)
    metadata.duration = max(metas, key=lambda m: _seconds(m.duration)).duration
    metadata.aborted = aborted is not None
    metadata.abort_reason = aborted.abort_reason if aborted is not None else None
    if preflight is not None:
        metadata.environment.tier_evidence = tier_summary(tier_evidence, preflight)
    inputs = first.record.inputs.model_copy(update={"shard": None})
    verdict = build_verdict(
        first.profile,
        ordered,
        metadata,
        inputs.claimed_tier,
        phase2_ran,
        not inputs.capability_only,
    )
    record = first.record.model_copy(
        update={
            "run_id": uuid.uuid4().hex[:12],
            "verdict": verdict,
            "inputs": inputs,
            "scenarios": ordered,
            "tier_evidence": tier_evidence if isinstance(tier_evidence, dict | str) else None,
            "conformance_claim": None,
            "merge": MergeRecord(phase=first.spec.phase, shards=[s.record.run_id for s in shards]),
        }
    )
    spec = first.spec
    selection = Selection(
        ids=list(spec.selected) if spec.partial else None,
        patterns=list(inputs.filters),
        safety_only=inputs.safety_only,
        capability_only=inputs.capability_only,
    )
    reasons = incomplete_reasons(record, first.profile, selection)
    if _phase2_pending(spec, ordered, inputs.safety_only, verdict.safety):
        reasons.append(
            "Phase 2 (capability) has not run yet: run each shard with `--phase capability "
            "--after` this run directory, then merge those shards"
        )
    record.incomplete_reasons = reasons
    if not reasons and not gate_failed(verdict, inputs, ordered):
        record.conformance_claim = claim(verdict)
    code = gated_exit_code(exit_code(verdict), verdict, inputs, ordered)
    return record, evidence, code


def _phase2_pending(
    spec: ShardRecord, ordered: list[ScenarioResult], safety_only: bool, safety: Any
) -> bool:
    return (
        spec.phase == "safety"
        and not safety_only
        and safety is VerdictStatus.PASS
        and any(r.classification != "safety" and r.state is ScenarioState.not_run for r in ordered)
    )


def _seconds(duration: str) -> float:
    try:
        return float(duration.removeprefix("PT").removesuffix("S"))
    except ValueError:
        return 0.0


def merge_shards(dirs: list[Path], out: Path) -> MergeOutcome:
    """Judge the shards of a run as the one run they are (``oasis merge``).

    Args:
        dirs: the run directory of every shard (``oasis run --shard I/N``), in any order.
        out: the merged run directory to write (new, empty, or an earlier run directory).

    Returns:
        A :class:`MergeOutcome`: the run directory, its record and the exit code
        ``oasis run`` would give its verdict.

    Raises:
        ShardTampered: a shard does not verify as ``oasis replay`` verifies a run (exit 5).
        ShardError: the shards are not one run cut apart, or one is missing or repeated (exit 2).
        UnusableInput: a directory is not a run directory.

    Example:
        >>> merge_shards(["s1", "s2", "s3", "s4"], "run").exit_code  # doctest: +SKIP
        0
    """
    # lazy: reporting pulls jinja2 (~50 ms)
    from ..reporting import write_reports

    if not dirs:
        raise ShardError("give the shard run directories to merge")
    target = absolute(out)
    assert target is not None
    for path in dirs:
        if not path.is_dir():
            raise UnusableInput("not a run directory", file=str(path))
        if absolute(path) == target:
            raise ShardError("--out is one of the shards: merge into a new directory")
    check_output(target, target.parent)
    found = recorded_run_id(target)
    shards = [_load(Path(p)) for p in dirs]
    _check_same(shards)
    _check_partition(shards)
    record, evidence, code = merged_record(shards)
    profile_json = json.loads(shards[0].profile_bytes)
    staging = staging_for(target)
    with one_sync(staging):
        write_run(staging, record, evidence, profile_json)
        write_reports(record, staging)
        write_manifest(staging, load_run_key(signing=True))
    where, _ = publish(staging, target, record.run_id, found)
    return MergeOutcome(where, record, code)


def phase1_after(
    after: Path, index: int, count: int, profile_json: dict[str, Any], inputs: RunInputs
) -> ShardSpec:
    """The capability shard ``index``/``count`` that starts from the merged Phase 1 run
    ``after``: verified as replay verifies it (exit 5), a merge of Phase 1 shards whose
    safety gate passed (exit 2 otherwise); its results carried, not run again."""
    record, _profile, evidence, raw = _verified(after)
    given = json.dumps(profile_json, indent=1, sort_keys=True).encode("utf-8")
    if unmarked(raw) != unmarked(given):
        raise ShardError(
            "--after: the merged Phase 1 run evaluated another profile", file=str(after)
        )
    options = {"shard", "parallel"}
    if inputs.model_dump(mode="json", exclude=options) != record.inputs.model_dump(
        mode="json", exclude=options
    ):
        raise ShardError(
            "--after: the merged Phase 1 run was given other options (only --parallel may differ)",
            file=str(after),
        )
    if record.merge is None or record.merge.phase != PHASES[0]:
        raise ShardError(
            "--after needs the run directory `oasis merge` wrote from the Phase 1 (safety) shards",
            file=str(after),
        )
    verdict = record.verdict
    if verdict.safety is not VerdictStatus.PASS or verdict.metadata.aborted:
        raise ShardError(
            f"Phase 2 starts only after a Phase 1 PASS (spec 01 §3); this run's safety verdict "
            f"is {verdict.safety_label}",
            file=str(after),
        )
    carried = {
        r.scenario_id: Finished(
            scenario_id=r.scenario_id,
            result=r,
            tier_evidence=(
                evidence[r.scenario_id].provision.get("tier_evidence")
                if r.scenario_id in evidence
                else None
            ),
            evidence=evidence.get(r.scenario_id),
        )
        for r in record.scenarios
        if r.classification == "safety"
        and r.state in (ScenarioState.executed, ScenarioState.skipped)
    }
    meta = verdict.metadata
    return ShardSpec(
        index=index,
        count=count,
        phase=PHASES[1],
        after=record.run_id,
        carried=carried,
        expected={
            "agent": meta.agent,
            "agent_version": meta.agent_version,
            "agent_configuration": dict(meta.agent_configuration),
        },
    )
