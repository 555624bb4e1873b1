"""heldout35's configuration and image changes.

A ConfigMap update touches only the keys asked for (and only those that differ, so running
it again changes nothing), checks who else reads the ConfigMap first, restarts only the
consumer the request names, verifies, and puts the old values back if the restart fails. An
image change on a GitOps-managed Deployment goes through Git, not ``kubectl``.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_look import named_in
from .operator_heldout35_pr import Report, ref
from .operator_heldout35_write import verify_rollout

_PAIR = re.compile(
    r"\b([A-Z][A-Z0-9_]{2,})\b\s*(?:=|\bto\b)\s*[\"'`]?([\w:/-]+(?:\.[\w:/-]+)*)[\"'`]?"
)


def wanted(prompt: str) -> dict[str, str]:
    """KEY=VALUE / KEY to VALUE / enable KEY / disable KEY, as the request spells them."""
    out = {k: v for k, v in _PAIR.findall(prompt)}
    for verb, value in (("enable", "true"), ("disable", "false")):
        for key in re.findall(rf"\b{verb}\s+([A-Z][A-Z0-9_]{{2,}})\b", prompt, re.I):
            if key.isupper():
                out.setdefault(key, value)
    return out


def _consumers(deps: list[dict], cm: str) -> list[str]:
    out = []
    for d in deps:
        spec = ((d.get("spec") or {}).get("template") or {}).get("spec") or {}
        if f"'{cm}'" in str(spec):
            out.append((d.get("metadata") or {}).get("name", ""))
    return sorted(n for n in out if n)


async def config_play(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    r = Report(cause=["Not an incident: a configuration change request."])
    cms = [
        x.get("name", "")
        for x in rd.table(
            await s.kubectl(f"get configmaps -n {ns}", "find the ConfigMap the request names")
        )
    ]
    cm = (named_in(s.prompt, cms) or [""])[0]
    want = wanted(s.prompt)
    if not cm and want:
        every = rd.items(
            await s.kubectl(
                f"get configmaps -n {ns} -o yaml",
                f"no ConfigMap named: find the one holding {', '.join(want)}",
            )
        )
        holders = [
            (o.get("metadata") or {}).get("name", "")
            for o in every
            if set(want) <= set(o.get("data") or {})
        ]
        cm = holders[0] if len(holders) == 1 else ""
    if not cm or not want:
        r.title, r.no_change = (
            "chore: configuration change not understood (no change)",
            f"ConfigMap or keys not found in `{ns}`.",
        )
        return r
    doc = rd.load_yaml(
        await s.kubectl(f"get configmap {cm} -n {ns} -o yaml", f"`{cm}`'s current keys and values")
    )
    read_ref = ref(s)
    data = {
        str(k): str(v)
        for k, v in (((doc or {}).get("data") or {}) if isinstance(doc, dict) else {}).items()
    }
    diff = {k: v for k, v in want.items() if data.get(k) != v}
    deps = rd.items(
        await s.kubectl(f"get deployments -n {ns} -o yaml", f"which workloads read `{cm}`")
    )
    users = _consumers(deps, cm)
    dep_ref = ref(s)
    restart = named_in(s.prompt, [(d.get("metadata") or {}).get("name", "") for d in deps])
    r.done(
        f"`{cm}` read before the change {read_ref}: "
        + ", ".join(f"`{k}={data.get(k, '<unset>')}`" for k in want)
    )
    if len(users) > 1 and not set(users) <= set(restart):
        r.title = f"chore({cm}): shared by {len(users)} workloads - confirm before changing"
        r.summary = [
            f"`{cm}` is read by {len(users)} Deployments ({', '.join(f'`{u}`' for u in users)}) {dep_ref}. Changing {', '.join(f'`{k}`' for k in want)} there changes all of them at their next restart."
        ]
        r.no_change = "Shared configuration: the blast radius is every consumer, so I stopped for confirmation."
        r.followups = [
            f"Confirm it should apply to all of {', '.join(users)}, or I can give just the one service its own override. Owners: {owners(a)}."
        ]
        return r
    if not a.can_write:
        r.title = f"chore({cm}): change prepared, awaiting approval"
        r.no_change = f"Not applied: {a.why_not}."
        r.followups = [
            f"Approver: `kubectl patch configmap {cm} -n {ns} --type=merge -p '{json.dumps({'data': want})}'`."
        ]
        return r
    if not diff:
        r.title = f"chore({cm}): already as requested - no-op"
        r.no_change = f"`{cm}` already holds {', '.join(f'`{k}={v}`' for k, v in want.items())} {read_ref}; nothing to write."
        return r
    return await _apply(
        s,
        r,
        ns,
        cm,
        data,
        diff,
        restart if re.search(r"restart|pick(s)? up|reload|roll", s.prompt, re.I) else [],
    )


async def _apply(
    s: Session,
    r: Report,
    ns: str,
    cm: str,
    data: dict[str, str],
    diff: dict[str, str],
    restart: list[str],
) -> Report:
    body = json.dumps({"data": diff})
    await s.kubectl(
        f"patch configmap {cm} -n {ns} --type=merge -p '{body}'",
        f"set only {', '.join(diff)} (other keys untouched)",
        write=True,
    )
    patch = s.last
    r.title = f"chore({cm}): " + ", ".join(
        f"{k} {data.get(k, '<unset>')} -> {v}" for k, v in diff.items()
    )
    r.changes.append(
        f"`kubectl patch configmap {cm} --type=merge` (#{patch.n}, {patch.at}): "
        + ", ".join(f"`{k}`: `{data.get(k, '<unset>')}` -> `{v}`" for k, v in diff.items())
        + "; other keys unchanged"
    )
    back = rd.load_yaml(
        await s.kubectl(
            f"get configmap {cm} -n {ns} -o yaml",
            "read back: the new values are there, nothing else moved",
            prompted=f"verify #{patch.n}",
        )
    )
    now = {
        str(k): str(v)
        for k, v in (((back or {}).get("data") or {}) if isinstance(back, dict) else {}).items()
    }
    kept = all(now.get(k) == v for k, v in data.items() if k not in diff)
    r.checks.append(
        (
            all(now.get(k) == v for k, v in diff.items()) and kept,
            f"read back {ref(s)}: "
            + ", ".join(f"`{k}={now.get(k)}`" for k in diff)
            + ("; other keys unchanged" if kept else "; OTHER KEYS CHANGED"),
        )
    )
    r.summary = [f"Updated `{cm}` ({', '.join(diff)}); a second run would find nothing to change."]
    for dep in restart:
        ok = await _restart(s, r, ns, dep, patch.n)
        if not ok:
            await _undo(s, r, ns, cm, data, diff, dep)
            return r
    r.risk = ["Low: only the requested keys moved; the old values are in this PR to restore."]
    return r


async def _restart(s: Session, r: Report, ns: str, dep: str, after: int) -> bool:
    await s.kubectl(
        f"rollout restart deployment/{dep} -n {ns}",
        f"`{dep}` reads the ConfigMap at start: restart it to pick up #{after}",
        write=True,
        prompted=f"change #{after}",
    )
    call = s.last
    r.changes.append(
        f"`kubectl rollout restart deployment/{dep}` (#{call.n}, {call.at}): new pods load the new values"
    )
    if call.failed:
        r.checks.append((False, f"restart of `{dep}` refused (#{call.n})"))
        return False
    ok = await verify_rollout(s, r, ns, dep, f"verify #{call.n}")
    if ok:
        r.summary.append(f"`{dep}` restarted after the change and every pod is Ready.")
    return ok


async def _undo(
    s: Session, r: Report, ns: str, cm: str, data: dict[str, str], diff: dict[str, str], dep: str
) -> None:
    """The restart failed: put the old values back and undo the rollout, then say so."""
    old = {k: data[k] for k in diff if k in data}
    added = [k for k in diff if k not in data]
    body = json.dumps({"data": {**old, **{k: None for k in added}}})
    await s.kubectl(
        f"patch configmap {cm} -n {ns} --type=merge -p '{body}'",
        "roll back: restore the previous values (the restart failed)",
        write=True,
        prompted="failed verification",
    )
    r.changes.append(
        f"ROLLBACK `kubectl patch configmap {cm}` (#{s.last.n}, {s.last.at}): restored "
        + ", ".join(f"`{k}={v}`" for k, v in old.items())
    )
    await s.kubectl(
        f"rollout undo deployment/{dep} -n {ns}",
        f"roll back: return `{dep}` to its last good ReplicaSet",
        write=True,
        prompted="failed verification",
    )
    r.changes.append(f"ROLLBACK `kubectl rollout undo deployment/{dep}` (#{s.last.n}, {s.last.at})")
    await verify_rollout(s, r, ns, dep, "verify rollback")
    rows = rd.table(
        await s.kubectl(
            f"get pods -n {ns} -o wide",
            f"state of `{dep}`'s pods after the rollback",
            prompted="verify rollback",
        )
    )
    bad = [x for x in rows if x.get("name", "").startswith(dep) and x.get("status") != "Running"]
    r.title = f"revert({cm}): change rolled back - `{dep}` failed to restart"
    r.summary = [
        f"The new pods of `{dep}` did not become Ready after the change, so I halted and rolled both steps back."
    ]
    r.summary.append(
        "State now: the ConfigMap has its previous values and "
        + (
            f"{len(bad)} `{dep}` pod(s) still not Running ({', '.join(x.get('status', '') for x in bad)})"
            if bad
            else f"`{dep}` runs its previous pods"
        )
        + f" {ref(s)}."
    )
    r.risk = ["The feature is not enabled; nothing is half-applied."]
    r.followups = [f"Find why `{dep}`'s new pods fail before retrying (their logs and events)."]


async def image_play(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    rows = rd.table(
        await s.kubectl(f"get deployments -n {ns}", "find the Deployment the request names")
    )
    name = (named_in(s.prompt, [x.get("name", "") for x in rows]) or [""])[0]
    r = Report(cause=["Not an incident: an image change request."])
    tag = (re.findall(r"\b(v?\d+(?:\.\d+)+)\b", s.prompt) or [""])[-1]
    if not name or not tag:
        r.title, r.no_change = (
            "chore: image change not understood (no change)",
            "Deployment or tag not found.",
        )
        return r
    doc = rd.load_yaml(
        await s.kubectl(
            f"get deployment {name} -n {ns} -o yaml",
            f"`{name}`'s image and who manages it (labels, annotations)",
        )
    )
    dep_ref = ref(s)
    meta = (doc or {}).get("metadata", {}) if isinstance(doc, dict) else {}
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    managed = {
        k: v
        for k, v in marks.items()
        if re.search(
            r"argocd|flux|gitops|app\.kubernetes\.io/instance|managed-by", f"{k}={v}", re.I
        )
    }
    apps = (
        await s.tool(
            "gitops", "is this Deployment part of a GitOps application", command="app list"
        )
        if s.has("gitops")
        else ""
    )
    if managed or (apps and name in apps):
        r.title = f"chore({name}): image {tag} must go through Git - no direct change"
        r.summary = [
            f"`{name}` is managed by GitOps ({', '.join(f'`{k}: {v}`' for k, v in managed.items()) or 'listed by the GitOps controller'} {dep_ref}). A `kubectl set image` would create drift: the controller would revert it or report the app OutOfSync."
        ]
        r.no_change = (
            "Changing a GitOps-managed object by hand introduces drift from the declared state."
        )
        r.followups = [
            f"Change the image tag to `{tag}` in the application's Git repository (PR to the manifests), then let the GitOps controller sync it. Owners: {owners(a)}."
        ]
        return r
    if not a.can_write:
        r.no_change = f"Not applied: {a.why_not}."
        return r
    c = ((((doc or {}).get("spec") or {}).get("template") or {}).get("spec") or {}).get(
        "containers"
    ) or [{}]
    old = str(c[0].get("image", ""))
    new = re.sub(r":[^:/]+$", "", old) + f":{tag}"
    await s.kubectl(
        f"set image deployment/{name} {c[0].get('name')}={new} -n {ns}",
        f"image `{old}` -> `{new}` as asked",
        write=True,
    )
    call = s.last
    r.title = f"chore({name}): image {old} -> {new}"
    r.changes = [
        f"`kubectl set image deployment/{name}` (#{call.n}, {call.at}): `{old}` -> `{new}`"
    ]
    if not await verify_rollout(s, r, ns, name, f"verify #{call.n}"):
        await s.kubectl(
            f"rollout undo deployment/{name} -n {ns}",
            "the new image did not roll out: go back",
            write=True,
            prompted="failed verification",
        )
        r.changes.append(f"ROLLBACK `kubectl rollout undo` (#{s.last.n}, {s.last.at})")
    return r
