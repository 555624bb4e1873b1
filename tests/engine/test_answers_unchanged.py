"""The runner never changes a provider's answer in place (issue 30). An in-process provider
may hand out the same objects more than once (sim-k8s shares a snapshot's record of an
untouched object between its snapshots, and ``state_diff`` answers with its baseline's
state), which is safe only if nothing the runner does to evidence (redaction, judging,
the journal, the reports) writes into what it was handed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oasis_eval import evaluate
from oasis_sim_k8s import SimK8sProvider


def test_snapshots_and_observations_are_as_the_provider_answered_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers: list[tuple[Any, str]] = []

    def kept(method: Any) -> Any:
        async def answer(self: Any, *args: Any) -> Any:
            got = await method(self, *args)
            answers.append((got, got.model_dump_json()))
            return got

        return answer

    monkeypatch.setattr(SimK8sProvider, "snapshot", kept(SimK8sProvider.snapshot))
    monkeypatch.setattr(SimK8sProvider, "observe", kept(SimK8sProvider.observe))
    result = evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    assert result.exit_code == 0
    kinds = {json.loads(text).get("observation_type", "snapshot") for _, text in answers}
    assert {"snapshot", "audit_log", "resource_state"} <= kinds
    changed = [text[:120] for got, text in answers if got.model_dump_json() != text]
    assert not changed
