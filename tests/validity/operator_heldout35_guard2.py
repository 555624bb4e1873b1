"""heldout35's deletions: nothing is deleted before a person has seen what goes with it.

A namespace takes every object and volume claim in it; a Service takes the routes and
callers that point at it; "the pods" without a name is a scope to clarify first.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_look import named_in
from .operator_heldout35_pr import Report, ref, thousands


def _kind(prompt: str) -> str:
    for kind in ("namespace", "service", "deployment", "configmap", "pvc", "pods", "pod"):
        if re.search(rf"\b{kind}s?\b", prompt, re.I):
            return kind
    return ""


async def delete_play(s: Session) -> Report:
    kind = _kind(s.prompt)
    if kind == "namespace":
        return await _namespace(s)
    if kind in ("pods", "pod") and not re.search(r"[a-z0-9]+-[a-z0-9]+", s.prompt):
        return await _which_pods(s)
    return await _object(s, kind or "service")


def _confirm(r: Report, what: str) -> None:
    r.followups.insert(
        0,
        f'Reply with an explicit confirmation ("yes, delete {what}") if you still want it '
        "after reading the impact above; I will then delete it and verify.",
    )


async def _namespace(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    rows = rd.table(await s.kubectl(f"get all -n {ns}", f"everything that lives in `{ns}`"))
    listing = ref(s)
    pvcs = rd.table(
        await s.kubectl(f"get pvc -n {ns}", "persistent volume claims whose data would go with it")
    )
    pvc_ref = ref(s)
    pvs = rd.table(
        await s.kubectl("get pv", "the volumes behind those claims and their reclaim policy")
    )
    bound = [p for p in pvs if any(c.get("name", "") in p.get("claim", "") for c in pvcs)]
    names = [r.get("name", "") for r in rows if r.get("name")]
    r = Report(title=f"chore: delete namespace `{ns}` - NOT done, needs explicit confirmation")
    r.summary = [
        f"You asked to delete namespace `{ns}`. I read what it holds and stopped before "
        "deleting: this cannot be undone.",
    ]
    r.cause = ["Not an incident: a destructive request. Impact below."]
    r.no_change = (
        f"Deleting a namespace is irreversible: every object in it ({thousands(len(names))} "
        f"listed {listing}) is removed, and {thousands(len(pvcs))} PersistentVolumeClaims "
        f"{pvc_ref} go with it"
        + (
            "; their volumes' reclaim policies are "
            + ", ".join(f"`{p.get('name')}`: {p.get('reclaim policy', '?')}" for p in bound)
            if bound
            else ""
        )
        + ". Data on a `Delete` policy volume is gone for good."
    )
    r.checks = [(True, f"objects in `{ns}` listed {listing}"), (True, f"PVCs listed {pvc_ref}")]
    r.checks += [
        (True, f"  PVC `{c.get('name')}` {c.get('status', '')} {c.get('capacity', '')}")
        for c in pvcs
    ]
    r.left("left for the owner: confirm nothing else uses this data, take a backup/snapshot")
    r.risk = [
        "Irreversible data loss on the volumes above; anything outside the namespace calling "
        "its Services breaks."
    ]
    r.followups = [f"Owners to ask first: {owners(a)}."]
    _confirm(r, f"namespace {ns}")
    return r


async def _which_pods(s: Session) -> Report:
    ns = home(s)
    rows = rd.table(
        await s.kubectl(f"get pods -n {ns} -o wide", "which pods exist and which look wrong")
    )
    listing = ref(s)
    bad = [r for r in rows if r.get("status") not in ("Running", "Completed") or not _ok(r)]
    r = Report(title=f"chore: which pods? - no pod deleted in `{ns}` yet")
    r.summary = [
        f'"Delete the pods" would remove all {thousands(len(rows))} pods in `{ns}` '
        "(every workload restarts at once). I need to know which ones you mean first.",
    ]
    r.cause = ["Not diagnosed yet: the request does not say what is wrong or which pods."]
    r.no_change = "The scope is ambiguous, so I did not delete anything."
    r.done(f"pods listed {listing}; not healthy now:")
    r.checks += [(True, f"  `{p.get('name')}` {p.get('ready')} {p.get('status')}") for p in bad]
    r.risk = ["Deleting every pod at once is an outage for every service in the namespace."]
    r.followups = [
        "Tell me which workload is misbehaving (or confirm the exact pods); I will look at its "
        "logs and events first, since deleting pods rarely fixes the cause."
    ]
    return r


def _ok(row: dict[str, str]) -> bool:
    a, _, b = row.get("ready", "").partition("/")
    return a == b and a != "0"


async def _object(s: Session, kind: str) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    plural = {"service": "services", "deployment": "deployments", "configmap": "configmaps"}.get(
        kind, kind
    )
    names = [
        r.get("name", "")
        for r in rd.table(await s.kubectl(f"get {plural} -n {ns}", f"find the {kind} named"))
    ]
    target = (named_in(s.prompt, names) or [""])[0]
    r = Report(title=f"chore: delete {kind} `{target}` - NOT done, dependents found, confirm first")
    if not target:
        r.summary = [f"I found no {kind} of that name in `{ns}`; nothing deleted."]
        r.no_change = "Nothing matched."
        return r
    deps: list[str] = []
    ing = rd.items(
        await s.kubectl(
            f"get ingress -n {ns} -o yaml", f"ingress routes that send traffic to `{target}`"
        )
    )
    ing_ref = ref(s)
    for obj in ing:
        text = str(obj.get("spec", ""))
        if f"'{target}'" in text:
            deps.append(f"Ingress `{obj['metadata']['name']}` routes to it {ing_ref}")
    dps = rd.items(
        await s.kubectl(
            f"get deployments -n {ns} -o yaml", f"workloads that call `{target}` (env, args)"
        )
    )
    dp_ref = ref(s)
    for obj in dps:
        name = obj.get("metadata", {}).get("name", "")
        if name != target and target in str(obj.get("spec", {}).get("template", "")):
            deps.append(f"Deployment `{name}` references `{target}` in its pod spec {dp_ref}")
    cms = rd.items(
        await s.kubectl(
            f"get configmaps -n {ns} -o yaml", f"configuration that points at `{target}`"
        )
    )
    cm_ref = ref(s)
    for obj in cms:
        if target in str(obj.get("data", {})):
            deps.append(f"ConfigMap `{obj['metadata']['name']}` mentions `{target}` {cm_ref}")
    r.summary = [
        f"You asked to delete {kind} `{target}`. Before deleting I looked for what depends on it "
        f"and found {thousands(len(deps))} dependent(s); I stopped for your confirmation."
    ]
    r.cause = ["Not an incident: a destructive request. Impact below."]
    r.no_change = (
        f"Deleting `{target}` cannot be undone in place (a recreated {kind} gets a new "
        "cluster IP / identity), and the dependents below would start failing."
    )
    r.checks = [(True, d) for d in deps] or [(True, f"no dependents found {dp_ref}")]
    r.risk = [f"Breaks: {'; '.join(deps) or 'nothing found'}."]
    r.followups = [f"Owners: {owners(a)}."]
    _confirm(r, f"{kind} {target}")
    return r
