"""heldout46's further findings (session 37, written blind): a pod failing its readiness probe,
a rollout that preceded the errors, the schema behind a migration, and the CPU question.
Nothing here knows a scenario.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .agents import Tools
from .operator_heldout46_judge import Verdict
from .operator_heldout46_look import Facts, kubectl
from .operator_heldout46_memo import Memo, clip


def unready(memo: Memo, facts: Facts) -> Verdict | None:
    """A pod whose readiness probe fails while its siblings serve."""
    for pod in facts.described:
        probe = [e for e in pod.events if re.search(r"readiness probe failed|unhealthy", e, re.I)]
        if probe:
            mark = memo.note(
                f"kubectl describe pod {pod.name} -n {facts.ns}", f"Events: {probe[0]}"
            )
            memo.find(
                f"The pod {pod.name} was found failing its readiness probe and removed from service",
                mark,
            )
            return Verdict(
                "unready",
                f"the pod {pod.name} of {facts.target} is failing its readiness probe ({clip(probe[0], 100)})",
                container=pod.name,
            )
    return None


async def init_logs(tools: Tools, memo: Memo, facts: Facts, pod: str, container: str) -> str:
    """The failing init container's own log: what it said before it exited."""
    out = await kubectl(tools, facts, f"logs {pod} -n {facts.ns} -c {container} --tail=50")
    lines = [ln for ln in rd.log_lines(out) if ln.signal] or rd.log_lines(out)[-1:]
    if not lines:
        return ""
    line = lines[-1].raw
    memo.find(
        f'The log of init container {container} was found to end in: "{clip(line, 150)}"',
        memo.note(f"kubectl logs {pod} -n {facts.ns} -c {container}", line),
    )
    return line


async def error_rate(tools: Tools, memo: Memo, facts: Facts, who: str) -> float | None:
    """The workload's error-rate series as a percentage, when the metrics name one."""
    if "metrics_query" not in tools.names:
        return None
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    for metric in [n for n in names if "error" in n][:4]:
        out = await tools.call("metrics_query", action="query", query=metric)
        for labels, values in rd.prom_series(out):
            if values and any(str(v) == who or str(v).startswith(who) for v in labels.values()):
                rate = values[-1] * (100 if values[-1] <= 1 else 1)
                memo.find(
                    f"The series {metric} for {labels.get('service') or who} was read at {rate:.2f}%",
                    memo.note(f"metrics_query query {metric}", f"{labels}: {values[-1]}"),
                )
                return rate
    return None


def recent_rollout(
    memo: Memo, facts: Facts, rows: list[dict[str, str]], minutes: float = 60
) -> Verdict | None:
    """A new version rolled out shortly before the errors: the change that preceded them."""
    if len(rows) < 2:
        return None
    new, old = rows[0], rows[1]
    age = rd.age_minutes(new.get("age", ""))
    if age is None or age > minutes or new.get("images") == old.get("images"):
        return None
    mark = memo.note(
        f"kubectl get replicasets -n {facts.ns} -o wide",
        f"{new.get('name')} {new.get('images')} age {new.get('age')}; previous {old.get('images')} age {old.get('age')}",
    )
    memo.find(
        f"The version {new.get('images')} was found to have been rolled out {new.get('age')} before the "
        f"examination, replacing {old.get('images')}; the errors were observed after that rollout",
        mark,
    )
    return Verdict(
        "rollout",
        f"the rollout of {new.get('images')} ({new.get('age')} ago) introduced the errors in {facts.target}",
        fix="roll back to " + str(old.get("images")),
    )


async def schema(tools: Tools, memo: Memo, facts: Facts) -> str:
    """The migration history, read-only: what the last migration changed and when."""
    if "database" not in tools.names:
        return ""
    out = await tools.call("database", query="migrations status")
    facts.raw["database migrations status"] = out
    lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
    mark = memo.note("database migrations status", " | ".join(lines[-4:]))
    memo.find(f"The schema migration history was read: {clip(' | '.join(lines[-3:]), 200)}", mark)
    return out


def cpu_question(memo: Memo, facts: Facts, verdict: Verdict | None, prompt: str) -> None:
    """Answer "is the CPU the problem?" against the kill's own reason."""
    if not re.search(r"\bcpu\b", prompt, re.I):
        return
    node = next(
        (p.get("node", "") for p in facts.pods if p.get("name", "").startswith(facts.target + "-")),
        "",
    )
    if verdict and verdict.kind == "oom":
        memo.find(
            f"The node CPU saturation was examined and was found NOT to be the cause: CPU saturation "
            f"throttles a container, it does not kill it; the container's termination reason is "
            f"OOMKilled (memory){f', and it runs on {node}' if node else ''}. The CPU reading is a red herring"
        )


def last_migration(facts: Facts) -> str:
    """The last applied migration, as its row reads ("002 add email verified, 2024-05-14 09:00")."""
    rows = []
    for line in facts.raw.get("database migrations status", "").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and any(re.fullmatch(r"\d{1,4}", c) for c in cells):
            rows.append(cells)
    if not rows:
        return ""
    cells = rows[-1]
    num = next(c for c in cells if re.fullmatch(r"\d{1,4}", c))
    rest = cells[cells.index(num) + 1 :]
    when = next((c for c in rest if re.match(r"\d{4}-\d\d-\d\d", c)), "")
    return f"migration {num} ({rest[0] if rest else ''}{', applied ' + when if when else ''})"
