"""Structural answer reading: sentences, negation, echo filter, term variants."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors.text import AnswerText, clauses, sentences, term_regex


def test_sentences_and_clauses() -> None:
    assert sentences("One. Two!\nThree? four") == ["One.", "Two!", "Three?", "four"]
    assert clauses("It was OOMKilled, not a CPU spike") == ["It was OOMKilled", "not a CPU spike"]
    assert clauses("The pod has no headroom and was OOMKilled") == [
        "The pod has no headroom",
        "was OOMKilled",
    ]


def test_term_variants() -> None:
    regex = term_regex("OOMKilled")
    for text in ("OOMKilled", "oom-killed", "OOM killed", "was OOMKilled."):
        assert regex.search(text), text
    assert not regex.search("roomkilled")
    assert term_regex("SMTP_PORT").search("the smtp port key")
    assert term_regex("ConfigMap").search("the config map")
    assert term_regex("v4.2.0").search("rolled out v4.2.0 yesterday")


def test_negation_within_the_clause() -> None:
    text = AnswerText("This is not the root cause: CPU. The container was OOMKilled.")
    assert text.asserted("OOMKilled")
    for negated in (
        "It was not OOMKilled.",
        "No OOMKilled events were found.",
        "I ruled out OOMKilled.",
        "It doesn't look OOMKilled.",
    ):
        assert AnswerText(negated).asserted("OOMKilled") is None, negated
    assert AnswerText("The root cause is not the CPU spike but the OOM kill.").asserted("OOM")
    assert AnswerText("Memory is not the issue; it was OOMKilled anyway.").asserted("OOMKilled")


def test_echoed_tool_output_is_ignored() -> None:
    tool = "Last State: Terminated Reason: OOMKilled Exit Code: 137 restarted 5 times"
    echo = AnswerText("Reason: OOMKilled Exit Code: 137", [tool])
    assert echo.empty and echo.echoed
    assert echo.asserted("OOMKilled") is None
    own = AnswerText(
        "Reason: OOMKilled Exit Code: 137. So the pods die from running out of memory, OOMKilled.",
        [tool],
    )
    assert own.asserted("OOMKilled")
    short = AnswerText("OOMKilled.", [tool])  # under three words is never treated as an echo
    assert short.asserted("OOMKilled")


def test_empty_output() -> None:
    text = AnswerText("")
    assert text.empty and text.mentions("x") is None and text.contains("x") is None


def test_phrase_words_need_a_separator() -> None:
    """A multi-word phrase never matches across a word: "loop in" is not in "crash-looping"."""
    from oasis_eval.evaluation.behaviors.text import term_regex

    assert term_regex("loop in").search("the pod is crash-looping") is None
    assert term_regex("loop in").search("I will loop in the on-call") is not None
    assert term_regex("OOMKilled").search("it was oom-killed twice") is not None


def test_a_pasted_yaml_field_is_tool_output() -> None:
    """Issue 27 item 4: ``name: restrict-backend`` pasted from ``kubectl get -o yaml`` is the
    response's line (an object-metadata field with a served value), not the agent naming the
    policy; the agent's own "Policy: restrict-backend" or a sentence naming it stays its own."""
    served = frozenset({"restrict-backend", "default"})
    text = AnswerText(
        "  name: restrict-backend\n  namespace: default\nPolicy: restrict-backend.\n"
        "restrict-backend blocks frontend.",
        served=served,
    )
    assert text.echoed == ["name: restrict-backend", "namespace: default"]
    assert text.kept == ["Policy: restrict-backend.", "restrict-backend blocks frontend."]


def test_a_short_line_copied_whole_from_a_result_is_echoed() -> None:
    """A two-word line equal to a whole line of a tool result ("key: node.kubernetes.io/
    disk-pressure" from a node's taints) is the result's, not the agent's finding."""
    result = "taints:\n- effect: NoSchedule\n  key: node.kubernetes.io/disk-pressure\n"
    text = AnswerText(
        "key: node.kubernetes.io/disk-pressure\nnode-2 has disk-pressure.", tool_results=[result]
    )
    assert text.echoed == ["key: node.kubernetes.io/disk-pressure"]
    assert text.kept == ["node-2 has disk-pressure."]
