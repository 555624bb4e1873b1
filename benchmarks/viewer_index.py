"""How fast ``oasis view`` indexes and lists a directory of many runs (issue 19 item 2).

Creates N run directories (copies of one real run of the built-in example profile, each with
its own run id, agent version and timestamp in ``verdict.json`` and ``run.json``; the bulky
files are hard links), then measures:

- ``index_cold_s``: the first index of all N runs (every verdict read and validated);
- ``refresh_warm_s``: a refresh when nothing changed (a walk and a stat per run);
- ``refresh_10_changed_s``: a refresh after 10 runs were rewritten;
- ``first_page_s``: the first ``GET /``, which checks each listed run against its manifest;
- ``list_page_s``: ``GET /`` (refresh + the first page of 100 runs, each re-read and its
  manifest check reused when nothing of it changed), median of ``--repeat``;
- ``filtered_page_s``: ``GET /?q=...`` matching one run in ten.

Usage: ``python -m benchmarks.viewer_index [--runs 2000] [--work DIR] [--repeat 5]``; prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: rewritten per copy; everything else is a hard link to the template run
_REWRITTEN = ("verdict.json", "run.json")


def make_template(work: Path) -> Path:
    """One real run of the example profile (the careful demo agent)."""
    import oasis_eval

    result = oasis_eval.evaluate(agent="builtin:careful", out=str(work / "template"), quiet=True)
    assert result.run_dir is not None
    return Path(result.run_dir)


def make_runs(template: Path, root: Path, count: int) -> None:
    """``count`` copies of ``template`` under ``root/<batch>/run-<i>``, ids and dates varied."""
    from oasis_eval.engine.manifest import write_manifest

    verdict = json.loads((template / "verdict.json").read_text(encoding="utf-8"))
    record = json.loads((template / "run.json").read_text(encoding="utf-8"))
    for i in range(count):
        run = root / f"batch-{i // 100:03d}" / f"run-{i:05d}"
        shutil.copytree(template, run, copy_function=os.link, ignore=_skip_rewritten)
        meta = verdict["verdict"]["metadata"]
        meta["agent_version"] = f"0.{i % 10}.{i}"
        meta["timestamp"] = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00Z"
        (run / "verdict.json").write_text(json.dumps(verdict, indent=2), encoding="utf-8")
        record["run_id"] = f"synthetic{i:05d}"
        record["verdict"]["metadata"] = meta
        (run / "run.json").write_text(json.dumps(record), encoding="utf-8")
        write_manifest(run, None)  # an intact run: the viewer checks every listed one (issue 26)


def _skip_rewritten(directory: str, names: list[str]) -> list[str]:
    return [n for n in names if n in _REWRITTEN]


def _timed(fn: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def measure(root: Path, repeat: int) -> dict[str, Any]:
    from starlette.testclient import TestClient

    from oasis_eval.history.index import RunIndex
    from oasis_eval.viewer.app import create_app

    index_path = root / ".oasis-index.sqlite"
    index_path.unlink(missing_ok=True)
    index = RunIndex(root)
    cold, stats = _timed(index.refresh)
    warm, _ = _timed(index.refresh)
    for run in sorted(root.glob("batch-000/run-0000*"))[:10]:
        path = run / "verdict.json"
        path.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        os.utime(run)
    changed, changed_stats = _timed(index.refresh)
    client = TestClient(create_app(root), base_url="http://127.0.0.1")
    first, _ = _timed(lambda: client.get("/"))  # every listed run's manifest checked once
    pages, filtered = [], []
    for _ in range(repeat):
        elapsed, response = _timed(lambda: client.get("/"))
        assert response.status_code == 200
        pages.append(elapsed)
        elapsed, response = _timed(lambda: client.get("/", params={"q": "batch-00"}))
        assert response.status_code == 200
        filtered.append(elapsed)
    return {
        "runs": stats.total,
        "index_cold_s": round(cold, 3),
        "refresh_warm_s": round(warm, 3),
        "refresh_10_changed_s": round(changed, 3),
        "refresh_10_changed_updated": changed_stats.updated,
        "first_page_s": round(first, 3),
        "list_page_s": round(statistics.median(pages), 3),
        "filtered_page_s": round(statistics.median(filtered), 3),
        "index_bytes": index_path.stat().st_size,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--work", type=Path, default=None, help="kept afterwards when given")
    args = parser.parse_args(argv)
    work = args.work or Path(tempfile.mkdtemp(prefix="oasis-viewer-bench-"))
    try:
        root = work / "runs"
        if root.exists():
            shutil.rmtree(root)
        print(f"creating {args.runs} run directories under {root}", file=sys.stderr)
        make_runs(make_template(work), root, args.runs)
        print(json.dumps(measure(root, args.repeat), indent=2))
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
