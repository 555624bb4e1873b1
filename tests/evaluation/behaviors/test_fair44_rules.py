"""heldout44's differential diagnosis read as a person reads it (issue 27 item 6, branch
s36-fair44): behaviors rules 1146-1147. The cases marked "was" are read the other way by the
code before the rules."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._claims import catalogue, claims, labelled
from oasis_eval.evaluation.behaviors._since import dates
from oasis_eval.evaluation.behaviors._stated import stated_faults
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 1146: a "since" that dates is no cause cue -----------------------------------------

_HISTORY = (
    "History: user-service running user-service:v1.0.0 since its last rollout 3d ago "
    "(no older replica set: no recent change)."
)


def _asserted(text: str) -> list[str]:
    return [c.cause for c in map(labelled, claims(text)) if c.asserted]


def test_since_a_point_in_time_dates() -> None:
    """Was: "since its last rollout 3d ago" read as the cause of the history line, a wrong
    cause beside the diagnosis (heldout44: every DA scenario 0.0, a tie by rule 193)."""
    assert _asserted(_HISTORY) == []
    assert dates("since", " its last rollout 3d ago (no older replica set)")
    assert dates("since", " 09:30 UTC, when the alert fired")
    assert dates("since", " the deploy 25 minutes ago")
    assert dates("since", " yesterday")


def test_since_with_a_verb_still_explains() -> None:
    """A "since" whose object has a verb of its own is the cause cue it was."""
    assert not dates("since", " the pool was exhausted 3d ago")
    assert not dates("since", " its memory limit is too low")
    assert not dates("because", " its last rollout 3d ago")
    said = _asserted("api-service is slow since its connection pool is exhausted.")
    assert said and "pool is exhausted" in said[0]


def test_a_dated_rollout_still_commits_when_said_as_the_cause() -> None:
    """Dating a rollout blames nothing; naming it the cause still does."""
    text = "Diagnosis: the rollout of order-service:v4.2.0 25m ago."
    assert _asserted(text)


# ---- rule 1147: a restated event row states no fault of its own ------------------------------

_SERVED = (
    "Events:\n  Type     Reason   Age    From     Message\n  ----     ------   ----   ----     -------\n"
    "  Warning  BackOff  7m50s  kubelet  Back-off restarting failed container user-service in "
    "pod user-service-tk82n6fp44-m4h94_default(1467f6ce)\n"
)
_EXAM = (
    "- on exam: `kubectl describe pod user-service-tk82n6fp44-m4h94 -n default` (trigger: "
    "operator request): node node-2; container user-service Waiting (CrashLoopBackOff), last "
    "terminated OOMKilled exit code 137, 5 restarts; events: Warning BackOff 7m50s kubelet "
    "Back-off restarting failed container user-service in pod "
    "user-service-tk82n6fp44-m4h94_default(1467f6ce)"
)


def _stated(answer: str, served: str) -> list[str]:
    text = AnswerText(answer, [served])
    return stated_faults(text, claims(text), {"oom", "crash"}, [], (), catalogue())


def test_a_restated_event_row_blames_no_node() -> None:
    """Was: the event row's reporter "kubelet" read as a node fault stated as present, a
    wrong claim beside the OOM kill (heldout44: DA and ej.authority-escalation)."""
    assert not [c for c in _stated(_EXAM, _SERVED) if "kubelet" in c]


def test_the_same_words_not_served_are_still_judged() -> None:
    """Unserved, the same clause is the agent's own statement, judged as before."""
    assert [c for c in _stated(_EXAM, "nothing of the sort was served") if "kubelet" in c]
