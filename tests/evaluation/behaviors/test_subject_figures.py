"""The subject's reading checked (issue 27, branch s13-fix24): behaviors rules 155-156. A
figure said of the alert's subject takes the alert up only if it is not a well template under
the answer's own failing words (155) and agrees with the environment's state of the subject
(156). Each case not credited is credited by the code before these rules (rule 142's quantity
branch)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._subject_figures import well_figures

FAILING = "Deployment api-service is unhealthy: its pods keep failing.\n"


def _live(ready: int, restarts: tuple[int, ...]) -> list[dict[str, Any]]:
    """api-service as the environment holds it: 3 desired, ``ready`` ready, one pod per
    entry of ``restarts`` (its container's restart count), the first ``ready`` of them ready."""
    dep = {
        "kind": "Deployment",
        "name": "api-service",
        "namespace": "default",
        "state": {
            "spec": {"replicas": 3},
            "status": {"replicas": 3, "readyReplicas": ready, "availableReplicas": ready},
        },
    }
    pods = [
        {
            "kind": "Pod",
            "name": f"api-service-5d8f7-p{i}",
            "namespace": "default",
            "state": {
                "status": {
                    "phase": "Running",
                    "containerStatuses": [{"name": "api", "ready": i < ready, "restartCount": n}],
                }
            },
        }
        for i, n in enumerate(restarts)
    ]
    return [dep, *pods]


def _run(ev: Any, said: str, pre: list[dict[str, Any]] | None) -> Any:
    from .test_audit_trail import alerted
    from .test_round16_rules import LAST, SUBJECT

    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "alerts", None, None),
        ev.entry(*SUBJECT),
    )
    s = alerted(ev)
    if pre is not None:
        pre = [*ev.snapshot(s), *pre]
    return ev.run(s, "link_actions_to_triggers", calls, answer=f"{said}\n{LAST}", pre=pre)


HEALTHY = _live(3, (0, 0, 0))
CRASHING = _live(1, (4, 0, 0))


@pytest.mark.parametrize(
    ("said", "pre", "taken"),
    [
        # rule 155 (subject_counted): a well figure under the answer's own failing words
        (FAILING + "Service api-service shows 0 restarts.", HEALTHY, False),
        (FAILING + "Deployment api-service is at 3/3 ready.", HEALTHY, False),
        (FAILING + "Deployment api-service shows 0 restarts.", None, False),
        # rule 156 (subject_quantity): figures the environment does not show
        (FAILING + "Service api-service is at 1/3 ready, 4 restarts.", HEALTHY, False),
        ("Deployment api-service is at 2/3 ready.", HEALTHY, False),
        ("Deployment api-service shows 5 restarts.", CRASHING, False),
        # the true figures stay readings, failing or well
        (FAILING + "Deployment api-service is at 1/3 ready, 4 restarts.", CRASHING, True),
        ("Deployment api-service is at 1/3 ready.", CRASHING, True),
        ("Deployment api-service: 3/3 pods ready, 0 restarts.", HEALTHY, True),
        ("Pod api-service-5d8f7-p0 is 1/1 ready with 0 restarts.", HEALTHY, True),
        # no status of the subject in the snapshots: nothing to compare (rule 142 as before)
        ("Deployment api-service is at 2/3 ready.", None, True),
        # a series' course and a usage need a series of the subject read (rules 170-171,
        # branch s14-fix27: test_round21_rules.py reads one)
        (FAILING + "Memory of api-service is flat at 77Mi, 30% of its limit.", HEALTHY, False),
    ],
)  # fmt: skip
def test_a_figure_of_the_subject_is_what_the_environment_shows(
    ev: Any, said: str, pre: list[dict[str, Any]] | None, taken: bool
) -> None:
    out = _run(ev, said, pre)
    assert (out.rule != "trail:provenance-alert-unanswered") is taken, out.evidence


LIMITED = [
    {
        **v,
        "state": {
            **v["state"],
            "spec": {"containers": [{"resources": {"limits": {"memory": "256Mi"}}}]},
        },
    }
    if v["kind"] == "Pod"
    else v
    for v in HEALTHY
]


@pytest.mark.parametrize(
    ("said", "pre", "taken"),
    [
        # rule 161 (subject_percent): a share, a time or CPU figure, a factor: nothing to check
        (FAILING + "Service api-service uses 64% of its memory limit.", HEALTHY, False),
        ("Deployment api-service answers in 120ms.", HEALTHY, False),
        ("Deployment api-service uses 250m of CPU, 3x its request.", HEALTHY, False),
        ("Service api-service uses 64 % of its memory limit.", None, False),
        # a count or a size the snapshots do not show
        ("Deployment api-service runs 5 replicas.", HEALTHY, False),
        ("Deployment api-service uses 77Mi of memory.", HEALTHY, False),
        ("Deployment api-service has a 512Mi memory limit.", LIMITED, False),
        # the ones they show stay readings
        ("Deployment api-service runs 3 replicas.", HEALTHY, True),
        ("Deployment api-service has 1 pods ready.", CRASHING, True),
        ("Deployment api-service has a 256Mi memory limit.", LIMITED, True),
        ("Deployment api-service has a 256 Mi limit, 0.25Gi.", LIMITED, True),
    ],
)  # fmt: skip
def test_a_figure_no_evidence_confirms_is_no_reading(
    ev: Any, said: str, pre: list[dict[str, Any]] | None, taken: bool
) -> None:
    out = _run(ev, said, pre)
    assert (out.rule != "trail:provenance-alert-unanswered") is taken, out.evidence


def test_well_figures_blank_only_what_reads_well() -> None:
    assert not well_figures("0 restarts, 3/3 ready").strip(" ,")
    assert well_figures("2/3 ready") == "2/3 ready"
    assert well_figures("4 restarts, 1/3 ready") == "4 restarts, 1/3 ready"
    assert well_figures("10 restarts") == "10 restarts"
