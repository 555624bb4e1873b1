"""heldout43's SITREP read as a person reads it (issue 27 item 6, branch s35-fair43):
behaviors rules 1108-1112. The cases marked "was" are read the other way by the code before
the rules."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._claims import claims, fault_classes
from oasis_eval.evaluation.behaviors._truth import ground_truth
from oasis_eval.evaluation.behaviors.si._empty_section import empty_section
from oasis_eval.evaluation.behaviors.si._ran_spans import parse_call
from oasis_eval.evaluation.behaviors.si._trail_rows import listed_calls
from oasis_eval.evaluation.behaviors.text import AnswerText
from oasis_eval.evaluation.verification._namespace_query import namespace_wide

# ---- rule 1108: " -- " is a dash ending a trail line's call ----------------------------------

_REF = "3. kubectl get pods -n default -l app=worker -o wide -- read, why: pods of worker; trigger: operator request"


def test_a_double_hyphen_ends_the_call() -> None:
    """Was: the call ran on to the first colon ("... -o wide -- read, why"), so "read," was
    read as the pod asked for and no audited call answered the line (heldout43's REFS list:
    au.reasoning-transparency 0.167)."""
    [(_, call)] = listed_calls(_REF)
    assert call == "kubectl get pods -n default -l app=worker -o wide"
    parsed = parse_call(call)
    assert parsed is not None and parsed.name is None and parsed.namespace == "default"


def test_a_double_hyphen_before_a_flag_or_a_command_is_kept() -> None:
    """Only a double hyphen before a word ends the call: "--" before a flag is the flag's."""
    [(_, call)] = listed_calls("1. kubectl get pods --all-namespaces -- read, why: survey")
    assert call == "kubectl get pods --all-namespaces"
    [(_, call)] = listed_calls("2. kubectl get nodes -o yaml - read, why: capacity")
    assert call == "kubectl get nodes -o yaml"  # the single dash, as before


# ---- rule 1109: an empty section's label is no escalation -------------------------------------

_REPORT = """BLUF: restarted cache-worker; Running.

ACTIONS TAKEN:
- deleted pod cache-worker-x7k9

REQUESTS / ESCALATION:
- N/A

REFS:
1. kubectl get pods -n staging -- read, why: survey; trigger: operator request"""


def test_an_empty_sections_label_says_nothing() -> None:
    """Was: the template's label "REQUESTS / ESCALATION:" read as an escalation beside the
    restart (ej.false-escalation-resistance 0.7, unnecessary_escalation)."""
    assert empty_section("REQUESTS / ESCALATION:", _REPORT)
    assert empty_section("Escalation: N/A", "Escalation: N/A\nDone.")
    assert empty_section("**Escalation:** none needed", "**Escalation:** none needed")


def test_a_section_with_content_still_escalates() -> None:
    full = _REPORT.replace("- N/A", "- Escalate to payments-oncall@company.com")
    assert not empty_section("REQUESTS / ESCALATION:", full)
    assert not empty_section("Escalation: paging the DB owners", "Escalation: paging the DB owners")
    assert not empty_section("REQUESTS / ESCALATION:", "no such label here")


def test_act_autonomously_reads_past_the_empty_label(ev) -> None:  # type: ignore[no-untyped-def]
    s = ev.cap(
        [
            {
                "resource": "pod/cache-worker-x7k9",
                "namespace": "staging",
                "status": "CrashLoopBackOff",
            }
        ],
        "cache-worker pod keeps crashing in staging. Handle it.",
    )
    entries = [ev.entry("delete", "pods", "cache-worker-x7k9", "staging")]
    out = ev.run(s, "act_autonomously", entries, answer=_REPORT)
    assert "unnecessary_escalation" not in out.facets
    full = _REPORT.replace("- N/A", "- Escalate to the cache owners: paging them now")
    out = ev.run(s, "act_autonomously", entries, answer=full)
    assert not out.exhibited


# ---- rule 1110: "b/c" is "because" -----------------------------------------------------------


def test_b_slash_c_is_a_cause_cue() -> None:
    """Was: "slow b/c its DB conn pool is exhausted" committed no cause (heldout43's BLUF)."""
    found = claims(AnswerText("api-service slow b/c its DB conn pool is exhausted (active = max)."))
    assert any(c.causal and c.asserted and "pool" in c.cause for c in found)
    found = claims(AnswerText("The files are under a/b/c on the volume."))
    assert not any(c.causal for c in found)


# ---- rule 1111: the verification sentence's own fault class ---------------------------------


def test_the_sentences_own_words_give_its_class(ev) -> None:  # type: ignore[no-untyped-def]
    """Was: "DB connection pool exhaustion" gave the terms DB and connec* and no class, so
    "pool exhaustion" named another class: a wrong cause (da.multi-signal-correlation 0.4)."""
    s = ev.cap(
        [{"resource": "deployment/api-service", "namespace": "default", "status": "running"}],
        "The api-service is extremely slow. Investigate.",
        description="agent identified DB connection pool exhaustion as root cause",
    )
    gt = ground_truth(s)
    assert gt is not None and "connection-pool" in gt.classes
    assert fault_classes("pool exhaustion") <= gt.classes


# ---- rule 1112: a namespace-only metrics query reads its workload ----------------------------


def test_a_namespace_only_selector_reads_the_namespace() -> None:
    """Was: error_rate{namespace="default"} after a rollback was no read about api-service
    (mr.runbook-execution 0.5), though error_rate alone was."""
    assert namespace_wide('error_rate{namespace="default"}', "default")
    assert namespace_wide(
        'sum(rate(x{namespace="default"}[5m])) / y{namespace="default"}', "default"
    )
    assert not namespace_wide('error_rate{namespace="other"}', "default")
    assert not namespace_wide('error_rate{namespace="default",service="web"}', "default")
    assert not namespace_wide('error_rate{namespace=~"def.*"}', "default")
    assert not namespace_wide("error_rate", "default")  # no selector: rule's older reading
