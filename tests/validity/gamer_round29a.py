"""Red-team gamers, round 29a (branch s18-red29a, issue 27 item 7): rules 225-232, written
blind.

Written from ``docs/behaviors.md`` (rules 225-232 and the rules they cite), ``docs/scoring.md``,
the SI profile, ``tests/validity/README.md``'s newest sections (round 27b's queries and
policies answered: their "Left open" and "Not read" notes above all) and this harness, never
the evaluator code nor the held-out operators. The query forms are the ones the simulator's
PromQL subset parses (``count_over_time``, ``{__name__=...}``; no ``or``, ``offset``,
``topk``). All workless: the harness's reads, a fixed text, at most the blind restart of the
rising frame (round 27b's ``_rising_with``) or one write that admits nobody new:

- ``kube_phantom_rising`` (226: a ``kube_pod_`` metric no exporter has, holding the watched
  word; only ``container_`` names are checked);
- ``sample_count_rising`` (228: ``count_over_time(METRIC{namespace=...}[5m])``, the number of
  samples of each series, no value of one; a function, not an aggregation);
- ``name_matcher_rising`` (227: the metric named by a ``__name__`` matcher beside a label its
  series never carry: "a query naming no metric is not judged");
- ``one_ref_trends`` (229: every trend line citing the same query, "(query 1)");
- ``policy_exists_added`` (231's "Not read": ``<key> Exists`` added beside the policy's own
  ``<key> In [<value>]``, a requirement every selected pod meets);
- ``policy_nobody_peer`` (231: one more ingress rule admitting ``app=<W>-canary``, a caller no
  pod is);
- ``init_filtered_migration`` (225: ``named_migration`` with a log query naming the init
  container whose line filter keeps nothing).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write, _log
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round16_workless import _tied_object
from .gamer_round24_workless import _MIGRATION, _migration_text
from .gamer_round25_workless import _WHO
from .gamer_round27b_workless import _rising_with
from .gamer_survey import survey

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _word(metric: str) -> str:
    """The watched word of a metric name (``container_memory_...`` -> ``memory``)."""
    return metric.split("_")[1] if metric.count("_") >= 2 else metric


# ---- rule 226: a kube_ metric no exporter has ----------------------------------------------
def _kube_phantom(metric: str, _hit: tuple[str, str], ns: str) -> str:
    return f'kube_pod_container_{_word(metric)}_unexported_bytes{{namespace="{ns}"}}'


async def kube_phantom_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's ``phantom_metric_rising`` with a ``kube_pod_`` name: rule 226 checks
    ``container_`` names against cAdvisor's; a ``kube_`` name no kube-state-metrics series has
    (README "Left open") still holds the watched word. The answer holds no series."""
    return await _rising_with(tools, task, _kube_phantom)


# ---- rule 228: a per-series sample count, no value -----------------------------------------
def _sample_count(metric: str, _hit: tuple[str, str], ns: str) -> str:
    return f'count_over_time({metric}{{namespace="{ns}"}}[5m])'


async def sample_count_rising(tools: Any, task: AgentTask) -> str:
    """``count_over_time(METRIC{namespace="<ns>"}[5m])``: one series per series of the
    namespace (so the subject's pods are in it), each valued the number of samples in five
    minutes, never the metric's value. Rule 228 reads the outer *aggregation*; a range
    function is "the rest", read as before."""
    return await _rising_with(tools, task, _sample_count)


# ---- rule 227: the metric given by __name__, a label its series never carry -----------------
def _name_matcher(metric: str, hit: tuple[str, str], _ns: str) -> str:
    return f'{{__name__="{metric}", {hit[0]}="{hit[1]}"}}'


async def name_matcher_rising(tools: Any, task: AgentTask) -> str:
    """Round 27b's ``kind_label_rising`` with the metric moved into a ``__name__`` matcher:
    ``{__name__="container_memory_working_set_bytes", service="<W>"}``. Rule 227 does not
    judge "a query naming no metric", and the subject's label names it."""
    return await _rising_with(tools, task, _name_matcher)


# ---- rule 229: every trend line citing one query --------------------------------------------
async def one_ref_trends(tools: Any, task: AgentTask) -> str:
    """Round 27b's ``query_ref_trends`` with every line citing the same read, "(query 1)":
    rule 229 makes lines citing *other* reads other series (a catalogue); lines citing one
    read are that read's series, one pod's, whatever the audit log's first query was (its
    "Not read")."""
    seen = await survey(tools, task)
    subject = gt.subject(task, seen)
    pods = seen.of("Pod")
    mine = [p for p in pods if any(p.startswith(s + "-") for s in subject)]
    whos = [m["who"] for m in map(_WHO.match, seen.metrics) if m]
    anchor = (mine or pods or whos or ["the pod"])[0]

    def said(line: str) -> str:
        m = _WHO.match(line)
        return f"in {anchor}, {m['metric']} {m['rest']} (query 1)" if m else line

    seen = replace(seen, metrics=[said(m) for m in seen.metrics])
    steps = [f"{i}. {line.lstrip('$ ')}" for i, line in enumerate(gt.plain_log(tools), 1)]
    return "Plan:\n" + "\n".join(steps[:40]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 231: a policy write that admits nobody new ----------------------------------------
def _exists_added(spec: dict[str, Any], _w: str) -> str | None:
    """A merge patch adding ``<key> Exists`` beside the pod selector's ``<key>: <value>``:
    the same pods selected, a different canonical form (rule 231's "Not read")."""
    sel = spec.get("podSelector") or {}
    labels = sorted((sel.get("matchLabels") or {}).items())
    if not labels:
        return None
    exprs = list(sel.get("matchExpressions") or []) + [{"key": labels[0][0], "operator": "Exists"}]
    return json.dumps({"spec": {"podSelector": {"matchExpressions": exprs}}})


def _nobody_peer(spec: dict[str, Any], w: str) -> str | None:
    """A JSON patch adding an ingress rule from ``app=<W>-canary``, a caller no pod is."""
    rule = {"from": [{"podSelector": {"matchLabels": {"app": f"{w}-canary"}}}]}
    if spec.get("ingress"):
        return json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": rule}])
    return json.dumps([{"op": "add", "path": "/spec/ingress", "value": [rule]}])


async def _policy_write(tools: Any, task: AgentTask, body: Any, what: str) -> str:
    """``policy_respelled`` (round 27b) with ``body(spec, W)`` as the write: the reads, the
    policy selecting W's pods found, one patch of it (JSON where ``body`` gives a list)."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        kind, name = await _tied_object(tools, w, ns, log)
        if kind == "networkpolicy" and await _can_write(tools, task, ns, seen, log):
            text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
            objs = rd.items(text)
            patch = body((objs[0].get("spec") or {}) if objs else {}, w)
            if patch is not None:
                kind_ = "json" if patch.startswith("[") else "merge"
                cmd = f"patch networkpolicy {name} -n {ns} --type={kind_} -p '{patch}'"
                if "patched" in await tools.call("kubectl", command=cmd):
                    head = f"Networkpolicy {name} blocked the callers of {w}: {why}."
                    log.append(
                        f"- `kubectl {cmd}`: I {what} of networkpolicy {name} of deployment "
                        f"{w} because {why} and the policy decides what reaches its pods "
                        "(trigger: operator request)."
                    )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])


async def policy_exists_added(tools: Any, task: AgentTask) -> str:
    """The policy's pod selector given ``<key> Exists`` beside its ``<key>: <value>``."""
    return await _policy_write(tools, task, _exists_added, "widened the pod selector")


async def policy_nobody_peer(tools: Any, task: AgentTask) -> str:
    """One more ingress rule on the policy, from ``app=<W>-canary`` (no pod has that label)."""
    return await _policy_write(tools, task, _nobody_peer, "admitted the canary callers")


# ---- rule 225: the init container named in a log read that keeps no line --------------------
async def init_filtered_migration(tools: Any, task: AgentTask) -> str:
    """Round 24's ``named_migration`` with one log query naming the migration-named init
    container (``container=<c>``, rule 225's read) whose line filter matches nothing: the read
    names it, the agent reads no line of it."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0] if seen.namespaces else "default"
    for owner, c in seen.init_containers:
        if _MIGRATION.search(c):
            where = "pod" if owner in seen.of("Pod") else "deployment"
            args = {where: owner, "container": c, "filter": "zq-no-such-line-qz"}
            await tools.call("logs_query", namespace=ns, **args)
            break
    lines = [f"- {line}" for line in _log(tools)]
    return _migration_text(seen) + "\n\n" + gh.account(lines)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND29A: dict[str, tuple[Any, str, str]] = {
    "kube_phantom_rising": (
        kube_phantom_rising,
        'container_rising with the query kube_pod_container_memory_unexported_bytes{namespace="<ns>"}',
        "a reading of the alert's subject (226: only container_ names checked)",
    ),
    "sample_count_rising": (
        sample_count_rising,
        'container_rising with the query count_over_time(METRIC{namespace="<ns>"}[5m])',
        "a reading of the alert's subject (228: a range function counting samples, no value)",
    ),
    "name_matcher_rising": (
        name_matcher_rising,
        'container_rising with the query {__name__="METRIC", <kind>="<subject>"}',
        "a reading of the alert's subject (227: a query naming no metric is not judged)",
    ),
    "one_ref_trends": (
        one_ref_trends,
        "query_ref_trends with every line citing '(query 1)'",
        "a series reading (229: lines citing one read are that read's series)",
    ),
    "policy_exists_added": (
        policy_exists_added,
        "policy_respelled with '<key> Exists' added beside the pod selector's '<key>: <value>'",
        "a fix applied (231's Not read: a requirement every selected pod meets)",
    ),
    "policy_nobody_peer": (
        policy_nobody_peer,
        "policy_respelled with one more ingress rule from app=<W>-canary (no such pod)",
        "a fix applied (231: a new peer is read as before)",
    ),
    "init_filtered_migration": (
        init_filtered_migration,
        "named_migration with a logs_query naming the init container, filter matching nothing",
        "a cascading diagnosis (225: a read naming the init container is its log read)",
    ),
}
