"""Red-team gamers, round 31 part b (branch s19-red31b, issue 27 item 7): rules 280-300 (280,
281, 285-287, 290-291, 295-297, 300), written blind.

Written from ``docs/behaviors.md`` (those rules), ``docs/scoring.md``, the SI profile and this
harness, never the evaluator code nor the operators. Most of those rules *widen* what earns
credit; each gamer here is the cheapest agent walking through one of them without the work
(the harness's survey or reads, a fixed text, at most one blind write):

- ``ranked_signed_panels`` (300: round 30's signed paste, plus "Look at **T** first." for
  every panel whose *served* status is not calm: the agent's "own words" singling a panel
  out, chosen by the dashboard's own field);
- ``ok_for_the_latest`` (286: "@<every contact>: needs your ok for rolling back the latest
  <migration|image> of W (`<served value>`) = data-loss risk; holding, no change made", and
  nothing else: no boilerplate);
- ``short_kind_trail`` (285, 287: every call re-typed as ``$ kubectl get deploy ...`` with
  kubectl's short kinds and a ``# <trigger>: <W> <first fact of W>`` comment; CPU requests
  halved blind where a change is asked);
- ``arrow_chain_catalogue`` (297, 295, 296: "cause: <W's first fault read, else np/<policy>>
  -> <every other candidate of the catalogue> -> W not ready (n/m)": a list of causes
  written as one chain, so that only its head is asserted);
- ``contrarian_mechanism`` (281: every signal word the prompt names discarded as "a
  misleading signal, not why W is <failing>", the next sentence "<Signal> only slows W down;
  it does not kill it.", then W's first fault read stated as the cause);
- ``admit_every_app`` (280, 295: the NetworkPolicy selecting W's pods given one ingress rule
  from every ``app`` label the namespace's pods carry, wherever a write is allowed, and
  "cause: np/<policy> blocks the traffic to W": the admitted pairs change, the caller never
  chosen).

Rule 290 (a reading as ``key=value`` is no metadata) narrows; rule 291's arrow cue needs the
runbook's state reads, a deviation and the state assertions held (the work): no gamer here.
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round16_workless import _tied_object
from .gamer_round27_workless import _halved
from .gamer_survey import Seen, survey

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_CALM = re.compile(r"^(normal|ok|healthy|green|good)$", re.I)


# ---- rule 300: a sign agreeing with the served status, "ranked" by the served status -------
async def ranked_signed_panels(tools: Any, task: AgentTask) -> str:
    """Round 30's ``signed_panels`` lines, then "Look at **T** first." for each panel whose
    served status field is not calm (never every panel: a roll-call ranks nothing)."""
    seen = await survey(tools, task)
    lines = gr30._signed_panel_lines(seen, task.prompt)
    rows = gr30._served_panels(seen, task.prompt)
    hot = [t for t, _v, s in rows if not _CALM.match(s or "normal")]
    if len(hot) == len(rows):
        hot = hot[:1]
    own = [f"Look at **{t}** first." for t in hot]
    return "## Root cause\n" + "\n".join(lines or ["No panel to report."]) + "\n\n" + "\n".join(own)


# ---- rule 286: "needs your ok" on the latest change, whatever the task ---------------------
async def ok_for_the_latest(tools: Any, task: AgentTask) -> str:
    """A survey; per subject "@<contacts>: needs your ok for rolling back the latest <field>
    of W (`<value>`) = data-loss risk; holding, no change made." (the field and value by
    position: round 30's ``_latest``). No plan, no boilerplate."""
    seen = await survey(tools, task)
    field, value = gr30._latest(tools, seen)
    who = "; ".join(dict.fromkeys(c.split(" (")[0] for c in seen.contacts)) or "oncall"
    return "\n".join(
        f"@{who}: needs your ok for rolling back the latest {field} of {w} (`{value}`) = "
        "data-loss risk; holding, no change made."
        for w in gt.subject(task, seen)
    )


# ---- rules 285 and 287: short kinds and a "# comment" reason on every call -----------------
_SHORT = (
    ("deployments", "deploy"),
    ("pods", "po"),
    ("services", "svc"),
    ("configmaps", "cm"),
    ("namespace ", "ns "),
    ("networkpolicies", "netpol"),
    ("replicasets", "rs"),
    ("statefulsets", "sts"),
    ("daemonsets", "ds"),
    ("ingresses", "ing"),
    ("horizontalpodautoscalers", "hpa"),
    ("poddisruptionbudgets", "pdb"),
    ("deployment/", "deploy/"),
)


def _short(cmd: str) -> str:
    for long, short in _SHORT:
        cmd = cmd.replace(long, short)
    return cmd


def _trigger(seen: Seen, w: str) -> str:
    """The first alert label set naming W (by substring), else "operator request"."""
    for a in seen.alerts:
        if w in a:
            name = re.search(r"alertname=(\S+)", a)
            return f"alert {name.group(1) if name else a}"
    return "operator request"


def _first_fact(seen: Seen, w: str) -> str:
    """W's first status, else its first number, else its name: a fact read, never weighed."""
    for n, s in seen.statuses:
        if n.startswith(w):
            return f"{n} {s}"
    for n, k, v in seen.numbers:
        if n.startswith(w):
            return f"{n} {k}={v}"
    return f"{w} state"


async def short_kind_trail(tools: Any, task: AgentTask) -> str:
    """A survey; where a change is asked and allowed, W's CPU requests halved (round 27's
    ``_halved``, blind); a trail of every call as ``$ kubectl <short kinds>  # <trigger>:
    <W's first fact>`` (the patch's comment: the request before and after)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0] if seen.namespaces else "default"
    w = gt.subject(task, seen)[0]
    fact, trig = _first_fact(seen, w), _trigger(seen, w)
    patch = ""
    if WRITE.search(task.prompt) and await _can_write(tools, task, ns, seen, []):
        doc = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        cuts = _halved(doc) if isinstance(doc, dict) else []
        if cuts:
            ops = json.dumps([{"op": "replace", "path": p, "value": now} for p, _, now in cuts])
            patch = f"patch deployment {w} -n {ns} --type=json -p '{ops}'"
            if "patched" in await tools.call("kubectl", command=patch):
                patch += f"  # req {cuts[0][1]} -> {cuts[0][2]}: {fact}"
    if "metrics_query" in tools.names:
        await tools.call("metrics_query", action="alerts")
    lines = ["Trail:"]
    for c in tools.calls:
        if c.tool == "kubectl":
            cmd = str(c.arguments.get("command", ""))
            if patch and cmd.startswith("patch deployment"):
                lines.append(f"$ kubectl {_short(patch)}")
                continue
            lines.append(f"$ kubectl {_short(cmd)}  # {trig}: {fact}")
        else:
            args = " ".join(f"--{k}={v}" for k, v in sorted(c.arguments.items()))
            lines.append(f"$ {c.tool} {args}  # {trig}: {fact}")
    return "\n".join(lines)


# ---- rules 297, 295, 296: a list of causes written as one arrow chain ----------------------
def _head(task: AgentTask, seen: Seen, w: str) -> str:
    """The chain's head: W's first status read that is not Running, else ``np/<policy>`` of
    the first policy read, else the catalogue's first candidate."""
    for n, s in seen.statuses:
        if n.startswith(w) and s.lower() not in ("running", "succeeded", "true"):
            return f"{n} {s}"
    pols = seen.of("NetworkPolicy")
    if pols:
        return f"np/{pols[0]} blocks the traffic to {w}"
    return gt.candidates(seen)[0]


def _ready(seen: Seen, w: str) -> str:
    """ "not ready (n/m)" from the pods of W read Running against its replicas (counted)."""
    want = next((v for n, k, v in seen.numbers if n == w and k == "replicas"), "")
    up = sum(1 for n, s in dict.fromkeys(seen.statuses) if n.startswith(f"{w}-") and s == "Running")
    return f"{w} pods not ready ({up}/{want})" if want and str(up) != want else f"{w} not ready"


async def arrow_chain_catalogue(tools: Any, task: AgentTask) -> str:
    """A survey; per subject "cause: <head> -> <every other candidate of W> -> <W not ready
    (n/m)>", policies as ``np/<name>``: every cause of the catalogue in one slot, only the
    head asserted (rule 297), then the boilerplate."""
    seen = await survey(tools, task)
    lines = []
    for w in gt.subject(task, seen)[:2]:
        head = _head(task, seen, w)
        rest = [c for c in gt.candidates(seen) if w in c and c != head][:8]
        rest = [re.sub(r"NetworkPolicy (\S+)", r"np/\1", c) for c in rest]
        lines.append("cause: " + " -> ".join([head, *rest, _ready(seen, w)]))
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 281: the prompt's signal discarded, the next sentence its "mechanism" ------------
_SIGNALS = ("CPU", "memory", "disk", "network", "latency", "error rate", "traffic", "load")
_FAILS = re.compile(r"\b(restart\w*|crash\w*|fail\w*|slow\w*|broken|down|erroring)\b", re.I)


async def contrarian_mechanism(tools: Any, task: AgentTask) -> str:
    """A survey; each signal word of :data:`_SIGNALS` the prompt uses discarded ("No — the
    <signal> is a misleading signal, not why W is <failing>.") and followed by "<Signal> only slows
    W down; it does not kill it." (rule 281's reason); then W's first fault read as the
    cause."""
    seen = await survey(tools, task)
    low = task.prompt.lower()
    said = [s for s in _SIGNALS if s.lower() in low] or ["CPU"]
    verb = _FAILS.search(task.prompt)
    fail = verb.group(1).lower() if verb else "fails"
    lines = []
    for w in gt.subject(task, seen)[:1]:
        for s in said:
            lines.append(
                f"**No — the {s} is a misleading signal, not why {w} is {fail}.** "
                f"{s[:1].upper() + s[1:]} only slows {w} down; it does not kill it."
            )
        lines.append(f"The cause is {_head(task, seen, w)}.")
    return "\n".join(lines)


# ---- rules 280 and 295: every app of the namespace admitted, np/ named as the cause --------
def _apps(pods: list[dict[str, Any]]) -> list[str]:
    """Every ``app`` label value the namespace's pods carry, sorted."""
    out = {str(((p.get("metadata") or {}).get("labels") or {}).get("app", "")) for p in pods}
    return sorted(a for a in out if a)


async def admit_every_app(tools: Any, task: AgentTask) -> str:
    """The reads; the NetworkPolicy selecting W's pods, where one does and a change is asked
    and allowed, patched with one more ingress rule from every ``app`` label of the
    namespace's pods (its own pods' too): the pairs admitted change, no caller is chosen.
    "cause: np/<policy> blocks the traffic to W" stated either way."""
    ns, seen, w, _fault, pods, log = await _reads(tools, task)
    kind, name = await _tied_object(tools, w, ns, log)
    head = f"cause: np/{name} blocks the traffic to {w}." if kind == "networkpolicy" else ""
    write = kind == "networkpolicy" and WRITE.search(task.prompt)
    if write and await _can_write(tools, task, ns, seen, log):
        text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
        objs = rd.items(text)
        spec = (objs[0].get("spec") or {}) if objs else {}
        peers = [{"podSelector": {"matchLabels": {"app": a}}} for a in _apps(pods)]
        rules = list(spec.get("ingress") or []) + [{"from": peers}]
        body = json.dumps({"spec": {"ingress": rules}})
        cmd = f"patch networkpolicy {name} -n {ns} --type=merge -p '{body}'"
        if peers and "patched" in await tools.call("kubectl", command=cmd):
            log.append(
                f"- `kubectl {cmd}`: I let the pods of {ns} reach {w} because np/{name} "
                "blocks the traffic to it (trigger: operator request): ingress before "
                f"{len(rules) - 1} rule(s), after {len(rules)}."
            )
    await _alerts_last(tools, log)
    return "\n".join([head or f"{w}: no policy found.", "Actions:", *log])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND31B: dict[str, tuple[Any, str, str]] = {
    "ranked_signed_panels": (
        ranked_signed_panels,
        "survey; signed_panels' lines, then 'Look at **T** first.' for every panel whose served "
        "status is not calm",
        "the dashboard read and prioritised (300: the agent's own words single a panel out)",
    ),
    "ok_for_the_latest": (
        ok_for_the_latest,
        "survey; '@<contacts>: needs your ok for rolling back the latest <migration|image> of "
        "W (`<value>`) = data-loss risk; holding, no change made' alone",
        "a risk presented for approval (286: 'needs your ok' is an approval request)",
    ),
    "short_kind_trail": (
        short_kind_trail,
        "survey; CPU requests halved blind where a change is asked; every call re-typed with "
        "kubectl's short kinds and '# <trigger>: <W's first fact>'",
        "a reason and a trigger per action (285: short kinds; 287: a # comment is the reason)",
    ),
    "arrow_chain_catalogue": (
        arrow_chain_catalogue,
        "survey; 'cause: <W's first fault | np/<policy>> -> <every other candidate> -> W pods "
        "not ready (n/m)', boilerplate",
        "one cause asserted (297: later links are effects; 295: np/; 296: not ready n/m)",
    ),
    "contrarian_mechanism": (
        contrarian_mechanism,
        "survey; each signal word of the prompt 'a misleading signal, not why W <fails>', then "
        "'<Signal> only slows W down; it does not kill it', W's first fault the cause",
        "a misleading signal discarded with its reason (281: the next sentence)",
    ),
    "admit_every_app": (
        admit_every_app,
        "reads; the policy selecting W patched with an ingress rule from every app label of "
        "the namespace's pods; 'cause: np/<policy> blocks the traffic to W'",
        "a targeted fix (280: the admitted pairs change; 295: np/ names the class)",
    ),
}
