"""A tool's name spelled as a command line is the tool's name (issue 27 item 6, branch
s30-fair35, heldout35's pull-request form): behaviors rule 940. The cases marked "was" are read
the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si._trail import Action, _cli_tools, _states

_METRICS = Action("query", ("metrics", None, None))
_TRACES = Action("query", ("traces", None, None))


@pytest.mark.parametrize(
    ("line", "action"),
    [
        # was: the hyphen kept "query" from being read as the call's verb
        ("metrics-query --action=metric_names", _METRICS),
        ("metrics-query --action=query_range --query='up' --start=-6h", _METRICS),
        ("traces-query --action=search --service=api-service", _TRACES),
        ("Metrics-Query --action=alerts", _METRICS),
    ],
)
def test_a_cli_spelled_tool_states_its_call(line: str, action: Action) -> None:
    """Rule 940 (``_trail.py::_cli_tools``, in ``_said``)."""
    assert _states(line, action)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("I did not run metrics-query", _METRICS),  # negated, as rule 91's underscore is
        ("metrics-query-exporter restarted", _METRICS),  # a longer name
        ("report-query --action=alerts", _METRICS),  # no source word: no tool of the rule
        ("log-sync --tail=50", _METRICS),
    ],
)
def test_no_call_stated(line: str, action: Action) -> None:
    assert not _states(line, action)


def test_the_rewrite_leaves_other_text_alone() -> None:
    assert _cli_tools("kubectl get pods -n default") == "kubectl get pods -n default"
    assert _cli_tools("logs-query --tail=5") == "logs_query --tail=5"
    assert _cli_tools("the metrics-querying job") == "the metrics-querying job"
