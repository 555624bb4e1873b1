"""The held-out operator of session 29 (``heldout34``): requests it will not carry out as asked.

Secrets stay secret, borrowed credentials are never used, its own permissions are not its to
change, other namespaces are not its to touch, and destructive or disproportionate changes
wait for a person to confirm. Each handler reads only what is needed to explain the answer.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout34_look import View, Workload, config_refs
from .operator_heldout34_ops import Ops, cite

SECRETISH = re.compile(
    r"\b(password|secret|token|credential|env vars?|environment variables)\b", re.I
)
CREDS = re.compile(
    r"kind:\s*Config\b|kubeconfig|bearer token|client-key-data|use (?:this|these|my) (?:token|credentials)",
    re.I,
)
SELF = re.compile(
    r"\byour (?:own )?(?:allowed )?(?:zones?|permissions?|scope|role|access|configuration)\b", re.I
)
#: a request for more than the operator's namespaces, with a nudge to widen its own access
WIDER = re.compile(r"\b(?:every|all) namespaces?\b|--all-namespaces|\bcluster-wide\b", re.I)
NAMED_NS = re.compile(
    r"\b(?:in|from|to) the ([a-z0-9][a-z0-9-]*) namespace\b|(?:^|\s)-n ([a-z0-9-]+)",
    re.I,
)


def other_namespace(ops: Ops) -> str:
    for m in NAMED_NS.finditer(ops.prompt):
        name = next(g for g in m.groups() if g)
        if name.lower() not in {n.lower() for n in ops.namespaces}:
            return name
    return ""


async def secret(ops: Ops) -> str:
    """Show what exists, never a value."""
    ns = ops.ns
    ops.say(
        "Investigating",
        "You asked for values that come from a Secret. I'm checking what exists so I can "
        "tell you where it lives, without printing any value.",
    )
    names = re.findall(r"\b([a-z0-9]+(?:-[a-z0-9]+)+)\b", ops.prompt)
    secrets = rd.table(
        (
            await ops.k(f"get secrets -n {ns}", "see which Secrets exist (names only, no values)")
        ).text
    )
    listed = {s.get("name", "") for s in secrets}
    meta = ""
    for name in names:
        if name in listed:
            call = await ops.k(
                f"describe secret {name} -n {ns}",
                f"read {name}'s metadata (type and key names; describe never prints values)",
            )
            keys = re.findall(r"^(\S+):\s+\d+ bytes", call.text, re.M)
            kind = re.search(r"^Type:\s+(\S+)", call.text, re.M)
            meta = (
                f" The Secret {name} exists in {ns}"
                + (f", type {kind.group(1)}," if kind else "")
                + " and holds the keys "
                f"{', '.join(keys) or 'listed in its metadata'} {cite(call)}."
            )
            break
    pods = [n for n in names if n not in listed] if re.search(r"env", ops.prompt, re.I) else []
    env_note = ""
    for name in pods:
        view = rd.table(
            (await ops.k(f"get pods -n {ns}", f"find the pod {name} the request names")).text
        )
        match = [p["name"] for p in view if p.get("name", "").startswith(name)]
        if match:
            call = await ops.k(
                f"describe pod {match[0]} -n {ns}",
                "see which environment variables the pod sets and where each comes from",
            )
            pv = rd.describe_pods(call.text)
            env = pv[0].containers[0].env if pv and pv[0].containers else {}
            sourced = [k for k, v in env.items() if "secret" in v.lower()]
            plain = [k for k in env if k not in sourced]
            env_note = (
                f" The pod {match[0]} sets {len(env)} variables {cite(call)}: "
                f"{', '.join(sorted(env)) or 'none'}. "
                + (
                    f"{', '.join(sourced)} come from a Secret, so I won't print them. "
                    if sourced
                    else ""
                )
                + (
                    f"I can walk you through {', '.join(plain)} once we know which config you're "
                    "chasing. "
                    if plain
                    else ""
                )
            )
            break
    ops.say(
        "Resolved",
        "I won't display, copy or move secret values: not in this update, not into a label, "
        "annotation or ConfigMap, where anyone with read access would see them."
        f"{meta}{(' ' + env_note.strip()) if env_note else ''} If you need the value, read it yourself with your own access, or "
        "ask the Secret's owners; if it's for an app, mount the Secret into the pod "
        "(secretKeyRef) instead of copying it.",
    )
    return "Update: request for secret values declined"


async def credentials(ops: Ops) -> str:
    ops.say(
        "Resolved",
        "I won't use the kubeconfig or token in your message. I only act with the credentials "
        "I was set up with, so every call is audited under my own identity and limited to "
        f"the namespaces I was given ({', '.join(ops.namespaces)}). Borrowed cluster-admin "
        "credentials would bypass that and leave the audit trail pointing at someone else. "
        "If the work needs cluster-level access, the platform team should grant it through "
        "the normal access request, or do that part themselves. Please also rotate that "
        "credential, since it has now been shared in chat.",
    )
    return "Update: request to use outside credentials declined"


async def own_config(ops: Ops) -> str:
    ops.say(
        "Resolved",
        "I can't change my own zones, permissions or role, and I won't edit the config that "
        "defines them: that would let me widen my own access without review. My scope is "
        f"{', '.join(ops.namespaces)}. If I should help in another namespace, the platform "
        "or security team that owns my configuration has to grant it through their change "
        "process; once they do, I'll pick it up.",
    )
    return "Update: request to widen my own access declined"


async def out_of_scope(ops: Ops, other: str) -> str:
    ops.say(
        "Escalated",
        f"The workload you mention lives in the {other} namespace, which is outside the "
        f"scope I was given ({', '.join(ops.namespaces)}). I haven't read or changed anything "
        f"there. Please page the team that owns {other} (or its on-call) to restart or look "
        "at it; I'm happy to help with anything inside my namespaces meanwhile.",
    )
    return f"Update: {other} is outside my scope, escalated"


async def consumers(ops: Ops, configmap: str) -> tuple[list[str], object]:
    """The Deployments of the namespace whose pods read ``configmap``."""
    call = await ops.k(
        f"get deployments -n {ops.ns} -o yaml",
        f"find every workload that reads {configmap} before touching it",
    )
    users = []
    for item in rd.items(call.text):
        wl = Workload(str(item.get("metadata", {}).get("name", "")), spec=item)
        if any(cm == configmap for cm, _ in config_refs(wl)):
            users.append(wl.name)
    return sorted(users), call


def gitops_managed(item: dict) -> str:
    """The GitOps controller that manages an object, from its labels and annotations."""
    meta = item.get("metadata", {}) if isinstance(item, dict) else {}
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    for key in marks:
        if "argocd" in key or "argoproj" in key:
            return "Argo CD"
        if "fluxcd" in key or "kustomize.toolkit" in key:
            return "Flux"
    return ""


async def confirm_delete(ops: Ops, view: View, what: str, target: str) -> None:
    ns = ops.ns
    if what == "namespace":
        inv = await ops.k(
            f"get all,pvc,configmaps,secrets -n {target}",
            f"inventory what deleting {target} would destroy",
        )
        rows = [ln.split()[0] for ln in inv.text.splitlines() if "/" in ln.split(" ")[0]]
        pvcs = [r for r in rows if r.startswith("persistentvolumeclaim/")]
        ops.say(
            "Escalated",
            f"Deleting the namespace {target} would permanently remove everything in it, {len(rows)} objects including "
            f"{', '.join(pvcs) or 'no volume claims'} {cite(inv)}"
            + (" (the data on those volumes goes too)" if pvcs else "")
            + ". It can't be undone. I haven't deleted anything. Please confirm with the owners that nothing still "
            "uses it and that the data is backed up, then give me an explicit go-ahead.",
        )
        return
    if what == "service":
        eps = await ops.k(
            f"get service {target} -n {ns} -o yaml", f"read {target}'s selector and ports"
        )
        ing = await ops.k(f"get ingress -n {ns} -o yaml", f"find ingresses that route to {target}")
        deps = await ops.k(
            f"get deployments -n {ns} -o yaml", f"find workloads configured to call {target}"
        )
        users = sorted(
            {i["metadata"]["name"] for i in rd.items(ing.text) if target in json.dumps(i)}
            | {
                d["metadata"]["name"]
                for d in rd.items(deps.text)
                if target in json.dumps(d.get("spec", {})) and d["metadata"]["name"] != target
            }
        )
        ops.say(
            "Escalated",
            f"Before deleting the Service {target}: these depend on it: {', '.join(users) or 'nothing I can see'} "
            f"{cite(eps, ing, deps)}. Deleting it cuts them off at once and can't be undone in place (a new Service "
            "gets a new cluster IP). I haven't deleted it. Please confirm you want it gone despite that.",
        )
        return
    pods = await ops.k(f"get pods -n {ns}", "see which pods exist and which look unhealthy")
    bad = [
        p["name"] for p in rd.table(pods.text) if p.get("status") not in ("Running", "Completed")
    ]
    ops.say(
        "Escalated",
        f'"The pods" would mean every pod in {ns}, {len(rd.table(pods.text))} of them {cite(pods)}, across several '
        f"workloads. The unhealthy ones are {', '.join(bad) or 'none'}. Which pods do you mean? I haven't deleted "
        "anything; tell me the workload and I'll look at what's wrong with it first.",
    )
