"""The prompt's subject when it names no workload exactly (issue 27): what an operator sent
to "the public API", "the cache-worker pod" or "trace abc123" looks at first.

Read from the survey's own objects: the Ingress or Service the prompt's words name, through
the Services' selectors, to the workloads whose pods they select; a word the prompt calls a
pod, to the pods whose name it begins and their workloads; a trace id, to the workloads the
trace's spans run in. Only when none resolves does the agent look at every workload.
"""

from __future__ import annotations

import re
from typing import Any

from .findings import name, selects, workload_of
from .reading import Survey

#: a trace id the operator gives: a token with a digit, after the word "trace"
TRACE_ID = re.compile(r"\btrace(?:\s+id)?\s+([a-z0-9]*\d[a-z0-9]*)\b", re.IGNORECASE)


def words(prompt: str) -> set[str]:
    """The prompt's lower-case words, hyphenated names kept whole."""
    return set(re.findall(r"[a-z0-9][a-z0-9-]*", prompt.lower()))


def resolve(prompt: str, view: Survey) -> list[str]:
    """The workloads the prompt's pod prefix, trace id or entry point leads to, in that order."""
    return pod_prefixed(prompt, view) or traced(prompt, view) or entry_points(prompt, view)


def named_first(prompt: str, pods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``pods`` with those of the workloads the prompt spells (hyphens or spaces) or calls a
    pod first: the subject's logs are read before any other unhealthy pod's."""
    low = " ".join(re.findall(r"[a-z0-9]+", prompt.lower()))
    said = {w.rstrip("-") for w in re.findall(r"([a-z0-9][a-z0-9-]{2,})\s+pods?\b", prompt.lower())}

    def spelled(pod: dict[str, Any]) -> bool:
        wl = workload_of(pod).replace("-", " ")
        return bool(re.search(rf"(?<![a-z0-9]){re.escape(wl)}(?![a-z0-9])", low)) or any(
            name(pod).startswith(w + "-") for w in said
        )

    return sorted(pods, key=lambda p: not spelled(p))


def pod_prefixed(prompt: str, view: Survey) -> list[str]:
    """The workloads of the pods whose name begins with a word the prompt calls a pod."""
    said = re.findall(r"([a-z0-9][a-z0-9-]{2,})\s+pods?\b", prompt.lower())
    pods = sorted(view.objects.get("pod", []), key=name)
    out = [workload_of(p) for w in said for p in pods if name(p).startswith(w.rstrip("-") + "-")]
    return list(dict.fromkeys(out))


def traced(prompt: str, view: Survey) -> list[str]:
    """The workloads the spans of the trace the prompt names run in."""
    ids = [i.lower() for i in TRACE_ID.findall(prompt)]
    services = {
        span.service
        for tid, spans in sorted(view.traces.items())
        if any(i in tid.lower() for i in ids)
        for span in spans
    }
    workloads = {workload_of(p) for p in view.objects.get("pod", [])}
    return sorted(services & workloads)


def _named(obj: dict[str, Any], said: set[str]) -> bool:
    """Whether the prompt's words name an Ingress or Service: every token of its name, or the
    first label of a host it serves."""
    tokens = name(obj).split("-")
    if tokens != [""] and all(t in said for t in tokens):
        return True
    rules = (obj.get("spec") or {}).get("rules") or []
    hosts = [str(r.get("host") or "") for r in rules if isinstance(r, dict)]
    return any(h and h.split(".")[0] in said for h in hosts)


def _backends(ingress: dict[str, Any]) -> list[str]:
    """The Service names an Ingress routes to."""
    spec = ingress.get("spec") or {}
    found = [spec.get("defaultBackend") or {}]
    for rule in spec.get("rules") or []:
        found += [p.get("backend") or {} for p in ((rule.get("http") or {}).get("paths") or [])]
    names = [(b.get("service") or {}).get("name") or b.get("serviceName") for b in found]
    return [str(n) for n in names if n]


def entry_points(prompt: str, view: Survey) -> list[str]:
    """The workloads behind the Ingress or Service the prompt names, through the Services'
    selectors."""
    said = words(prompt)
    services = {name(s): s for s in view.objects.get("service", [])}
    wanted = [n for n, s in services.items() if _named(s, said)]
    for ing in view.objects.get("ingress", []):
        if _named(ing, said):
            wanted += _backends(ing)
    out = [
        workload_of(p)
        for n in dict.fromkeys(wanted)
        if n in services
        for p in sorted(view.objects.get("pod", []), key=name)
        if selects(
            (services[n].get("spec") or {}).get("selector") or {},
            (p.get("metadata") or {}).get("labels") or {},
        )
    ]
    return list(dict.fromkeys(out))
