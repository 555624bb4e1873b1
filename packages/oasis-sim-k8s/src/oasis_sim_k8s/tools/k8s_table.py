"""The table ``kubectl get`` prints (:mod:`.k8s_columns` says which columns each kind has):
the namespace column of ``-A``, ``-L`` label columns, ``--show-labels``, ``kind/`` name
prefixes and ``--no-headers``."""

from __future__ import annotations

from typing import Any

from ..cluster.store import KINDS
from .k8s_cells import _labels
from .k8s_columns import columns
from .k8s_format import kind_label, table


def render_table(
    env: Any,
    plural: str,
    objs: list[dict[str, Any]],
    *,
    wide: bool = False,
    all_namespaces: bool = False,
    show_labels: bool = False,
    label_columns: list[str] | None = None,
    kind_prefix: bool = False,
    no_headers: bool = False,
) -> str:
    """``kubectl get``'s table of ``objs``: the kind's columns, then the namespace, label
    and ``--show-labels`` columns asked for, padded as kubectl pads them."""
    cols = columns(plural, wide)
    headers = [c[0] for c in cols]
    ns_col = all_namespaces and (plural not in KINDS or KINDS[plural][2])
    if ns_col:
        headers = ["NAMESPACE"] + headers
    extra = [lc.upper().rsplit("/", 1)[-1] for lc in label_columns or []]
    headers += extra
    if show_labels:
        headers.append("LABELS")
    rows = []
    for o in objs:
        row = [fn(env, o) for _, fn in cols]
        if kind_prefix and cols and cols[0][0] == "NAME":
            row[0] = f"{kind_label(plural)}/{row[0]}"
        if ns_col:
            row = [o["metadata"].get("namespace", "")] + row
        labels = (o.get("metadata") or {}).get("labels") or {}
        row += [labels.get(lc, "") for lc in label_columns or []]
        if show_labels:
            row.append(_labels(o))
        rows.append(row)
    return table(headers, rows, no_headers)
