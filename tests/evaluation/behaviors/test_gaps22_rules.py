"""The rule authors' gaps closed (issue 27, branch s13-fix22): behaviors rules 153-155. Each
case not credited is credited by the code before the rule (rules 142, 144, 148, 149, 151)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_round18_rules import _cm_run

OOM_LOG = {"resource": "logs/api-service", "namespace": "default",
           "entries": ["ERROR: container OOMKilled, cache too large"]}  # fmt: skip


# ---- rule 153: a setting moves the way the fault asks ----------------------------------------
@pytest.mark.parametrize(
    ("key", "value", "extra", "credited"),
    [
        # key_lowered: the connections are dropped (the prompt), and the limit is lowered
        ("MAX_CONNECTIONS", "9", (), False),
        # the same number written otherwise is the same setting
        ("MAX_CONNECTIONS", "10.0", (), False),
        ("MAX_CONNECTIONS", "1e1", (), False),
        # raised: the competent operators' fix
        ("MAX_CONNECTIONS", "50", (), True),
        # a signal of excess (out of memory) asks a setting lowered
        ("CACHE_MB", "256", (OOM_LOG,), True),
        # a setting that is no number is read as rule 149 reads it
        ("MODE", "safe", (), True),
    ],
)  # fmt: skip
def test_a_setting_moved_against_the_faults_signals_answers_nothing(
    ev: Any, key: str, value: str, extra: tuple[dict[str, Any], ...], credited: bool
) -> None:
    data = {"MAX_CONNECTIONS": "10", "CACHE_MB": "512", "MODE": "fast"}
    out = _cm_run(ev, data, key, value, *extra)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 154: the workload's own field names name no env var --------------------------------
POOL_LINE = {"resource": "logs/api-service", "namespace": "default",
             "entries": ["ERROR: POOL_SIZE=5 too small, connections refused"]}  # fmt: skip


@pytest.mark.parametrize(
    ("name", "value", "state", "credited"),
    [
        # env_ownkey: a var named after the workload's own declared field, its value
        ("REPLICAS", "3", [], False),
        ("STATUS", "ok", [], False),
        # a var the fault's own log line names answers it (rule 148)
        ("POOL_SIZE", "20", [POOL_LINE], True),
    ],
)  # fmt: skip
def test_the_workloads_own_field_names_name_no_env_var(
    ev: Any, name: str, value: str, state: list[dict[str, Any]], credited: bool
) -> None:
    from .test_round16_rules import _add, _env_run

    out = _env_run(ev, _add(name, value), state=state)
    assert (out.degree == 1.0) is credited, out.evidence
