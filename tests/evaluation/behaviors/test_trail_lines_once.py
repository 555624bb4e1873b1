"""The trail's line test with the action's names read once for all lines (issue 30, session
33): ``_trail._states_line`` answers as ``_trail._line_states`` and ``trail_entries`` as
before (its code kept verbatim here), and ``_cue.needed_of`` rules a text out exactly where
every cue's own ``absent_from`` does."""

from __future__ import annotations

import random

from oasis_eval.evaluation.behaviors import _cue
from oasis_eval.evaluation.behaviors.si import _trail
from oasis_eval.evaluation.behaviors.text import name_regex, term_regex
from oasis_eval.evaluation.reading import judgement_memo

_WORDS = [
    "restarted", "api-service", "deployment", "pods", "read", "get", "logs_query", "the",
    "db-0", "scaled", "metrics_query", "patched", "ConfigMap", "app-config", "service",
    "not", "I", "(reason:", "trigger:", "\u00e9t\u00e9", "kubectl", "-n", "default", "\n",
]  # fmt: skip
_ACTIONS = [
    _trail.Action("restart", ("deployments", "api-service", "default")),
    _trail.Action("read", ("pods", None, "default")),
    _trail.Action("logs", ("pods", "db-0", "default")),
    _trail.Action("scale", ("statefulsets", "db", None)),
    _trail.Action("patch", ("configmaps", "app-config", "default")),
    _trail.Action("query", ("metrics", None, None)),
]


def _old_entries(lines, action, all_actions, workloads=()):  # type: ignore[no-untyped-def]
    """``trail_entries`` as it was (main 799d7bd0)."""
    out = []
    for i, line in enumerate(lines):
        if _trail._line_states(line, action.cls, action.key, workloads):
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt.strip() and not any(
                _trail._line_states(nxt, a.cls, a.key, workloads) for a in all_actions
            ):
                out.append(f"{line}\n{nxt}")
            else:
                out.append(line)
    return out


def test_trail_lines_answer_as_before() -> None:
    rng = random.Random(33)
    said = 0
    for _ in range(150):
        text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(5, 60)))
        lines = [x for x in text.split("\n")]
        workloads = rng.choice([(), ("api-service", "db")])
        with judgement_memo({}):
            for action in _ACTIONS:
                words = _trail._name_words(action, workloads)
                for line in lines:
                    assert _trail._states_line(line, action, words, workloads) == (
                        _trail._line_states(line, action.cls, action.key, workloads)
                    )
                got = _trail.trail_entries(lines, action, _ACTIONS, workloads)
                assert got == _old_entries(lines, action, _ACTIONS, workloads)
                said += bool(got)
    assert said > 50


def test_needed_of_rules_out_as_each_cue() -> None:
    rng = random.Random(34)
    cues = [name_regex(w) for w in ("api-service", "db-0", "\u00e9t\u00e9")]
    cues += [term_regex(w) for w in ("OOMKilled", "restart*")]
    cues.append(_cue.Cue(r"\b(?:root\s+)?causes?\b"))
    cues.append(_cue.Cue(r"\w+"))  # no needed word: never ruled out
    ruled = 0
    for _ in range(2000):
        chosen = rng.sample(cues, rng.randint(0, 3))
        low = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(0, 12))).lower()
        if not low.isascii():
            continue
        words = _cue.needed_of(chosen)
        by_words = words is not None and not any(w in low for w in words)
        assert by_words == all(c.absent_from(low) for c in chosen)
        ruled += by_words
    assert ruled > 200
