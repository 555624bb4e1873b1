"""The benchmarks. Each returns result rows (see :class:`~.common.Row`); see README.md."""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import (
    REPO_ROOT,
    Row,
    careful_agent,
    cpu_seconds,
    executed_count,
    instant_agent,
    latency_agent,
    outcome_summary,
    run_evaluation,
    samples,
    si_profile_dir,
    timed,
)
from .db_profile import bench_db_profile
from .leak_cycles import bench_leak_cycles
from .synthetic_audit import after, audit_entries_of, synthetic_entries, with_audit_log
from .unit_targets import bench_audit_index, bench_http_provision, bench_sim_scale

#: the SI safety scenario verification is timed on: must_not actions (one with a label
#: selector), an api_audit forbidden action, a negative_verification sentence and state assertions
VERIFY_SCENARIO = "infra.safety.do.unqualified-destruction-001"
PARALLEL = 16
AGENT_LATENCY = 0.1
#: issue 30 item 1's targets, so that ``--strict`` means them: the instant agent's wall per
#: executed scenario over the in-process simulator, a replay of a full SI run, the speedup of
#: ``--parallel 16`` with a 100 ms agent, and the runner's own CPU per executed scenario
#: with the provider served in another process
PER_SCENARIO_MS = 15
REPLAY_S = 0.5
PARALLEL_SPEEDUP = 8
RUNNER_CPU_MS = 10


@dataclass
class Context:
    """What the benchmarks share: the options and results worth reusing (a recorded careful run)."""

    repeat: int
    quick: bool
    say: Callable[[str], None]
    #: ``--smoke``: no warm-up runs, fewest leak cycles (the tests' run of every benchmark)
    smoke: bool = False
    profile: Any = None
    careful_outcome: Any = None
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def warmup(self) -> int:
        """Untimed runs before the samples: none in a smoke run."""
        return 0 if self.smoke else 1

    def get_profile(self) -> Any:
        if self.profile is None:
            from .common import load_si_profile

            self.profile = load_si_profile()
        return self.profile

    def get_careful_outcome(self) -> Any:
        if self.careful_outcome is None:
            self.careful_outcome = run_evaluation(self.get_profile(), careful_agent())
        return self.careful_outcome


# ---- 1. profile load + validate ----------------------------------------------------------


def bench_profile_load(ctx: Context) -> list[Row]:
    from oasis_eval.profiles.loader import load_profile
    from oasis_eval.validation import validate_profile

    path = si_profile_dir()

    def load_and_validate() -> tuple[Any, Any]:
        loaded = load_profile(path)
        return loaded, validate_profile(loaded.profile)

    times, (loaded, findings) = samples(load_and_validate, ctx.repeat, warmup=ctx.warmup)
    ctx.profile = loaded.profile
    return [
        Row(
            "profile_load_validate",
            [t * 1000 for t in times],
            "ms",
            "<",
            300,
            "load_profile + validate_profile of the SI profile (in process, after one warm-up)",
            {
                "scenarios": len(loaded.profile.scenarios),
                "load_errors": len(loaded.findings.errors),
                "validation_errors": len(findings.errors),
                "validation_warnings": len(findings.warnings),
            },
        )
    ]


# ---- 2. full SI evaluation, serial ----------------------------------------------------------


def bench_si_evaluation(ctx: Context) -> list[Row]:
    profile = ctx.get_profile()
    rows: list[Row] = []
    for label, make, informational in (
        ("instant", instant_agent, False),
        ("careful", careful_agent, True),
    ):
        agent = make()
        times, outcome = samples(
            lambda a=agent: run_evaluation(profile, a, parallel=1), ctx.repeat, warmup=ctx.warmup
        )
        if label == "careful":
            ctx.careful_outcome = outcome
        executed = executed_count(outcome)
        summary = outcome_summary(outcome)
        what = (
            "an instant in-process FunctionAgent (no tool call)"
            if label == "instant"
            else "the built-in careful demo agent (informational)"
        )
        rows.append(
            Row(
                f"si_eval_{label}_serial_wall",
                times,
                "s",
                None if informational else "<",
                None if informational else 3,
                f"full SI evaluation on SimK8sProvider, parallel=1, with {what}",
                summary,
            )
        )
        rows.append(
            Row(
                f"si_eval_{label}_per_scenario",
                [t / max(1, executed) * 1000 for t in times],
                "ms",
                None if informational else "<=",
                None if informational else PER_SCENARIO_MS,
                f"wall / executed scenarios ({executed}) for the {label} agent: engine + provider overhead"
                + ("" if label == "instant" else " + the agent's own tool calls"),
            )
        )
    return rows


# ---- 3. parallel speedup ---------------------------------------------------------------------


@contextlib.contextmanager
def _cpu_of(into: list[float]) -> Iterator[None]:
    """Append the CPU seconds (user + system) the block took in this process and in the
    child processes it reaped (a parallel run's workers) to ``into``."""
    import resource

    def used() -> float:
        own, kids = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    start = used()
    yield
    into.append(used() - start)


def bench_parallel(ctx: Context) -> list[Row]:
    profile = ctx.get_profile()
    agent = latency_agent(AGENT_LATENCY)
    serial, parallel = [], []
    cpu: dict[str, list[float]] = {"serial": [], "parallel": []}
    outcome = None
    for _ in range(ctx.repeat):
        with _cpu_of(cpu["serial"]):
            seconds, outcome = timed(lambda: run_evaluation(profile, agent, parallel=1))
        serial.append(seconds)
        # `--parallel 16 --workers 0`: the documented opt-in to one worker process per core
        with _cpu_of(cpu["parallel"]):
            seconds, outcome = timed(
                lambda: run_evaluation(profile, agent, parallel=PARALLEL, workers=0)
            )
        parallel.append(seconds)
    speedups = [s / p for s, p in zip(serial, parallel)]
    from oasis_eval.evaluation.results import ScenarioState

    phases: dict[str, int] = {}
    for r in outcome.record.scenarios:
        if r.state is ScenarioState.executed:
            phase = str(getattr(r.classification, "value", r.classification))
            phases[phase] = phases.get(phase, 0) + 1
    executed = sum(phases.values())
    waves = sum(math.ceil(n / PARALLEL) for n in phases.values())
    ceiling = executed / waves if waves else 0.0
    detail = {
        "executed": executed,
        "executed_per_phase": phases,
        "agent_latency_ms": AGENT_LATENCY * 1000,
        "waves_at_parallel_16": waves,
        # CPU of each run, this process and its reaped worker processes (getrusage, user +
        # system): what going parallel costs beside the serial run's work, load or not
        "cpu_s_serial": [round(s, 3) for s in cpu["serial"]],
        "cpu_s_parallel": [round(s, 3) for s in cpu["parallel"]],
        # the worker processes --parallel 16 shares its scenarios among (one per core)
        "cores": len(os.sched_getaffinity(0))
        if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
    }
    return [
        Row(
            f"parallel{PARALLEL}_speedup_100ms_agent",
            speedups,
            "x",
            ">=",
            PARALLEL_SPEEDUP,
            f"wall(parallel=1) / wall(parallel={PARALLEL}), full SI run, agent answering after an async 100 ms "
            "sleep",
            detail,
        ),
        Row(
            "parallel_serial_wall_100ms_agent",
            serial,
            "s",
            description="the parallel=1 side of the speedup",
        ),
        Row(
            f"parallel{PARALLEL}_wall_100ms_agent",
            parallel,
            "s",
            description=f"the parallel={PARALLEL} side of the speedup",
        ),
        Row(
            f"parallel{PARALLEL}_ideal_speedup",
            [ceiling],
            "x",
            description="the most any engine could reach here with zero overhead: executed scenarios / "
            f"agent waves (the phases run one after the other, each in ceil(n/{PARALLEL}) waves)",
            detail=detail,
        ),
    ]


# ---- 3b. the runner's own CPU, provider in another process -----------------------------------


def bench_runner_cpu(ctx: Context) -> list[Row]:
    from .served import measure

    measured = measure(ctx.get_profile(), ctx.repeat)
    return [
        Row(
            "runner_cpu_per_scenario_served",
            [s * 1000 for s in measured["runner"]],
            "ms",
            "<=",
            RUNNER_CPU_MS,
            "CPU time of the runner process (time.process_time) per executed scenario: a whole SI "
            "run as `oasis run --provider URL` makes it (run directory, journal, manifest, "
            "reports), an instant in-process agent, sim-k8s served by `oasis provider serve` in "
            "another process",
            {
                "executed": measured["executed"],
                "server_cpu_ms_per_scenario": [round(s * 1000, 1) for s in measured["server"]],
                "provider_calls_per_scenario": measured["calls"],
                "provider_calls_per_scenario_total": round(sum(measured["calls"].values()), 2),
                "provider_bytes_per_call": measured["bytes_per_call"],
                "provider_bytes_per_scenario": measured["bytes_per_scenario"],
            },
        )
    ]


# ---- 4. replay -------------------------------------------------------------------------------


def bench_replay(ctx: Context) -> list[Row]:
    from oasis_eval.engine.redaction import Redactor
    from oasis_eval.engine.replay import replay
    from oasis_eval.engine.rundir import redacted_profile, write_run

    profile = ctx.get_profile()
    outcome = ctx.get_careful_outcome()
    tmp = Path(tempfile.mkdtemp(prefix="oasis-bench-replay-"))
    try:
        run_dir = tmp / "run"
        write_times = []
        for _ in range(ctx.repeat):
            if run_dir.exists():
                shutil.rmtree(run_dir)
            seconds, _ = timed(
                lambda: write_run(
                    run_dir, outcome.record, outcome.evidence, redacted_profile(profile, Redactor())
                )
            )
            write_times.append(seconds)
        size = sum(p.stat().st_size for p in run_dir.rglob("*") if p.is_file())
        cpu: list[float] = []

        def replayed() -> Any:
            start = cpu_seconds()
            try:
                return replay(run_dir)
            finally:
                cpu.append(cpu_seconds() - start)

        times, result = samples(replayed, ctx.repeat, warmup=ctx.warmup)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    detail = {
        # CPU of the timed replays (this process and its judging workers, common.cpu_seconds): on a
        # shared machine the wall time is the load's as much as the replay's
        "cpu_s": [round(s, 4) for s in cpu[len(cpu) - len(times) :]],
        "identical": result.identical,
        "run_dir_bytes": size,
        "evidence_files": len(outcome.evidence),
        **outcome_summary(outcome),
    }
    return [
        Row(
            "replay_full_si_run",
            times,
            "s",
            "<=",
            REPLAY_S,
            "oasis replay of a recorded full SI run (careful agent): load run.json, profile.json and the "
            "evidence, judge every executed scenario again, rebuild the verdict",
            detail,
        ),
        Row(
            "run_dir_write_full_si_run",
            write_times,
            "s",
            description="write_run of that run (verdict, record, redacted profile, evidence), informational",
        ),
    ]


# ---- 5. verification against large audit logs ----------------------------------------------


def _label(size: int) -> str:
    return (
        f"{size // 1_000_000}m"
        if size >= 1_000_000 and size % 1_000_000 == 0
        else f"{size // 1000}k"
    )


def bench_verification(ctx: Context, sizes: list[int]) -> list[Row]:
    import gc

    from oasis_eval.evaluation.judge import judge

    profile = ctx.get_profile()
    scenario = profile.scenario(VERIFY_SCENARIO)
    if scenario is None:
        raise RuntimeError(f"the SI profile has no scenario {VERIFY_SCENARIO}")
    outcome = ctx.get_careful_outcome()
    base = outcome.evidence.get(VERIFY_SCENARIO)
    if base is None:
        raise RuntimeError(f"{VERIFY_SCENARIO} did not execute in the recorded run")
    config = dict(outcome.record.verdict.metadata.agent_configuration)
    principal = outcome.record.inputs.agent_principal
    real = audit_entries_of(base)  # the provider's real log: setup writes and the agent's calls
    rows: list[Row] = []
    by_size: dict[int, list[float]] = {}
    for size in sizes:
        seconds, entries = timed(
            lambda n=size: (
                real[:n]
                + synthetic_entries(
                    max(0, n - len(real)),
                    principal,
                    start=after(real[-1]["timestamp"]) if real else "2024-05-14T09:31:00.000Z",
                )
            )
        )
        evidence = with_audit_log(base, entries)
        agent_calls = sum(
            1 for e in entries if (e.get("data") or {}).get("agent_principal") == principal
        )

        def verify(ev: Any = evidence) -> Any:
            return judge(scenario, ev, config, principal, schema=profile.agent_configuration_schema)

        # one untimed run first: on a VM the first touch of fresh memory can cost more than the
        # work itself (1M entries: several GB); it is reported as first_run_ms
        first, _ = timed(verify)
        times, result = samples(verify, ctx.repeat, warmup=0)
        by_size[size] = times
        failed = [a.source for a in result.assertions if not a.passed]
        rows.append(
            Row(
                f"verify_audit_{_label(size)}",
                [t * 1000 for t in times],
                "ms",
                "<" if size == 1_000_000 else None,
                3000 if size == 1_000_000 else None,
                f"judge() of {VERIFY_SCENARIO} with an audit_log observation of {size} plain-dict entries "
                "(parsing, indexing, every assertion)",
                {
                    "entries": size,
                    "agent_entries": agent_calls,
                    "status": result.status.value if result.status else result.state.value,
                    "assertions": len(result.assertions),
                    "failed_assertions": failed,
                    "first_run_ms": round(first * 1000, 1),
                    "build_input_s": round(seconds, 2),
                },
            )
        )
        del entries, evidence, verify, result
        gc.collect()
    ordered = sorted(by_size)
    for small, big in itertools.pairwise(ordered):
        if big != small * 10:
            continue
        ratios = [b / s for s, b in zip(by_size[small], by_size[big])]
        rows.append(
            Row(
                f"verify_scaling_{_label(small)}_to_{_label(big)}",
                ratios,
                "x",
                "<=",
                12,
                f"time({_label(big)} entries) / time({_label(small)} entries): 10 means linear",
            )
        )
    return rows


# ---- 6. peak RSS -----------------------------------------------------------------------------


def _own_rss_mb() -> float:
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def bench_peak_rss(ctx: Context) -> list[Row]:
    values, details = [], []
    parent = _own_rss_mb()
    for _ in range(ctx.repeat):
        proc = subprocess.run(
            [sys.executable, "-m", "benchmarks.rss_child", "--agent", "careful"],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if proc.returncode != 0:
            raise RuntimeError(
                f"rss_child failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}"
            )
        data = json.loads(proc.stdout)
        values.append(data["peak_rss_mb"])
        details.append(data)
    detail = {k: v for k, v in details[-1].items() if k != "peak_rss_mb"}
    # ru_maxrss is inherited across fork + exec: a child never reports less than its parent's peak
    detail["parent_peak_rss_mb_at_spawn"] = parent
    detail["inherited_from_parent"] = parent >= min(values)
    return [
        Row(
            "peak_rss_full_si_run",
            values,
            "MB",
            "<",
            250,
            "ru_maxrss of a fresh interpreter doing what `oasis run` does: load + validate the SI profile, "
            "evaluate it with the careful agent on SimK8sProvider, write the run directory and the reports",
            detail,
        )
    ]


# ---- the whole suite -------------------------------------------------------------------------

#: run order: rss first, while this process is still small (its peak would leak into the child's)
# ---- 7. a YAML alias bomb is refused fast ---------------------------------------------------


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" document of about 1 KB: ``width ** levels`` scalars once expanded."""
    lines = ["l0: &l0 [" + ", ".join(['"lol"'] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def bench_yaml_bomb(ctx: Context) -> list[Row]:
    from oasis_eval.diagnostics import UnusableInput
    from oasis_eval.spec.yaml_io import LIMITS, load_documents

    text = alias_bomb()

    def refuse() -> str:
        try:
            load_documents(Path("bomb.yaml"), text=text)
        except UnusableInput as exc:
            return str(exc)
        raise AssertionError("the alias bomb was accepted")

    times, message = samples(refuse, ctx.repeat, warmup=1)
    return [
        Row(
            "yaml_alias_bomb_rejected",
            [t * 1000 for t in times],
            "ms",
            "<",
            100,
            f"load_documents of a {len(text)}-byte alias bomb (9 levels of 9 aliases, 9**9 scalars expanded) "
            "until it is refused",
            {"bytes": len(text), "max_nodes": LIMITS.max_nodes, "message": message},
        )
    ]


BENCHMARKS = (
    "rss",
    "load",
    "eval",
    "parallel",
    "runner",
    "replay",
    "verify",
    "yaml",
    "index",
    "scale",
    "http",
    "leak",
    "postgres",
)
FULL_SIZES = [1_000, 10_000, 100_000, 1_000_000]
QUICK_SIZES = [1_000, 10_000]


def run_all(
    repeat: int,
    quick: bool,
    only: list[str] | None,
    say: Callable[[str], None],
    smoke: bool = False,
) -> tuple[list[Row], dict]:
    ctx = Context(repeat=repeat, quick=quick or smoke, say=say, smoke=smoke)
    chosen = [b for b in BENCHMARKS if not only or b in only]
    rows: list[Row] = []
    timings: dict[str, float] = {}
    for name in chosen:
        say(f"benchmark {name} ...")
        started = time.perf_counter()
        if name == "load":
            rows += bench_profile_load(ctx)
        elif name == "eval":
            rows += bench_si_evaluation(ctx)
        elif name == "parallel":
            rows += bench_parallel(ctx)
        elif name == "runner":
            rows += bench_runner_cpu(ctx)
        elif name == "replay":
            rows += bench_replay(ctx)
        elif name == "verify":
            rows += bench_verification(ctx, QUICK_SIZES if quick else FULL_SIZES)
        elif name == "rss":
            rows += bench_peak_rss(ctx)
        elif name == "yaml":
            rows += bench_yaml_bomb(ctx)
        elif name == "index":
            rows += bench_audit_index(ctx)
        elif name == "scale":
            rows += bench_sim_scale(ctx)
        elif name == "http":
            rows += bench_http_provision(ctx)
        elif name == "leak":
            rows += bench_leak_cycles(ctx)
        elif name == "postgres":
            rows += bench_db_profile(ctx)
        timings[name] = round(time.perf_counter() - started, 2)
        say(f"benchmark {name}: {timings[name]} s")
    return rows, timings
