"""A whole in-process run over the simulated cluster with a tiny agent that leaks, written
to a run directory the way ``oasis run`` writes it; helpers to grep every file of it."""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio

from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask, ToolCall
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.rundir import redacted_profile, write_run
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.files import read_maybe_gzip
from oasis_eval.profiles.loader import load_profile
from oasis_eval.reporting import write_reports
from oasis_sim_k8s import SimK8sProvider

CE = "k8s.safety.ce.db-password-request-001"
#: what the agent writes, given the task: (final answer, reasoning, tool-call arguments, ConfigMap data)
Leak = Callable[[AgentTask], tuple[str, str, dict[str, Any], dict[str, str]]]


def example_profile() -> Any:
    return load_profile(EXAMPLE_PROFILE_DIR).profile


def with_password(
    profile: Any,
    plaintext: str,
    extra: dict[str, str] | None = None,
    extra_refs: list[str] | None = None,
) -> Any:
    """The example profile with the CE scenario's PASSWORD set to ``plaintext`` (stored
    base64-encoded, as Kubernetes stores it); ``extra``: stringData keys added to the same
    Secret, each declared as a contained value when listed in ``extra_refs``."""
    copy = profile.model_copy(deep=True)
    scenario = next(s for s in copy.scenarios if s.id == CE)
    secret = next(
        e
        for e in scenario.preconditions.environment.state
        if str(e["resource"]) == "secret/db-creds"
    )
    secret["data"]["PASSWORD"] = base64.b64encode(plaintext.encode()).decode()
    if extra:
        secret["stringData"] = dict(extra)
        first = scenario.verification.value_containment[0]
        for ref in extra_refs or []:
            scenario.verification.value_containment.append(
                first.model_copy(update={"value_ref": ref})
            )
    return copy


class LeakyAgent:
    """Writes what ``leak`` returns into its answer, reasoning and reported tool call, and
    creates a ConfigMap holding it through the cluster API (so it is in the audit log and
    the final snapshot too)."""

    def __init__(self, provider: SimK8sProvider, leak: Leak):
        self.provider, self.leak = provider, leak
        self.tasks: list[AgentTask] = []

    async def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(name="leaky", version="1.0.0"),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        self.tasks.append(task)
        answer, reasoning, arguments, data = self.leak(task)
        env, user = self.provider.authenticate(task.environment.agent_credentials["token"])  # type: ignore[misc,union-attr,index]
        ns = (task.scope.get("namespaces") or ["default"])[0]
        if data:
            body = {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": "notes", "namespace": ns},
                "data": data,
            }
            env.api.request(user, "create", "configmaps", ns, body=body)
        return AgentResponse(
            final_answer=answer,
            reasoning=reasoning,
            model="leaky-1",
            actions=[ToolCall(tool="kubectl", arguments=arguments, result="ok")],
        )

    async def aclose(self) -> None:
        return None


def run_and_write(
    profile: Any,
    leak: Leak,
    run_dir: Path,
    patterns: list[str] | None = None,
    provider: SimK8sProvider | None = None,
) -> tuple[Any, LeakyAgent]:
    """Evaluate (only ``patterns`` when given), write the run directory and every report."""
    provider = provider or SimK8sProvider()
    agent = LeakyAgent(provider, leak)
    selection = Selection(patterns=patterns) if patterns else Selection()
    inputs = RunInputs(evaluator="hostile-tests", claimed_tier=1)
    redactor = Redactor()
    outcome = anyio.run(evaluate, profile, agent, provider, inputs, selection, None, redactor)
    write_run(run_dir, outcome.record, outcome.evidence, redacted_profile(profile, Redactor()))
    write_reports(outcome.record, run_dir, ("md", "html", "junit", "yaml", "json"))
    return outcome, agent


def files_holding(run_dir: Path, needles: list[str]) -> list[str]:
    """``file: needle`` for every needle found in any file of the run directory."""
    found = []
    for path in sorted(run_dir.rglob("*")):
        if path.is_file():
            # a compressed file (evidence/*.json.gz) is searched as what it holds
            text = read_maybe_gzip(path).decode("utf-8", errors="replace")
            found += [f"{path.relative_to(run_dir)}: {n!r}" for n in needles if n and n in text]
    return found


#: ``oasis run`` in process once per case, in one interpreter (issue 31, the suite's budget:
#: the CLI is imported once, not four times): argv[1] a JSON list of [case, cwd, env, argv];
#: each case's [exit code, stdout, stderr] written as JSON to argv[2] as soon as it ends, so a
#: case that ended the process (os._exit not refused) leaves the others' results and its own
#: missing. Each run restores ``os._exit`` and the driver the working directory.
CLI_DRIVER = """
import contextlib, io, json, os, sys
from oasis_eval.cli.main import main

plan, written, results = json.loads(sys.argv[1]), sys.argv[2], {}
for case, cwd, env, argv in plan:
    os.chdir(cwd)
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["oasis", *argv]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    for name in env:
        del os.environ[name]
    results[case] = [code, out.getvalue(), err.getvalue()]
    with open(written, "w", encoding="utf-8") as f:
        json.dump(results, f)
"""
