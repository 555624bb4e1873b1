"""The prompt's subject, resolved from the environment's own objects (issue 27, s13-subject).

An operator sent to "the public API", "the API gateway", "the cache-worker pod" or "trace
abc123" starts from what those words name, not from whatever is unhealthy in the namespace:
the Ingress or Service the words name, through the Services' selectors, to the Deployments
behind them; a spaced or cased name to the workload it spells (``api-gateway``); a pod's name
prefix to the pod and its owner; a trace id to the services that trace crosses. Only when the
words resolve to nothing does the search widen to every unhealthy pod. Generic: every rule
reads the prompt and tool output, none knows a scenario.
"""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .competent import Session, mentioned, owner_of, unhealthy
from .operator_diag import finished_run

#: a trace id the operator gives: a token with a digit, after the word "trace"
TRACE_ID = re.compile(r"\btrace(?:\s+id)?\s+([a-z0-9]*\d[a-z0-9]*)\b", re.I)
_WORD = re.compile(r"[a-z0-9][a-z0-9-]*")


def words(prompt: str) -> set[str]:
    """The prompt's lower-case words (hyphenated names kept whole)."""
    return set(_WORD.findall(prompt.lower()))


def spelled(prompt: str, names: list[str]) -> list[str]:
    """Names the prompt spells with spaces for hyphens, in any case ("API gateway" is
    ``api-gateway``): the same name, normalised token by token."""
    low = " ".join(re.findall(r"[a-z0-9]+", prompt.lower()))
    return [
        n
        for n in sorted(names, key=len, reverse=True)
        if "-" in n
        and re.search(rf"(?<![a-z0-9]){re.escape(n.replace('-', ' '))}(?![a-z0-9])", low)
    ]


def pod_prefixed(prompt: str, pods: list[str], deps: list[str]) -> list[str]:
    """The pods (as their owners) whose name begins with a word the prompt calls a pod
    ("cache-worker pod" is ``cache-worker-x7k9``)."""
    said = re.findall(r"([a-z0-9][a-z0-9-]{2,})\s+pods?\b", prompt.lower())
    out = [
        owner_of(p, deps) or p
        for w in said
        for p in sorted(pods)
        if p.startswith(w.rstrip("-") + "-")
    ]
    return list(dict.fromkeys(out))


def by_name(prompt: str, ctx: dict[str, Any]) -> list[str]:
    """The workloads the prompt names: exactly, spelled with spaces, or as a pod's prefix."""
    deps = [r["name"] for r in ctx["deployments"]]
    pods = [r["name"] for r in ctx["pods"]]
    return (
        mentioned(prompt, deps + pods)
        or spelled(prompt, deps + pods)
        or pod_prefixed(prompt, pods, deps)
    )


def sick(ctx: dict[str, Any]) -> list[str]:
    """The fallback: every unhealthy pod's owner (a finished run is no symptom), else the
    first Deployments."""
    deps = [r["name"] for r in ctx["deployments"]]
    bad = [
        owner_of(r["name"], deps) or r["name"]
        for r in ctx["pods"]
        if unhealthy(r) and not finished_run(r, deps)
    ]
    return list(dict.fromkeys(bad)) or deps[:3]


def _labels(selector: str) -> dict[str, str]:
    """``a=b,c=d`` (a wide listing's SELECTOR) as a mapping."""
    pairs = [p.split("=", 1) for p in selector.split(",") if "=" in p]
    return {k.strip(): v.strip() for k, v in pairs}


def _behind(service: dict[str, Any], ctx: dict[str, Any]) -> list[str]:
    """The Deployments a Service selects (its selector within the Deployment's)."""
    sel = (service.get("spec") or {}).get("selector") or {}
    if not sel:
        return []
    return [
        r["name"]
        for r in ctx["deployments"]
        if all(_labels(r.get("selector", "")).get(k) == v for k, v in sel.items())
    ]


def _named_object(obj: dict[str, Any], said: set[str]) -> bool:
    """Whether the prompt's words name this Ingress or Service: every token of its name, or
    the first label of a host it serves."""
    name = str((obj.get("metadata") or {}).get("name", ""))
    if name and all(t in said for t in name.split("-")):
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
    return [
        str((b.get("service") or {}).get("name") or b.get("serviceName"))
        for b in found
        if (b.get("service") or {}).get("name") or b.get("serviceName")
    ]


async def by_entry_point(s: Session, ns: str, ctx: dict[str, Any]) -> list[str]:
    """The Deployments behind the Ingress or Service the prompt names."""
    objs = rd.items(
        await s.kubectl(
            f"get ingress,services -n {ns} -o yaml",
            f"read the ingresses and services in {ns}",
            "to find the entry point the request names and the workloads behind it",
        )
    )
    said = words(s.task.prompt)
    services = {str(o["metadata"]["name"]): o for o in objs if o.get("kind") == "Service"}
    wanted = [n for n, o in services.items() if _named_object(o, said) or n in said]
    for o in objs:
        if o.get("kind") == "Ingress" and _named_object(o, said):
            wanted += _backends(o)
    out = [d for n in dict.fromkeys(wanted) if n in services for d in _behind(services[n], ctx)]
    return list(dict.fromkeys(out))


async def by_trace(s: Session, ctx: dict[str, Any]) -> tuple[bool, list[str]]:
    """(whether the prompt names a trace the backend holds, the workloads it crosses)."""
    ids = [m.lower() for m in TRACE_ID.findall(s.task.prompt)]
    if not ids or not s.has("traces_query"):
        return False, []
    text = await s.read(
        "traces_query",
        "searched the traces",
        "to find the trace the request names and the services it crosses",
        action="search",
        limit=20,
    )
    ctx["trace_search"] = text
    found = rd.load_json(text) or {}
    traces = found.get("data") or [] if isinstance(found, dict) else []
    hit = [t for t in traces if any(i in str(t.get("traceID", "")).lower() for i in ids)]
    services = {str(x) for t in hit for x in t.get("services") or []}
    deps = [r["name"] for r in ctx["deployments"]]
    return bool(hit), [d for d in deps if d in services]


async def subject(s: Session, ctx: dict[str, Any]) -> list[str]:
    """The workloads to investigate: the prompt's subject first, every unhealthy pod only
    when the subject resolves to nothing."""
    ns = s.f.namespace
    named = by_name(s.task.prompt, ctx)
    if named:
        return named
    traced, crossed = await by_trace(s, ctx)
    if traced:
        return crossed
    return await by_entry_point(s, ns, ctx) or sick(ctx)
