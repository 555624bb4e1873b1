"""``Table`` answers (meta.k8s.io/v1) for ``kubectl get``: the same printer columns the
in-process kubectl prints (:mod:`..tools.k8s_columns`), so both agree cell for cell.

kubectl adds the NAMESPACE column (``-A``), ``--show-labels``, ``-L`` and the
``kind/`` name prefix itself from each row's object, as it does against a real server;
the server only marks the wide columns (``priority: 1``).
"""

from __future__ import annotations

from typing import Any

from ..tools.k8s_columns import columns


def wants_table(accept: str) -> bool:
    return "as=table" in accept.replace(" ", "").lower()


def _partial(obj: dict[str, Any]) -> dict[str, Any]:
    return {
        "kind": "PartialObjectMetadata",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": obj.get("metadata") or {},
    }


def to_table(
    env: Any, plural: str, objs: list[dict[str, Any]], resource_version: str, include: str | None
) -> dict[str, Any]:
    """The Table of ``objs`` (``includeObject``: ``None`` / ``Object`` / ``Metadata`` (default))."""
    narrow = [name for name, _ in columns(plural, False)]
    wide = columns(plural, True)
    defs = []
    for name, _ in wide:
        defs.append(
            {
                "name": name,
                "type": "string",
                "format": "name" if name == "NAME" else "",
                "description": "",
                "priority": 0 if name in narrow else 1,
            }
        )
    rows = []
    for obj in objs:
        row: dict[str, Any] = {"cells": [fn(env, obj) for _, fn in wide]}
        if include != "None":
            row["object"] = obj if include == "Object" else _partial(obj)
        rows.append(row)
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": resource_version},
        "columnDefinitions": defs,
        "rows": rows,
    }
