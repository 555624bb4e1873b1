"""A captured audit log: its entries shape-checked in one pass, its log order, its duplicates.

An audit log can hold a million entries while verification reads mostly the
agent's. :func:`scan_log` checks every entry once (once per *shape*, the keys and
value types, which a log has a handful of) and leaves those pydantic would accept
unchanged as plain dicts; they become AuditEntry objects on first use, identical
to what ``AuditEntry.model_validate`` builds. On the way it learns whether the log
is already in log order with unique auditIDs (the usual case), so the index needs
neither a sort nor a de-duplication pass. The rules themselves (order, duplicates,
attribution) are stated in :mod:`.audit`.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from datetime import datetime
from itertools import islice
from typing import Any

from .evidence import AuditEntry, build_audit_entry, plain_audit_data, plain_audit_shape


class AuditLog(Sequence[AuditEntry]):
    """The audit entries of a capture, in capture order, shape-checked in one pass.

    Entries that :func:`~.evidence.plain_audit_entry` vouches for stay plain dicts until
    read (then they become the same AuditEntry ``model_validate`` builds); the others went
    through pydantic at once, so a malformed entry raises here exactly as before.
    ``scan`` is what that pass learnt about log order and attribution (None: nothing).
    """

    def __init__(self, items: list[Any], scan: LogScan | None = None):
        self._items = items
        self.scan = scan

    def raw_items(self) -> list[Any]:
        """Plain dicts and AuditEntry objects, in capture order (for :class:`~.audit.AuditIndex`)."""
        return self._items

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._items)))]
        item = self._items[index]
        return build_audit_entry(item) if type(item) is dict else item

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, AuditLog)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    # unhashable like list; typeshed declares __hash__ a method, hence the ignore
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AuditLog({len(self._items)} entries)"


class LogScan:
    """A log already in log order (plain dicts, unique auditIDs, fixed-width UTC timestamps
    strictly increasing), grouped for attribution: positions per ``user``, and the positions
    that carry a session mark or a credential flag (non-empty ``data``, ``external_credentials``)."""

    def __init__(self, by_user: dict[Any, list[int]], marked: list[int]):
        self.by_user = by_user
        self.marked = marked


def scan_log(raw: list[Any]) -> AuditLog:
    """One pass: shape check (once per shape), validation of the rest, and the facts the
    index needs to skip sorting and de-duplication (hot loop over up to millions: keep it flat)."""
    out: list[Any] = []
    append = out.append
    shapes: dict[tuple[Any, ...], tuple[bool, bool]] = {}
    by_user: dict[Any, list[int]] = {}
    marked: list[int] = []
    seen: set[str] = set()
    add = seen.add
    ordered = True
    prev = ""
    width = 0
    for i, item in enumerate(raw):
        if type(item) is dict:
            shape = (*item, *map(type, item.values()))
            info = shapes.get(shape)
            if info is None:
                info = shapes[shape] = (plain_audit_shape(item), "external_credentials" in item)
            data = item.get("data")
            if info[0] and (not data or plain_audit_data(data)):
                append(item)
                if not ordered:
                    continue
                ts = item.get("timestamp")
                if not ts or ts[-1] != "Z":
                    ordered = False
                    continue
                if not i:
                    width = len(ts)
                elif len(ts) != width or ts <= prev:
                    ordered = False
                    continue
                prev = ts
                audit_id = item.get("auditID")
                if audit_id is None:
                    ordered = False
                    continue
                add(audit_id)
                user = item.get("user")
                group = by_user.get(user)
                if group is None:
                    by_user[user] = [i]
                else:
                    group.append(i)
                if data or info[1]:
                    marked.append(i)
                continue
        ordered = False
        append(item if isinstance(item, AuditEntry) else AuditEntry.model_validate(item))
    scan = LogScan(by_user, marked) if ordered and len(seen) == len(out) else None
    return AuditLog(out, scan)


def ts_key(ts: str | None) -> tuple[int, Any]:
    if not ts:
        return (0, "")
    try:
        return (1, datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return (2, ts)


def entry_field(item: Any, key: str, name: str) -> Any:
    """A field of a plain dict entry (by its input key) or of an AuditEntry (by name)."""
    return item.get(key) if type(item) is dict else getattr(item, name)


def dedupe(items: list[Any], ids: list[Any]) -> list[int]:
    """Positions of the entries that survive de-duplication by auditID, in log order. An empty
    auditID identifies nothing: entries carrying one are all kept (else one would stand for all)."""
    if len(set(ids)) == len(ids):
        return list(range(len(items)))  # no duplicate (and at most one entry without an id)
    seen: dict[str, int] = {}
    out: list[int] = []
    for i, key in enumerate(ids):
        if not key:  # no id (None, or an empty one): not the same call as any other entry
            out.append(i)
            continue
        at = seen.get(key)
        if at is None:
            seen[key] = len(out)
            out.append(i)
        elif entry_field(items[i], "stage", "stage") == "ResponseComplete" or (
            entry_field(items[out[at]], "response_code", "response_code") is None
            and entry_field(items[i], "response_code", "response_code") is not None
        ):
            out[at] = i
    return out


def log_order(kept: list[int], stamps: list[Any], ids: list[Any]) -> list[int]:
    """``kept`` sorted by (timestamp, auditID, slot); fixed-width UTC stamps compare as text."""
    ts = [stamps[i] for i in kept]
    uniform = not ts or (
        set(map(type, ts)) == {str}
        and len(set(map(len, ts))) == 1
        and ts[0]
        and all(t.endswith("Z") for t in ts)
    )
    if uniform and all(map(operator.lt, ts, islice(ts, 1, None))):
        return kept  # strictly increasing already: the usual simulated or real log
    if uniform:
        slots = sorted(range(len(kept)), key=lambda j: (ts[j] or "", ids[kept[j]] or "", j))
    else:
        slots = sorted(range(len(kept)), key=lambda j: (ts_key(ts[j]), ids[kept[j]] or "", j))
    return [kept[j] for j in slots]
