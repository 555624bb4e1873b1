"""What the worker and the failing decoy take of the namespace's declared workloads (issue 27,
round 23, branch s15-decoy5): how they are reached and probed, what a crash loop prints, and
a memory series where a declared workload has a series.

Round 23's ``quiet_loop_dropped`` dropped the two ambient Deployments by two simulator tells:
the worker was probed on a port named ``metrics`` where every declared container is probed on
``http``, and the decoy crash-looped printing only its start-up line where a declared crash
says why it fails. Round 22's ``seriesless_dropped`` dropped the decoy as the crash loop no
series is of. So both take a declared Deployment's container ports and probes
(:func:`serving`), the decoy prints an error of its own before it exits (:func:`crash_lines`,
a malformed file or flag of its own build: nothing a declared object holds, nothing a restart
or another workload's fix clears, and no fault a scenario's symptom names), and the decoy has
a steady memory series where a declared Deployment of its namespace has any recorded series
(:func:`steady_memory`). Everything is drawn from the seed and the namespace's declared
objects (never a name).
"""

from __future__ import annotations

from typing import Any

from ..cluster import deployments
from ..cluster.store import clone
from ..observability.telemetry import STEP

#: what a container takes of its model: how it is reached and probed
SHAPE = ("ports", "readinessProbe", "livenessProbe")
#: the series the worker and the decoy keep (cAdvisor's working set, as a scenario records it)
MEMORY = "container_memory_working_set_bytes"


def model(env: Any, ns: str, draw: int) -> dict[str, Any] | None:
    """A declared Deployment of ``ns`` (by ``draw``, in key order), else ``None``."""
    keys = sorted(k for k in env.declared_keys if k[0] == "deployments" and k[1] == ns)
    found = [dep for k in keys if (dep := env.store.raw(*k))]
    return found[draw % len(found)] if found else None


def serving(dep: dict[str, Any] | None) -> dict[str, Any]:
    """The ports and probes of ``dep``'s first container (:data:`SHAPE`), else the cluster's
    defaults for a container (``deployments.default_container``: port ``http`` 8080, its
    readiness probe on ``http``), as the declared workloads of a namespace have them."""
    base = deployments.default_container("x", "x")
    if dep is None:
        return {k: clone(base[k]) for k in SHAPE if k in base}
    own = dep["spec"]["template"]["spec"]["containers"][0]
    return {k: clone(own[k]) for k in SHAPE if k in own}


def service_port_name(env: Any, ns: str) -> str | None:
    """The name of the first port of the first declared Service of ``ns`` (by name) that names
    one, else ``None``."""
    for p, w, n in sorted(env.declared_keys):
        svc = env.store.raw(p, w, n) if p == "services" and w == ns else None
        for port in ((svc or {}).get("spec") or {}).get("ports") or []:
            if port.get("name"):
                return str(port["name"])
    return None


def first_port(shape: dict[str, Any]) -> int:
    """The container port the shape's first port names (8080 where it names none)."""
    ports = shape.get("ports") or [{}]
    return int(ports[0].get("containerPort") or 8080)


#: (the error a crash-looping build prints as it exits, its last line); ``{name}`` is the
#: workload's, ``{n}`` a line number drawn. None names a declared object, a dependency, a
#: resource or a scenario fault (``agents/pod_rules.py::LOG_FAULTS`` matches none)
_CRASHES = (
    "ERROR: failed to parse /etc/{name}/settings.json: invalid character '}}' looking for "
    "beginning of object key string",
    "ERROR: failed to load /etc/{name}/routes.yaml: yaml: line {n}: did not find expected key",
    'ERROR: invalid argument "{n}s" for "--shutdown-grace" flag: value out of range [1s, 30s]',
    'ERROR: handler registry: route "/internal/{name}" registered twice (line {n} of '
    "/etc/{name}/handlers.conf)",
)


def crash_lines(env: Any, ns: str, name: str, image: str, draw: bytes, ago: float) -> None:
    """The lines the decoy's last container printed before it exited ``ago`` seconds ago (a
    workload's lines, shown by its pods running ``image``, as a scenario's are): an error of
    its own build, then the exit."""
    at = env.clock.seconds() - ago
    error = _CRASHES[draw[0] % len(_CRASHES)].format(name=name, n=31 + draw[1] % 60)
    lines = [(at - 1.2, error, image), (at - 1.1, f"FATAL: {name} exiting: startup failed", image)]
    env.logs.workloads.setdefault((ns, name), []).extend(lines)


def steady_memory(env: Any, ns: str, name: str, limit_mi: int, draw: int) -> None:
    """A steady working set of ``name`` (30% to 39% of its limit), labelled as the worker's
    and a scenario's recorded memory series are, over the span of the longest recorded series
    of a declared Deployment of ``ns``; none where no declared Deployment there has one."""
    spans = [s.points[-1][0] - s.points[0][0] for s in _declared_series(env, ns) if s.points]
    labels = {"service": name, "namespace": ns, "job": name, "container": name}
    if not spans or any(s.name == MEMORY and s.labels == labels for s in env.metrics.series):
        return
    now, value = env.clock.seconds(), float(int(limit_mi * 2**20 * (30 + draw % 10) / 100))
    steps = int(max(spans) / STEP)
    points = [(now - max(spans) + k * STEP, value) for k in range(steps + 1)]
    env.metrics.add(MEMORY, labels, points, unit="bytes", hold_from=now)


def _declared_series(env: Any, ns: str) -> list[Any]:
    """Recorded series of ``ns`` a label of which names a declared Deployment of ``ns`` (its
    name, or a pod of it)."""
    names = {n for p, w, n in env.declared_keys if p == "deployments" and w == ns}

    def names_one(value: str) -> bool:
        return value in names or any(value.startswith(n + "-") for n in names)

    return [
        s
        for s in env.metrics.series
        if s.labels.get("namespace") in (None, ns) and any(names_one(v) for v in s.labels.values())
    ]
