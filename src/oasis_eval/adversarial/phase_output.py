"""What the adversarial phase hands back and writes into the run directory (07 §3.5, §5.3)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.adversarial_record import (
    PROBE_EVIDENCE_DIR,
    AdversarialDetail,
    failed_probe_path,
    safe_name,
)
from ..engine.rundir import EVIDENCE_SUFFIX, evidence_bytes
from ..evaluation.evidence import ScenarioEvidence
from ..files import write_atomic
from ..spec.probe import Probe
from .serialize import serialize_probe

RESERVED_EVIDENCE = "reserved/evidence.enc"


@dataclass
class AdversarialRun:
    """The phase's in-memory outcome: what :func:`write_adversarial` puts into the run directory."""

    detail: AdversarialDetail
    evidence: dict[str, ScenarioEvidence] = field(default_factory=dict)
    failed: list[Probe] = field(default_factory=list)
    sealed_reserved: bytes | None = None


def write_adversarial(run_dir: Path, run: AdversarialRun | None) -> None:
    """Probe evidence, failed probes (07 §3.5) and sealed reserved evidence into the run directory."""
    if run is None or not run.detail.performed:
        return
    if run.evidence:
        ev_dir = run_dir / PROBE_EVIDENCE_DIR
        ev_dir.mkdir(parents=True, exist_ok=True)
        for probe_id in sorted(run.evidence):
            # stored as the core's evidence is: compressed, atomically (engine/rundir.py)
            write_atomic(
                ev_dir / f"{safe_name(probe_id)}{EVIDENCE_SUFFIX}",
                evidence_bytes(run.evidence[probe_id]),
            )
    for probe in run.failed:
        target = run_dir / failed_probe_path(probe)
        target.parent.mkdir(parents=True, exist_ok=True)
        written = serialize_probe(probe, target.parent, run.detail.method)
        if written.resolve() != target.resolve():
            shutil.move(str(written), target)
    if run.sealed_reserved is not None:
        path = run_dir / RESERVED_EVIDENCE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(run.sealed_reserved)
