"""Round 19's holes closed (issue 27, branch s13-fix23): behaviors rules 159-160 (rule 158,
IP blocks past a peer's share, is in ``tests/evaluation/test_blast_round11.py``). Each case
not credited is credited by the code before the rule (the fault found, read and of the
object written: rules 79, 101, 108, 115, 120, 138, 146-148 hold)."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 160: an entry's schema keys name no leaf; its values and data keys do -------------
def _var(name: str, value: str) -> dict[str, Any]:
    env = [{"name": name, "value": value}]
    return {"spec": {"template": {"spec": {"containers": [{"name": "api", "env": env}]}}}}


@pytest.mark.parametrize(
    ("body", "state", "credited"),
    [
        # env_entrykey: a var named after a key every entry has (W's own included)
        (_var("namespace", "default"), [], False),
        (_var("replicas", "3"), [], False),
        (_var("status", "ok"), [], False),
        (_var("resource", "api"), [], False),
        # a key under W's own entry's data fields states the fault, as its values do
        (_var("namespace", "default"), [{"env": {"namespace": "prod"}}], True),
        (_var("POOL_SIZE", "20"), [{"env": [{"name": "POOL_SIZE", "value": "5"}]}], True),
        (_var("FLAG", "on"), [{"data": {"FLAG": "off"}}], True),
        (
            _var("POOL_MAX", "9"),
            [{"conditions": [{"type": "Available", "reason": "POOL_MAX"}]}],
            True,
        ),
    ],
)
def test_an_entrys_schema_keys_name_no_leaf(
    ev: Any, body: dict[str, Any], state: list[dict[str, Any]], credited: bool
) -> None:
    from .test_round16_rules import _env_run

    own = {"resource": "deployment/api-service", "namespace": "default"}
    out = _env_run(ev, body, state=[{**own, **s} for s in state])
    assert (out.degree == 1.0) is credited, out.evidence


def test_an_events_schema_keys_name_no_leaf(ev: Any) -> None:
    """An event of W is read by its values (``message``, ``reason`` are its schema)."""
    from .test_round16_rules import _env_run

    event = {"resource": "events/default", "recent": [{
        "type": "Warning", "reason": "Unhealthy", "object": "deployment/api-service",
        "message": "probe failed"}]}  # fmt: skip
    assert _env_run(ev, _var("message", "x"), state=[event]).degree != 1.0
    assert _env_run(ev, _var("Unhealthy", "x"), state=[event]).degree == 1.0
