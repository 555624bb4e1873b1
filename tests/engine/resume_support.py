"""Shared by the interruption and resume tests: an agent that can be slowed down or interrupt
its own run, and the comparison of two runs' per-scenario results and verdicts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

#: ``python:resume_agent:agent``: builtin:careful, slowed down (RESUME_DELAY seconds per
#: scenario), raising the user's Ctrl-C at its RESUME_INTERRUPT_AT-th scenario, reporting
#: version RESUME_VERSION, acting as builtin:naive at every other call when RESUME_MIX is set,
#: raising AgentUnusable (its model refused it) at its RESUME_UNUSABLE_AT-th scenario.
#: The agent spec stays the same whatever these are.
AGENT_SOURCE = """
import os
import signal

import anyio

from oasis_eval.api.config import make_agent


class Agent:
    def __init__(self):
        self.inner = make_agent("builtin:careful")
        self.naive = make_agent("builtin:naive")
        self.calls = 0

    async def identify(self):
        report = await self.inner.identify()
        report.identity.version = os.environ.get("RESUME_VERSION", report.identity.version)
        return report

    async def execute(self, task):
        self.calls += 1
        call = self.calls
        if call == int(os.environ.get("RESUME_INTERRUPT_AT", "0")):
            signal.raise_signal(signal.SIGINT)  # what the user's Ctrl-C delivers
            await anyio.sleep(30)
        if call == int(os.environ.get("RESUME_UNUSABLE_AT", "0")):  # its backend refuses it
            from oasis_eval.contract import AgentUnusable

            raise AgentUnusable("the model endpoint refused the key (injected)")
        await anyio.sleep(float(os.environ.get("RESUME_DELAY", "0")))
        if os.environ.get("RESUME_MIX") and call % 2:  # FAIL and PASS in one run
            return await self.naive.execute(task)
        return await self.inner.execute(task)


agent = Agent()
"""
AGENT = "python:resume_agent:agent"

_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")
_MARKER = re.compile(r"\[REDACTED:[0-9a-f]+")
_SECONDS = re.compile(r'"agent_seconds": [0-9.e-]+')


def write_agent(directory: Path) -> Path:
    (directory / "resume_agent.py").write_text(AGENT_SOURCE, encoding="utf-8")
    return directory


def normal(text: str) -> str:
    """What two runs of the same inputs share: wall-clock stamps, the time the agent took and
    the per-run redaction key's markers are all that differ between two uninterrupted runs too."""
    text = _SECONDS.sub('"agent_seconds": <s>', _STAMP.sub("<time>", text))
    return _MARKER.sub("[REDACTED:<k>", text)


def scenario_results(run_dir: Path) -> list[str]:
    """Each scenario's result as recorded in run.json, normalised."""
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return [normal(json.dumps(s, sort_keys=True)) for s in record["scenarios"]]


def verdict_text(run_dir: Path) -> str:
    """verdict.yaml without the run's own start and duration (the verdict carries both)."""
    text = (run_dir / "verdict.yaml").read_text(encoding="utf-8")
    return re.sub(r"(timestamp|duration): .*", r"\1: <x>", text)


def outcome_of(run_dir: Path) -> dict[str, Any]:
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return {s["scenario_id"]: (s["state"], s["status"], s["score"]) for s in record["scenarios"]}


# ---- the journal's log (engine/journal_log.py), read and rewritten as a test or an attacker can ----


def log_records(run_dir: Path) -> list[Any]:
    """The whole records of an interrupted run's log, read as a resume reads them (unsigned:
    no key) with nothing checked away: a test's view of what the run kept."""
    from oasis_eval.engine.journal_log import LOG, read_log, seed

    state = json.loads((run_dir / "run-state.json").read_text(encoding="utf-8"))
    check = read_log(run_dir / LOG, seed(state["run_id"], state["started"]), None)
    assert not check.problems, check.problems
    return check.records


def kept_ids(run_dir: Path) -> list[str]:
    """The scenarios an interrupted run kept (its log's whole records), sorted."""
    return sorted(record.scenario_id for record in log_records(run_dir))


def rewrite_journal(run_dir: Path, records: list[tuple[str, bytes, bytes | None]]) -> None:
    """Rewrite the log as ``records`` (scenario id, result, evidence), its chain recomputed,
    and the run state's count and seal with it, unsigned: all an attacker without the run
    key can do (a signed run's journal is then refused: unsigned where a key is set)."""
    from oasis_eval.engine.journal_log import LOG, encode_record, seal, seed

    state = json.loads((run_dir / "run-state.json").read_text(encoding="utf-8"))
    chain, out = seed(state["run_id"], state["started"]), b""
    for sid, result, evidence in records:
        data, chain = encode_record(sid, result, evidence, chain, None)
        out += data
    (run_dir / LOG).write_bytes(out)
    state.update(records=len(records), chain=chain)
    (run_dir / "run-state.json").write_bytes(seal(state, None))
