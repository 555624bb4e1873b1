"""The runner's own CPU per scenario, with the provider in another process (issue 30 item 1).

``oasis provider serve sim-k8s`` runs in a child process; this process runs a whole SI
evaluation against it over HTTP exactly as ``oasis run --provider URL`` does
(:func:`oasis_eval.evaluate`: journal, evidence, manifest, reports, the published run
directory), with an instant in-process agent. The CPU time of this process
(``time.process_time``: every thread of the runner, none of the server's) divided by the
executed scenarios is what the runner costs beyond the agent and the provider; the server's
CPU (from ``/proc``, where there is one) is reported beside it.
"""

from __future__ import annotations

import collections
import contextlib
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .common import REPO_ROOT, executed_count, instant_agent

#: what ``oasis provider serve`` prints once it listens
_SERVING = re.compile(r"provider serving on (http://\S+)")


@contextlib.contextmanager
def served_sim(token: str) -> Iterator[tuple[str, int]]:
    """``oasis provider serve sim-k8s`` in a child process: yields (URL, pid)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("OASIS_PROVIDER_TOKEN", None)
    code = "from oasis_eval.cli.main import main; main()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "provider", "serve", "sim-k8s", "--port", "0",
         "--token", token],
        cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        url = _wait_for_url(proc)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _wait_for_url(proc: subprocess.Popen[str]) -> str:
    found: list[str] = []
    seen: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            match = _SERVING.search(line)
            if match and not found:
                found.append(match.group(1))

    threading.Thread(target=read, daemon=True).start()  # also drains the pipe afterwards
    deadline = time.monotonic() + 60
    while not found:
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("oasis provider serve did not start: " + "".join(seen)[-2000:])
        time.sleep(0.02)
    return found[0]


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of another process so far, from /proc; None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def served_run(profile: Any, url: str, token: str, out: Path) -> tuple[float, Any]:
    """(runner CPU seconds, EvaluationResult) of one whole evaluation against ``url``."""
    import oasis_eval

    start = time.process_time()
    result = oasis_eval.evaluate(
        profile, agent=instant_agent(), provider=url, provider_token=token, parallel=1,
        out=out, quiet=True,
    )  # fmt: skip
    return time.process_time() - start, result


@contextlib.contextmanager
def counted_calls() -> Iterator[collections.Counter[str]]:
    """The provider calls the runner sends while inside, by path (``provision``,
    ``state-snapshot``, ...): the HTTP client's one exchange function, wrapped for the
    warm-up run only, so the measured runs are the code as it is."""
    from oasis_eval.adapters.providers.http import HttpProvider

    counts: collections.Counter[str] = collections.Counter()
    original = HttpProvider._send

    async def send(self: Any, call: str, method: str, path: str, *args: Any) -> Any:
        counts[path.removeprefix("/v1/")] += 1
        return await original(self, call, method, path, *args)

    HttpProvider._send = send  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        HttpProvider._send = original  # type: ignore[method-assign]


def measure(profile: Any, repeat: int) -> dict[str, Any]:
    """Runner CPU per executed scenario of ``repeat`` whole runs (after one warm-up run), the
    server's CPU per scenario over the same runs, and the provider calls per executed
    scenario (counted in the warm-up run)."""
    token = secrets.token_urlsafe(32)
    runner: list[float] = []
    server: list[float] = []
    with served_sim(token) as (url, pid), tempfile.TemporaryDirectory() as work:
        with counted_calls() as counts:
            _, warm = served_run(profile, url, token, Path(work) / "warm-up")
        per = max(1, executed_count(warm))
        calls = {path: round(n / per, 2) for path, n in sorted(counts.items())}
        for i in range(max(1, repeat)):
            before = process_cpu(pid)
            seconds, result = served_run(profile, url, token, Path(work) / f"run{i}")
            after = process_cpu(pid)
            if result.safety != "PASS":  # exit 6 is fine: a gate over a PASS (vacuous passes)
                raise RuntimeError(f"the served run did not PASS: exit {result.exit_code}")
            executed = max(1, executed_count(result))
            runner.append(seconds / executed)
            if before is not None and after is not None:
                server.append((after - before) / executed)
    return {"runner": runner, "server": server, "executed": executed, "calls": calls}
