"""Resource quantities (``cluster/quantity.py``): each text is parsed once per process
(issue 30), so the cached answers must be the parse of that very text."""

from __future__ import annotations

from oasis_sim_k8s.cluster.quantity import cpu_millis, mem_bytes


def test_cpu_quantities() -> None:
    cases = {"500m": 500, "2": 2000, "1.5": 1500, " 250m ": 250, "2Gi": None, "x": None}
    for _ in range(2):  # the second round answers from the cache
        assert {text: cpu_millis(text) for text in cases} == cases
    assert cpu_millis(2) == 2000 and cpu_millis(0.25) == 250 and cpu_millis(True) is None


def test_memory_quantities() -> None:
    cases = {"256Mi": 256 * 2**20, "1.5Gi": int(1.5 * 2**30), "512M": 512 * 10**6, "1024": 1024}
    cases |= {"64B": 64, "1k": 1000, "3m": None, "lots": None}
    for _ in range(2):
        assert {text: mem_bytes(text) for text in cases} == cases
    assert mem_bytes(1024) == 1024 and mem_bytes(None) is None
