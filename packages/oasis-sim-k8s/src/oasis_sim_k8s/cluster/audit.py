"""The API server audit log (SI provider guide §2.1; interop §2).

Every request the :class:`~.apiserver.ApiServer` serves, allowed or denied, read or
write, becomes one flattened Kubernetes audit event::

    {auditID, stage: "ResponseComplete", verb, resource, subresource?, name?,
     namespace?, user, timestamp, requestURI, request_body?, response_code,
     label_selector?, raw: <audit.k8s.io/v1 Event>, data: {agent_principal?}}

``data.agent_principal`` is set only on calls made in the agent's session (the
agent's own user, or other credentials the agent used); the provider's setup
writes and controller writes carry their own users and no session mark, so the
engine never attributes them to the agent. Timestamps are simulated
(millisecond, fixed width, strictly increasing).

Time windows: a bound inside the simulated era (the epoch day up to now) is
compared with the simulated timestamp; a bound outside it (the engine passes
wall-clock instants) is compared with the wall-clock receipt time kept privately
per entry. So a window taken around the agent's run selects exactly the calls
made during it, whichever clock the caller used.
"""

from __future__ import annotations

import hashlib
import json
import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import quote

from oasis_eval.contract import (
    RESPONSE_LINES,
    RESPONSE_SHA256,
    SELECTED_SERIES,
    SELECTED_SERIES_MOST,
    SERVED_VALUES,
    SERVED_VALUES_MOST,
    nonempty_lines,
)

from .clock import parse_ts
from .rbac import group_version, resource_namespaced
from .store import clone, plural_of

READ_VERBS = ("get", "list", "watch")


@dataclass
class Served:
    """One listener request being served (:mod:`.gate`): how many audit entries it wrote, so
    the gate audits a request nothing else audited (every request is evidence, issue 25)."""

    #: the audit entries written while serving it (the gate labels them with the listener's
    #: protocol and the credential)
    entries: list[dict[str, Any]] = field(default_factory=list)


#: the listener request the current task serves (None outside one)
SERVING: ContextVar[Served | None] = ContextVar("sim_k8s_serving", default=None)


def request_uri(
    resource: str,
    namespace: str | None,
    name: str | None,
    subresource: str | None,
    params: dict[str, Any] | None,
) -> str:
    version = group_version(resource)
    base = "/api/v1" if version == "v1" else f"/apis/{version}"
    path = base + (
        f"/namespaces/{namespace}" if namespace and resource_namespaced(resource, namespace) else ""
    )
    path += (
        f"/{resource}" + (f"/{name}" if name else "") + (f"/{subresource}" if subresource else "")
    )
    query = "&".join(
        f"{k}={quote(str(v), safe='')}"
        for k, v in sorted((params or {}).items())
        if v not in (None, "") and not isinstance(v, (dict, list))
    )
    return path + (f"?{query}" if query else "")


def is_log_read(entry: dict[str, Any]) -> bool:
    """An audit entry of a log read: a pod's ``log`` subresource, a logging backend's ``logs``."""
    return (entry.get("resource") == "pods" and entry.get("subresource") == "log") or entry.get(
        "resource"
    ) == "logs"


def note_response(entry: dict[str, Any], text: str) -> None:
    """Annotate the log read ``entry`` with what it served (``text``, the response the agent
    received): ``RESPONSE_LINES`` and ``RESPONSE_SHA256``, the contract's names (docs/sim-k8s.md
    "What a log read served"). A pure function of the text, so a replay annotates
    byte-identically."""
    raw = entry.get("raw")
    if not isinstance(raw, dict):
        return
    annotations = raw.setdefault("annotations", {})
    annotations[RESPONSE_LINES] = str(nonempty_lines(text))
    annotations[RESPONSE_SHA256] = hashlib.sha256(text.encode()).hexdigest()


def note_series(entry: dict[str, Any], series: list[dict[str, str]]) -> None:
    """Annotate the metrics read ``entry`` with the label sets of the series its query's
    selectors selected (rule 642, ``SELECTED_SERIES``; docs/sim-k8s.md "What a metrics query
    selected"), none past ``SELECTED_SERIES_MOST``. Sorted JSON: a replay annotates
    byte-identically."""
    raw = entry.get("raw")
    if not isinstance(raw, dict) or len(series) > SELECTED_SERIES_MOST:
        return
    text = json.dumps(series, sort_keys=True, separators=(",", ":"))
    raw.setdefault("annotations", {})[SELECTED_SERIES] = text


def served_values(data: Any) -> list[dict[str, Any]]:
    """The values a Prometheus answer's ``data`` served, per series (rule 703): each series'
    label set as served and its distinct values as served (strings, sorted by number), the
    series sorted by label set; a scalar is the series of no label. Nothing for a ``series``
    answer (label sets only) or anything else."""
    if not isinstance(data, dict) or not isinstance(result := data.get("result"), list):
        return []
    if data.get("resultType") == "scalar":
        rows: list[tuple[dict[str, Any], list[Any]]] = [({}, [result])]
    else:
        rows = [
            (r.get("metric") or {}, r.get("values") or [r.get("value")])
            for r in result
            if isinstance(r, dict)
        ]
    out: dict[str, dict[str, Any]] = {}
    for metric, points in rows:
        labels = {str(k): str(v) for k, v in sorted(metric.items())}
        said = {str(p[1]) for p in points if isinstance(p, list) and len(p) == 2}
        key = json.dumps(labels, sort_keys=True)
        known = out.setdefault(key, {"metric": labels, "values": []})
        known["values"] = sorted(said | set(known["values"]), key=_as_number)
    return [out[k] for k in sorted(out)]


def _as_number(value: str) -> tuple[float, str]:
    try:
        return float(value), value
    except ValueError:
        return float("inf"), value


def note_values(entry: dict[str, Any], data: Any) -> None:
    """Annotate the metrics read ``entry`` with the values its answer ``data`` served, per
    series (rule 703, ``SERVED_VALUES``; docs/sim-k8s.md "What a metrics read served"), none
    past ``SERVED_VALUES_MOST`` values in all. Sorted JSON, values as served: a replay
    annotates byte-identically."""
    raw = entry.get("raw")
    series = served_values(data)
    if not isinstance(raw, dict) or sum(len(s["values"]) for s in series) > SERVED_VALUES_MOST:
        return
    text = json.dumps(series, sort_keys=True, separators=(",", ":"))
    raw.setdefault("annotations", {})[SERVED_VALUES] = text


def note_usage(entries: list[dict[str, Any]], usage: list[tuple[dict[str, str], float]]) -> None:
    """Annotate the successful pod and node reads among ``entries`` (the reads one ``kubectl
    top`` or ``metrics.k8s.io`` request made) with the memory it served, per labelled object
    (``{"namespace", "pod"[, "container"]}`` or ``{"node"}``): ``SERVED_VALUES`` as
    :func:`note_values` writes it, each value the bytes of the quantity shown (rule 703)."""
    rows = [
        {"metric": dict(sorted(labels.items())), "values": [str(int(v))]} for labels, v in usage
    ]
    rows.sort(key=lambda r: json.dumps(r, sort_keys=True))
    if not rows or len(rows) > SERVED_VALUES_MOST:
        return
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"))
    for entry in entries:
        raw = entry.get("raw")
        read = entry.get("resource") in ("pods", "nodes") and not entry.get("subresource")
        if read and isinstance(raw, dict) and int(entry.get("response_code") or 0) < 400:
            raw.setdefault("annotations", {})[SERVED_VALUES] = text


def _object_ref(
    resource: str, namespace: str | None, name: str | None, subresource: str | None
) -> dict[str, Any]:
    """An audit event's ``objectRef``: the fields that have a value."""
    group, _, version = group_version(resource).rpartition("/")
    ref = {
        "resource": resource,
        "namespace": namespace,
        "name": name,
        "subresource": subresource,
        "apiGroup": group or None,
        "apiVersion": version,
    }
    return {k: v for k, v in ref.items() if v}


class AuditLog:
    def __init__(self, env: Any):
        self.env = env
        self.entries: list[dict[str, Any]] = []
        self._wall: list[float] = []
        self.unreachable = False

    def record(
        self,
        *,
        user: str,
        verb: str,
        resource: str,
        namespace: str | None,
        name: str | None,
        subresource: str | None,
        code: int,
        body: Any,
        params: dict[str, Any] | None,
        session: str | None,
        reason: str = "",
        audit_id: str | None = None,
        copy_body: bool = True,
    ) -> dict[str, Any]:
        """One audit entry. ``copy_body=False``: ``body`` was handed over by the caller
        (``ApiServer.request(handed_over=True)``) and is kept as it is."""
        ts = self.env.clock.stamp()
        uri = request_uri(resource, namespace, name, subresource, params)
        write = verb not in READ_VERBS
        raw: dict[str, Any] = {
            "kind": "Event",
            "apiVersion": "audit.k8s.io/v1",
            "level": "RequestResponse" if write else "Metadata",
            "auditID": audit_id or self.env.ids.uid(),
            "stage": "ResponseComplete",
            "requestURI": uri,
            "verb": verb,
            "user": {"username": user, "groups": self.env.groups_of(user)},
            "sourceIPs": ["10.0.0.15"],
            "userAgent": "kubectl/v1.29.4 (linux/amd64) kubernetes/55019c8",
            "objectRef": _object_ref(resource, namespace, name, subresource),
            "responseStatus": {"metadata": {}, "code": code},
            "requestReceivedTimestamp": _micro(ts),
            "stageTimestamp": _micro(ts),
            "annotations": {
                "authorization.k8s.io/decision": "forbid" if code == 403 else "allow",
                "authorization.k8s.io/reason": reason,
            },
        }
        if code >= 400:
            raw["responseStatus"].update({"status": "Failure", "reason": _reason(code)})
        # one copy of a write's body, shared by the raw event and the flat entry: both are
        # read-only once recorded, and query() hands out copies (issue 30: the second copy
        # was a tenth of provisioning)
        kept = (clone(body) if copy_body else body) if write and body is not None else None
        if kept is not None:
            raw["requestObject"] = kept
        entry: dict[str, Any] = {
            "auditID": raw["auditID"],
            "stage": "ResponseComplete",
            "verb": verb,
            "resource": resource,
            "user": user,
            "timestamp": ts,
            "requestURI": uri,
            "response_code": code,
        }
        if subresource:
            entry["subresource"] = subresource
        if name:
            entry["name"] = name
        if namespace:
            entry["namespace"] = namespace
        if kept is not None:
            entry["request_body"] = kept
        selector = (params or {}).get("labelSelector")
        if selector:
            entry["label_selector"] = selector
        entry["raw"] = raw
        entry["data"] = {"agent_principal": session} if session else {}
        self.entries.append(entry)
        serving = SERVING.get()
        if serving is not None:
            serving.entries.append(entry)
        self._wall.append(time.time())
        return entry

    def adopt(self, entries: list[dict[str, Any]]) -> None:
        """Entries of a copied platform (``injection/platform.py``), received now: the
        environment's provision (their wall receipt time is this instant)."""
        now = time.time()
        self.entries.extend(entries)
        self._wall.extend([now] * len(entries))

    def query(
        self,
        time_from: str | None = None,
        time_to: str | None = None,
        namespace: str | None = None,
        verb: str | None = None,
        resource_type: str | None = None,
        user: str | None = None,
    ) -> list[dict[str, Any]]:
        lo, hi = parse_ts(time_from), parse_ts(time_to)
        era_lo = self.env.clock.start - timedelta(days=1)
        era_hi = self.env.clock.now() + timedelta(days=1)
        either = self.env.clock.wall is not None
        out = []

        want_resource = plural_of(resource_type) or resource_type.lower() if resource_type else None
        for entry, wall in zip(self.entries, self._wall):
            sim = parse_ts(entry["timestamp"])
            if lo is not None and not _after(lo, sim, wall, era_lo, era_hi, either):
                continue
            if hi is not None and not _before(hi, sim, wall, era_lo, era_hi, either):
                continue
            if (
                namespace
                and entry.get("namespace") != namespace
                and not (entry["resource"] == "namespaces" and entry.get("name") == namespace)
            ):
                continue
            if verb and entry["verb"] != verb.lower():
                continue
            if want_resource and entry["resource"] != want_resource:
                continue
            if user and entry["user"] != user:
                continue
            out.append(_copy(entry))
        return out


def _copy(entry: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``entry`` that shares nothing with the log, its write's body copied once
    and shared by ``request_body`` and ``raw.requestObject`` as in the log (:meth:`record`;
    issue 30: the second copy was about a quarter of handing out the audit log). Both keys
    keep their places, so the entry serialises to the same bytes."""
    raw, body = entry.get("raw"), entry.get("request_body")
    if body is None or not isinstance(raw, dict) or raw.get("requestObject") is not body:
        return clone(entry)
    kept = clone(body)
    out, event = entry.copy(), raw.copy()  # shallow copies keep every key in its place
    for copied, source in ((out, entry), (event, raw)):
        for key, value in source.items():
            if isinstance(value, _CONTAINERS) and value is not body and value is not raw:
                copied[key] = clone(value)
    out["request_body"] = event["requestObject"] = kept
    out["raw"] = event
    return out


_CONTAINERS = (dict, list)


def _after(
    bound: Any, sim: Any, wall: float, era_lo: Any, era_hi: Any, either: bool = False
) -> bool:
    """An entry is at or after ``bound``: by its simulated stamp when the bound is in the
    clock's era, else by its wall receipt time. A clock that follows the wall (issue 32)
    shares its era with the wall clock and may run ahead of it by the steps of fast calls, so
    either time inside the bound keeps the entry: a window never loses an agent call."""
    if era_lo <= bound <= era_hi:
        return sim >= bound or (either and wall >= bound.timestamp())
    return wall >= bound.timestamp()


def _before(
    bound: Any, sim: Any, wall: float, era_lo: Any, era_hi: Any, either: bool = False
) -> bool:
    """An entry is at or before ``bound`` (the rules of :func:`_after`)."""
    if era_lo <= bound <= era_hi:
        return sim <= bound or (either and wall <= bound.timestamp())
    return wall <= bound.timestamp()


def _micro(ts: str) -> str:
    return ts[:-1] + "000Z"


def _reason(code: int) -> str:
    return {
        400: "BadRequest",
        403: "Forbidden",
        401: "Unauthorized",
        404: "NotFound",
        405: "MethodNotAllowed",
        409: "AlreadyExists",
        413: "RequestEntityTooLarge",
        415: "UnsupportedMediaType",
        422: "Invalid",
        500: "InternalError",
    }.get(code, "Unknown")
