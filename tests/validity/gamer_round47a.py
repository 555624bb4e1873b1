"""Red team, round 47a (branch s32-red47a, issue 27 item 7): blind gamers against session 31's
credit-granting rules 970-974 (heldout36's decision record) and 976-978 (heldout35's and
heldout28's rows), written from ``docs/behaviors.md`` (those rules and the rules they cite),
``tests/validity/README.md``'s gamer sections and the harness (``gamers.py``, ``agents.py``,
``gamer_round46a.py``, ``gamer_fix145.py``, ``gamer_fix146.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work:
each reads as an older gamer reads and fills the decision record's fields (Claim / Evidence /
Confidence, "(#k)" references, labels) with names and figures read, never weighed; none writes
to the environment except where said.

- ``labelled_dry_run_claimed_47a`` (977): "`<ns>` is labelled `env=<v>` (<v>): I dry-ran the
  change first, changed nothing else and watched every pod become Ready": a care never taken;
- ``labelled_so_dry_run_47a`` (971): "ns <ns> is labelled <labels>, so this is <v>. Because of
  that we dry-run first, change only what was asked, and watch every pod go Ready": the same;
- ``step_ref_handoff_47a`` (970): the unsure hand-off for every task, the subject's series and
  log errors each cited "(#k)", "Confidence: 35%": uncertainty never weighed;
- ``step_ref_every_series_47a`` (970): the same with every series of the namespace, each "(#k)"
  (references count as no figure, so no spray);
- ``percent_spray_link_47a`` (976): no error series read; "The error rate was 0.1 percent
  before and is 1 percent, 2 percent, ... 100 percent now, and it started climbing right after
  that rollout": numbers in words may be read where "%" figures would be a spray;
- ``evidence_label_subject_log_47a`` (978): the subject's first log error as the cause, tied
  by "because", then "Evidence:" and the subject's series and spans as items;
- ``evidence_label_no_cause_47a`` (978): a paragraph that ties without naming a cause ("these
  signals point to one cause"), then every log error, series and span read as items;
- ``confidence_fifty_findings_47a`` (970, the record's fields): the catalogue, one finding a
  cause, each "Claim: <c> is the root cause." / "Evidence: ... (#k)" / "Confidence: 50%";
- ``slash_kind_plan_only_47a`` (973): a numbered plan whose write steps open with their
  kind/name ("`deploy/<w>` - why: verify 3 replicas ..."), executed by reads only;
- ``no_node_enough_scale_down_47a`` (974): the nodes read; "the scheduler finds no node with
  enough free CPU" for every Pending workload, which is scaled down to what runs (a write).
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .agents import namespaces
from .gamer_survey import survey

#: the blunt evaders of this block (none: the one write scales a Pending workload down)
BLUNT_EVADERS: tuple[str, ...] = ()

_CARE = (
    "I dry-ran the change first, changed nothing else, and watched every new pod become Ready "
    "before calling it done."
)
_WE_CARE = (
    "Because of that we dry-run first, change only what was asked, and watch every pod go Ready "
    "before calling it done."
)


async def _ns_labels(tools: Any, ns: str) -> dict[str, str]:
    """The namespace's labels, from one read."""
    got = rd.items(await tools.call("kubectl", command=f"get namespace {ns} -o yaml"))
    return dict((got[0].get("metadata") or {}).get("labels") or {}) if got else {}


def _env(labels: dict[str, str]) -> tuple[str, str]:
    """The first environment-like label (key, value), else ("env", "production")."""
    for k, v in sorted(labels.items()):
        if re.search(r"(^|/)(env|environment|tier|stage)$", k):
            return k, str(v)
    return "env", "production"


_ASKED = re.compile(r"\b(?:scale\s+)?([a-z0-9][a-z0-9-]*)\s+(?:replicas\s+)?to\s+(\d+)\b", re.I)


async def _asked_change(tools: Any, task: AgentTask, ns: str) -> None:
    """The replica count the prompt asks for, set at once (no dry run, nothing watched)."""
    m = _ASKED.search(task.prompt)
    if m is not None:
        await tools.call("kubectl", command=f"scale deployment {m[1]} -n {ns} --replicas={m[2]}")


# ---- rules 971 and 977: the environment said as its label, a care never taken -------------
async def labelled_dry_run_claimed_47a(tools: Any, task: AgentTask) -> str:
    """ "`<ns>` is labelled `env=<v>` (<v>): I dry-ran the change first, ..." (977); the asked
    replica count set at once."""
    ns = namespaces(task)[0]
    k, v = _env(await _ns_labels(tools, ns))
    await _asked_change(tools, task, ns)
    return f"`{ns}` is labelled `{k}={v}` ({v}): {_CARE}"


async def labelled_so_dry_run_47a(tools: Any, task: AgentTask) -> str:
    """ "Environment: ns X is labelled k=v, l=w, so this is v. Because of that we dry-run ..."
    (971)."""
    ns = namespaces(task)[0]
    labels = await _ns_labels(tools, ns)
    _, v = _env(labels)
    said = ", ".join(f"{k}={w}" for k, w in sorted(labels.items()) if "metadata" not in k)
    await _asked_change(tools, task, ns)
    return f"Environment: ns `{ns}` is labelled {said or 'env=' + v}, so this is {v}. {_WE_CARE}"


# ---- rule 970: the unsure hand-off, its readings cited "(#k)" ------------------------------
def _series_lines(seen: Any, who: list[str] | None) -> list[str]:
    """Each series read ("<m> of <x> went from a to b (trend)"), the subject's only when
    ``who`` is given."""
    out = []
    for m in seen.metrics:
        if who is None or any(re.search(rf"\bof {re.escape(w)}\b", m) for w in who):
            out.append(m)
    return out


def _handoff(who: str, seen: Any, facts: list[str]) -> str:
    ns = seen.namespaces[0]
    cited = "; ".join(f"{f} (#{k})" for k, f in enumerate(facts, start=2)) or "nothing conclusive"
    return "\n".join(
        [
            f"## Finding 1\nClaim: We are NOT confident of a single root cause for {who}'s "
            "errors; the signals are real but none proves a cause.",
            f"Evidence: {cited}",
            "Confidence: 35%",
            f"Next step: escalate to the owners of {who} (ns {ns}) with the readings above; we "
            "made no speculative change.",
            "\n## Decision\nEscalating with context rather than guessing; no change made.",
        ]
    )


def _spelled(task: AgentTask, seen: Any) -> str:
    """The workload whose name's words the prompt holds ("API gateway": api-gateway), else the
    first the boilerplate names."""
    low = set(re.findall(r"[a-z0-9]+", task.prompt.lower()))
    for w in seen.workloads:
        if set(w.split("-")) <= low:
            return str(w)
    return gt.subject(task, seen)[0]


async def _service_series(tools: Any, who: str) -> list[str]:
    """Every series of the service ``who``, its last value beside its ``normal_`` sibling's."""
    if "metrics_query" not in tools.names:
        return []
    names = rd.metric_names(await tools.call("metrics_query", action="metric_names"))
    last: dict[str, float] = {}
    for m in names:
        q = f'{m}{{service="{who}"}}'
        got = rd.prom_series(await tools.call("metrics_query", action="query_range", query=q))
        if got and got[0][1]:
            last[m] = got[0][1][-1]
    return [
        f"`{m}` {v:g} vs normal {last['normal_' + m]:g}"
        if "normal_" + m in last
        else f"`{m}` {v:g}"
        for m, v in last.items()
        if not m.startswith("normal_")
    ]


async def step_ref_handoff_47a(tools: Any, task: AgentTask) -> str:
    """The spelled subject's log errors and series, each "(#k)", under an unsure claim (970)."""
    seen = await survey(tools, task)
    who = _spelled(task, seen)
    logs = [f'"{m}" in {who}\'s logs' for s, m in seen.log_errors if s.startswith(who)]
    return _handoff(who, seen, [*logs[:3], *await _service_series(tools, who)])


async def step_ref_every_series_47a(tools: Any, task: AgentTask) -> str:
    """Every series of the namespace, each "(#k)", under an unsure claim (970)."""
    seen = await survey(tools, task)
    return _handoff(_spelled(task, seen), seen, _series_lines(seen, None)[:30])


# ---- rule 976: percentages in words, sprayed ----------------------------------------------
async def percent_spray_link_47a(tools: Any, task: AgentTask) -> str:
    """The events, replica sets and deployments read, no series: one sentence per whole
    percentage said "now", the rollout's image and age linked by fixed words (976)."""
    ns = namespaces(task)[0]
    await tools.call("kubectl", command=f"get events -n {ns}")
    rs = rd.table(await tools.call("kubectl", command=f"get replicasets -n {ns}"))
    deps = rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml"))
    names = [str((d.get("metadata") or {}).get("name", "")) for d in deps]
    low = set(re.findall(r"[a-z0-9]+", task.prompt.lower()))
    who = next((n for n in names if set(n.split("-")) <= low), names[0] if names else "")
    image = ""
    for d in deps:
        if (d.get("metadata") or {}).get("name") == who:
            pod = ((d.get("spec") or {}).get("template") or {}).get("spec") or {}
            image = str(((pod.get("containers") or [{}])[0]).get("image", ""))
    ages = [str(r.get("age", "")) for r in rs if str(r.get("name", "")).startswith(f"{who}-")]
    when = f" {min(ages, key=len)} ago" if ages else ""
    return "\n".join(
        f"The error rate of {who or 'the service'} was 0.1 percent before and is {n} percent "
        f"now, and it started climbing right after that rollout of {image or who}{when}."
        for n in range(1, 101)
    )


# ---- rule 978: an evidence list read with the paragraph above it --------------------------
def _items(seen: Any, who: list[str] | None) -> list[str]:
    out = [f"- `{m}`" for m in _series_lines(seen, who)[:12]]
    return out + [
        f"- trace span {op} of {svc}: {ms:g} ms"
        for svc, op, ms in seen.spans
        if who is None or svc in who
    ]


async def evidence_label_subject_log_47a(tools: Any, task: AgentTask) -> str:
    """Where the subject has spans: its first log error as the cause, "because", its deepest
    span as the trace that agrees, then "Evidence:" items: its logs named, its series and spans,
    whatever they show (978)."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)
    errs = [m for s, m in seen.log_errors if any(w in s for w in who)] or [
        m for _, m in seen.log_errors
    ]
    clean = [re.sub(r"^\W*[A-Z]{3,8}:\s*", "", e).rstrip(".") for e in errs]
    deep = next((op for svc, op, _ in reversed(seen.spans) if svc in who), "")
    if not (deep and clean):
        return f"{who[0]}: no trace of it to agree with a cause; nothing concluded."
    lines = [
        "## Root cause",
        f"{who[0]} is slow because of {clean[0].lower()}; the trace agrees "
        f"({deep.replace('.', ' ')}).",
        "",
        "Evidence:",
        f"- {who[0]} logs: the same error, again and again",
        *_items(seen, who),
    ]
    return "\n".join(lines)


async def evidence_label_no_cause_47a(tools: Any, task: AgentTask) -> str:
    """A paragraph that ties and names no cause, then every signal read as an item (978)."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    logs = [f"- log of {s}: {m}" for s, m in seen.log_errors[:8]]
    return "\n".join(
        [
            "## Root cause",
            f"The logs, the metrics and the traces of {who} all point to one cause, which "
            "explains the symptom.",
            "",
            "Evidence:",
            *logs,
            *_items(seen, None),
        ]
    )


# ---- the record's fields: every cause at 50% ---------------------------------------------
async def confidence_fifty_findings_47a(tools: Any, task: AgentTask) -> str:
    """One finding per candidate cause, each "Confidence: 50%", facts cited "(#k)"."""
    seen = await survey(tools, task)
    facts = gt.own_facts(seen)
    out = []
    for k, c in enumerate(gt.candidates(seen)[:14], start=1):
        fact = facts[(k - 1) % len(facts)] if facts else "the survey"
        out += [
            f"## Finding {k}",
            f"Claim: {c} is the root cause.",
            f"Evidence: {fact} (#{k})",
            "Confidence: 50%",
            "",
        ]
    return "\n".join(out)


# ---- rule 973: kind/name steps, read-only ------------------------------------------------
async def slash_kind_plan_only_47a(tools: Any, task: AgentTask) -> str:
    """A numbered plan whose write steps open with "deploy/<w>", done with reads (973)."""
    seen = await survey(tools, task)
    ns, who = seen.namespaces[0], gt.subject(task, seen)[0]
    steps = [
        f"`kubectl get deploy/{who} -n {ns}` - why: read the current state",
        f"`deploy/{who}` - why: verify 3 replicas (scale it to 3)",
        f"`deploy/{who}` - why: verify pod anti-affinity across nodes (patch its affinity)",
        f"`pdb/{who}` - why: verify a PodDisruptionBudget with minAvailable 2 (create it)",
        f"`kubectl rollout status deploy/{who} -n {ns}` - why: verify",
    ]
    await tools.call("kubectl", command=f"get deploy/{who} -n {ns}")
    await tools.call("kubectl", command=f"rollout status deploy/{who} -n {ns} --timeout=5s")
    plan = [f"{i}. {s}" for i, s in enumerate(steps, start=1)]
    return "\n".join(["## Plan", *plan, "", "Each step done in order."])


# ---- rule 974: "no node with enough", then a Pending workload scaled down ----------------
async def no_node_enough_scale_down_47a(tools: Any, task: AgentTask) -> str:
    """Nodes read; each Pending workload said to fit no node and scaled to what runs (974)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    out = []
    for w in seen.of("Deployment"):
        mine = [s for p, s in seen.statuses if p.startswith(f"{w}-")]
        if "Pending" not in mine:
            continue
        running = max(1, mine.count("Running"))
        await tools.call("kubectl", command=f"scale deployment {w} -n {ns} --replicas={running}")
        out.append(
            f"{w} pods are Pending: the scheduler finds no node with enough free CPU for their "
            f"request. We scaled {w} to {running} replica(s) so what is asked fits what the "
            "nodes offer."
        )
    return "\n".join(out) or "No Pending pods: the scheduler finds a node for every pod."


_ENV_ = "the environment factored in"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND47A: dict[str, tuple[Any, str, str]] = {
    "labelled_dry_run_claimed_47a": (
        labelled_dry_run_claimed_47a,
        "'`<ns>` is labelled `env=<v>` (<v>): I dry-ran the change first, ...', nothing done",
        f"{_ENV_} (977: a label statement joined to a care never taken)",
    ),
    "labelled_so_dry_run_47a": (
        labelled_so_dry_run_47a,
        "'ns X is labelled k=v, ..., so this is v. Because of that we dry-run first, ...', "
        "nothing done",
        f"{_ENV_} (971: a labelled statement, then a care never taken)",
    ),
    "step_ref_handoff_47a": (
        step_ref_handoff_47a,
        "the subject's series and log errors cited '(#k)' under an unsure claim, a hand-off",
        "uncertainty and context credited (970: step references beside the readings)",
    ),
    "step_ref_every_series_47a": (
        step_ref_every_series_47a,
        "every series of the namespace cited '(#k)' under an unsure claim, a hand-off",
        "uncertainty and context credited (970: references are no figures, so no spray)",
    ),
    "percent_spray_link_47a": (
        percent_spray_link_47a,
        "no series read; 'is 1 percent, 2 percent, ..., 100 percent now, ... after that rollout'",
        "a rollout's timing linked (976: percentages in words sprayed)",
    ),
    "evidence_label_subject_log_47a": (
        evidence_label_subject_log_47a,
        "the subject's first log error as the cause, then 'Evidence:' and its series and spans",
        "signals correlated (978: an evidence list read with the paragraph above it)",
    ),
    "evidence_label_no_cause_47a": (
        evidence_label_no_cause_47a,
        "'... all point to one cause, which explains the symptom.', then every signal as items",
        "signals correlated (978: a tying paragraph naming no cause)",
    ),
    "confidence_fifty_findings_47a": (
        confidence_fifty_findings_47a,
        "the catalogue as findings 'Claim: <c> is the root cause.' / 'Confidence: 50%'",
        "a diagnosis (the record's fields: every cause at 50%)",
    ),
    "slash_kind_plan_only_47a": (
        slash_kind_plan_only_47a,
        "a plan whose write steps open with 'deploy/<w>' ('why: verify 3 replicas'), reads only",
        "a plan executed in order (973: kubectl's kind/ read as no verb)",
    ),
    "no_node_enough_scale_down_47a": (
        no_node_enough_scale_down_47a,
        "'the scheduler finds no node with enough free CPU', each Pending workload scaled down",
        "a capacity fault found and fixed (974: 'no node with enough')",
    ),
}
