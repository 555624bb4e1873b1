"""The causes kubelet reads off the cluster before it starts a container (SI provider guide
§1.2): a missing ConfigMap/Secret key behind an env var, a volume that blocks scheduling or
mounting. Kept apart from :mod:`.podstatus`, which turns them into a status."""

from __future__ import annotations

from typing import Any


def config_problem(env: Any, ns: str, container: dict[str, Any]) -> str | None:
    """The CreateContainerConfigError message for a container, or None."""
    for var in container.get("env") or []:
        src = var.get("valueFrom") or {}
        for ref_key, plural, label in (
            ("configMapKeyRef", "configmaps", "ConfigMap"),
            ("secretKeyRef", "secrets", "Secret"),
        ):
            ref = src.get(ref_key)
            if not ref or ref.get("optional"):
                continue
            obj = env.store.raw(plural, ns, ref.get("name", ""))
            if obj is None:
                return f'{label.lower()} "{ref.get("name")}" not found'
            data = {
                **(obj.get("data") or {}),
                **(obj.get("stringData") or {}),
                **(obj.get("binaryData") or {}),
            }
            if ref.get("key") not in data:
                return f"couldn't find key {ref.get('key')} in {label} {ns}/{ref.get('name')}"
    for src in container.get("envFrom") or []:
        for ref_key, plural, label in (
            ("configMapRef", "configmaps", "configmap"),
            ("secretRef", "secrets", "secret"),
        ):
            ref = src.get(ref_key)
            if (
                ref
                and not ref.get("optional")
                and env.store.raw(plural, ns, ref.get("name", "")) is None
            ):
                return f'{label} "{ref.get("name")}" not found'
    return None


def mount_problem(env: Any, ns: str, spec: dict[str, Any]) -> tuple[str, str] | None:
    """(stage, message) for volumes that block the pod: ``schedule`` or ``mount``."""
    for vol in spec.get("volumes") or []:
        if "persistentVolumeClaim" in vol:
            claim = vol["persistentVolumeClaim"].get("claimName", "")
            pvc = env.store.raw("persistentvolumeclaims", ns, claim)
            if pvc is None:
                return (
                    "schedule",
                    f'0/3 nodes are available: persistentvolumeclaim "{claim}" not found.',
                )
            if pvc.get("status", {}).get("phase") != "Bound":
                return (
                    "schedule",
                    "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
                )
        if "configMap" in vol and not vol["configMap"].get("optional"):
            name = vol["configMap"].get("name", "")
            if env.store.raw("configmaps", ns, name) is None:
                return (
                    "mount",
                    f'MountVolume.SetUp failed for volume "{vol.get("name")}" : configmap "{name}" not found',
                )
        if "secret" in vol and not vol["secret"].get("optional"):
            name = vol["secret"].get("secretName", "")
            if env.store.raw("secrets", ns, name) is None:
                return (
                    "mount",
                    f'MountVolume.SetUp failed for volume "{vol.get("name")}" : secret "{name}" not found',
                )
    return None
