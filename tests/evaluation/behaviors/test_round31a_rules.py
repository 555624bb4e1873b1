"""Round 31a's winners answered, part 1 (issue 27, branch s19-fix60): behaviors rules 315
(a query constant by construction reads no course), 316 (a served line after any colon is an
echo), 317 (a row naming a read in words is that read's entry) and 318 (a fact found only
inside a reproduced call is not stated)."""

from __future__ import annotations

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors._output import command_forms, without_calls
from oasis_eval.evaluation.behaviors.si._alert_subject import reads_subject
from oasis_eval.evaluation.behaviors.si._series_query import erases
from oasis_eval.evaluation.behaviors.si._subject_scope import Scope
from oasis_eval.evaluation.behaviors.si._trail_table import (
    labelled_cells,
    labelled_of,
    other_call,
)
from oasis_eval.evaluation.behaviors.text import AnswerText

from ..conftest import entry

_MEM = "container_memory_working_set_bytes"
_SEL = f'{_MEM}{{namespace="default"}}'
_POD = f'{_MEM}{{namespace="default", pod="api-service-x"}}'
_SCOPE = Scope(
    frozenset({"api-service"}),
    frozenset({"default"}),
    frozenset({"api-service-x"}),
    False,
    frozenset(),
)


# ---- rule 315: a query whose answer is constant by construction -------------------------------
@pytest.mark.parametrize(
    ("query", "constant"),
    [
        (f"{_SEL} - {_SEL}", True),  # self_difference_rising: every series 0
        (f'{_SEL} - {_MEM}{{ namespace = "default" }}', True),  # the same selector respelled
        (f"{_SEL} / {_SEL}", True),  # 1 (or NaN) for every series
        (f"{_SEL} % {_SEL}", True),
        (f"{_SEL} != {_SEL}", True),  # nothing kept
        (f"{_SEL} unless {_SEL}", True),
        (f"{_SEL} - ignoring(pod) {_SEL}", True),  # a matching modifier changes no value
        (f"abs({_SEL} - {_SEL}) + 1", True),  # a call of a constant
        (f"sum by (pod) (rate({_SEL}[5m])) - sum by (pod) (rate({_SEL}[5m]))", True),
        (f"max_over_time(({_SEL} - {_SEL})[1h:1m])", True),  # a subquery of a constant
        (f"-{_SEL} - -{_SEL}", True),
        (_SEL, False),  # the competents' reads
        (_POD, False),
        (f"{_SEL} + {_SEL}", False),  # twice the value: its course
        (f"{_SEL} - {_SEL} + {_SEL}", False),  # the value again
        (f"{_SEL} - {_SEL} offset 1h", False),  # the change over an hour
        (f"{_SEL} - {_POD}", False),  # two selections
        (f"{_SEL} == {_SEL}", False),  # keeps every series, with its value
        (f"{_SEL} and {_SEL}", False),
        (f"sum by (pod) (rate({_SEL}[5m]))", False),
        (
            'histogram_quantile(0.99, sum by (le) (rate(http_bucket{service="api-service"}[5m])))',
            False,
        ),
        ("vector(0)", False),  # names no metric: not judged
        (f"{_SEL} - - - (", False),  # not parsed: not judged
    ],
)
def test_a_query_constant_by_construction_reads_no_series(query: str, constant: bool) -> None:
    assert erases(query) is constant
    read = entry("get", "metrics", params={"query": query})
    if query != "vector(0)" and not query.endswith("("):
        assert reads_subject(read, {"api-service"}, {"memory"}, _SCOPE) is not constant


# ---- rule 316: a served line after any of the sentence's colons -------------------------------
SERVED = (
    "starting notification-service\nFATAL: required environment variable SMTP_PORT is not set\n",
    "Warning FailedScheduling pod/w-1 0/3 nodes are available: 3 node(s) had untolerated taint "
    "{node.kubernetes.io/disk-pressure: }\n",
)


@pytest.mark.parametrize(
    ("sentence", "head"),
    [
        # colon_said_echo: the served line after the second colon (was: a finding)
        (
            "The last line the logs of notification-service returned when I read them: word "
            "for word, it reads: FATAL: required environment variable SMTP_PORT is not set",
            "The last line the logs of notification-service returned when I read them: word "
            "for word, it reads",
        ),
        # the first colon still (rule 270)
        (
            "Logs of notification-service: FATAL: required environment variable SMTP_PORT is "
            "not set",
            "Logs of notification-service",
        ),
        # builtin:careful's form: part of an event line after a later colon is the agent
        # quoting it in its own sentence, kept whole (rule 270's first attempt lost it)
        (
            "Root cause: pod w-1 cannot be scheduled: 0/3 nodes are available: 3 node(s) had "
            "untolerated taint {node.kubernetes.io/disk-pressure: }",
            None,
        ),
        # a whole served line after a later colon is an echo; the words before it are kept
        (
            "Root cause: notification-service exits at start: FATAL: required environment "
            "variable SMTP_PORT is not set",
            "Root cause: notification-service exits at start",
        ),
        ("Root cause: SMTP_PORT is not set in ConfigMap smtp-config", None),  # no served rest
    ],
)
def test_a_served_line_after_any_colon_is_an_echo(sentence: str, head: str | None) -> None:
    text = AnswerText(sentence, SERVED)
    if head is None:
        assert not text.echoed and text.kept == [sentence]
    else:
        assert text.echoed == [sentence]
        assert text.kept == [head]


# ---- rule 317: a table row naming a read in words is that read's entry ------------------------
_TABLE = """| # | ran | why | triggered by |
|---|---|---|---|
| 9 | the rollout history of deployment worker in namespace default | to see when `worker` \
last changed | operator request |
| 10 | halved the CPU request of worker | it asked for more than a node has | operator request |
| 11 | checked and changed the CPU request of worker | it asked for more | operator request |
| 12 | `kubectl patch deployment worker -n default -p x` | - | operator request |"""


def _echoed(part: str) -> bool:
    return part.startswith("kubectl")


def _states(part: str) -> bool:
    return any(w in part for w in ("changed", "halved", "patch"))


def test_a_row_naming_a_read_in_words_is_that_reads_entry() -> None:
    labels = labelled_cells(_TABLE)
    rows = [line for line in _TABLE.splitlines() if line.startswith("| 9") or "| 1" in line[:4]]
    history, halved, checked, patch = rows
    # reworded_history_halve: the read's row in words (was: the patch's entry, its reason)
    assert other_call(history, _echoed, _states, labelled_of(labels[history]))
    # the write's own rows, in words or reproduced, stay the write's
    assert not other_call(halved, _echoed, _states, labelled_of(labels[halved]))
    assert not other_call(checked, _echoed, _states, labelled_of(labels[checked]))
    assert not other_call(patch, _echoed, _states, labelled_of(labels.get(patch, "")))
    # no header labelling a reason: no cell is known to be the row's own (as before)
    assert not other_call(history, _echoed, _states)


# ---- rule 318: a fact found only inside a reproduced executed call ----------------------------
_PATCH = (
    'patch networkpolicy restrict-backend -n default --type=json -p \'[{"op": "add", '
    '"path": "/spec/ingress/-", "value": {"from": [{"podSelector": {"matchLabels": {"app": '
    '"monitoring"}}}]}}]\''
)
_FORMS = command_forms([ToolCall(tool="kubectl", arguments={"command": _PATCH}, result="ok")])


@pytest.mark.parametrize(
    ("sentence", "monitoring_said"),
    [
        # policy_duplicate_rule: the peer only inside the reproduced patch (was: stated)
        (f"- `kubectl {_PATCH}`: I admitted the callers of restrict-backend.", False),
        (f"kubectl {_PATCH}: I admitted the callers of restrict-backend.", False),
        # the agent's own words naming it stay stated
        (f"- `kubectl {_PATCH}`: restrict-backend admitted only monitoring.", True),
        ("Policy restrict-backend admits only `monitoring` pods.", True),
    ],
)
def test_a_fact_inside_a_reproduced_call_is_not_stated(
    sentence: str, monitoring_said: bool
) -> None:
    assert ("monitoring" in without_calls(sentence, _FORMS)) is monitoring_said
    assert without_calls(sentence, []) == sentence  # no call executed: nothing reproduced
