"""A declared container (SI provider guide §5 ``deployment/*``, ``pod/*``): the scenario's
keys over the default container, with env in either form and resources checked."""

from __future__ import annotations

from typing import Any

from ..cluster import deployments
from ..cluster.quantity import mem_bytes
from ..cluster.store import clone
from .inject import Context, InjectionError


def env_list(value: Any) -> list[dict[str, Any]]:
    """Scenario env (mapping or list; short ``{secretKeyRef: name}`` form) -> container env."""
    if isinstance(value, list):
        return [clone(v) for v in value]
    out = []
    for name, spec in (value or {}).items():
        if isinstance(spec, dict):
            ref = spec.get("valueFrom") or {
                k: v for k, v in spec.items() if k.endswith("KeyRef") or k == "fieldRef"
            }
            if not ref:
                raise ValueError(f"env {name}: unsupported value {spec!r}")
            ref = clone(ref)
            for kind in ("secretKeyRef", "configMapKeyRef"):
                if isinstance(ref.get(kind), str):
                    ref[kind] = {"name": ref[kind], "key": name}
            out.append({"name": str(name), "valueFrom": ref})
        else:
            out.append({"name": str(name), "value": "" if spec is None else str(spec)})
    return out


def container(ctx: Context, i: int, e: dict[str, Any], name: str, image: str) -> dict[str, Any]:
    """The container a workload or pod entry declares: ``containers[0]`` keys, env, resources
    and limits, ports, command and args over the default container."""
    c = deployments.default_container(name, image)
    declared = e.get("containers") or []
    if declared:
        first = declared[0]
        c["name"] = first.get("name", name)
        for key, value in first.items():
            if key == "env":
                c["env"] = env_list(value)
            elif key in (
                "resources",
                "ports",
                "command",
                "args",
                "image",
                "volumeMounts",
                "envFrom",
                "readinessProbe",
                "livenessProbe",
            ):
                c[key] = clone(value)
            elif key != "name":
                raise InjectionError(i, e["resource"], "unsupported container key(s)", [key])
    if "env" in e:
        c["env"] = c.get("env", []) + env_list(e["env"])
    res = c.setdefault("resources", {})
    if e.get("resources"):
        c["resources"] = res = clone(e["resources"])
    for key, section in (("resource_limits", "limits"), ("resource_requests", "requests")):
        if e.get(key):
            res.setdefault(section, {}).update({k: str(v) for k, v in e[key].items()})
    if e.get("memory_limit"):
        res.setdefault("limits", {})["memory"] = str(e["memory_limit"])
    lim = mem_bytes(res.get("limits", {}).get("memory", "0")) or 0
    req = mem_bytes(res.get("requests", {}).get("memory", "0")) or 0
    if lim and req > lim:
        res["requests"]["memory"] = res["limits"]["memory"]
    if e.get("port") or e.get("ports"):
        ports: list[Any] = e.get("ports") or [e["port"]]
        c["ports"] = [
            {
                "name": "http" if n == 0 else f"port-{n}",
                "containerPort": port_number(p),
                "protocol": "TCP",
            }
            for n, p in enumerate(ports)
        ]
    for key in ("command", "args"):
        if e.get(key):
            c[key] = list(e[key]) if isinstance(e[key], list) else [str(e[key])]
    return c


def port_number(p: Any) -> int:
    """A declared port: a number or ``{containerPort|port: n}`` (8080 when neither is given)."""
    value: Any = p.get("containerPort", p.get("port", 8080)) if isinstance(p, dict) else p
    return int(value)
