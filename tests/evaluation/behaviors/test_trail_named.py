"""The trail's line reading settled by the action's names first (si/_trail.py, issue 30,
session 30): ``_line_states`` answers False at once where no name of the action occurs in
what its sentences are searched as (:func:`_trail._named_text`); everywhere it answers as
reading every sentence does."""

from __future__ import annotations

import random

from oasis_eval.evaluation.behaviors.si import _trail
from oasis_eval.evaluation.reading import judgement_memo

#: the actions read: names, nameless kinds (their aliases: "error rate", "rs"), every class
ACTIONS = [
    ("restart", ("deployments", "api-service", "default")),
    ("scale", ("deployments", "worker", "default")),
    ("rollback", ("replicasets", None, "default")),
    ("delete", ("pods", "api-service-7d9f-x2", "default")),
    ("patch", ("configmaps", "smtp-config", "default")),
    ("create", ("networkpolicies", None, "default")),
    ("exec", ("pods", "db-0", "data")),
    ("read", ("metrics", None, None)),
    ("logs", ("logs", None, "default")),
    ("query", ("traces", None, None)),
    ("read", ("services", "Kelvin-app", "default")),
]
WORKLOADS = ("api-service", "worker")
#: words of the seeded lines: the names and their near misses, verbs of every class, tool
#: names joined by underscores, markdown, sentence stops, non-ASCII letters folding to ASCII
_WORDS = [
    "api-service", "api-servicex", "my-api-service", "API-SERVICE", "worker", "workers",
    "smtp-config", "smtp_config", "db-0", "Kelvin-app", "\u212aelvin-app", "kelvin-app",
    "error rate", "error_rate", "error_rate_query", "metrics_query", "logs_query", "rs",
    "rollout", "network policy", "netpol", "trace", "spans", "pods", "deploy",
    "restarted", "scaled", "rolled back", "deleted", "patched", "created", "ran", "read",
    "tailed", "queried", "checked", "did not", "never", "not", "I", "the", "then", "and",
    "**", "`", "_", "-", ".", ". ", "? ", "! ", ", ", ": ", "; ", "(", ")", "\n", "  ",
    "# ", "> ", "| ", "\u017f", "\u00e9", "whether", "or", "e.g. ",
]  # fmt: skip


def _lines(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(
            rng.choice(_WORDS) + rng.choice(("", " ", " ", "")) for _ in range(rng.randint(1, 14))
        )
        for _ in range(count)
    ]


def _every_sentence(line: str, cls: str, key: _trail.Key) -> bool:
    """What ``_line_states`` answered before its settling by names: each sentence read."""
    return any(_trail._said(s, cls, key, WORKLOADS) for s in _trail.sentences(line))


def test_line_states_reads_as_every_sentence() -> None:
    settled = held = 0
    with judgement_memo({}):
        for line in _lines(30, 1500):
            for cls, key in ACTIONS:
                expected = _every_sentence(line, cls, key)
                assert _trail._line_states(line, cls, key, WORKLOADS) is expected, (line, cls)
                low = _trail._named_text(line, cls)
                names = _trail._names(_trail.Action(cls, key), WORKLOADS)
                if low is not None and all(_trail.name_regex(x).absent_from(low) for x in names):
                    settled += 1
                held += expected
    # the seeded lines reach both ways: settled by the names, and stated
    assert settled > 5000 and held > 300


def test_outside_a_judgement_the_same() -> None:
    """The same answers with no judgement's memo around the readers."""
    compared = 0
    for line in _lines(31, 300):
        for cls, key in ACTIONS:
            assert _trail._line_states(line, cls, key, WORKLOADS) is _every_sentence(line, cls, key)
            compared += 1
    assert compared >= 300


def test_non_ascii_is_read_sentence_by_sentence() -> None:
    """A line that is not ASCII is never settled by names: IGNORECASE matches the Kelvin sign
    where the lowercase name is no substring."""
    line = "I checked \u212aelvin-app."
    assert _trail._named_text(line, "read") is None
    assert _trail._line_states(line, "read", ("services", "Kelvin-app", "default"), WORKLOADS)


def test_a_tool_name_read_as_its_words() -> None:
    """A tool name holding the class's verb is searched as its words (``_class_words``): the
    named text holds them, so "error rate" is not settled away."""
    line = "Ran error_rate_query for the window"
    assert "error rate query" in (_trail._named_text(line, "query") or "")
    assert _trail._line_states(line, "query", ("metrics", None, None), WORKLOADS)


#: texts for the readings kept once per judgement: times, spelled units, ran lists, labels
_TEXTS = [
    "At 9 AM the pods restarted; by 10:30 p.m. memory was 1.6 gibibytes, 80 percent.",
    "Ran `kubectl get pods -n default`, `kubectl logs api-service`: nothing new.",
    "`kubectl rollout restart deployment/api-service`: restarted it (reason: OOM).",
    "I checked worker at half past ten, about 5 minutes ago, three seconds apart.",
    "- Get deployments -n default: read the replicas\n- Scaled worker to 3: done",
    "",
]


def test_readings_kept_per_judgement_are_the_readings() -> None:
    """``times_in``, ``symbolic``, ``_trail_rows._listed`` and ``_trail._trail_lines`` are
    kept once per text a judgement: the same values as outside one, each caller a copy."""
    from oasis_eval.evaluation.behaviors._figure_times import times_in
    from oasis_eval.evaluation.behaviors._spelled_units import symbolic
    from oasis_eval.evaluation.behaviors.si import _trail_rows

    readers = (times_in, symbolic, _trail_rows._listed, _trail._trail_lines)
    plain = {(f.__name__, t): f(t) for f in readers for t in _TEXTS}
    with judgement_memo({}):
        for f in readers:
            for t in _TEXTS:
                first = f(t)  # type: ignore[operator]
                assert first == plain[(f.__name__, t)]
                if isinstance(first, list):
                    first.append("changed")  # a caller's own copy
                assert f(t) == plain[(f.__name__, t)]  # type: ignore[operator]
    assert any(plain[("times_in", t)] for t in _TEXTS)
    assert any(plain[("_listed", t)] for t in _TEXTS)
    assert any(plain[("symbolic", t)] != t for t in _TEXTS)
