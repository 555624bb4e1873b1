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
import dataclasses
import json
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


@dataclasses.dataclass
class Traffic:
    """The provider calls the runner sent, by path (``provision``, ``state-snapshot``, ...):
    how many, and the bytes of their request and answer bodies (issue 30: the bytes per call),
    those by path and observation type (``observe audit_log``)."""

    calls: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    kinds: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    sent: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)
    received: collections.Counter[str] = dataclasses.field(default_factory=collections.Counter)

    def per_scenario(self, executed: int) -> dict[str, Any]:
        """Calls per executed scenario by path, bytes per call by path and bytes per scenario."""
        per = max(1, executed)
        return {
            "calls": {path: round(n / per, 2) for path, n in sorted(self.calls.items())},
            "bytes_per_call": {
                kind: {"sent": self.sent[kind] // n, "received": self.received[kind] // n}
                for kind, n in sorted(self.kinds.items())
            },
            "bytes_per_scenario": {
                "sent": sum(self.sent.values()) // per,
                "received": sum(self.received.values()) // per,
            },
        }


@contextlib.contextmanager
def counted_calls() -> Iterator[Traffic]:
    """The provider calls the runner sends while inside (:class:`Traffic`): the HTTP
    client's one exchange function, wrapped for the warm-up run only, so the measured runs
    are the code as it is."""
    from oasis_eval.adapters.providers.http import HttpProvider

    traffic = Traffic()
    original = HttpProvider._exchange

    async def exchange(self: Any, request: Any) -> Any:
        response = await original(self, request)
        path = request.url.path.removeprefix("/v1/")
        kind = path
        if path == "observe":
            kind += " " + str(json.loads(request.content).get("observation_type"))
        traffic.calls[path] += 1
        traffic.kinds[kind] += 1
        traffic.sent[kind] += len(request.content)
        traffic.received[kind] += len(response.content)
        return response

    HttpProvider._exchange = exchange  # type: ignore[method-assign]
    try:
        yield traffic
    finally:
        HttpProvider._exchange = original  # type: ignore[method-assign]


def measure(profile: Any, repeat: int) -> dict[str, Any]:
    """Runner CPU per executed scenario of ``repeat`` whole runs (after one warm-up run), the
    server's CPU per scenario over the same runs, and the provider calls per executed
    scenario with the bytes per call (counted in the warm-up run, :class:`Traffic`)."""
    token = secrets.token_urlsafe(32)
    runner: list[float] = []
    server: list[float] = []
    with served_sim(token) as (url, pid), tempfile.TemporaryDirectory() as work:
        with counted_calls() as traffic:
            _, warm = served_run(profile, url, token, Path(work) / "warm-up")
        wire = traffic.per_scenario(executed_count(warm))
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
    return {"runner": runner, "server": server, "executed": executed, **wire}
