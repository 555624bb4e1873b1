"""Opt-in measurement of what each test costs and how long it waits (issue 31, the suite's budget).

    OASIS_TEST_COSTS=/tmp/costs .venv/bin/pytest -p tests.waiting -n 2
    python -m tests.waiting /tmp/costs            # the top waiters, then the top files

Each test (setup and teardown included) appends a JSON line to ``<prefix>-<worker>.jsonl``:
its wall time, its CPU (``resource.getrusage``: the worker's and its waited-for children's)
and the worker threads' run-queue delay (``/proc/self/task/*/schedstat``, Linux: time it was
ready to run while others' processes ran). On a shared machine wall time is mostly other
people's load; what a test itself waits for (sleeps, polls, timeouts waited out, a server's
shutdown) is about wall - CPU - run-queue delay, the children's own delay estimated at the
workers' ratio of delay to CPU. A daemon a test starts and does not wait for counts as waiting.
"""

from __future__ import annotations

import glob
import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest

PREFIX = "OASIS_TEST_COSTS"


def _sample() -> tuple[float, float, float, float]:
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    delay = 0
    for path in glob.glob("/proc/self/task/*/schedstat"):
        try:
            with open(path, encoding="ascii") as stat:
                delay += int(stat.read().split()[1])
        except (OSError, IndexError, ValueError):  # a thread that ended meanwhile
            pass
    return (
        time.monotonic(),
        own.ru_utime + own.ru_stime,
        children.ru_utime + children.ru_stime,
        delay / 1e9,
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    before = _sample()
    yield
    after = _sample()
    wall, own, children, delay = (round(b - a, 3) for a, b in zip(before, after, strict=True))
    prefix = os.environ.get(PREFIX, "oasis-test-costs")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    row = {"id": item.nodeid, "wall": wall, "cpu": own, "children": children, "delay": delay}
    with open(f"{prefix}-{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def ranked(rows: list[dict[str, Any]]) -> list[tuple[float, dict[str, Any]]]:
    """(estimated waiting, row), most waiting first (module doc)."""
    own = sum(r["cpu"] for r in rows) or 1.0
    ratio = sum(max(0.0, r["delay"]) for r in rows) / own
    waits = [
        (r["wall"] - r["cpu"] - r["children"] * (1 + ratio) - max(0.0, r["delay"]), r) for r in rows
    ]
    return sorted(waits, key=lambda pair: (-pair[0], pair[1]["id"]))


def main(prefix: str, top: int = 40) -> None:
    rows = []
    for path in sorted(glob.glob(f"{prefix}-*.jsonl")):
        with open(path, encoding="utf-8") as lines:
            rows += [json.loads(line) for line in lines]
    waits = ranked(rows)
    cpu = sum(r["cpu"] + r["children"] for r in rows)
    print(
        f"{len(rows)} tests, {cpu:.0f} CPU-s, about {sum(max(0.0, w) for w, _ in waits):.0f} s waiting"
    )
    for wait, r in waits[:top]:
        print(f"{wait:6.2f} s waiting {r['cpu'] + r['children']:6.2f} CPU-s  {r['id']}")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for wait, r in waits:
        files[r["id"].split("::")[0]][0] += max(0.0, wait)
        files[r["id"].split("::")[0]][1] += r["cpu"] + r["children"]
    print("per file:")
    for name, (wait, cost) in sorted(files.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{wait:6.2f} s waiting {cost:6.2f} CPU-s  {name}")


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:3]))
