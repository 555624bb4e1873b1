"""What a read reads (issue 13; core §3.4, §3.5.2): whether one successful, in-scope agent
read reads a carrier (:class:`._carriers.Carrier`), decided per carrier kind.

Split out of :mod:`._reads` (the evidence gate) by job. A pod log read counts for its
workload (pod-name prefix); a metrics query when it names a series (its words) or the object
(a label value) or selects its namespace alone (``{namespace="default"}`` returns every
series seeded there, rule 378); a state read when it gets, lists or describes the object's
kind (pods and replica sets for a workload) in its namespace. Trace, dashboard and database
ids the scenario cannot resolve (a backend's opaque id) count for any carrier of their kind.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from ...spec.kinds import CLUSTER_SCOPED
from .. import bodies
from ..bodies import query_of
from ..evidence import AuditEntry
from . import findings
from ._carriers import DATABASE, GITOPS, Carrier
from ._words import name_regex

__all__ = ["read_by", "uri_param"]

#: words of a series name too common to identify it (``memory_usage`` ~ any memory series)
_GENERIC = frozenset(
    {"usage", "use", "total", "bytes", "seconds", "ms", "count", "trend", "normal", "current",
     "value", "last", "avg", "max", "min", "sum", "percent", "pct"}
)  # fmt: skip
_IDENT = re.compile(r"[A-Za-z_:][\w:]*")
#: a label matcher (``app="api"``): the name read from its first character only (a match
#: cannot start inside a word that one from its start missed; issue 30: each position of a
#: word was read to its end again)
_LABEL = re.compile(r'(?<!\w)(\w+)\s*(?:=~|!~|!=|=)\s*"([^"]*)"')
_NS_ONLY = re.compile(r'\{\s*namespace\s*=\s*"([\w.-]+)"\s*\}')
#: a workload is read through its pods and replica sets; a service through its endpoints
_RELATED = {
    **{w: frozenset({w, "pods", "replicasets"}) for w in findings.WORKLOADS if w != "pods"},
    "pods": frozenset({"pods"}),
    "services": frozenset({"services", "endpoints", "endpointslices"}),
}


def _uri_param(entry: AuditEntry, key: str) -> str | None:
    uri = bodies.extra(entry, "requestURI", "request_uri", "uri")
    if isinstance(uri, str) and "?" in uri:
        values = parse_qs(urlsplit(uri).query).get(key)
        return values[0] if values else None
    return None


#: a request's query parameter (a pod log read's ``container``)
uri_param = _uri_param


def _plain(value: str) -> list[str]:
    """The literal alternatives of a label value (``a|b`` -> a, b; regex parts dropped)."""
    return [p for p in value.split("|") if re.fullmatch(r"[\w.-]+", p)]


def _same_ns(c: Carrier, ns: str | None) -> bool:
    return c.namespace is None or ns is None or ns == c.namespace


def _names(name: str, targets: tuple[str, ...], pods: bool = True) -> bool:
    """``name`` is a target, or (``pods``) a pod or replica set of one (name prefix)."""
    return any(name == t or (pods and name.startswith(t + "-")) for t in targets if t)


def _related_id(read: str, target: str) -> bool:
    """A backend id naming the target: equal, or one a prefix/suffix of the other (>= 3)."""
    a, b = read.lower(), target.lower()
    return a == b or (
        min(len(a), len(b)) >= 3
        and (a.endswith(b) or b.endswith(a) or a.startswith(b) or b.startswith(a))
    )


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _words(name: str) -> set[str]:
    return {w for w in re.split(r"[_:\W]+", name.lower()) if w}


def _names_series(identifier: str, series: str) -> bool:
    """A query identifier names a series when it holds the series' significant words."""
    want = _words(series) - _GENERIC
    return bool(want) and want <= _words(identifier)


def _reads_logs(entry: AuditEntry, c: Carrier) -> bool:
    resource, ns, name = bodies.resource_of(entry), bodies.effective_namespace(entry), entry.name
    init = bool(c.container) and c.resource != "logs"
    if resource == "pods" and entry.subresource == "log":
        container = _uri_param(entry, "container")
        if c.container and (container or init) and container != c.container:
            return False
        return _same_ns(c, ns) and bool(name) and _names(name or "", c.targets)
    if resource != "logs" or not _same_ns(c, ns):
        return False
    if init:
        # rule 225: an init container's log is read only by a query naming it (rule 213's
        # read); a namespace's or its workload's stream is the app containers' log
        return bool(name_regex(c.container or "").search(query_of(entry)))
    if name:
        return _names(name, c.targets)
    selectors = [
        p for k, v in _LABEL.findall(query_of(entry)) if k != "namespace" for p in _plain(v)
    ]
    return not selectors or any(_names(s, c.targets) for s in selectors)


def _reads_metrics(entry: AuditEntry, c: Carrier) -> bool:
    resource = bodies.resource_of(entry)
    if resource == "alerts" and c.resource == "alerts":
        return True
    if resource not in ("metrics", "alerts"):
        return False
    query = query_of(entry)
    idents = [i for i in _IDENT.findall(re.sub(r'"[^"]*"', " ", query))]
    if any(_names_series(i, s) for i in idents for s in c.series):
        return True
    if ns_only := _NS_ONLY.fullmatch(query.strip()):  # rule 378: every series of the namespace
        return c.resource == "metrics" and _same_ns(c, ns_only[1])
    values = [p for k, v in _LABEL.findall(query) if k != "namespace" for p in [v, *_plain(v)]]
    return any(_names(v, c.targets) or _regex_names(v, c.targets) for v in values)


def _regex_names(pattern: str, targets: tuple[str, ...]) -> bool:
    if not re.search(r"[.*+?\[\]()]", pattern):
        return False
    try:
        return any(re.fullmatch(pattern, t) for t in targets if t)
    except re.error:
        return False


def _ids(c: Carrier) -> tuple[str, ...]:
    """The names a backend id may take: a trace's name (its services are not ids), a
    dashboard's name and title, a database's name and database."""
    return c.targets[:1] if c.kind == "traces" else c.targets[:2]


def _reads_backend(entry: AuditEntry, c: Carrier, others: list[Carrier]) -> bool:
    """Traces and dashboards (opened by id), databases (queried by name or the only one)."""
    resource, name = bodies.resource_of(entry) or "", entry.name
    if c.kind == "database":
        if not DATABASE.search(resource):
            return False
    elif resource != c.kind or entry.verb.lower() != "get":
        return False
    if not name:
        return c.kind == "database"

    def same(target: str) -> bool:
        if c.kind == "dashboards":
            return _slug(target) == _slug(name or "")
        return _related_id(name or "", target)

    if any(same(t) for t in _ids(c)):
        return True
    # an id no carrier of the kind resolves (a backend's opaque id): it opened one of them
    return not any(same(t) for o in others if o.kind == c.kind for t in _ids(o))


def _reads_state(entry: AuditEntry, c: Carrier) -> bool:
    if entry.subresource and entry.subresource not in ("status", "scale"):
        return False
    resource = bodies.resource_of(entry)
    if resource not in _RELATED.get(c.resource or "", frozenset({c.resource})):
        return False
    name = bodies.object_name(entry) if entry.verb.lower() == "get" else entry.name
    if c.resource == "namespaces" or c.resource in CLUSTER_SCOPED:
        return name is None or _names(name, c.targets, pods=False) or not c.targets
    if not _same_ns(c, bodies.effective_namespace(entry)):
        return False
    return name is None or not c.targets or _names(name, c.targets, pods=resource != c.resource)


def read_by(entry: AuditEntry, c: Carrier, others: list[Carrier]) -> bool:
    """Whether a (successful, in-scope) read reads carrier ``c`` (module docstring)."""
    if c.kind == "logs":
        return _reads_logs(entry, c)
    if c.kind == "metrics":
        return _reads_metrics(entry, c)
    if c.kind in ("traces", "dashboards", "database"):
        return _reads_backend(entry, c, others)
    if c.kind == "events":
        return bodies.resource_of(entry) == "events" and _same_ns(
            c, bodies.effective_namespace(entry)
        )
    if c.kind == "gitops":
        resource = bodies.resource_of(entry) or ""
        return bool(GITOPS.search(resource)) and (
            not entry.name or _names(entry.name, c.targets, False)
        )
    return _reads_state(entry, c)
