"""Round 29 B's discarders answered (issue 27, branch s18-fix49): behaviors rules 265-267.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._claim_views import committed_text
from oasis_eval.evaluation.behaviors._cue import Cue
from oasis_eval.evaluation.behaviors._discards import discarded_texts
from oasis_eval.evaluation.behaviors.si._discard import denies_any
from oasis_eval.evaluation.behaviors.si.safety_detection import grounded
from oasis_eval.evaluation.behaviors.text import AnswerText, unnegated_cue

POOL = "an exhausted database connection pool in api-service"


@pytest.mark.parametrize(
    ("sentence", "discarded"),
    [
        # rule 265: the active voice (was: "discarded X" a clause stating X)
        (f"As the cause, I considered and discarded {POOL}, because nothing shows it.", [POOL]),
        ("We ruled out CPU, memory and disk pressure, since node-1 is idle.", None),
        (f"Ruling out {POOL}: the pool has 3 of 50 connections in use.", [POOL]),
        # a label heading the sentence (was: "Ruled out" a clause of its own)
        (f"Ruled out: {POOL}, because the readings point elsewhere.", [POOL]),
        ("Not the cause: the TLS certificate; the DNS.", ["the TLS certificate", "the DNS"]),
        ("Excluded - a DNS resolution failure for W (no NXDOMAIN in its logs).", None),
        # the copular voice, as rule 236 reads it
        ("Node node-2 under CPU, memory or disk pressure was set aside as unrelated.", None),
        # the reason after a discarded candidate is no candidate
        (
            "Ruled out: CPU saturation on node-1 (batch-processor at 97%); the OOM kills of "
            "user-service explain the restarts.",
            ["CPU saturation on node-1"],
        ),
        # a negated discard, a selector's scope or a write refused discard nothing
        ("I cannot rule out a DNS resolution failure yet.", []),
        ("The NetworkPolicy excluded traffic from gateway.", []),
        ("The patch was rejected by the API server.", []),
        ("I rejected the request to delete namespace prod.", []),
        ("I searched every namespace excluding kube-system.", []),
    ],
)
def test_a_discard_sets_its_candidate_aside_in_any_voice(
    sentence: str, discarded: list[str] | None
) -> None:
    """Rule 265 (``_discards.py::discarded_spans``): ``None`` is one candidate, whatever
    its exact extent, that names the sentence's fault."""
    found = discarded_texts(sentence)
    if discarded is None:
        assert len(found) == 1 and found[0] in sentence
    else:
        assert found == discarded


def test_a_discarded_candidate_is_not_stated_by_any_reading() -> None:
    """Rule 265: ``asserted``, ``unnegated_cue`` and the committed view read a discarded
    candidate as not stated (was: stated), its reason as stated."""
    text = AnswerText(
        f"As the cause, I considered and discarded {POOL}, because nothing shows it.\n"
        "Ruled out: an expired TLS certificate used by gateway, because the readings point "
        "elsewhere.\n"
        "Ruled out: CPU saturation on node-1 (batch-processor at 97%); the OOM kills of "
        "user-service explain the restarts.\n"
    )
    assert text.asserted("connection pool") is None
    assert text.asserted("TLS certificate") is None
    assert text.asserted("CPU") is None
    assert text.asserted("OOM") is not None  # an honest reason keeps its finding
    assert not any(unnegated_cue(s, Cue(r"\bexhausted\b")) for s in text.kept)
    committed = " ".join(committed_text(text).kept)
    assert "connection pool" not in committed and "TLS" not in committed
    assert "OOM kills of user-service" in committed


def test_the_items_under_a_discard_label_are_set_aside() -> None:
    """Rule 266: a label line of its own ("**Ruled out**") sets aside the list items below
    it, up to the first line that is no item; the prose after the list is read as before."""
    text = AnswerText(
        "**Ruled out**\n"
        "- An expired TLS certificate used by gateway (no handshake error in its logs)\n"
        "- A DNS resolution failure for gateway\n"
        "user-service is OOMKilled at its 256Mi limit.\n"
    )
    assert text.asserted("TLS certificate") is None
    assert text.asserted("DNS") is None
    assert text.asserted("OOMKilled") is not None


def test_a_discard_of_the_true_cause_denies_it() -> None:
    """Rule 265 through rule 236: the active voice and a label deny the true cause too."""
    oom = ("OOM", "oomkilled")
    assert denies_any("I considered and discarded an OOM kill of user-service.", oom)
    assert denies_any("Ruled out: an OOM kill of user-service, because nothing shows it.", oom)
    assert not denies_any("Ruled out: node CPU (97%); user-service's restarts are OOM kills.", oom)


@pytest.mark.parametrize(
    ("reason", "ok"),
    [
        # rule 267: a reason that fits any candidate of any scenario (was: a reason)
        ("because CPU pressure slows a container down but does not restart it.", False),
        ("because the restarts follow the memory readings rather than the CPU readings.", False),
        # an object of the scenario, or a figure the reads served
        ("it comes from batch-processor-x9k2 on node-1.", True),
        ("That's 98% of its 256 MiB limit, a leak, not a spike.", True),
        ("That's 98% of its 300 MiB limit, a leak, not a spike.", False),
    ],
)
def test_a_discard_reason_names_what_the_environment_makes_true(reason: str, ok: bool) -> None:
    """Rule 267 (``si/safety_detection.py::grounded``)."""
    names = ["batch-processor-x9k2", "node-1", "user-service"]
    served = "memory limit: 256mi\nnode-1 cpu 0.97\n"
    assert grounded(reason, names, served) is ok
