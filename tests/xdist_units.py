"""How the default suite is spread over the xdist workers (issue 31, the suite within budget).

``--dist loadfile`` keeps a test file on one worker, so its module-scoped fixtures run once.
A module of :data:`SPLIT_BY_PARAM` is spread one parameter id at a time instead: its cost is
an expensive measurement per id (a whole SI run), shared by that id's tests through a
module-scoped cache, and on one worker it held that worker for most of the suite.
A module of :data:`SPLIT_BY_TEST` is spread one test at a time: each of its tests starts real
`oasis run` processes of its own; tests it names in a group share a module-scoped run and stay
together.
"""

from __future__ import annotations

from typing import Any

SPLIT_BY_PARAM = frozenset(
    {
        # test_gamers: every gamer, one capability-only SI run each (issue 27's bounds)
        "tests/validity/test_gamers.py",
        # test_validity: a dozen corpus agents, four runs each (two profiles, safety and capability)
        "tests/validity/test_validity.py",
        # test_rename_invariance: eight (pool, agent) pairs, one renamed SI measurement each
        "tests/validity/test_rename_invariance.py",
        # the SI mutation probes: a module-scoped run of 48 probes (about 30 CPU-s, heavy)
        "tests/adversarial/test_si_naive_probes.py",
    }
)

#: module -> {test (name and parameter id): group}: one unit per test, or per group
SPLIT_BY_TEST: dict[str, dict[str, str]] = {
    # eight real `oasis run` subprocesses; two tests read the same looting agent's run, five
    # the same faulting agents' run
    "tests/hostile/test_redteam_processes.py": {
        "test_a_cli_agent_reads_no_harness_secret_from_env_proc_cwd_or_the_run": "loot",
        "test_a_cli_agent_sees_no_process_but_its_own": "loot",
        **{
            f"test_a_cli_agent_faulting_after_harm_keeps_its_fail[{how}]": "faults"
            for how in ("claims", "garbage", "huge", "raise", "stderr")
        },
    },
    # `oasis run` processes with a hostile behavior plugin: the control and the hang each their
    # own, the faulting modes and the faulting precheck one process for all
    "tests/hostile/test_hostile_plugins.py": {
        "test_a_faulting_precheck_stops_the_run_before_any_scenario": "faults",
        **{
            f"test_a_faulting_plugin_ends_the_run_with_exit_4_named[{mode}-{what}]": "faults"
            for mode, what in (
                ("raise", "raised ValueError: the plugin broke"),
                ("none", "returned NoneType, not a BehaviorOutcome"),
                ("string", "returned str, not a BehaviorOutcome"),
                ("exit0", "raised SystemExit"),
                ("recurse", "raised RecursionError"),
                ("mutate", "changed the evidence"),
                ("mutate-scenario", "changed the evidence"),
                ("mutate-audit", "changed the evidence"),
                ("lying-bool", "exhibited is _Truthy, not bool"),
            )
        },
    },
    # every runnable example of docs/, each its own shell or Python process in its own directory
    "tests/docs/test_docs_examples.py": {},
}

#: the units that each hold a worker far longer than a gamer's (about 5 CPU-s; about 3.4 since
#: session 31 measures a gamer capability-only), in CPU-s of the
#: test process and its waited-for children (session 30, ``tests/waiting.py``, heavy tier on a
#: loaded machine): :func:`make_scheduler` hands them out first, so a run ends on many small
#: units spread over both workers, not on one long unit while the other worker idles (xdist's
#: own order puts the units of one or two tests last). A stale or missing entry only costs
#: balance, never a result.
COSTLY: dict[str, float] = {
    # careful's whole run judged again with a 10 MB answer (xdist's order put it last: the other
    # worker idled through all of it)
    "tests/evaluation/behaviors/test_guard27_rules.py": 229,
    "tests/evaluation/test_fuzz_answers.py": 71,  # eight half SI runs, 40 answers fuzzed each
    "tests/adversarial/test_si_naive_probes.py[48]": 47,  # 48 probes and their re-runs
    "tests/benchmarks/test_smoke.py": 41,  # every benchmark, a served simulator, leak cycles
    "packages/oasis-sim-k8s/tests/kubeapi/test_kubectl_versions.py": 31,  # 4 x 141 kubectl
    "tests/api/test_merge_si.py": 19,  # one run and eight shards per agent
    "tests/validity/test_new_faults.py": 16,
    "packages/oasis-sim-k8s/tests/test_settled.py": 16,
    "tests/e2e/test_kubectl_handoff.py": 13,
    "tests/e2e/test_holmesgpt.py": 12,
    # session 35 (ci35, ``tests/waiting.py`` CPU, load 5-16): xdist's order (the units with the
    # most tests first) put these one-test files last, behind a thousand gamer units, so the
    # tier ended on them while the other worker idled; the real-client e2e files skip here
    # (their clients live in CI's venvs) and are given a gamer's ten times, their subprocess
    # start-ups being wall more than CPU
    "packages/oasis-sim-k8s/tests/test_prebuilt.py": 15,
    "packages/oasis-sim-k8s/tests/tools/test_yaml_emitters.py": 7,
    "tests/evaluation/behaviors/test_fuzz_queries.py": 7,
    "tests/reporting/test_report_browser.py": 7,
    "tests/engine/test_run_readings_si.py": 6,
    "tests/viewer/test_browser.py": 4,
    "tests/cli/test_resume_cli.py": 3,
    "tests/e2e/test_k8s_mcp_server.py": 12,
    "tests/e2e/test_npm_k8s_mcp_servers.py": 12,
    "tests/postgres/test_mcp_server_heavy.py": 12,
}


def unit_of(nodeid: str) -> str:
    """The scheduling unit of a test: its file, or for a module of :data:`SPLIT_BY_PARAM`
    its file and parameter id (the tests of one id stay together, in collection order), or
    for a module of :data:`SPLIT_BY_TEST` its file and test (or the test's group)."""
    path, _, rest = nodeid.partition("::")
    if path in SPLIT_BY_TEST and rest:
        return f"{path}[{SPLIT_BY_TEST[path].get(rest, rest)}]"
    if path in SPLIT_BY_PARAM and rest.endswith("]") and "[" in rest:
        return f"{path}[{rest[rest.index('[') + 1 : -1]}]"
    return path


def costly_first(units: list[str]) -> list[str]:
    """``units`` with those of :data:`COSTLY` first, the costliest first; the others after
    them in their own order (xdist's: the units with the most tests first)."""
    return sorted(units, key=lambda unit: -COSTLY.get(unit, 0.0))


def make_scheduler(config: Any, log: Any) -> Any:
    """xdist's loadfile scheduler with the units of :func:`unit_of`, handed out in the order
    of :func:`costly_first`."""
    from xdist.scheduler import LoadFileScheduling

    class SplitFileScheduling(LoadFileScheduling):  # type: ignore[misc]
        ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

        def _assign_work_unit(self, node: Any) -> None:
            # the first unit handed out: xdist has just queued them all
            if not self.ordered:
                self.ordered = True
                queue = {unit: self.workqueue[unit] for unit in costly_first(list(self.workqueue))}
                self.workqueue.clear()
                self.workqueue.update(queue)
            super()._assign_work_unit(node)

    return SplitFileScheduling(config, log)
