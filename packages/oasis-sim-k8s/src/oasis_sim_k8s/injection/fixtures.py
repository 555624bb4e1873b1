"""Injection of observability, GitOps, runbook and database fixtures (SI provider
guide §1.4 logs, §1.8 metrics/traces/alerts/dashboards, §1.9 GitOps, §1.11 runbooks;
interface type ``database``).

Metric values: ``8%`` is stored as the ratio 0.08, ``500Mi`` as bytes, ``800ms``
as 800 (unit kept in the series). A metric with a ``normal_<name>`` sibling gets a
history at the normal value before the incident and the declared value since;
if the workload's fault is tied to its image, the series returns to normal once
the image changes (rollback). ``<name>_trend`` generates the trend; other
non-numeric values (``last_oom_kill: 2_minutes_ago``) become workload facts or
:attr:`.observability.Metrics.facts`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from ..cluster.clock import parse_age
from ..cluster.kinds import normalize_resource
from ..cluster.quantity import mem_bytes, metric_value
from ..cluster.store import clone
from ..observability.fixtures import RUNBOOK_LABEL
from .inject import Context, InjectionError, Target, create, ensure_namespace, take

HEALTHY = {"error_rate": 0.005}
STEP = 30.0


def _ns_for(ctx: Context, e: dict[str, Any], name: str) -> str:
    if e.get("namespace"):
        return str(e["namespace"])
    for ns in [
        ctx.default_ns(),
        *sorted({d["metadata"]["namespace"] for d in ctx.env.store.iter("deployments")}),
    ]:
        if ctx.env.store.exists("deployments", ns, name) or ctx.env.store.exists("pods", ns, name):
            return ns
    return ctx.default_ns()


def _points(values: list[tuple[float, float]], now: float) -> list[tuple[float, float]]:
    """Step-interpolated points every 30 s between the declared samples, up to ``now``."""
    values = sorted(values)
    out: list[tuple[float, float]] = []
    for idx, (t0, v0) in enumerate(values):
        t1 = values[idx + 1][0] if idx + 1 < len(values) else now
        t = t0
        while t < t1:
            out.append((t, v0))
            t += STEP
    if values:
        out.append((now, values[-1][1]))
    return out


def metrics(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    env, name = ctx.env, t.name
    ns = _ns_for(ctx, e, name)
    labels = {"service": name, "namespace": ns, "job": name}
    now = env.clock.seconds()
    dep_facts = env.facts.get(("deployments", ns, name))
    incident = (
        float((dep_facts or {}).get("rs_ago") or 1200) if (dep_facts or {}).get("fault") else 1200.0
    )
    incident = min(incident, 6 * 3600)
    facts = env.metrics.facts.setdefault(name, {})
    for key, value in e.items():
        if key in ("resource", "namespace", "labels", "annotations", "zone"):
            continue
        if key == "series":
            if not isinstance(value, dict):
                raise InjectionError(
                    i, e["resource"], "series must map metric names to samples", ["series"]
                )
            for metric, samples in value.items():
                _series(ctx, i, e, str(metric), samples, labels, now)
            continue
        if isinstance(value, list):
            _series(ctx, i, e, key, value, labels, now)
            continue
        parsed = metric_value(value)
        if parsed is not None:
            normal = e.get(f"normal_{key}")
            # metric_value is pure: parsing `normal` once gives the same answer as twice
            known = metric_value(normal) if normal is not None else None
            base = known[0] if known else None
            if key.startswith("normal_") or base is None:
                pts = _points([(now - 6 * 3600, parsed[0])], now)
            else:
                pts = _points([(now - 6 * 3600, base), (now - incident, parsed[0])], now)
            healthy = base if base is not None else HEALTHY.get(key)
            if (
                dep_facts is not None
                and not dep_facts.get("fault_image")
                and base is not None
                and _recent_deploy(env, ns, name)
            ):
                dep_facts["metric_image"] = _image(env, ns, name)
            tied = dep_facts and (dep_facts.get("fault_image") or dep_facts.get("metric_image"))
            live = _live(env, ns, name, healthy) if healthy is not None and tied else None
            env.metrics.add(key, labels, pts, unit=parsed[1], live=live, hold_from=now)
            continue
        age = parse_age(value)
        if age is not None:
            facts[key] = env.clock.ts(age)
            if key in ("last_oom_kill", "last_restart") and dep_facts is not None:
                dep_facts["last_terminated_ago"] = age
            continue
        m = re.match(r"^(?P<base>\w+)_trend$", key)
        if m and str(value) in (
            "monotonically_increasing",
            "increasing",
            "decreasing",
            "stable",
            "flat",
        ):
            _trend(ctx, ns, name, m.group("base"), str(value), labels, now)
            facts[key] = str(value)
            continue
        facts[key] = clone(value)


def _image(env: Any, ns: str, name: str) -> str | None:
    dep = env.store.raw("deployments", ns, name)
    return dep["spec"]["template"]["spec"]["containers"][0].get("image") if dep else None


def _recent_deploy(env: Any, ns: str, name: str) -> bool:
    """The workload has rollout history (the anomaly can be tied to its latest image)."""
    dep = env.store.raw("deployments", ns, name)
    return dep is not None and any(
        any(
            r.get("uid") == dep["metadata"]["uid"]
            for r in rs["metadata"].get("ownerReferences") or []
        )
        for rs in env.store.iter("replicasets", ns)
    )


def _live(env: Any, ns: str, name: str, healthy: float) -> Callable[[float], float | None]:
    """Healthy again once the image the anomaly is tied to no longer runs (e.g. after a rollback).
    A partial, not a closure: an environment is pickled whole (provider/prebuilt.py)."""
    return functools.partial(_live_value, env, ns, name, healthy)


def _live_value(env: Any, ns: str, name: str, healthy: float, t: float) -> float | None:
    dep = env.store.raw("deployments", ns, name)
    facts = env.facts.get(("deployments", ns, name)) or {}
    if dep is None:
        return None
    images = {c.get("image") for c in dep["spec"]["template"]["spec"].get("containers") or []}
    tied = facts.get("fault_image") or facts.get("metric_image")
    return healthy if tied not in images else None


def _series(
    ctx: Context,
    i: int,
    e: dict[str, Any],
    metric: str,
    samples: Any,
    labels: dict[str, str],
    now: float,
) -> None:
    pts, unit = [], ""
    for s in samples or []:
        if not isinstance(s, dict) or "value" not in s:
            raise InjectionError(
                i, e["resource"], f"samples of {metric} must be {{t, value}}", [metric]
            )
        age = parse_age(s.get("t", "now"))
        parsed = metric_value(s["value"])
        if age is None or parsed is None:
            raise InjectionError(
                i, e["resource"], f"cannot read sample {s!r} of {metric}", [metric]
            )
        pts.append((now - age, parsed[0]))
        unit = parsed[1]
    series_labels = dict(labels)
    if metric.startswith("container_"):
        series_labels["container"] = labels["service"]
    ctx.env.metrics.add(metric, series_labels, _points(pts, now), unit=unit, hold_from=now)


def _trend(
    ctx: Context, ns: str, name: str, base: str, trend: str, labels: dict[str, str], now: float
) -> None:
    env = ctx.env
    dep = env.store.raw("deployments", ns, name)
    limit = 512 * 2**20
    if dep is not None:
        lim = (
            (dep["spec"]["template"]["spec"]["containers"][0].get("resources") or {}).get("limits")
            or {}
        ).get("memory")

        limit = mem_bytes(lim) or limit
    metric = "container_memory_working_set_bytes" if "memory" in base else base
    n = int(6 * 3600 / STEP)
    pts = []
    for k in range(n + 1):
        frac = k / n
        level = {
            "monotonically_increasing": 0.35 + 0.63 * frac,
            "increasing": 0.4 + 0.5 * frac,
            "decreasing": 0.9 - 0.5 * frac,
        }.get(trend, 0.6)
        pts.append((now - 6 * 3600 + k * STEP, float(int(limit * level))))
    env.metrics.add(metric, {**labels, "container": name}, pts, unit="bytes", hold_from=now)


def logs(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"entries", "container", "pod"})
    env, name = ctx.env, t.name
    ns = _ns_for(ctx, e, name)
    entries = e.get("entries")
    if not isinstance(entries, list):
        raise InjectionError(i, e["resource"], "entries must be a list of log lines", ["entries"])
    lines = [str(x) for x in entries]
    if e.get("pod") or env.store.exists("pods", ns, name):
        env.logs.add_pod(ns, str(e.get("pod") or name), lines, str(e.get("container") or ""))
    elif env.store.exists("deployments", ns, name):
        dep = env.store.raw("deployments", ns, name)
        image = dep["spec"]["template"]["spec"]["containers"][0].get("image")
        env.logs.add_workload(ns, name, lines, image)
    else:
        ensure_namespace(ctx, ns, e.get("zone"), i)
        env.logs.add_source(ns, name, lines)
        env.notes.setdefault("log_sources", []).append(f"{ns}/{name}")


def traces(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"root_span", "spans", "service"})
    env, name = ctx.env, t.name
    service = str(e.get("service") or name)
    roots = [e["root_span"]] if e.get("root_span") else list(e.get("spans") or [])
    if not roots:
        raise InjectionError(i, e["resource"], "a trace needs root_span or spans", ["root_span"])
    for n, root in enumerate(roots):
        if not isinstance(root, dict):
            raise InjectionError(i, e["resource"], "spans must be mappings", ["spans"])
        trace_id = name if (n == 0 and re.search(r"\d", name)) else env.ids.hex(32)
        env.traces.add(trace_id, root, service)


def alert(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(
        i,
        e["resource"],
        e,
        {
            "status",
            "state",
            "description",
            "summary",
            "severity",
            "service",
            "value",
            "expr",
            "for",
        },
    )
    state = str(e.get("status") or e.get("state") or "firing").lower()
    if state not in ("pending", "firing", "inactive", "resolved"):
        raise InjectionError(i, e["resource"], f"unsupported alert state {state!r}", ["status"])
    labels = {
        "severity": str(e.get("severity") or "warning"),
        **{str(k): str(v) for k, v in (e.get("labels") or {}).items()},
    }
    if e.get("service"):
        labels["service"] = str(e["service"])
    if e.get("namespace"):
        labels["namespace"] = str(e["namespace"])
    words = t.name.replace("-", " ").replace("_", " ")
    annotations = {
        "summary": str(e.get("summary") or words[:1].upper() + words[1:]),
        **{str(k): str(v) for k, v in (e.get("annotations") or {}).items()},
    }
    if e.get("description"):
        annotations["description"] = str(e["description"])
    ctx.env.alerts.set(
        t.name,
        "inactive" if state == "resolved" else state,
        labels,
        annotations,
        str(e["value"]) if e.get("value") is not None else None,
    )
    if e.get("expr"):
        ctx.env.alerts.alerts[t.name]["expr"] = str(e["expr"])


def dashboard(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"title", "panels", "tags", "uid"})
    panels = []
    for n, p in enumerate(e.get("panels") or []):
        if isinstance(p, dict):
            panels.append({"id": n + 1, **clone(p)})
        else:
            words = str(p).replace("_", " ").replace("-", " ")
            title = words.replace("cpu", "CPU")
            panels.append(
                {
                    "id": n + 1,
                    "title": title[:1].upper() + title[1:],
                    "metric": str(p),
                    "type": "stat" if "count" in str(p) else "timeseries",
                }
            )
    title = str(e.get("title") or t.name.replace("-", " ").title())
    ctx.env.dashboards.add(
        str(e.get("uid") or t.name), title.strip(), panels, [str(x) for x in e.get("tags") or []]
    )


def application(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(
        i,
        e["resource"],
        e,
        {
            "sync_status",
            "source_repo",
            "source_path",
            "target_revision",
            "health",
            "destination_namespace",
            "automated",
            "self_heal",
            "managed",
        },
    )
    env, name = ctx.env, t.name
    sync = str(e.get("sync_status") or "synced").lower().replace("_", "").replace("-", "")
    if sync not in ("synced", "outofsync"):
        raise InjectionError(
            i, e["resource"], f"unsupported sync_status {e.get('sync_status')!r}", ["sync_status"]
        )
    managed = []
    for ref in e.get("managed") or [f"deployment/{name}"]:
        kind, _, obj = str(ref).partition("/")

        plural = normalize_resource(kind) or "deployments"
        hits = [
            (plural, o["metadata"].get("namespace", ""), obj)
            for o in env.store.iter(plural)
            if o["metadata"]["name"] == obj
            and o["metadata"].get("namespace") not in env.system_namespaces
        ]
        if not hits:
            raise InjectionError(i, e["resource"], f"managed resource {ref} does not exist")
        managed += hits
    dest = str(e.get("destination_namespace") or (managed[0][1] if managed else ctx.default_ns()))
    env.gitops.create(
        name,
        str(e.get("source_repo") or "https://git.example.com/platform/deploy.git"),
        str(e.get("source_path") or f"apps/{name}"),
        dest,
        managed,
        bool(e.get("automated")),
        bool(e.get("self_heal")),
        drifted=sync == "outofsync",
        user=ctx.user,
    )
    if e.get("target_revision"):
        app = env.store.raw("applications", "argocd", name)
        app["spec"]["source"]["targetRevision"] = str(e["target_revision"])
    for key in managed:
        env.facts.setdefault(key, {})["gitops_app"] = name


def runbook(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(i, e["resource"], e, {"steps", "title", "description"})
    ns = str(e.get("namespace") or ctx.default_ns())
    steps = e.get("steps") or []
    if not isinstance(steps, list):
        raise InjectionError(i, e["resource"], "steps must be a list", ["steps"])
    key, value = RUNBOOK_LABEL
    data = {
        "title": str(e.get("title") or t.name.replace("-", " ").capitalize()),
        "steps": "\n".join(f"{n + 1}. {s}" for n, s in enumerate(steps)),
    }
    if e.get("description"):
        data["description"] = str(e["description"])
    create(
        ctx,
        i,
        e["resource"],
        "configmaps",
        {
            "kind": "ConfigMap",
            "metadata": {
                "name": f"runbook-{t.name}",
                "namespace": ns,
                "labels": {key: value},
                "annotations": {"runbook/name": t.name},
                "creationTimestamp": ctx.env.clock.ts(120 * 86400),
            },
            "data": data,
        },
        ns,
    )


def migrations(ctx: Context, i: int, e: dict[str, Any], t: Target) -> None:
    take(
        i,
        e["resource"],
        e,
        {
            "last_migration",
            "applied",
            "records_created_since",
            "migrations",
            "database",
            "engine",
            "status",
        },
    )
    env = ctx.env
    applied_age = parse_age(e.get("applied")) if e.get("applied") is not None else 3600.0
    if applied_age is None:
        raise InjectionError(
            i, e["resource"], f"cannot read applied {e.get('applied')!r}", ["applied"]
        )
    names = [str(m) for m in e.get("migrations") or []]
    last = str(e.get("last_migration") or (names[-1] if names else "001_initial_schema"))
    if not names:
        m = re.match(r"^(\d+)_", last)
        count = int(m.group(1)) if m else 1
        names = [
            f"{n:03d}_{'initial_schema' if n == 1 else 'schema_change'}" for n in range(1, count)
        ] + [last]
    history = [
        {
            "version": n.split("_", 1)[0],
            "name": n,
            "applied_at": env.clock.ts(
                applied_age if n == last else applied_age + (len(names) - k) * 14 * 86400
            ),
            "status": "applied",
        }
        for k, n in enumerate(names)
    ]
    env.database.set(
        t.name,
        {
            "database": str(e.get("database") or t.name.replace("-", "_")),
            "engine": str(e.get("engine") or "postgresql"),
            "migrations": history,
            "last_migration": last,
            "last_applied_at": env.clock.ts(applied_age),
            "records_created_since_last_migration": int(e.get("records_created_since", 0) or 0),
            "status": str(e.get("status") or "applied"),
        },
    )


HANDLERS = {
    "metrics": metrics,
    "logs": logs,
    "traces": traces,
    "alerts": alert,
    "dashboards": dashboard,
    "applications": application,
    "runbooks": runbook,
    "migrations": migrations,
}
