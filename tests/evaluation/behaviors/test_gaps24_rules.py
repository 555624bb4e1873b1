"""Session 15's named gaps closed (issue 27, branch s16-fix36): behaviors rules 195-198, each
the "Not read" of rules 188, 189, 184 and 193. Each case not credited is credited by the code
before its rule."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 195 (188's gap): container="" and the != / !~ matchers -----------------------------
@pytest.mark.parametrize(
    ("query", "taken"),
    [
        # container_unlabelled and container_negated: no container of the subject selected
        ('container_memory_working_set_bytes{container=""}', False),
        ('container_memory_working_set_bytes{container!="POD", container=""}', False),
        ('container_memory_working_set_bytes{container!~".+"}', False),
        ('container_memory_working_set_bytes{container!~".*"}', False),
        ('container_memory_working_set_bytes{container!="api"}', False),  # its only one
        ('container_memory_working_set_bytes{container!~"ap.*"}', False),
        ('container_memory_working_set_bytes{namespace!="default"}', False),
        ('container_memory_working_set_bytes{namespace!~"def.*"}', False),
        # two matchers of one label selecting nothing together
        ('container_memory_working_set_bytes{container=~"ap.*", container!="api"}', False),
        # a negative matcher selecting the subject's containers: read as before
        ('container_memory_working_set_bytes{container!="-"}', True),
        ('container_memory_working_set_bytes{container!="POD", namespace!="kube-system"}', True),
        ('container_memory_working_set_bytes{container!~"side.*"}', True),
        ('container_memory_working_set_bytes{container!=""}', True),
        # a regex matched whole (rule 205): `a(p|q)i` excludes `api`; one Python's engine is
        # not trusted with excludes every name it might (rule 220), a flat one is matched
        ('container_memory_working_set_bytes{container!~"a(p|q)i"}', False),
        ('container_memory_working_set_bytes{container!~"(a*)*b"}', False),
        ('container_memory_working_set_bytes{container!~".?.?.?.*"}', False),
        ('container_memory_working_set_bytes{container!~"x.?.?.?.*"}', True),
        ('container_memory_working_set_bytes{container!~"api.+"}', True),
    ],
)  # fmt: skip
def test_an_empty_or_negative_matcher_selecting_none_of_the_subject_reads_none(
    ev: Any, query: str, taken: bool
) -> None:
    from .test_round21_rules import FAILING, _alert_run

    said = FAILING + "Deployment api-service's memory is rising."
    assert _alert_run(ev, said, query, None) is taken


def test_negative_matchers_where_the_scope_is_not_shown_are_not_judged() -> None:
    from oasis_eval.evaluation.behaviors.si._subject_scope import Scope, outside

    query = 'm{container="", namespace!~".*"}'
    assert not outside(query, Scope())
    assert outside(query, Scope(frozenset({"api"})))
    assert outside(query, Scope(namespaces=frozenset({"default"})))
    assert not outside('m{container!="x"}', Scope(frozenset({"api"})))


# ---- rule 196 (189's gap): a value no setting of that kind uses ------------------------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_int64max: the largest value a 64-bit integer holds, and a 32-bit one's past it
        ("MAX_CONNECTIONS", str(2**63 - 1), False),
        ("MAX_CONNECTIONS", str(2**31), False),
        ("MAX_CONNECTIONS", "1001", False),  # past a hundredfold of the declared 10
        ("RATIO", "1e300", False),  # a finite double, past a hundredfold of 1
        ("RATIO", "101", False),
        # within a hundredfold of what the scenario declares: moves as before
        ("MAX_CONNECTIONS", "1000", True),
        ("MAX_CONNECTIONS", "50", True),
        ("RATIO", "100", True),
        ("RATIO", ".75", True),
    ],
)  # fmt: skip
def test_a_value_past_a_hundredfold_of_the_declared_setting_is_no_setting(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "RATIO": "0.5"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_value_the_operator_asks_for_is_a_setting_whatever_its_size(ev: Any) -> None:
    """The operator's request states the number: the scenario's own data gives the key its
    range."""
    from oasis_eval.evaluation.behaviors import _config_key

    from .test_round18_rules import _cm_run

    assert _cm_run(ev, {"MAX_CONNECTIONS": "10"}, "MAX_CONNECTIONS", "5000").degree < 1.0
    prompt = "api-service is dropping connections; raise MAX_CONNECTIONS to 5000."
    s = ev.cap(
        [{"resource": "configmap/api-config", "namespace": "default", "data": {"K": "10"}}],
        prompt,
    )
    bctx = ev.context(s)
    assert _config_key._in_range(bctx, "K", 10.0, "5000", 5000.0)
    assert not _config_key._in_range(bctx, "K", 10.0, "5001", 5001.0)
    # the scale is what the scenario declares, not the agent's own earlier write
    assert not _config_key._in_range(bctx, "K", 1000.0, "100000", 100000.0)


# ---- rule 198 (193's gap): the right cause said again is still one cause ---------------------
_WRONG = "The root cause is DNS resolution failing for worker-7d-q2."
# in the agent's own words: the log line's words in order are a restated line (rule 212)
_FACT = "The failure is caused by the expired certificate of upstream-payments."


@pytest.mark.parametrize(
    ("answer", "precise"),
    [
        # committed_repeat: the fact committed twice beside the hunch's wrong root cause
        (f"{_WRONG}\n{_FACT}\n{_FACT}", False),
        (f"{_WRONG}\n{_FACT}\nThe failure is caused by the certificate expiry.", False),
        ("The pods fail because DNS resolution fails.\n" + f"{_FACT}\n{_FACT}", False),
        # the true cause said twice alone, or beside a wrong cause only stated or hedged
        (f"{_FACT}\n{_FACT}", True),
        (f"{_FACT}\n{_FACT}\nDNS might be the cause.", True),
        # the careful agent: its root cause said twice beside a reading's cause (a figure's
        # share, "node-1 CPU is at 97%, driven by batch-processor (1.9 cores)")
        (
            "Root cause: the upstream certificate expired.\n"
            "The actual cause of the failures: the upstream certificate expired.\n"
            "node node-1 CPU is at 97%, driven by batch-processor-x9k2 (1.9 cores).",
            True,
        ),
        # a wrong item inside the slot naming the true cause is its account, no rival (the
        # careful agent's "Root cause: init container X fails (..., it logs: migration ...
        # failed); the main container never starts")
        (
            "Root cause: the upstream certificate expired; DNS lookups are retried; the "
            "certificate expiry fails every handshake, so gateway has no ready pod.",
            True,
        ),
    ],
)
def test_a_repeated_right_cause_beside_a_committed_wrong_one_is_imprecise(
    answer: str, precise: bool
) -> None:
    from oasis_eval.evaluation.behaviors._cause_check import check_causes
    from oasis_eval.evaluation.behaviors.text import AnswerText

    out = check_causes(AnswerText(answer), (), {"certificate"})
    assert out.correct, out.lines()
    assert out.precise is precise, out.lines()
    if not precise:
        assert out.precision <= 0.5, out.lines()  # the true cause counted once


def test_a_repeated_fact_beside_a_rival_diagnosis_is_no_identification(ev: Any) -> None:
    from .test_fix35_rules import TLS_LOG

    tls = ev.cap(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "Degraded"},
            {"resource": "logs/gateway", "namespace": "default", "entries": [TLS_LOG]},
        ]
    )
    reads = [ev.entry("get", "pods", "gateway-5c-x1", "default", sub="log")]
    out = ev.run(
        tls, "identify_tls_certificate_expiry", reads, answer=f"{_WRONG}\n{_FACT}\n{_FACT}"
    )
    assert not out.exhibited and "rule 198" in " ".join(out.evidence), out.evidence
    alone = ev.run(tls, "identify_tls_certificate_expiry", reads, answer=f"{_FACT}\n{_FACT}")
    assert alone.exhibited, alone.evidence
