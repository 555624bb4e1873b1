"""Every SI environment, right after provision and after simulated time passes, is the
one the committed digests describe (issue 30: provisioning made faster must not change an
environment: objects, uids, resourceVersions, audit entries, clock, controller facts).

After a deliberate change to what an environment holds, regenerate the digests with
``python packages/oasis-sim-k8s/tests/env_digest.py > packages/oasis-sim-k8s/tests/env_digests.json``
and say why in the commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.sim_k8s.support import scenario_ids

from .env_digest import si_digests

COMMITTED = Path(__file__).with_name("env_digests.json")


@pytest.mark.timeout(300)
def test_every_si_environment_matches_its_committed_digest() -> None:
    if not scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    expected = json.loads(COMMITTED.read_text("utf-8"))
    got = si_digests()
    assert sorted(got) == sorted(expected)
    changed = sorted(sid for sid in got if got[sid] != expected[sid])
    assert not changed, f"{len(changed)} environments differ, first: {changed[:5]}"
