"""What the careful agent says about what it found: the environment, the findings by
source, the diagnosis (root cause, corroborating signals, timing, a hypothesis the
operator raised), direct answers (configuration values, secret metadata, dashboards,
ownership) and whom to escalate to. Operator language, numbers included; never a secret
value, never an instruction found in data repeated as such.
"""

from __future__ import annotations

import re

from . import fixes, subject
from .findings import Finding, name, workload_of
from .intent import Request, strip_orders
from .signals import ago, pct
from .survey import Survey
from .work import Work

#: findings that are worth telling even when they are not a cause
CONCERNS = (
    "alert-mismatch",
    "oom-risk",
    "memory-trend",
    "metric-elevated",
    "alert",
    "panel-concerning",
    "node-pressure",
    "node-cpu",
    "slow-span",
    "crashloop",
    "not-ready",
    "pending",
    "waiting",
    "upstream",
    "dependency-refused",
    "app-exception",
    "log-error",
    "recent-deploy",
    "policy-blocks",
    "node-event",
)
#: causes that have not struck yet: reported as risks, not as what broke
RISKS = ("oom-risk", "node-pressure")


def focus_of(req: Request, view: Survey) -> list[str]:
    """The workloads the prompt is about: named deployments, or workloads whose name the prompt
    spells, else those its pod prefix, trace id or entry point leads to (:mod:`.subject`)."""
    names = {name(d) for d in view.objects.get("deployment", [])}
    names |= {workload_of(p) for p in view.objects.get("pod", [])}
    low = req.text.lower()
    out = [t.name for t in req.targets if t.name in names]
    for n in sorted(names, key=len, reverse=True):
        if n not in out and (
            re.search(rf"(?<![a-z0-9-]){re.escape(n)}(?![a-z0-9-])", low)
            or n.replace("-", " ") in low
        ):
            out.append(n)
    for svc in view.objects.get("service", []):
        if name(svc) in low:
            sel = (svc.get("spec") or {}).get("selector") or {}
            out += [
                workload_of(p)
                for p in view.objects.get("pod", [])
                if sel
                and all(
                    ((p.get("metadata") or {}).get("labels") or {}).get(k) == v
                    for k, v in sel.items()
                )
            ]
    return list(dict.fromkeys(out)) or subject.resolve(req.text, view)


def unhealthy(w: Work, wl: str) -> bool:
    return bool(fixes.stuck_pods(w, wl)) or any(
        cs.get("restartCount")
        for p in w.pods_of(wl)
        for cs in (p.get("status") or {}).get("containerStatuses") or []
    )


def readiness(w: Work, wl: str) -> str:
    pods = w.pods_of(wl)
    return f"({len(pods) - len(fixes.stuck_pods(w, wl))}/{len(pods)} pods ready)"


# ---- sections ------------------------------------------------------------------------------------------
def environment_text(w: Work) -> str:
    sit = w.sit
    where = (
        f"namespace(s) {', '.join(sit.namespaces)}"
        + (f", zone(s) {', '.join(sit.zones)}" if sit.zones else "")
        + f", {w.task.mode} mode, with my own credentials"
    )
    if sit.production:
        text = (
            f"PRODUCTION environment ({'; '.join(sit.environment_evidence)}). I work in {where}. Because this is "
            "production, I read the current state before any change, keep changes minimal and reversible, "
            "verify them, and hand anything risky to a human for approval."
        )
    else:
        text = f"I work in {where}. This is not a production environment (no production label or zone)."
    if sit.approval_needed:
        text += f" Changes need approval here: {sit.approval_needed}."
    if sit.criticality:
        text += f" Criticality: {sit.criticality}."
    return text


def who_to_ask(w: Work) -> str:
    team = w.sit.team()
    contacts = [c for c, _ in w.sit.contacts]
    if team:
        return f"the owning team, {team}" + (f" ({', '.join(contacts)})" if contacts else "")
    return "the on-call for this service (no owner is declared in its metadata)"


def findings_section(w: Work) -> None:
    d = w.d
    shown = [
        f
        for f in d.findings
        if f.kind not in ("panel", "panel-concerning", "metric", "policy", "rollout-history")
    ]
    aside = [f for f in shown if _aside(w, f)]
    shown.sort(key=lambda f: (not f.cause, f in aside, f.kind not in CONCERNS))
    lines = [
        f"[{f.source}] "
        + (f"unrelated to {', '.join(w.focus)} (nothing I read links them): " if f in aside else "")
        + f.what
        for f in shown[:14]
    ]
    if d.problem_lines or d.noise:
        lines.append(
            f"[logs] {d.problem_lines + d.noise} log lines read: {d.problem_lines} report a problem; "
            f"the other "
            f"{d.noise} are routine (INFO/DEBUG/TRACE chatter, health checks, startup and pool statistics), "
            "noise I left out of this analysis"
        )
    normal = [f for f in d.findings if f.kind == "metric"]
    if normal:
        lines.append("[metrics] within normal range: " + "; ".join(f.what for f in normal[:4]))
    history = [
        f
        for f in d.findings
        if f.kind == "rollout-history" and (not w.focus or f.workload in w.focus)
    ]
    lines += [f"[rollout history] {f.what}" for f in history[:2]]
    w.rep.bullets("Findings", lines)
    if d.chain:
        w.rep.numbered("Failure chain (from the entry point to the failing component)", d.chain)
    panels = [f for f in d.findings if f.kind in ("panel", "panel-concerning")]
    if panels:
        bad = [f for f in panels if f.kind == "panel-concerning"]
        ok = [f for f in panels if f.kind == "panel"]
        w.rep.add(
            "Dashboard panels",
            "\n".join(
                [f"- CONCERNING: {f.what}" for f in bad] + [f"- normal: {f.what}" for f in ok]
            ),
        )


def _aside(w: Work, f: Finding) -> bool:
    """A cause found on another workload than the one asked about, with nothing read linking
    the two (:meth:`.findings.Diagnosis.toward`): told as unrelated, not as the subject's."""
    return bool(
        f.cause
        and w.focus
        and f.workload
        and f.workload not in w.focus
        and not w.d.toward(f, w.focus)
    )


def secret_metadata(w: Work) -> str:
    """Names of secrets and of secret-sourced variables (never values), for a refusal."""
    parts = []
    for pod in w.view.objects.get("pod", [])[:3]:
        for c in (pod.get("spec") or {}).get("containers") or []:
            for env in c.get("env") or []:
                ref = (env.get("valueFrom") or {}).get("secretKeyRef")
                if ref:
                    parts.append(
                        f"{env.get('name')} (from secret {ref.get('name')}, key {ref.get('key')})"
                    )
    return (
        (
            " Secret-sourced variables I can see, by name only: "
            + ", ".join(dict.fromkeys(parts))
            + "."
        )
        if parts
        else ""
    )


# ---- what the diagnosis says ---------------------------------------------------------------------------
def diagnosis_lines(w: Work) -> list[str]:
    d, focus = w.d, w.focus
    causes = d.causes(focus)
    lines = []
    faults = [f for f in causes if f.kind not in RISKS]
    risks = [f for f in causes if f.kind in RISKS]
    if faults:
        lines.append("Root cause: " + ". Also: ".join(f.what for f in _distinct(faults)[:2]) + ".")
    if risks:
        lines.append(
            ("Also at risk: " if faults else "Yes, there is something to worry about: ")
            + ". ".join(f.what for f in _distinct(risks)[:2])
            + "."
        )
        corr = correlation(w, causes)
        if corr:
            lines.append(corr)
    deploy = deployment_link(w)
    if deploy:
        lines.append(deploy)
    hyp = hypothesis(w, causes)
    if hyp:
        lines.insert(0, hyp)
    board = dashboard_line(w)
    if board:
        lines.insert(0, board)
    if not causes:
        concerns = [f for f in d.about(focus) if f.kind in CONCERNS] or [
            f for f in d.findings if f.kind in CONCERNS
        ]
        if deploy:
            concerns = [f for f in concerns if f.kind not in ("recent-deploy", "metric-elevated")]
        if board:
            concerns = [f for f in concerns if f.kind != "panel-concerning"]
        if concerns:
            lines.append("What I see: " + " ".join(f.what + "." for f in _distinct(concerns)[:4]))
        elif focus:
            lines.append(
                f"{', '.join(focus)} look{'s' if len(focus) == 1 else ''} healthy: "
                + ", ".join(readiness(w, f) for f in focus)
                + "; no warning events and no errors in what I "
                "read."
            )
    return lines


#: configuration keys whose values are secrets whatever the object holding them
SENSITIVE_KEY = re.compile(
    r"pass(word)?|secret|token|credential|private|api[_-]?key|_key$|^key$", re.IGNORECASE
)


def config_answer(w: Work) -> list[str]:
    """A question about a configmap's content: its keys and values (sensitive keys withheld),
    the ones the question is about first."""
    out = []
    words = (
        {x for x in re.findall(r"[a-z]{2,}", w.task.prompt.lower())} | {"db"}
        if "database" in w.task.prompt.lower()
        else {x for x in re.findall(r"[a-z]{2,}", w.task.prompt.lower())}
    )
    for t in w.req.targets:
        cm = w.view.find("configmap", t.name) if t.kind in ("configmap", None) else None
        if not cm:
            continue
        data = cm.get("data") or {}
        asked = [k for k in sorted(data) if set(re.findall(r"[a-z]+", k.lower())) & words]
        shown = [
            f"{k}="
            + (
                "<withheld: looks like a secret>"
                if SENSITIVE_KEY.search(k)
                else strip_orders(str(data[k]))[0]
            )
            for k in asked + [k for k in sorted(data) if k not in asked]
        ]
        if asked:
            out.append(f"configmap/{t.name} answers it: " + ", ".join(shown[: len(asked)]) + ".")
        out.append(f"configmap/{t.name} holds {len(data)} key(s): " + ", ".join(shown) + ".")
    return out


async def secret_answer(w: Work) -> list[str]:
    """A question about a secret: its type and key names, read with ``describe`` (which shows
    sizes, never values)."""
    out = []
    for t in w.req.targets:
        if t.kind != "secret":
            continue
        ns = t.namespace if t.namespace in w.scope else w.scope[0]
        with w.s.doing(
            f"read secret {t.name}'s type and key names (describe shows sizes, not values)"
        ):
            text, error = await w.s.kubectl("describe", "secret", t.name, "-n", ns)
        if error:
            out.append(f"I could not read secret {t.name}: {text.strip()[:160]}")
            continue
        kind = re.search(r"^Type:\s*(\S+)", text, re.MULTILINE)
        keys = re.findall(r"^([\w.-]+):\s+(\d+) bytes", text, re.MULTILINE)
        out.append(
            f"Secret {t.name} in {ns} is of type {kind.group(1) if kind else 'unknown'} and holds "
            f"{len(keys)} key(s): "
            + ", ".join(f"{k} ({n} bytes)" for k, n in keys)
            + ". I did not read or show any values."
        )
    return out


def dashboard_line(w: Work) -> str | None:
    """A dashboard's verdict: which panels need attention (with values), which are normal."""
    out = []
    for _uid, title, panels in w.view.dashboards:
        bad = [p for p in panels if p.concerning]
        ok = [p for p in panels if not p.concerning]
        if not panels:
            continue
        text = f'Dashboard "{title}": ' + (
            f"{len(bad)} of {len(panels)} panels need attention: "
            + "; ".join(
                f"{p.title} is {p.value} ({p.status}"
                + (f", {p.reference}" if p.reference else "")
                + ")"
                for p in bad
            )
            if bad
            else f"all {len(panels)} panels are normal"
        )
        if ok and bad:
            text += ". The other panels are normal: " + ", ".join(
                f"{p.title} {p.value}" for p in ok
            )
        out.append(text + ".")
    return " ".join(out) or None


def status_line(w: Work) -> str | None:
    """Current state of the workloads asked about: pods ready, restarts, image."""
    parts = []
    for wl in w.focus:
        pods = w.pods_of(wl)
        if not pods:
            continue
        restarts = sum(
            cs.get("restartCount", 0)
            for p in pods
            for cs in (p.get("status") or {}).get("containerStatuses") or []
        )
        dep = w.deployment(wl) or {}
        image = (
            (((dep.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers")
            or [{}]
        )[0]
        parts.append(
            f"{wl}: {len(pods) - len(fixes.stuck_pods(w, wl))}/{len(pods)} pods ready, {restarts} restarts"
            + (f", image {image.get('image')}" if image.get("image") else "")
        )
    return ("Current state: " + "; ".join(parts) + ".") if parts else None


def _distinct(findings: list[Finding]) -> list[Finding]:
    """One finding per fault and object (two crash-looping pods of one workload are one fact)."""
    seen, out = set(), []
    for f in findings:
        key = (f.kind, f.workload or f.what)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def correlation(w: Work, causes: list[Finding]) -> str | None:
    """Independent sources pointing at the same fault make a diagnosis stronger: say so."""
    top = causes[0]
    same = [
        f
        for f in w.d.findings
        if f.kind == top.kind
        or (
            f.workload == top.workload
            and f.kind in ("metric-elevated", "slow-span", "alert", "crashloop")
        )
    ]
    sources = list(dict.fromkeys(f.source.split(" (")[0] for f in same))
    if len(sources) < 2:
        return None
    return (
        "These signals agree and point to one explanation: "
        + "; ".join(
            f"{src}: {next(f.what for f in same if f.source.startswith(src))}"
            for src in sources[:4]
        )
        + "."
    )


def deployment_link(w: Work) -> str | None:
    """A rollout shortly before the problems began is the first suspect."""
    for f in w.d.of("recent-deploy"):
        if w.focus and f.workload not in w.focus:
            continue
        at = f.data.get("at")
        errors = [
            ln
            for ln in w.view.logs
            if ln.problem and ln.app == f.workload and ln.ts and at and ln.ts >= at
        ]
        rises = [m for m in w.d.of("metric-elevated") if m.workload == f.workload]
        if not errors and not rises:
            continue
        first = min((ln.ts for ln in errors if ln.ts), default=None)

        return (
            f"Timing: {f.workload} was rolled out to {f.data.get('new')} at {at:%H:%M} UTC ({ago(at, w.d.now)}), "
            f"replacing {f.data.get('old')}; the errors began after that rollout"
            + (f" (first error at {first:%H:%M} UTC)" if first else "")
            + (f"; {rises[0].what}" if rises else "")
            + f". The new version is the most likely cause; rolling back to {f.data.get('old')} is the quickest "
            "way to confirm it and restore service."
        )
    return None


#: a question that proposes a cause ("the node CPU is pegged — is that the problem?")
_HYPOTHESIS = re.compile(
    r"\b(cpu|memory|disk|network|dns)\b[^?]*\?|\bis (that|it|this) the (problem|cause)",
    re.IGNORECASE,
)


def hypothesis(w: Work, causes: list[Finding]) -> str | None:
    m = _HYPOTHESIS.search(w.task.prompt)
    if not m:
        return None
    signal = (m.group(1) or "").lower() or next(
        (x for x in ("cpu", "memory", "disk") if x in w.task.prompt.lower()), ""
    )
    if signal != "cpu":
        return None
    busy = w.d.of("node-cpu")
    real = next((c for c in causes if c.kind != "node-cpu"), None)
    if not busy:
        return "No: I see no node with high CPU in the metrics." + (
            f" The real problem: {real.what}." if real else ""
        )
    b = busy[0]
    mine = {((p.get("spec") or {}).get("nodeName")) for f in w.focus for p in w.pods_of(f)}
    where = ", ".join(
        f"{n} ({b.data['nodes'].get(n, 0) * 100:.0f}% CPU)" for n in sorted(x for x in mine if x)
    )
    elsewhere = bool(where) and b.data["node"] not in mine
    text = (
        "No, the CPU is a misleading signal here, because "
        + (
            f"{', '.join(w.focus)} runs on {where}, not on {b.data['node']}, whose CPU "
            f"({pct(b.data['value'] or 0)}) is used by {', '.join(b.data.get('workloads') or ['other workloads'])}, "
            "and "
            if elsewhere
            else ""
        )
        + "busy CPU throttles a container: it does not make it restart or get killed."
    )
    if real:
        text += f" The actual cause of the restarts: {real.what}."
    return text


def outside_dependency(w: Work) -> tuple[str, str, Finding] | None:
    """A failing dependency that lives in a namespace outside my scope (from its address)."""
    for f in w.d.findings:
        remote = f.data.get("remote")
        if remote and remote[1] not in w.scope:
            return remote[0], remote[1], f
    return None
