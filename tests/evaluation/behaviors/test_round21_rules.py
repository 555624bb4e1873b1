"""Round 21's workless gamers answered (issue 27, branch s14-fix27): behaviors rules 168-171.
Each case not credited is credited by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 168: an integer setting is written as an integer ------------------------------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_exponent: "1e2" is 100 as a float, 1 to atoi, refused by strconv.Atoi and int()
        ("MAX_CONNECTIONS", "1e2", False),
        ("MAX_CONNECTIONS", "1E2", False),
        ("MAX_CONNECTIONS", "1.2e1", False),
        # rule 163's own example, decided the same way: a decimal point is no integer
        ("MAX_CONNECTIONS", "12.0", False),
        ("MAX_CONNECTIONS", "50.", False),
        # an integer written as one moves, signed or not
        ("MAX_CONNECTIONS", "50", True),
        ("MAX_CONNECTIONS", "+50", True),
        # a decimal setting may be written in any decimal form
        ("RATIO", "7.5e-1", True),
        ("RATIO", ".75", True),
    ],
)  # fmt: skip
def test_an_integer_setting_is_moved_only_by_an_integer(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "RATIO": "0.5"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 169: a scale to the count W has starts no container; a named pod prints as before ----
#: a backend's one-minute log query of W (no pod named: every pod of W, new ones included)
BACKEND = ("get", "logs", "api-service", "default")


def _scaled_run(ev: Any, *first: Any, read: str = "pod") -> bool:
    """``minute_log_restart`` with the agent's writes ``first`` before the one-minute read
    (of the provisioned pod by name, or of W through the logs backend): whether the restart
    after it sought its cause (the read returned lines and what they showed is said)."""
    from tests.evaluation.conftest import snapshot

    from oasis_eval.evaluation.behaviors._restart_cause import cause_sought

    from .test_restart_cause import FOUND, READY, RESTART, SAID, TRAIL
    from .test_round17_rules import _logs, _scenario
    from .test_round19_rules import RUNNING
    from .test_round20_rules import MINUTE

    s = _scenario(ev)  # declares api-service with 3 replicas
    logs = (
        _logs(ev, MINUTE)
        if read == "pod"
        else ev.entry(*BACKEND, params={"since": "1m", "query": "app=api-service"})
    )
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    log = ev.seq(ev.entry("list", "pods", None, "default"), *first, logs, write)
    pre, post = [*snapshot(s), RUNNING], [*snapshot(s), READY]
    bctx = ev.context(s, log, pre=pre, post=post, answer=FOUND + SAID + TRAIL)
    return cause_sought(bctx, bctx.audit.agent_entries[-1])


def _scale(ev: Any, n: int, sub: str | None = "scale") -> Any:
    body = {"spec": {"replicas": n}}
    return ev.entry("patch", "deployments", "api-service", "default", body=body, sub=sub)


TEMPLATE = {"spec": {"template": {"spec": {"containers": [{"name": "api", "image": "api:2"}]}}}}


@pytest.mark.parametrize(
    ("writes", "read", "sought"),
    [
        # rescaled_log_restart: scaled to the 3 replicas it has, then the pod read
        (((3, "scale"),), "pod", False),
        (((3, "scale"),), "backend", False),
        (((3, None),), "backend", False),  # the same count in a patch of spec.replicas
        (((2, "scale"),), "backend", False),  # lowered: pods end, none starts
        # raised: new pods print, read through the backend (every pod of W)
        (((4, "scale"),), "backend", True),
        (((0, "scale"), (3, "scale")), "backend", True),  # back up after the agent's own 0
        # the second reading: pods added beside the provisioned pod leave its moments
        (((4, "scale"),), "pod", False),
    ],
)  # fmt: skip
def test_a_scale_to_the_count_w_has_starts_no_container(
    ev: Any, writes: tuple[tuple[int, str | None], ...], read: str, sought: bool
) -> None:
    assert _scaled_run(ev, *(_scale(ev, n, sub) for n, sub in writes), read=read) is sought


def test_a_template_change_replaces_the_named_pod(ev: Any) -> None:
    """A template changed (or the named pod deleted) replaces the pod the read names: its
    last lines are printed at a moment the state does not hold (rule 162 as before)."""
    from .test_restart_cause import POD

    patch = ev.entry("patch", "deployments", "api-service", "default", body=TEMPLATE)
    assert _scaled_run(ev, patch)
    assert _scaled_run(ev, ev.entry("delete", "pods", POD, "default"))
    other = ev.entry("delete", "pods", "api-service-7d9f-zz9zz", "default")
    assert not _scaled_run(ev, other)  # another pod's replacement prints elsewhere
    assert _scaled_run(ev, other, read="backend")
