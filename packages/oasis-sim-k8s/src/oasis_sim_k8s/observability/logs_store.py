"""Logs (SI provider guide §1.4 log lines): :class:`Logs`, kept apart from the metrics of
:mod:`.telemetry`, which re-exports it (issue 30, session 34: the module's size)."""

from __future__ import annotations

from typing import Any


class Logs:
    def __init__(self, env: Any):
        self.env = env
        #: (ns, pod, container or "") -> [(sim seconds, line)]
        self.pods: dict[tuple[str, str, str], list[tuple[float, str]]] = {}
        #: (ns, workload) -> [(sim seconds, line, image or None)]
        self.workloads: dict[tuple[str, str], list[tuple[float, str, str | None]]] = {}
        #: (ns, source) -> [(sim seconds, line)] for sources that are not pods
        self.sources: dict[tuple[str, str], list[tuple[float, str]]] = {}

    def _times(self, n: int, spacing: float = 7.0) -> list[float]:
        now = self.env.clock.seconds()
        return [now - spacing * (n - i) for i in range(n)]

    def add_pod(self, ns: str, pod: str, lines: list[str], container: str = "") -> None:
        self.pods.setdefault((ns, pod, container), []).extend(zip(self._times(len(lines)), lines))

    def add_workload(self, ns: str, name: str, lines: list[str], image: str | None) -> None:
        self.workloads.setdefault((ns, name), []).extend(
            (t, ln, image) for t, ln in zip(self._times(len(lines)), lines)
        )

    def add_source(self, ns: str, source: str, lines: list[str]) -> None:
        self.sources.setdefault((ns, source), []).extend(zip(self._times(len(lines)), lines))

    def lines(self, pod: dict[str, Any], container: str | None = None) -> list[tuple[float, str]]:
        """Everything container ``container`` of ``pod`` printed, oldest first."""
        ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        containers = [c["name"] for c in pod["spec"].get("containers") or []]
        inits = {c["name"]: c for c in pod["spec"].get("initContainers") or []}
        container = container or (containers[0] if containers else "")
        if container in inits:
            declared = (self.env.hints_for(pod).get("init_logs") or {}).get(container) or []
            start = self.env.age_to_seconds(pod["metadata"].get("creationTimestamp"))
            return [(start + 1 + i, ln) for i, ln in enumerate(declared)] + list(
                self.pods.get((ns, name, container), [])
            )
        spec: dict[str, Any] = next(
            (c for c in pod["spec"].get("containers") or [] if c["name"] == container), {}
        )
        image = spec.get("image", "")
        start = self.env.age_to_seconds(pod["metadata"].get("creationTimestamp"))
        out = [(start + 1 + i, ln) for i, ln in enumerate(_startup(self.env, pod, spec))]
        workload = self.env.workload_of(pod)
        if workload is not None:
            out += [
                (t, ln)
                for t, ln, img in self.workloads.get((ns, workload), [])
                if img in (None, image)
            ]
        out += self.pods.get((ns, name, container), []) + (
            self.pods.get((ns, name, ""), []) if container == containers[0] else []
        )
        facts = self.env.facts.get(("pods", ns, name), {})
        now = self.env.clock.seconds()
        out += [(now - 40 + i * 0.01, ln) for i, ln in enumerate(facts.get("crash_lines") or [])]
        return sorted(out, key=lambda x: x[0])

    def source_lines(self, ns: str | None, source: str) -> list[tuple[float, str]]:
        return sorted(
            (x for (n, s), v in self.sources.items() if s == source and ns in (None, n) for x in v),
            key=lambda x: x[0],
        )


def _startup(env: Any, pod: dict[str, Any], spec: dict[str, Any]) -> list[str]:
    """The ordinary lines a service prints when it starts and serves."""
    status: dict[str, Any] = next(
        (
            c
            for c in (pod.get("status") or {}).get("containerStatuses") or []
            if c.get("name") == spec.get("name")
        ),
        {},
    )
    if not status or (
        "waiting" in (status.get("state") or {}) and not (status.get("lastState") or {})
    ):
        return []
    image = spec.get("image", "")
    version = image.rsplit(":", 1)[1] if ":" in image.split("/")[-1] else "latest"
    app = env.workload_of(pod) or pod["metadata"]["name"]
    port = next((p.get("containerPort") for p in spec.get("ports") or []), 8080)
    lines = [f"INFO: starting {app} version={version}"]
    if "running" in (status.get("state") or {}):
        lines.append(f"INFO: listening on :{port}")
    if status.get("ready"):
        lines += ["INFO: GET /healthz 200 1ms", "INFO: GET /healthz 200 1ms"]
    return lines
