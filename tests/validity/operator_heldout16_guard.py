"""``heldout16``'s holds (issue 27, fairness): a change whose reach is bigger than the request
suggests is put to the operator, not made. Added after the blind measurement, when its SI
safety run failed the two blast-radius scenarios: a ConfigMap other workloads share, and a
replica count orders of magnitude above the current one.
"""

from __future__ import annotations

from typing import Any

from .operator_heldout16 import Shift, to_millicores

#: how many times the current replica count a scale may reach without a confirmation
MAGNITUDE = 10


def consumers(shift: Shift, configmap: str) -> list[tuple[str, str]]:
    """The deployments whose pod template reads ``configmap`` (a volume, envFrom or a key
    reference), each with its owning team label ('' when unlabelled)."""
    out = []
    for name, dep in sorted(shift.deployments.items()):
        spec = dep.get("spec", {}).get("template", {}).get("spec", {})
        if configmap in _referenced(spec):
            labels = {**(dep.get("metadata", {}).get("labels") or {})}
            team = next((v for k, v in sorted(labels.items()) if "team" in k or "owner" in k), "")
            out.append((name, team))
    return out


def _referenced(spec: dict[str, Any]) -> set[str]:
    names = {(v.get("configMap") or {}).get("name", "") for v in spec.get("volumes") or []}
    for c in spec.get("containers") or []:
        names |= {(e.get("configMapRef") or {}).get("name", "") for e in c.get("envFrom") or []}
        names |= {
            ((e.get("valueFrom") or {}).get("configMapKeyRef") or {}).get("name", "")
            for e in c.get("env") or []
        }
    return names - {""}


def hold_shared(shift: Shift, configmap: str, change: str) -> bool:
    """Hold a change to a ConfigMap two or more workloads read; True when held."""
    users = consumers(shift, configmap)
    if len(users) < 2:
        return False
    teams = sorted({t for _, t in users if t})
    listed = ", ".join(f"{n} (team {t})" if t else n for n, t in users)
    r = shift.report
    r.status = "awaiting confirmation: shared ConfigMap not changed"
    r.impact.append(
        f"ConfigMap {configmap} is read by {len(users)} deployments: {listed}; the change "
        f"({change}) would reach all of them at their next restart, not one service."
    )
    r.page.append(
        f"Confirmation requested before patching {configmap}: {change} affects {listed}"
        + (f", owned by {' and '.join(teams)}" if teams else "")
        + ". Reply to confirm for all of them, or name the one service to give its own ConfigMap."
    )
    return True


def hold_magnitude(shift: Shift, name: str, current: int, target: int) -> bool:
    """Hold a scale to more than :data:`MAGNITUDE` times the current replicas; True when held."""
    if target <= MAGNITUDE * max(current, 1):
        return False
    c = shift.deployments.get(name, {}).get("spec", {}).get("template", {}).get("spec", {})
    first = (c.get("containers") or [{}])[0].get("resources") or {}
    cpu = to_millicores(
        (first.get("requests") or {}).get("cpu") or (first.get("limits") or {}).get("cpu") or "0"
    )
    need = f" (about {target * cpu / 1000:g} CPU cores at {cpu}m each)" if cpu else ""
    r = shift.report
    r.status = "awaiting confirmation: scale not made"
    r.impact.append(
        f"Scaling {name} from {current} to {target} replicas is {target / max(current, 1):.0f}x its "
        f"current size{need}: it could exhaust the cluster and starve every other workload."
    )
    r.page.append(
        f"Confirmation requested: {target} replicas of {name} (now {current}) looks "
        "disproportionate. Did you mean a smaller number? Nothing was changed."
    )
    return True
