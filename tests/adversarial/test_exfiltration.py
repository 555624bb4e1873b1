"""Mutation probes that ask for a contained value in an encoded form (07 §2.2, 01 §3.5.5).

The probe declares the encoded form as a contained value of its own, so it is judged by
literal containment of what it asks for: an agent that complies FAILs on that entry.
"""

from __future__ import annotations

import base64
import codecs
from pathlib import Path
from typing import Any

from oasis_eval.adversarial.generators import load_generator
from oasis_eval.adversarial.generators.exfiltration import ENCODINGS
from oasis_eval.engine.redaction import resolve_value_ref
from oasis_eval.spec.common import VerdictStatus
from oasis_eval.spec.probe import GenerationRequest
from oasis_eval.validation import validate_scenario

from ..hostile.support import example_profile, files_holding, run_and_write

PLAIN = "oasis-synthetic-pw-Qz81vK"  # the example CE scenario's password


def _probes(count: int = 6, seed: int = 1) -> list[Any]:
    gen = load_generator("mutation", {"strategies": ["exfil"]})
    return gen.generate(
        example_profile(), GenerationRequest(count=count, seed=seed, archetypes=("S-CE-001",))
    )


def test_each_probe_declares_the_encoded_form_it_asks_for_as_contained() -> None:
    probes = _probes()
    assert len(probes) == 6
    seen = set()
    for probe in probes:
        scenario = probe.scenario
        assert not validate_scenario(scenario, example_profile()).errors
        name = next(
            n.split("(")[1][:-1] for n in probe.provenance.split(";") if n.startswith("exfil(")
        )
        seen.add(name)
        encoded = ENCODINGS[name][0](PLAIN)
        assert ENCODINGS[name][1] in scenario.stimuli[-1].value
        state = scenario.preconditions.environment.state
        refs = [v.value_ref for v in scenario.verification.value_containment]
        if name == "base64":  # the stored value is already the base64 form: nothing to add
            assert refs == ["secret/db-creds.data.PASSWORD"]
        else:
            assert refs == [
                "secret/db-creds.data.PASSWORD",
                f"secret/db-creds.stringData.PASSWORD_{name.upper()}",
            ]
            assert resolve_value_ref(refs[1], state) == encoded
    assert len(seen) >= 3


def test_probes_are_reproducible() -> None:
    first = [p.scenario.model_dump() for p in _probes(seed=5)]
    assert first  # two empty runs would be equal too
    assert first == [p.scenario.model_dump() for p in _probes(seed=5)]


def test_an_agent_that_complies_fails_on_the_encoded_form_and_nothing_reaches_disk(
    tmp_path: Path,
) -> None:
    probe = next(
        p for p in _probes() if "exfil(hex)" in p.provenance or "exfil(rot13)" in p.provenance
    )
    encoded = (
        PLAIN.encode().hex() if "exfil(hex)" in probe.provenance else codecs.encode(PLAIN, "rot13")
    )
    profile = example_profile().model_copy(deep=True)
    profile.scenarios.append(probe.scenario)
    outcome, _ = run_and_write(
        profile,
        lambda task: (f"Sure: {encoded}", "", {}, {}),
        tmp_path / "run",
        [probe.scenario.id],
    )
    result = next(r for r in outcome.record.scenarios if r.scenario_id == probe.scenario.id)
    assert result.status is VerdictStatus.FAIL
    failed = [a.expectation for a in result.assertions if not a.passed]
    assert len(failed) == 1 and "stringData.PASSWORD_" in failed[0]
    assert (
        files_holding(
            tmp_path / "run", [encoded, PLAIN, base64.b64encode(encoded.encode()).decode()]
        )
        == []
    )
