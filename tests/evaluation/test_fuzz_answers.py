"""No built-in behavior evaluator raises on an agent's answer, however garbled (issue 27, fix82).

An evaluator that raises on agent-controlled text is a :class:`PluginFault` (contained.py):
the run ends with exit 4 and no verdict, so an agent whose answer trips one escapes the
verdict of every scenario of the run, a safety FAIL included (CONTRIBUTING: "an agent never
escapes a FAIL by crashing, hanging or reaching the harness"). Heldout24's typo pass once made
``link_actions_to_triggers`` raise ``IndexError`` that way (tests/validity/README.md).

The fuzz: recorded evidence of real SI runs (builtin:careful on a few scenarios here; careful
and the held-out operators on the whole profile in the heavy tier), judged again by the run's
own :func:`judge_in_run` with the final answer (and the reasoning) mutated many ways, seeds
fixed: typos in words and names, names garbled (the shield tokens of heldout24's typo pass),
lines dropped, duplicated, reordered or joined, table cells dropped, code spans broken, unicode
inserted, very long lines, truncation, empty answers, JSON answers (rule 370's structured
reading). Every judgement must come back with a result.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.engine.plugin_watch import judgement_fault
from oasis_eval.engine.replay import judge_in_run
from oasis_eval.engine.rundir import load_run
from oasis_eval.evaluation.behaviors.plugins import profile_namespaces
from oasis_eval.evaluation.results import ScenarioState

#: characters an answer may hold that ASCII-minded code trips on: a private-use shield token
#: (heldout24's typo pass), zero-width and direction marks, a combining accent, an emoji, a BOM,
#: NUL, a letter whose lower case is longer, fullwidth letters, separators Python splits lines at
ODD = (
    "\ue000\ue100\ue001",
    "\u200b",
    "\u202e",
    "\u0301",
    "\U0001f525",
    "\ufeff",
    "\x00",
    "\u0130",
    "\uff4b\uff55\uff42\uff45",
    "\u2028",
    "\x0b",
    "\x1c",
    "\r",
)
_WORD = re.compile(r"[A-Za-z][\w-]*")
_CODE = re.compile(r"`([^`]*)`")
_PUNCT = ("|", "||", "| |", "`", "```", "->", "- ", "#", "1.", ":", "$ ", "`kubectl`", "(", '"')


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 2:
        return word * 2
    i = rng.randrange(len(word) - 1)
    return rng.choice(
        [
            word[:i] + word[i + 1] + word[i] + word[i + 2 :],
            word[:i] + word[i + 1 :],
            word[:i] + word[i] + word[i:],
            word[:i] + rng.choice("aeiouxq-_.") + word[i + 1 :],
        ]
    )


def _typos(rate: float) -> Callable[[random.Random, str, list[str]], str]:
    def typos(rng: random.Random, text: str, names: list[str]) -> str:
        return _WORD.sub(lambda m: _typo(rng, m[0]) if rng.random() < rate else m[0], text)

    return typos


def _garbled(rng: random.Random, text: str, names: list[str]) -> str:
    for n in names:
        fake = [
            ODD[0],
            _typo(rng, n),
            n.upper(),
            n[: len(n) // 2],
            "",
            n + "-x",
            n.replace("-", " "),
        ]
        text = text.replace(n, rng.choice(fake))
    return text


def _lines(op: str) -> Callable[[random.Random, str, list[str]], str]:
    def lines(rng: random.Random, text: str, names: list[str]) -> str:
        ls = text.split("\n")
        if op == "drop":
            ls = [x for x in ls if rng.random() > 0.4]
        elif op == "dup":
            ls = [y for x in ls for y in ([x, x] if rng.random() < 0.4 else [x])]
        elif op == "shuffle":
            rng.shuffle(ls)
        elif op == "join":
            return " ".join(ls)
        return "\n".join(ls)

    return lines


def _cells(rng: random.Random, text: str, names: list[str]) -> str:
    out = []
    for line in text.split("\n"):
        if "|" in line:
            kept = [p for p in line.split("|") if rng.random() > 0.5]
            line = "|".join(kept) if rng.random() < 0.7 else "|" * rng.randrange(1, 6)
        elif rng.random() < 0.3:
            line = rng.choice(_PUNCT)
        out.append(line)
    return "\n".join(out)


def _odd(rng: random.Random, text: str, names: list[str]) -> str:
    chars = list(text)
    for _ in range(max(1, len(chars) // 20)):
        chars.insert(rng.randrange(len(chars) + 1), rng.choice(ODD))
    return "".join(chars)


def _long(rng: random.Random, text: str, names: list[str]) -> str:
    ls = text.split("\n")
    i = rng.randrange(len(ls))
    ls[i] = " ".join([ls[i] or "word"] * rng.choice([50, 200]))
    return "\n".join(ls)


def _code(rng: random.Random, text: str, names: list[str]) -> str:
    def broken(m: re.Match[str]) -> str:
        c = m[1]
        return rng.choice(["``", "`" + c[: len(c) // 2], c, "`$`", f"`{c}` `{c}`"])

    return _CODE.sub(broken, text)


def _json(rng: random.Random, text: str, names: list[str]) -> str:
    ls = [x for x in text.split("\n") if x.strip()]
    shapes: list[Any] = [
        {"summary": text},
        {"trail": [{"action": x, "why": "", "trigger": None} for x in ls]},
        [],
        {},
        [[]],
        [{}],
        {"trail": [[], [""], [None], {}]},
        ls,
        {n: [] for n in names},
        [None, 1, 2.5, True],
    ]
    body = json.dumps(rng.choice(shapes))
    return rng.choice([body, f"```json\n{body}\n```", f"{body}\n{text}", f"{text}\n{body}"])


#: the mutations, by name (a name is a test id's part: keep them stable)
MUTATIONS: dict[str, Callable[[random.Random, str, list[str]], str]] = {
    "typos": _typos(0.1),
    "typos-heavy": _typos(0.6),
    "names-garbled": _garbled,
    "lines-dropped": _lines("drop"),
    "lines-duplicated": _lines("dup"),
    "lines-shuffled": _lines("shuffle"),
    "lines-joined": _lines("join"),
    "cells-dropped": _cells,
    "unicode": _odd,
    "long-line": _long,
    "code-broken": _code,
    "truncated": lambda rng, text, names: text[: rng.randrange(len(text) + 1)],
    "empty": lambda rng, text, names: rng.choice(["", " ", "\n\n", ".", "|", ODD[0]]),
    "letters-only-punctuation": lambda rng, text, names: re.sub(r"[A-Za-z0-9]", "", text),
    "json": _json,
}


def mutated(rng: random.Random, text: str, names: list[str]) -> tuple[str, str]:
    """One mutation of ``text`` (sometimes two stacked): (its name, the text)."""
    kinds = rng.sample(sorted(MUTATIONS), 2 if rng.random() < 0.3 else 1)
    for kind in kinds:
        text = MUTATIONS[kind](rng, text, names)
    return "+".join(kinds), text


def _record(profile: Any, who: Any, pattern: str, out: Path) -> Path:
    oasis_eval.evaluate(
        profile=profile,
        agent=who,
        provider="sim-k8s",
        filters=[pattern],
        capability_only=".capability." in pattern,
        out=str(out),
        quiet=True,
    )
    return out


def fuzz(run_dir: Path, per_scenario: int) -> list[str]:
    """Each executed scenario of the run judged again ``per_scenario`` times with its answer
    mutated (seeds fixed by run, scenario and index); a line per judgement that raised."""
    record, profile, evidence = load_run(run_dir)
    config = dict(record.verdict.metadata.agent_configuration)
    namespaces = profile_namespaces(profile)
    failures: list[str] = []
    for rec in record.scenarios:
        if rec.state is not ScenarioState.executed or rec.scenario_id not in evidence:
            continue
        scenario = profile.scenario(rec.scenario_id)
        captured = evidence[rec.scenario_id]
        names = sorted(
            {n for e in scenario.preconditions.environment.state for n in [_name(e)] if n}
        )
        transcript = captured.transcript
        for k in range(per_scenario):
            rng = random.Random(f"{run_dir.name}:{rec.scenario_id}:{k}")
            kind, answer = mutated(rng, transcript.final_answer or "", names)
            reasoning = transcript.reasoning
            if reasoning and rng.random() < 0.3:
                reasoning = mutated(rng, reasoning, names)[1]
            update = {"final_answer": answer, "reasoning": reasoning}
            changed = captured.model_copy(
                update={"transcript": transcript.model_copy(update=update)}
            )
            try:
                result = judge_in_run(
                    scenario, changed, profile, record.inputs, config, False, namespaces
                )
                assert result.state is ScenarioState.executed
            except Exception as exc:  # noqa: BLE001 - every fault is the finding
                failures.append(f"{rec.scenario_id} #{k} ({kind}): {type(exc).__name__}: {exc}")
                continue
            # a plugin fault stops this judgement only (s21-gate37): the run keeps it on the
            # result, so the fuzz reads it there
            fault = judgement_fault(result)
            if fault is not None:
                failures.append(f"{rec.scenario_id} #{k} ({kind}): PluginFault: {fault}")
    return failures


def _name(entry: Any) -> str:
    return str(entry.get("resource", "")).partition("/")[2]


#: the default tier's sample: a few SI scenarios of the trail, detection and escalation
#: families (provenance included: the IndexError's scenario), mutated a few times each
SAMPLE = "*.capability.au.*"


@pytest.fixture(scope="module")
def careful_run(si_profile: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fuzz") / "careful"
    return _record(si_profile, "builtin:careful", SAMPLE, out)


def test_no_builtin_evaluator_raises_on_a_mutated_answer(careful_run: Path) -> None:
    failures = fuzz(careful_run, 12)
    assert not failures, "\n".join(failures[:20])


def test_the_fuzz_catches_an_evaluator_that_raises(
    careful_run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fuzz can fail: an SI evaluator helper that raises is reported, as the PluginFault
    the run would end with."""
    from oasis_eval.evaluation.behaviors.si import provenance

    def fragile(*args: Any) -> list[str]:
        raise IndexError("list index out of range")

    monkeypatch.setattr(provenance, "_told", fragile)
    failures = fuzz(careful_run, 2)
    assert failures
    assert all("PluginFault" in f and "link_actions_to_triggers" in f for f in failures)


@pytest.mark.heavy
@pytest.mark.parametrize("who", ["careful", "heldout24", "plainspoken", "competent_chat"])
@pytest.mark.parametrize("phase", ["safety", "capability"])
def test_heavy_no_builtin_evaluator_raises(
    si_profile: Any, tmp_path: Path, who: str, phase: str
) -> None:
    from ..validity.agents import agent

    runner = "builtin:careful" if who == "careful" else agent(who)
    run = _record(si_profile, runner, f"*.{phase}.*", tmp_path / f"{who}-{phase}")
    failures = fuzz(run, 40)
    assert not failures, "\n".join(failures[:20])
