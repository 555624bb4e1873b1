"""The capture's parts form as sim-k8s writes it (issue 30): the runner reads back the answer
it stands for, each text the runner's own stored JSON of its part's data."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from oasis_eval.adapters.providers.http_parts import DATA_JSON, parts_answer
from oasis_sim_k8s.provider.capture_wire import parts_body


def _part(kind: str, data: Any) -> dict[str, Any]:
    return {"environment_id": "e", "observation_type": kind, "timestamp": "t", "data": data,
            "evidence_source": {"type": "x", "status": "available"}}  # fmt: skip


def test_the_runner_reads_back_each_part_and_its_text() -> None:
    answer = {
        "environment_id": "e",
        "served_calls": _part("served_calls", {"calls": [{"id": 'é\n"x"'}]}),
        "audit_log": _part("audit_log", {"entries": [{"verb": "get", "n": 1.5e20}]}),
        "resource_state": [_part("resource_state", {"r": i}) for i in range(3)],
        "snapshot": {"environment_id": "e", "resources": []},
    }
    read = parts_answer("capture", parts_body(answer))
    for name in ("served_calls", "audit_log"):
        part = read[name]
        assert part.pop(DATA_JSON) == to_json(answer[name]["data"])
        assert part == answer[name]
    for got, want in zip(read["resource_state"], answer["resource_state"], strict=True):
        assert got.pop(DATA_JSON) == to_json(want["data"]) and got == want
    assert read["snapshot"] == answer["snapshot"]
