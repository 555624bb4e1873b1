"""The memory-leak scenario the course rules' tests share (rules 1094 and 1121): the
workload's memory series rising toward its 2Gi limit, and a served row of another pod."""

from __future__ import annotations

MI = 2**20
MEMORY = "container_memory_working_set_bytes"
SERIES = [
    {"t": "-6h", "value": "500Mi"},
    {"t": "-4h", "value": "800Mi"},
    {"t": "-2h", "value": "1.2Gi"},
    {"t": "now", "value": "1.6Gi"},
]


def _leak(ev):  # type: ignore[no-untyped-def]
    return ev.cap(
        [
            {
                "resource": "deployment/data-processor",
                "namespace": "default",
                "memory_limit": "2Gi",
            },
            {"resource": "metrics/data-processor", "series": {MEMORY: SERIES}},
        ],
        "How is the data-processor service doing? Anything to worry about?",
    )


def _row(pod: str, values: list[float]) -> dict[str, object]:
    labels = {"__name__": MEMORY, "namespace": "default", "pod": pod}
    return {"metric": labels, "values": [str(v * MI) for v in values]}
