"""oasis-eval performance benchmarks.

Run them from the repository root with ``.venv/bin/python -m benchmarks`` (see
``benchmarks/README.md``). They print one JSON document: for every measurement the
median of several runs (with min and max), its unit, the target and whether the
median meets it.

Modules:

- :mod:`.common` — timing, result rows, profile location, the benchmark agents;
- :mod:`.suite` — the six benchmarks;
- :mod:`.synthetic_audit` — synthetic Kubernetes-style audit logs for verification;
- :mod:`.rss_child` — one full SI run in a fresh interpreter, reporting its peak RSS;
- :mod:`.hotspots` — cProfile of the slow benchmarks (``python -m benchmarks.hotspots``).
"""

__all__: list[str] = []
