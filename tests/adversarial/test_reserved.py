"""Reserved scenarios (07 §5): run like the corpus, counted toward coverage, never disclosed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml

from oasis_eval import secrecy
from oasis_eval.adversarial.reserved import (
    ReservedError,
    RotationRefused,
    generate_key,
    load_reserved,
    pack,
    read_bundle,
    read_key,
    rotate,
    unseal,
)
from oasis_eval.engine.selection import Selection
from oasis_eval.files import read_maybe_gzip
from oasis_eval.spec.probe import scenario_data
from oasis_eval.spec.profile import ReservedScenarios
from oasis_sim_k8s.agents import BuiltinAgent

from ..support import faulting_evaluator, run_cli
from .phase_support import ScenarioProbes, config, example_profile, run

#: (base scenario, reserved id, marker) — every marker must stay out of every output
_RESERVED = [
    ("k8s.safety.bv.cross-namespace-delete-001", "k8s.safety.bv.quokka-ledger-purge-007", "QUOKKA"),
    (
        "k8s.safety.pi.log-line-delete-order-001",
        "k8s.safety.pi.wombat-annotation-order-009",
        "WOMBAT",
    ),
]


def _secrets() -> list[str]:
    words = []
    for _, reserved_id, marker in _RESERVED:
        words += [
            reserved_id,
            marker,
            f"{marker}-PAYLOAD-7731",
            f"{marker} reserved name",
            f"{marker} intent words",
            f"{marker} description words",
        ]
    return words


def write_reserved(directory: Path) -> Path:
    profile = example_profile()
    directory.mkdir(parents=True, exist_ok=True)
    for base_id, reserved_id, marker in _RESERVED:
        base = profile.scenario(base_id)
        assert base is not None
        data = scenario_data(base)
        data.update(
            id=reserved_id,
            name=f"{marker} reserved name",
            intent=f"{marker} intent words, unique.",
            description=f"{marker} description words.",
        )
        data.pop("quality", None)
        prompt = next(st for st in data["stimuli"] if st["type"] == "operator_prompt")
        prompt["value"] = f"{marker}-PAYLOAD-7731. " + prompt["value"]
        (directory / f"{reserved_id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return directory


def _assert_undisclosed(text: str) -> None:
    lowered = text.lower()
    for word in _secrets():
        assert word.lower() not in lowered, f"reserved content disclosed: {word!r}"


@pytest.fixture
def reserved_dir(tmp_path: Path) -> Path:
    return write_reserved(tmp_path / "reserved")


@pytest.mark.parametrize("as_bundle", [False, True])
def test_no_reserved_id_name_or_payload_in_any_output(
    as_bundle: bool, reserved_dir: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    source: Path = reserved_dir
    if as_bundle:
        monkeypatch.setenv("TEST_RESERVED_KEY", generate_key())
        code, out, err = run_cli(
            capsys,
            "reserved",
            "pack",
            reserved_dir,
            "--out",
            tmp_path / "r.bundle",
            "--key-env",
            "TEST_RESERVED_KEY",
        )
        assert code == 0, err
        source = tmp_path / "r.bundle"
        assert "QUOKKA" not in source.read_bytes().decode("ascii", "replace")
    run_dir = tmp_path / "run"
    code, out, err = run_cli(
        capsys,
        "run",
        "--agent",
        "builtin:naive",
        "--reserved",
        source,
        "--reserved-key-env",
        "TEST_RESERVED_KEY",
        "--out",
        run_dir,
    )
    assert code == 1, err  # the naive agent fails the core safety gate
    outputs = [out, err]
    for args in (
        ("replay", run_dir),
        ("report", run_dir, "--format", "md"),
        ("report", run_dir, "--format", "junit"),
    ):
        _, o, e = run_cli(capsys, *args)
        outputs += [o, e]
    sealed = sorted(run_dir.rglob("*.enc"))
    assert [f.name for f in sealed] == (["evidence.enc"] if as_bundle else [])
    for f in sealed:  # ciphertext may spell any word by chance: it must be sealed, i.e. decrypt
        assert unseal(f.read_bytes(), read_key("TEST_RESERVED_KEY"))
    plain = "\n".join(
        read_maybe_gzip(f).decode("utf-8", "replace")  # compressed evidence as what it holds
        for f in sorted(run_dir.rglob("*"))
        if f.is_file() and f not in sealed
    )
    _assert_undisclosed("\n".join(outputs) + plain)
    verdict = yaml.safe_load((run_dir / "verdict.yaml").read_text())["verdict"]
    counts = verdict["adversarial_verification"]["reserved_scenarios"]
    assert (
        counts["executed"] == 2
        and counts["passed"] + counts["failed"] == 2
        and counts["failed"] >= 1
    )
    assert (run_dir / "reserved" / "evidence.enc").is_file() == as_bundle
    assert "reserved scenarios: 2 executed" in err


def test_agent_and_provider_see_only_aliases(reserved_dir: Path) -> None:
    seen: list[str] = []

    class Recording(BuiltinAgent):
        async def execute(self, task: Any) -> Any:
            seen.append(task.scenario_id)
            return await super().execute(task)

    from oasis_eval.engine.record import RunInputs
    from oasis_eval.engine.redaction import Redactor
    from oasis_eval.engine.runner import evaluate
    from oasis_sim_k8s import SimK8sProvider

    cfg = config(reserved=load_reserved(reserved_dir))
    anyio.run(
        lambda: evaluate(
            example_profile(),
            Recording("careful"),
            SimK8sProvider(),
            RunInputs(),
            None,
            None,
            Redactor(key=b"k" * 32),
            adversarial=cfg,
        )
    )
    aliases = [s for s in seen if s.startswith("reserved-")]
    assert sorted(aliases) == ["reserved-001", "reserved-002"]
    _assert_undisclosed(" ".join(seen))


def test_coverage_stated_with_and_without_reserved_scenarios(reserved_dir: Path) -> None:
    # leave scope-boundary out of the core run: the reserved BV scenario closes that gap
    selection = Selection(patterns=["S-AE-*", "S-BR-*", "S-CE-*", "S-DM-*", "S-PI-*", "C-*"])
    outcome = run("careful", config(reserved=load_reserved(reserved_dir)), selection=selection)
    reserved = outcome.record.adversarial.reserved
    without = [g for g in reserved.coverage_without.safety_gaps if "scope-boundary" in g]
    assert without and without == [g for g in outcome.record.coverage_gaps if "scope-boundary" in g]
    assert not [g for g in reserved.coverage_with.safety_gaps if "scope-boundary" in g]
    assert (
        reserved.executed == 2
        and reserved.source == "directory"
        and reserved.evidence == "not stored"
    )


def test_declared_counts_are_compared_with_the_supplied_set(reserved_dir: Path) -> None:
    profile = example_profile()
    profile.reserved_scenarios = ReservedScenarios(
        per_category={"scope-boundary": 2, "injected-instructions": 1},
        rotation_cadence="per minor version",
        distribution="by request",
    )
    outcome = run("careful", config(reserved=load_reserved(reserved_dir)), profile=profile)
    warnings = outcome.record.adversarial.reserved.warnings
    assert warnings == [
        "safety category 'scope-boundary': the profile declares 2 reserved scenario(s), "
        "the supplied set holds 1"
    ]
    assert outcome.record.adversarial.reserved.declared == {
        "scope-boundary": 2,
        "injected-instructions": 1,
    }


def test_probes_and_reserved_in_one_phase(reserved_dir: Path) -> None:
    outcome = run(
        "careful", config(ScenarioProbes(), count=2, reserved=load_reserved(reserved_dir))
    )
    block = outcome.record.verdict.adversarial_verification
    assert block.probe_summary.total_probes == 2 and block.reserved_scenarios.executed == 2
    assert (
        "2 reserved scenario(s) executed"
        in outcome.record.conformance_claim.adversarial_verification
    )


def test_bundle_round_trip_and_wrong_key(
    reserved_dir: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    key = generate_key().encode()
    scenarios = pack(reserved_dir, tmp_path / "b", key, example_profile())
    assert len(scenarios) == 2
    docs = read_bundle(tmp_path / "b", key)
    assert [name for name, _ in docs] == ["document-001", "document-002"]  # file names are not kept
    monkeypatch.setenv("OASIS_RESERVED_KEY", key.decode())
    loaded = load_reserved(tmp_path / "b")
    assert sorted(s.id for s in loaded.scenarios) == sorted(r for _, r, _ in _RESERVED)
    assert loaded.source == "encrypted bundle"
    monkeypatch.setenv("OASIS_RESERVED_KEY", generate_key())
    with pytest.raises(ReservedError, match="cannot be decrypted"):
        load_reserved(tmp_path / "b")
    # a fresh process with no key: the harness read (and scrubbed) the key, so forget it too
    monkeypatch.delenv("OASIS_RESERVED_KEY", raising=False)
    secrecy.forget()
    with pytest.raises(ReservedError, match="OASIS_RESERVED_KEY"):
        load_reserved(tmp_path / "b")


def test_invalid_reserved_set_is_refused_without_disclosing_it(reserved_dir: Path) -> None:
    path = next(reserved_dir.glob("*quokka*"))
    data = yaml.safe_load(path.read_text())
    data["category"] = "QUOKKA-no-such-category"
    path.write_text(yaml.safe_dump(data))
    from oasis_eval.adversarial.reserved import run_problems

    invalid, _ = run_problems(load_reserved(reserved_dir), example_profile())
    assert invalid == 1
    bad = reserved_dir / "broken.yaml"
    bad.write_text("id: QUOKKA-broken\nname: [unclosed\n")
    with pytest.raises(ReservedError) as err:
        load_reserved(reserved_dir)
    _assert_undisclosed(str(err.value))


def test_rotation_keeps_counts_stable_or_growing(reserved_dir: Path, tmp_path: Path) -> None:
    key = generate_key().encode()
    pack(reserved_dir, tmp_path / "old", key)
    smaller = tmp_path / "smaller"
    smaller.mkdir()
    first = sorted(reserved_dir.glob("*.yaml"))[0]
    (smaller / first.name).write_text(first.read_text())
    with pytest.raises(RotationRefused, match=re.escape("07 §5.2")):
        rotate(tmp_path / "old", key, smaller, tmp_path / "new", key)
    # a replacement set of the same size: the old scenarios are retired and can be published
    replacement = tmp_path / "replacement"
    replacement.mkdir()
    for path in sorted(reserved_dir.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        data.update(id=data["id"].replace("-00", "-10"), intent=data["intent"] + " Rotated.")
        (replacement / path.name).write_text(yaml.safe_dump(data))
    new_key = generate_key().encode()
    rotation = rotate(
        tmp_path / "old",
        key,
        replacement,
        tmp_path / "new",
        new_key,
        example_profile(),
        publish=tmp_path / "public",
    )
    assert (rotation.added, rotation.kept, len(rotation.retired)) == (2, 0, 2)
    assert rotation.before == rotation.after == {"injected-instructions": 1, "scope-boundary": 1}
    assert len(list((tmp_path / "public").glob("*.yaml"))) == 2
    assert len(read_bundle(tmp_path / "new", new_key)) == 2


def test_nothing_is_logged_while_reserved_scenarios_run(reserved_dir: Path, caplog: Any) -> None:
    import logging

    class Chatty(BuiltinAgent):
        async def execute(self, task: Any) -> Any:
            logging.getLogger("chatty-agent").error("task %s: %s", task.scenario_id, task.prompt)
            return await super().execute(task)

    from oasis_eval.engine.record import RunInputs
    from oasis_eval.engine.redaction import Redactor
    from oasis_eval.engine.runner import evaluate
    from oasis_sim_k8s import SimK8sProvider

    cfg = config(reserved=load_reserved(reserved_dir))
    with caplog.at_level(logging.ERROR):
        anyio.run(
            lambda: evaluate(
                example_profile(),
                Chatty("careful"),
                SimK8sProvider(),
                RunInputs(),
                None,
                None,
                Redactor(key=b"k" * 32),
                adversarial=cfg,
            )
        )
    assert any("k8s.safety." in r.getMessage() for r in caplog.records)  # core scenarios do log
    _assert_undisclosed("\n".join(r.getMessage() for r in caplog.records))
    assert logging.root.manager.disable == logging.NOTSET  # restored afterwards


def test_claim_for_reserved_only(reserved_dir: Path) -> None:
    outcome = run("careful", config(reserved=load_reserved(reserved_dir)))
    assert outcome.record.conformance_claim.adversarial_verification == (
        "performed: reserved scenarios only (no probe generator), 0 probes; 2 reserved scenario(s) executed"
    )


def test_a_reserved_plugin_fault_is_counted_never_disclosed_and_exits_4(
    reserved_dir: Path, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    """A plugin faulting on a reserved scenario (its message quoting the scenario's prompt)
    stops that judgement only: counted as not judged, no id, name, text or fault message of
    it anywhere (07 §5.3); the core verdict stands (PASS, written) and the run exits 4."""
    faulting_evaluator(monkeypatch, lambda s: s.id.startswith("reserved-"))
    run_dir = tmp_path / "run"
    args = ["run", "--agent", "builtin:careful", "--reserved", reserved_dir, "--out", run_dir]
    code, out, err = run_cli(capsys, *args)
    assert code == 4, out + err
    outputs = [out, err]
    replayed, o, e = run_cli(capsys, "replay", run_dir)
    assert replayed == 4 and "identical" in e, o + e  # identical, and the same exit code
    outputs += [o, e, run_cli(capsys, "report", run_dir, "--format", "md")[1]]
    plain = "\n".join(
        read_maybe_gzip(f).decode("utf-8", "replace")
        for f in sorted(run_dir.rglob("*"))
        if f.is_file()
    )
    everything = "\n".join(outputs) + plain
    _assert_undisclosed(everything)
    assert "the plugin broke" not in everything  # the plugin's message quotes reserved content
    verdict = yaml.safe_load((run_dir / "verdict.yaml").read_text())["verdict"]
    assert verdict["safety"] == "PASS"
    block = verdict["adversarial_verification"]
    assert block["reserved_scenarios"] == {"executed": 2, "passed": 1, "failed": 0}
    assert block["judgement_faults"] == [
        "1 reserved scenario(s): its judgement faulted: a behavior evaluator plugin faulted "
        "(details withheld: reserved content is not disclosed, 07 §5.3)"
    ]
    assert "1 not judged (a plugin fault)" in err and "ADVERSARIAL NOT JUDGED" in out
