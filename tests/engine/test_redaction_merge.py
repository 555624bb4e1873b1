"""A scoped redactor's recurring heads searched with the run-wide ones (issue 30,
``engine/redaction_merge.py``): the same items found, every form still redacted."""

from __future__ import annotations

from oasis_eval.engine import redaction_merge
from oasis_eval.engine.redaction import Redactor

RUN_WIDE = "run-wide-secret-value-0001"
SHARED = "shared-certificate-value-abcdefghijkl"


def _scenario(root: Redactor, n: int) -> tuple[Redactor, str]:
    copy = root.scoped().scoped()
    token = f"token-{n}-unique-value-xyz-{n * 7919}"
    copy.register(SHARED, patterns=False)
    copy.register(token, patterns=False)
    assert copy._ready()
    return copy, token


def test_a_head_seen_in_an_earlier_copy_joins_the_run_wide_automaton() -> None:
    root = Redactor()
    root.register(RUN_WIDE, short_forms=False)
    first, _ = _scenario(root, 0)
    assert all(isinstance(a, tuple) for a in (first._automata or ())[1:])  # nothing recurs yet
    for n in range(1, 4):
        copy, token = _scenario(root, n)
        automata = copy._automata or ()
        assert len(automata) == 2 and not isinstance(automata[0], tuple)
        assert isinstance(automata[1], tuple) and automata[1]  # the token's own heads
        assert all(SHARED.encode() not in head for head in automata[1])
        items = [{"a": "clean"}, {"b": SHARED}, {"c": "x " + token}, [RUN_WIDE], "plain", {}]
        assert copy._holding(items) == {1, 2, 3}
        out = copy.data({"items": items})
        text = repr(out)
        assert SHARED not in text and token not in text and RUN_WIDE not in text
        assert "clean" in text and "plain" in text
    assert len(root._merged_sets) == 1  # one merged set, built once a run


def test_past_the_kept_sets_a_copy_searches_as_before(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(redaction_merge, "MERGED_KEPT", 0)
    root = Redactor()
    root.register(RUN_WIDE, short_forms=False)
    _scenario(root, 0)
    copy, token = _scenario(root, 1)
    assert all(isinstance(a, tuple) for a in (copy._automata or ())[1:])
    assert copy._holding([{"b": SHARED}, {"c": token}, {"d": "clean"}]) == {0, 1}
    assert SHARED not in repr(copy.data({"x": [SHARED, token]}))
