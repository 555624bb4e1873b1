"""RSS over many provision -> agent tool calls over MCP -> teardown cycles (issue 15 item 4).

``python -m benchmarks.leak_cycles [--cycles N]`` runs, in this fresh interpreter, a
``SimK8sProvider`` serving its tool surfaces over MCP (streamable HTTP on 127.0.0.1) and
N cycles of: provision an example scenario, open an MCP session with the issued token,
call ``kubectl`` three times, close the session, tear the environment down. It prints one
JSON document: the resident set size (VmRSS, after a full collection) after the warm-up
(a tenth of the cycles, at least 50 when there are 100 or more) and at the end, their ratio,
and what is left alive (environments, MCP tool surfaces, MCP sessions). The target is flat RSS: within +-10% of the warm-up
figure. The suite starts it in a new process so nothing measured before inflates it.
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from pathlib import Path
from typing import Any

SCENARIO = "k8s.capability.wo.in-scope-delete-001"
COMMANDS = ("get deploy -n shop", "get pods -n shop", "describe deploy storefront -n shop")


def rss_mb() -> float:
    """VmRSS of this process (Linux), after a full collection."""
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _request() -> Any:
    from .unit_targets import _request as provision_request

    return provision_request("example", SCENARIO)


def live(provider: Any) -> dict[str, int]:
    """What the provider and its MCP app still hold."""
    from oasis_sim_k8s.injection.environment import Environment

    gc.collect()
    apps = provider.mcp_apps()
    return {
        "environments": len(provider.envs),
        "environment_objects": sum(isinstance(o, Environment) for o in gc.get_objects()),
        "mcp_surfaces": sum(app.live_surfaces() for app in apps),
        "mcp_sessions": sum(app.live_sessions() for app in apps),
    }


def run(cycles: int) -> dict[str, Any]:
    import anyio

    from oasis_sim_k8s import SimK8sProvider
    from oasis_sim_k8s.servers.connect import connect

    request = _request()
    provider = SimK8sProvider(mcp=True)
    warmup = max(1, cycles // 10, min(50, cycles // 2))  # allocator and caches settle first
    marks: dict[str, float] = {"start": rss_mb()}

    async def cycle() -> None:
        res = await provider.provision(request)
        async with await connect(str(res.agent_endpoint), res.agent_credentials) as surface:
            for command in COMMANDS:
                await surface.call("kubectl", {"command": command})
        await provider.teardown(res.environment_id)

    async def main() -> dict[str, int]:
        for i in range(cycles):
            await cycle()
            if i + 1 == warmup:
                marks["warm"] = rss_mb()
        await anyio.sleep(0.2)  # let the server finish closing the last session
        return live(provider)

    started = time.perf_counter()
    left = anyio.run(main)
    seconds = time.perf_counter() - started
    marks["end"] = rss_mb()
    provider.stop_mcp()
    return {
        "cycles": cycles,
        "seconds": round(seconds, 1),
        "rss_start_mb": marks["start"],
        "rss_after_warmup_mb": marks["warm"],
        "rss_end_mb": marks["end"],
        "growth_after_warmup_pct": round(100 * (marks["end"] / marks["warm"] - 1), 1),
        "left_alive": left,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.leak_cycles")
    parser.add_argument("--cycles", type=int, default=1000)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.cycles), sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def bench_leak_cycles(ctx: Any) -> list[Any]:
    """The suite's row: this module in a fresh interpreter, 1,000 cycles (60 with --quick, 20
    with --smoke: what is left alive is checked all the same)."""
    import subprocess
    import sys

    from .common import Row

    cycles = 20 if getattr(ctx, "smoke", False) else 60 if ctx.quick else 1000
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.leak_cycles", "--cycles", str(cycles)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"leak_cycles failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    data = json.loads(proc.stdout)
    return [
        Row(
            "mcp_cycle_rss_growth",
            [abs(data["growth_after_warmup_pct"])],
            "%",
            "<",
            10.0,
            f"RSS growth from the warm-up tenth to the end of {cycles} provision -> MCP tool calls "
            "-> teardown cycles (flat: within 10%)",
            data,
        )
    ]
