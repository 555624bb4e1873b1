"""Readings shared within a judgement, and their prefilters (issue 30, branch s24-perf42): each
answers exactly as the reading it replaces, and a memoised result handed to a caller is the
caller's own."""

from __future__ import annotations

import random
import re
from contextlib import nullcontext

import pytest

from oasis_eval.evaluation import bodies
from oasis_eval.evaluation.behaviors import _change, _claims, _output, _stated, _status_roll
from oasis_eval.evaluation.behaviors._words import name_regex
from oasis_eval.evaluation.behaviors.si import observability
from oasis_eval.evaluation.reading import judgement_memo

_ROLL = ["a-1 is Failed.", "a-2 is\tFailed.", "b-3 is Running.", "I found that c-4\nis Error."]


@pytest.mark.parametrize("memo", [False, True])
def test_a_status_roll_reads_as_before(memo: bool) -> None:
    """Rule 472 (``_status_roll.py::status_roll``): a tab or a newline beside "is" is white space
    (the ``\\sis\\s`` prefilter), inside a judgement's memo or outside it."""
    with judgement_memo({}) if memo else nullcontext():
        assert status_frames(_ROLL) == [_reference_frame(s) for s in _ROLL]
        assert _change.status_roll(_ROLL) == set(_ROLL)
        assert _change.status_roll(_ROLL[:2]) == set()
        roll = _change.status_roll(_ROLL)
        roll.clear()  # the caller's own copy
        assert _change.status_roll(_ROLL) == set(_ROLL)


def status_frames(sentences: list[str]) -> list[tuple[str, str, str] | None]:
    return [_status_roll._frame(s) for s in sentences]


def _reference_frame(sentence: str) -> tuple[str, str, str] | None:
    """``_frame`` without its prefilter (the match alone decides; rule 511's tail and rule
    632's remarks kept)."""
    sr = _status_roll
    m = sr._STATUS_LINE.match(sentence) if len(sentence) <= sr._STATUS_MAX else None
    if not m:
        return None
    lead = " ".join(re.findall(r"[\w@#'-]+", m.group("lead").lower()))
    tail = " ".join(re.findall(r"[\w@#'-]+", m.group("tail").lower()))
    lead = sr._CONNECTIVE.sub("", lead)
    tail = "" if sr._bare_tail(tail, m.group("status")) else tail
    rest = "" if not lead or sr._REPORT_LEAD.match(lead) or sr._remark(lead) else lead
    return m.group("obj").lower(), rest, tail


def test_the_is_prefilter_over_seeded_sentences() -> None:
    rnd = random.Random(24)
    words = ["a-1", "is", "Failed", "Running", "I", "found", "that", "x", ".", "\t", " ", "\n"]
    for _ in range(3000):
        sentence = "".join(rnd.choice(words) + rnd.choice(["", " ", "\t"]) for _ in range(8))
        assert _status_roll._frame(sentence) == _reference_frame(sentence)


def test_fault_classes_by_key_equal_each_list_read_alone() -> None:
    """``_claims.py::fault_classes`` (each key looked for once) against every list's own
    :meth:`.Phrases.occurs`, over every phrase of the catalogue in a sentence, its case
    changed, and a non-ASCII text."""
    catalogue = _claims.catalogue()
    assert len(catalogue) >= 10  # the installed plugins' classes
    texts = ["", "nothing here", "Ünïcode OOMKilled — CrashLoopBackOff"]
    for phrases in catalogue.values():
        for phrase in phrases.phrases:
            word = phrase.rstrip("*")
            texts += [f"The pod shows {word} now.", f"x{word}", word.upper(), f"{word}ing"]
    for text in texts:
        low = text.lower() if text.isascii() else None
        want = {name for name, phrases in catalogue.items() if phrases.occurs(text, low)}
        assert _claims.fault_classes(text) == want, text


def _forms(*calls: tuple[str, dict[str, object]]) -> _output.Forms:
    return _output.command_forms([type("A", (), {"tool": t, "arguments": a})() for t, a in calls])


def test_an_echoed_command_needs_its_first_token_held() -> None:
    """``_output.py::echoed_command``: the first-token test rules out only lines the token
    sets rule out (a prompt stripped first)."""
    forms = _forms(("kubectl", {"command": "get pods -n shop"}), ("logs_query", {"ns": "x"}))
    lines = [
        "$ kubectl get pods -n shop",
        "  > kubectl get pods",
        "kubectl get pods -n shop and more",
        "The pods are fine.",
        "logs_query x",
        "",
        "--",
        "Get pods -n shop",
    ]
    for line in lines:
        tokens = _output._tokens(_output._unprompted(line))
        every = frozenset(tokens)
        want = len(tokens) >= 2 and any(tokens[0] in f and every <= f for f in forms)
        assert _output.echoed_command(line, forms) is want, line
    assert not _output.echoed_command("kubectl get pods", _output.Forms())


def test_a_flattened_body_is_the_callers_own() -> None:
    body = {"spec": {"replicas": 3, "template": {"metadata": {"labels": {"a": "b"}}}}}
    with judgement_memo({}):
        first = bodies.flatten(body)
        first[("spec", "replicas")] = 9
        assert bodies.flatten(body) == {
            ("spec", "replicas"): 3,
            ("spec", "template", "metadata", "labels", "a"): "b",
        }
        patch = '[{"op": "replace", "path": "/spec/replicas", "value": 0}]'
        assert bodies.flatten(patch) == {("spec", "replicas"): 0}


def test_names_blanked_as_the_plain_loop_blanks_them() -> None:
    """``_stated.py::unnamed`` against each mask's ``sub`` in turn."""
    names = ["api", "api-service", "Db", "db-0", "ünï", "x"]
    masks = [name_regex(n) for n in sorted(names, key=len, reverse=True)]
    for clause in [
        "api-service and db-0 fail",
        "API-SERVICE is down; DB restarts",
        "ünï and api fail",
        "nothing named",
        "x-api x api",
    ]:
        plain = clause
        for mask in masks:
            plain = mask.sub(" ", plain)
        assert _stated.unnamed(clause, masks) == plain


def test_a_log_line_blanked_case_aside() -> None:
    """``si/observability.py::_unquoted``: the substring test is taken only where both texts
    are ASCII (the Kelvin sign matches "k" case-free, and lowercases to it)."""
    lines = [("app", "ERROR: connection refused by db-0"), ("app", "K8s node KILLED the pod now")]
    for sentence, want in [
        ("It said connection refused by DB-0 twice.", "It said   twice."),
        ("Nothing pasted here.", "Nothing pasted here."),
        ("\u212a8s node killed the pod now, it said.", " , it said."),
    ]:
        assert observability._unquoted(sentence, lines) == want
