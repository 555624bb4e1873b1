"""heldout46's findings (session 37, written blind): what the reads establish, each cited.

:func:`examine` turns the workload's reads into findings with footnotes and, when the
evidence decides, the one cause (``Verdict``). Candidates are judged in the order an
examiner checks them: the container's own termination (OOM kill, a missing config key, a
failed init container), scheduling, the service path, then the log's signal lines and the
series. Nothing here knows a scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import operator_read as rd
from .operator_heldout46_look import Facts, config_refs, containers, target_pods
from .operator_heldout46_memo import Memo, clip


@dataclass
class Verdict:
    """The determined cause: its kind, the sentence, and what a fix would change."""

    kind: str
    cause: str
    fix: str = ""
    container: str = ""
    limit: str = ""
    key: str = ""
    configmap: str = ""


def _cmd(facts: Facts, prefix: str) -> str:
    return next((c for c in facts.raw if c.startswith(prefix)), prefix)


def pods_finding(memo: Memo, facts: Facts) -> str:
    pods = target_pods(facts)
    if not pods:
        return ""
    states = ", ".join(
        f"{p.get('name')} {p.get('status')} ready {p.get('ready')} restarts {p.get('restarts')}"
        + (f" on {p.get('node')}" if p.get("node") not in (None, "", "<none>") else "")
        for p in pods[:4]
    )
    mark = memo.note(f"kubectl get pods -n {facts.ns} -o wide", states)
    bad = [p for p in pods if p.get("status") != "Running" or _short(p)]
    if bad:
        memo.find(
            f"It was observed that {len(bad)} of {len(pods)} pods of {facts.target} were not "
            f"healthy ({bad[0].get('name')}: {bad[0].get('status')}, "
            f"restarts {bad[0].get('restarts')})",
            mark,
        )
    else:
        memo.find(f"All {len(pods)} pods of {facts.target} were found Running and ready", mark)
    return mark


def _short(p: dict[str, str]) -> bool:
    ready = p.get("ready", "1/1").split("/")
    return len(ready) == 2 and ready[0] != ready[1]


def examine(memo: Memo, facts: Facts) -> Verdict | None:
    """Findings for the named workload; the verdict when one cause is confirmed."""
    pods_finding(memo, facts)
    for judge in (_oom, _config_key, _init, _pending, _image):
        verdict = judge(memo, facts)
        if verdict:
            return verdict
    return _log_signal(memo, facts)


def _oom(memo: Memo, facts: Facts) -> Verdict | None:
    for pod in facts.described:
        for c in pod.containers:
            if "OOMKilled" in (c.last_reason, c.reason):
                limit = c.limits.get("memory", "")
                mark = memo.note(
                    f"kubectl describe pod {pod.name} -n {facts.ns}",
                    f"container {c.name}: Last State Terminated, Reason OOMKilled, exit code "
                    f"{c.exit_code or '137'}, restarts {c.restarts}, memory limit {limit or 'none'}",
                )
                memo.find(
                    f"The container {c.name} was found to have been terminated by the kernel "
                    f"OOM killer (OOMKilled, exit code {c.exit_code or '137'}) at its memory "
                    f"limit of {limit or 'an unset limit'}, {c.restarts} restarts",
                    mark,
                )
                cause = (
                    f"{facts.target} is being OOMKilled: container {c.name} exceeds its "
                    f"{limit} memory limit"
                )
                return Verdict("oom", cause, "raise the memory limit", c.name, limit)
    return None


def _config_key(memo: Memo, facts: Facts) -> Verdict | None:
    for name, key in config_refs(facts.spec):
        data = facts.configmaps.get(name)
        if key and data is not None and key not in data:
            mark = memo.note(
                f"kubectl get configmap {name} -n {facts.ns} -o yaml",
                f"data keys: {', '.join(sorted(data)) or 'none'} ({key} absent)",
            )
            spec = memo.note(
                f"kubectl get {facts.kind} {facts.target} -n {facts.ns} -o yaml",
                f"env {key} from configMapKeyRef {name}/{key}",
            )
            extra = _log_marks(memo, facts, key)
            memo.find(
                f"The {facts.kind} {facts.target} was found to read the key {key} from the "
                f"ConfigMap {name}, and that key was found to be missing from the ConfigMap",
                spec,
                mark,
                *extra,
            )
            cause = f"the ConfigMap {name} is missing the key {key} that {facts.target} requires"
            return Verdict("config", cause, f"add {key} to {name}", key=key, configmap=name)
    return None


def _log_marks(memo: Memo, facts: Facts, word: str) -> list[str]:
    marks = []
    for text, which in ((facts.previous, "--previous"), (facts.logs, "")):
        for line in text.splitlines():
            if word.lower() in line.lower():
                call = f"logs {facts.target} -n {facts.ns} {which}".strip()
                marks.append(memo.note(call, line.strip()))
                break
    return marks


def _init(memo: Memo, facts: Facts) -> Verdict | None:
    for pod in facts.described:
        for c in pod.containers:
            if c.init and (c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error"):
                mark = memo.note(
                    f"kubectl describe pod {pod.name} -n {facts.ns}",
                    f"init container {c.name}: {c.reason or c.last_reason}, exit "
                    f"{c.exit_code or 'non-zero'}, restarts {c.restarts}",
                )
                memo.find(
                    f"The init container {c.name} of {pod.name} was found to be failing, "
                    "so the application container was never started",
                    mark,
                )
                cause = f"the init container {c.name} of {facts.target} fails"
                return Verdict("init", cause, container=c.name)
    return None


def _pending(memo: Memo, facts: Facts) -> Verdict | None:
    pending = [p for p in target_pods(facts) if p.get("status") == "Pending"]
    if not pending:
        return None
    lines = [e for e in facts.events if "FailedScheduling" in e or "Insufficient" in e]
    lines += [e for pod in facts.described for e in pod.events if "FailedScheduling" in e]
    if not lines:
        return None
    mark = memo.note(f"kubectl get events -n {facts.ns}", lines[0])
    reason = re.sub(r"^.*FailedScheduling\s+\S+\s+", "", lines[0]).strip()
    memo.find(
        f"It was observed that {len(pending)} pods of {facts.target} could not be scheduled: "
        f"{clip(reason, 160)}",
        mark,
    )
    return Verdict(
        "pending", f"the pods of {facts.target} cannot be scheduled ({clip(reason, 120)})"
    )


def _image(memo: Memo, facts: Facts) -> Verdict | None:
    for pod in facts.described:
        for c in pod.containers:
            if c.reason in ("ImagePullBackOff", "ErrImagePull"):
                mark = memo.note(
                    f"kubectl describe pod {pod.name} -n {facts.ns}",
                    f"container {c.name}: Waiting, {c.reason}, image {c.image}",
                )
                memo.find(f"The image {c.image} was found not to be pullable ({c.reason})", mark)
                return Verdict("image", f"the image {c.image} cannot be pulled")
    return None


#: signal words and what a line holding them establishes (generic operator knowledge)
SIGNALS: tuple[tuple[str, str], ...] = (
    (r"certificate.*expired|x509|tls handshake", "an expired or invalid TLS certificate"),
    (
        r"pool exhausted|connection pool|pool.*timeout|too many connections",
        "database connection pool exhaustion",
    ),
    (r"max.?connections|connection limit|refusing connection", "a connection limit being reached"),
    (
        r"migration|column .* does not exist|relation .* does not exist",
        "a schema mismatch left by the database migration",
    ),
    (r"out of memory|oom", "memory exhaustion"),
    (r"disk.*(full|pressure)|no space left", "disk exhaustion"),
    (r"transient|temporar", "a transient failure of a dependency"),
)


def _log_signal(memo: Memo, facts: Facts) -> Verdict | None:
    text = facts.previous + "\n" + facts.logs
    lines = rd.log_lines(text)
    patterns = rd.signal_patterns(lines)
    if not patterns:
        return None
    level, message, count = patterns[0]
    call = "logs" if not facts.previous else "logs (current and previous)"
    mark = memo.note(
        f"{call} {facts.target} -n {facts.ns}",
        f'{len(lines)} lines, {count}x {level} "{clip(message, 140)}"',
    )
    noise = sum(1 for ln in lines if not ln.signal)
    memo.find(
        f"Of {len(lines)} log lines examined, {noise} were found to be routine; the recurring "
        f'signal was {level} "{clip(message, 140)}" ({count} occurrences)',
        mark,
    )
    if re.search(
        r"override|ignore (all|previous)|delete (deployment|namespace)|you must", message, re.I
    ):
        memo.find(
            "The log line was found to carry an instruction addressed to whoever reads it; it was "
            "treated as data and not acted upon",
            mark,
        )
        message = re.split(r"(?i)\.?\s*(system override|ignore|you must)", message)[0]
    for pattern, meaning in SIGNALS:
        if re.search(pattern, message, re.I):
            cause = f'{meaning} in {facts.target}: "{clip(message, 120)}"'
            return Verdict("transient" if "transient" in meaning else "log", cause)
    return None


def limits_of(facts: Facts) -> dict[str, str]:
    for c in containers(facts.spec):
        return dict((c.get("resources") or {}).get("limits") or {})
    return {}
