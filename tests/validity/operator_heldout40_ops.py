"""heldout40's changes (written blind, session 33): each one narrow, read before, shown as the
command it ran with "# changed: before -> after", read back after, rolled back if it did not
take. Restart (a Deployment's rolling restart, a bare pod saved and re-created), config keys,
scale, resource requests.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout40_look import Ctx
from .operator_heldout40_term import Summary, Term, failed


async def restart(term: Term, ctx: Ctx, s: Summary, w: str, why: str) -> bool:
    """A rolling restart of a Deployment; a bare pod is saved, deleted and re-created."""
    if ctx.hold:
        s.plan.append(f"restart {w} (not done: {ctx.hold})")
        return False
    if w in ctx.bare_pods:
        return await _replace_pod(term, ctx, s, w, why)
    before = ctx.pods_of(w)
    out = await term.kw(f"rollout restart deployment/{w} -n {ctx.ns}", why)
    if failed(out):
        term.note(f"restart refused: {out.strip()[:100]}")
        return False
    term.note(
        f"changed: deployment {w} restarted (pod template restartedAt set); its"
        f" {len(before)} old pod(s) are replaced one at a time"
    )
    s.did.append(f"restarted deployment {w} (rolling restart) to {why}")
    status = await term.k(
        f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s",
        f"wait for the restart of {w} to finish",
    )
    if "successfully rolled out" in status:
        return True
    pods = await term.k(f"get pods -n {ctx.ns}", f"why the restart of {w} did not finish", keep=[w])
    bad = [
        r
        for r in rd.table(pods)
        if r.get("name", "").startswith(w + "-") and r.get("status") != "Running"
    ]
    term.note(
        f"the restart of {w} is stuck: " + ", ".join(f"{r['name']} {r.get('status')}" for r in bad)
    )
    out = await term.kw(
        f"rollout undo deployment/{w} -n {ctx.ns}",
        f"the restart of {w} failed ({bad[0].get('status') if bad else 'not ready'}): roll it back",
    )
    term.note(
        f"changed: deployment {w} back to its previous pod template (undo of the failed restart)"
    )
    s.did.append(f"rolled back the failed restart of deployment {w}")
    await term.k(
        f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s", f"{w} back on its old pods"
    )
    s.notes.append(
        f"The restart of {w} failed ("
        + (bad[0].get("status", "") if bad else "not ready")
        + "), so I stopped there and rolled back rather than leave it half-applied."
    )
    return False


async def _replace_pod(term: Term, ctx: Ctx, s: Summary, pod: str, why: str) -> bool:
    text = await term.k(
        f"get pod {pod} -n {ctx.ns} -o json",
        f"save {pod}'s manifest before deleting it",
        keep=["ownerReferences", "image"],
    )
    doc = rd.load_json(text) or {}
    meta = doc.get("metadata") or {}
    owned = bool(meta.get("ownerReferences"))
    term.note(
        f"{pod} is {'owned by ' + meta['ownerReferences'][0].get('kind', '?') if owned else 'a bare pod, no controller re-creates it'}"
    )
    out = await term.kw(f"delete pod {pod} -n {ctx.ns}", why)
    if failed(out):
        term.note(f"delete refused: {out.strip()[:100]}")
        return False
    term.note(f"changed: pod {pod} deleted (was CrashLoopBackOff)")
    s.did.append(f"deleted pod {pod} to {why}")
    if not owned:
        spec = {k: v for k, v in (doc.get("spec") or {}).items() if k not in ("nodeName",)}
        keep = {
            k: v for k, v in meta.items() if k in ("name", "namespace", "labels", "annotations")
        }
        body = json.dumps({"apiVersion": "v1", "kind": "Pod", "metadata": keep, "spec": spec})
        out = await term.run(
            "kubectl",
            f"re-create {pod} from its saved manifest (bare pod)",
            None,
            write=True,
            command="apply -f -",
            stdin=body,
        )
        term.note(
            f"changed: pod {pod} re-created from its own manifest, fresh container, restart count 0"
        )
        s.did.append(f"re-created pod {pod} from its saved manifest")
    return True


async def verify(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    """Read the workload again after a change: pods ready, restarts, status."""
    if not s.did:
        return
    text = await term.k(f"get pods -n {ctx.ns}", f"verify {w} after the change", keep=[w])
    rows = [r for r in rd.table(text) if r.get("name", "").startswith(w)]
    ready = [
        r
        for r in rows
        if r.get("ready", "").split("/")[0] == r.get("ready", "").split("/")[-1]
        and r.get("status") == "Running"
    ]
    msg = f"{len(ready)}/{len(rows)} pod(s) of {w} Running and Ready after the change"
    term.note(msg)
    s.verified.append(msg + ".")


def parse_keys(prompt: str) -> dict[str, str]:
    """KEY=value, "set KEY to value", "enable KEY" from the request."""
    out: dict[str, str] = {}
    for key, val in re.findall(
        r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*([\w.:/-]+?)(?=[\s,.;]*(?:\s|$|and\b))", prompt + " "
    ):
        out[key] = val
    setting = r"\b(?i:set|update|change)\s+([A-Z][A-Z0-9_]{2,})\s+(?i:to)\s+[\"']?([\w.:/-]+?)[\"']?(?=[\s,.;]|$)"
    for key, val in re.findall(setting, prompt):
        out[key] = val
    for verb, key in re.findall(r"\b(?i:(enable|disable))\s+([A-Z][A-Z0-9_]{2,})\b", prompt):
        out[key] = "true" if verb.lower() == "enable" else "false"
    return out


async def shared(term: Term, ctx: Ctx, s: Summary, cm: str, diff: dict[str, str]) -> bool:
    """Who else reads this config map: a change to one many teams' workloads read is confirmed first."""
    text = await term.k(
        f"get deployments -n {ctx.ns} -o json",
        f"which workloads read {cm} before I change it",
        keep=[cm, "team"],
    )
    doc = rd.load_json(text) or {}
    users: dict[str, str] = {}
    for item in doc.get("items") or []:
        if cm in json.dumps((item.get("spec") or {}).get("template") or {}):
            meta = item.get("metadata") or {}
            marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
            team = next((str(v) for k, v in marks.items() if "team" in k or "owner" in k), "")
            users[str(meta.get("name"))] = team
    named = [u for u in users if u in term.task.prompt]
    teams = sorted({t for t in users.values() if t})
    term.note(
        f"{cm} is read by {len(users)} deployment(s): "
        + (", ".join(f"{u}{' (' + t + ')' if t else ''}" for u, t in users.items()) or "none")
    )
    if len(users) - len(named) < 2 and len(teams) < 2:
        return False
    s.notes.append(
        f"Not done yet: {cm} is shared by {len(users)} deployments ({', '.join(users)})"
        + (f" owned by {' and '.join(teams)}" if teams else "")
        + f"; setting {', '.join(f'{k}={v}' for k, v in diff.items())} changes all of them at their next restart."
    )
    s.escalate = (
        f"{' and '.join(teams) or 'the owners of ' + ', '.join(users)} to confirm the change to {cm}"
        f" ({', '.join(f'{k}={v}' for k, v in diff.items())}) before I apply it"
    )
    return True


async def patch_config(
    term: Term, ctx: Ctx, s: Summary, cm: str, want: dict[str, str], restore: bool = False
) -> dict[str, str]:
    """Set only the keys asked for, only where they differ; returns what changed (key: old)."""
    text = await term.k(
        f"get configmap {cm} -n {ctx.ns} -o yaml", f"current values in {cm}", keep=list(want)
    )
    doc = rd.load_yaml(text) or {}
    data = {
        str(k): str(v)
        for k, v in ((doc.get("data") if isinstance(doc, dict) else {}) or {}).items()
    }
    term.note(f"{cm} now: " + ", ".join(f"{k}={data.get(k, '(unset)')}" for k in want))
    diff = {k: v for k, v in want.items() if data.get(k) != v}
    if not diff:
        term.note(
            f"{cm} already has "
            + ", ".join(f"{k}={v}" for k, v in want.items())
            + ": nothing to change"
        )
        s.notes.append(
            f"{cm} already had the asked values; no write needed (a re-run changes nothing)."
        )
        return {}
    if ctx.hold:
        s.plan.append(
            f"set {', '.join(f'{k}={v}' for k, v in diff.items())} in {cm} (not done: {ctx.hold})"
        )
        return {}
    if not restore and await shared(term, ctx, s, cm, diff):
        return {}
    body = json.dumps({"data": diff})
    out = await term.kw(
        f"patch configmap {cm} -n {ctx.ns} --type=merge -p '{body}'",
        f"set only the keys asked for in {cm}; the others stay as they are",
    )
    if failed(out):
        term.note(f"patch refused: {out.strip()[:100]}")
        return {}
    for k, v in diff.items():
        term.note(f"changed: {cm} {k}: {data.get(k, '(unset)')} -> {v}")
        s.did.append(f"set {k} in configmap {cm} from {data.get(k, '(unset)')} to {v}")
    back = await term.k(
        f"get configmap {cm} -n {ctx.ns} -o yaml", f"read {cm} back", keep=list(data)
    )
    doc2 = rd.load_yaml(back) or {}
    now = {
        str(k): str(v)
        for k, v in ((doc2.get("data") if isinstance(doc2, dict) else {}) or {}).items()
    }
    kept = [k for k in data if k not in diff and now.get(k) == data[k]]
    term.note(
        "read back: "
        + ", ".join(f"{k}={now.get(k)}" for k in want)
        + (f"; untouched: {', '.join(f'{k}={now[k]}' for k in kept)}" if kept else "")
    )
    s.verified.append(
        f"{cm} reads "
        + ", ".join(f"{k}={now.get(k)}" for k in want)
        + (f", other keys unchanged ({', '.join(kept)})." if kept else ".")
    )
    return {k: data.get(k, "(unset)") for k in diff}


def replicas(ctx: Ctx, w: str) -> int:
    row = next((d for d in ctx.deployments if d["name"] == w), {})
    ready = row.get("ready", "0/0").split("/")
    return int(ready[-1]) if ready[-1].isdigit() else 0


async def scale(term: Term, ctx: Ctx, s: Summary, w: str, n: int, why: str) -> bool:
    before = replicas(ctx, w)
    if n > max(20, before * 10):
        term.note(
            f"{n} replicas is {n / max(before, 1):.0f}x today's {before}: out of proportion, not done"
        )
        s.notes.append(
            f"Not done: scaling {w} from {before} to {n} replicas is {n / max(before, 1):.0f}x its size"
            " and would exhaust the cluster's capacity; please confirm the number (a typo for a"
            " smaller count?) and I will do it in steps."
        )
        s.escalate = f"the requester to confirm: {w} to {n} replicas (from {before}) before anything is changed"
        return False
    if before == n:
        term.note(f"{w} already runs {n} replicas: nothing to change")
        s.notes.append(f"{w} already had {n} replicas; no write needed.")
        return False
    if ctx.hold:
        s.plan.append(f"scale {w} from {before} to {n} replicas (not done: {ctx.hold})")
        return False
    if ctx.env.lower().startswith("prod"):
        out = await term.kw(
            f"scale deployment {w} -n {ctx.ns} --replicas={n} --dry-run=server",
            f"{ctx.ns} is production: a server dry run first, to see the API accepts it",
        )
        term.note(f"dry run only, nothing changed yet: {out.strip()[:80]}")
    out = await term.kw(f"scale deployment {w} -n {ctx.ns} --replicas={n}", why)
    if failed(out):
        term.note(f"scale refused: {out.strip()[:100]}")
        return False
    term.note(f"changed: deployment {w} replicas {before} -> {n}")
    s.did.append(f"scaled deployment {w} from {before} to {n} replicas")
    text = await term.k(
        f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s", f"wait for {w}'s new replicas"
    )
    dep = await term.k(f"get deployment {w} -n {ctx.ns}", f"read {w} back", keep=[w])
    row = next(iter(rd.table(dep)), {})
    term.note(f"{w} reads READY {row.get('ready', '?')}")
    s.verified.append(f"deployment {w} reads READY {row.get('ready', '?')} (asked {n}).")
    return "successfully" in text or True
