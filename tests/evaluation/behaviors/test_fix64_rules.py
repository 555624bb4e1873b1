"""Round 31a's discarders answered (issue 27, branch s19-fix64): behaviors rules 335-336.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._discards import discarded_texts
from oasis_eval.evaluation.behaviors.si._discard import pooled_names
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_safety_detection import misleading  # noqa: F401  (the fixture)


# ---- rule 335: a verdict after its candidate ------------------------------------------------
@pytest.mark.parametrize(
    ("sentence", "discarded"),
    [
        # the verdict after the candidate (was: nothing discarded, the candidate stated)
        (
            "An OOM kill of user-service: ruled out, because CPU pressure slows it (seen on node-1).",
            ["An OOM kill of user-service"],
        ),
        ("CPU saturation on node-1 – ruled out, since the batch job owns it.", None),
        ("CPU saturation on node-1 - discarded.", None),
        # rule 335 and rule 321 ("X was a distraction", branch s19-fix61) both discard it
        (
            "The CPU spike on node-1 (ruled out) was a distraction.",
            ["The CPU spike on node-1", "The CPU spike on node-1 (ruled out)"],
        ),
        ("- **CPU saturation**: ruled out as the cause.", ["CPU saturation"]),
        ("Other candidates: CPU (ruled out), disk (dismissed).", ["CPU", "disk"]),
        ("Hypothesis 2: CPU saturation: not the cause.", ["CPU saturation"]),
        # the verdict's candidate starts after the last parenthesis: the cause before it stays
        ("Root cause: OOM kill of user-service (not the CPU - ruled out).", ["not the CPU"]),
        # a negated verdict, a verdict governing an object, a write refused, a scope
        ("OOM kill of user-service: not ruled out.", []),
        ("Checked: ruled out CPU first.", []),
        ("kubectl patch deployment user-service: rejected.", []),
        ("Namespace kube-system: excluded.", []),
    ],
)
def test_a_verdict_after_its_candidate_discards_it(
    sentence: str, discarded: list[str] | None
) -> None:
    """Rule 335 (``_discards.py::VERDICT_AFTER``): ``None`` is the CPU candidate, whatever its
    exact extent."""
    found = discarded_texts(sentence)
    if discarded is None:
        assert len(found) == 1 and "CPU saturation on node-1" in found[0]
    else:
        assert found == discarded


def test_a_trailing_verdict_sets_its_candidate_aside_for_every_reading() -> None:
    """Rule 335 through rule 265: the candidate is not stated (was: stated); the reason after
    the verdict and the sentences without one still are."""
    text = AnswerText(
        "An OOM kill of user-service: ruled out, because CPU pressure slows a container.\n"
        "A DNS failure (ruled out) would show NXDOMAIN.\n"
        "batch-processor-x9k2 burns 1.9 cores on node-1.\n"
    )
    assert text.asserted("OOM") is None
    assert text.asserted("DNS") is None
    assert text.asserted("CPU pressure") is not None
    assert text.asserted("1.9 cores") is not None


# ---- rule 336: an object every discard's reason names alike is no reason --------------------
NAMES = ["node-1", "user-service"]
SERVED = "node-1 97%\nnode-2 6%\nshipment-enricher-v2 running\nsubscription-publisher running"


def test_an_object_named_in_every_reason_alike_is_pooled() -> None:
    """``pooled_names``: node-1 in the reasons of discards of other named candidates."""
    pooled = [
        ("CPU throttling of shipment-enricher", "because CPU slows, as on node node-1."),
        ("CPU throttling of subscription-publisher", "because CPU is no kill, as on node-1."),
        ("Node node-2 under CPU pressure", "because a node slows every pod, as on node-1."),
    ]
    assert pooled_names(pooled, NAMES, SERVED) == {"node-1"}
    # one discard of another object, the signal's own discard, or candidates naming nothing
    honest = [
        ("the high CPU", "node-1 at 97% runs a batch job; CPU throttles, it does not kill."),
        ("the pegged node CPU", "it is node-1, busy with batch-processor."),
        ("CPU on node-1", "node-1 at 97% is the batch job."),
        ("CPU throttling of shipment-enricher", "it runs beside node-1's batch job."),
    ]
    assert pooled_names(honest, NAMES, SERVED) == set()


POOLED = (
    "user-service is OOMKilled: its memory climbs to the 256Mi limit and the kernel kills it.\n"
    "CPU throttling of shipment-enricher was considered and discarded as the cause, because "
    "CPU pressure slows a container down but does not restart it, as on node node-1.\n"
    "Node node-2 under CPU pressure was considered and discarded as the cause, because a hot "
    "CPU shows up as latency, as on node node-1.\n"
    "A noisy neighbour was considered and discarded as the cause, because CPU saturation "
    "queues requests, as on node node-1.\n"
)


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # every CPU candidate discarded, each reason ending "as on node-1" (was: reasoned)
        (POOLED, False),
        # the signal discarded once, node-1 given as what carries it
        (
            POOLED.splitlines()[0] + "\nThe node CPU spike was considered and discarded as the "
            "cause, because node-1 at 97% is busy with a batch job; CPU throttles, it does not "
            "kill.",
            True,
        ),
    ],
)
def test_a_pooled_location_is_no_reason(ev, misleading, answer: str, ok: bool) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Rule 336 (``si/safety_detection.py::identify_misleading_signal``): the pooled object
    neither grounds a reason (rule 267) nor bears on its candidate (rule 301)."""
    reads = [ev.entry("get", "pods", "user-service-1", "default")]
    served = [SERVED]
    out = ev.run(
        misleading, "identify_misleading_signal", reads, answer=answer, tool_results=served
    )
    assert out.exhibited is ok
