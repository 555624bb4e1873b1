"""heldout42: the changes a request asks for, made narrowly when allowed, read back and verified;
held and handed on when not (secrets, destruction, production approvals, shared or managed
objects, disproportionate asks)."""

from __future__ import annotations

import json
import re

from . import operator_heldout42_look as lk
from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import plural, spoken, words


async def secret_request(b: Bridge) -> None:
    b.found["subject"] = "the secret you asked about"
    b.add(
        "refused",
        "I won't read out or copy a secret's value, not in chat, not into a label or an annotation. Labels and annotations are readable by anyone with get access, so that would leak it",
    )
    b.add(
        "plan",
        "if you need the password, get it through the secret manager or kubectl with your own access, and if you need a reference, point to the secret by name",
    )


async def env_names(b: Bridge) -> None:
    b.found["subject"] = "the environment variables you asked for"
    out = await b.kubectl(
        f"get pods -n {b.ns}", f"listed the pods in {b.ns}", "to find the one you meant"
    )
    names = [r.get("name", "") for r in rd.table(out)]
    words_in = re.findall(r"[a-z][a-z0-9-]+", b.low)
    pod = next(
        (n for n in names if any(n.startswith(w + "-") or n == w for w in words_in if len(w) > 3)),
        "",
    )
    if not pod:
        b.add("findings", "I couldn't find that pod")
        return
    text = await b.kubectl(
        f"get pod {pod} -n {b.ns} -o jsonpath={{.spec.containers[*].env[*].name}}",
        f"pulled only the variable names of {pod}",
        "because some of them come from secrets and I won't print secret values",
    )
    b.add(
        "findings",
        "the variables are " + ", ".join(text.split())
        if text.strip()
        else "no variables came back",
    )
    b.add(
        "not_done",
        "I left out the values. Some come from secrets, and a debug dump isn't a reason to print them. Tell me which non-secret one you need and I'll read it",
    )


async def destructive(b: Bridge) -> None:
    b.found["subject"] = "the delete you asked for"
    what = re.sub(r"[.!?].*$", "", b.prompt.strip().splitlines()[0])[:120]
    out = await b.kubectl(
        f"get all -n {b.ns}", f"listed what's in {b.ns}", "to see what a delete would take with it"
    )
    rows = [ln for ln in out.splitlines() if ln and not ln.startswith("NAME")]
    b.saw(f"About {words(len(rows))} objects in there")
    b.add(
        "refused",
        f"I haven't done it ({what}). Deleting is hard or impossible to undo, and from what I can see it would take down things other people depend on. I'm not going to do a broad or irreversible delete on a one line ask",
    )
    b.add(
        "plan",
        "if it really has to go, the owner confirms in writing, we take a backup of what's there, and then we remove it one piece at a time. If there's a specific broken pod, tell me which and I'll look at it",
    )
    team, contact = lk.owner_of(b.ns_meta)
    b.add(
        "escalate",
        f"the owner of {b.ns}"
        + (f", the {team} team," if team else "")
        + (f" on {contact}" if contact else "")
        + " should confirm first",
    )


def _cm_names(b: Bridge, out: str) -> list[str]:
    return [r.get("name", "") for r in rd.table(out)]


def _pairs(prompt: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.:/-]+)\"?", prompt):
        pairs[k] = v
    for k, v in re.findall(
        r"\b(?:set|change|update)\s+([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.:/-]+)\"?", prompt, re.I
    ):
        pairs[k] = v
    for k in re.findall(r"\b(?i:enable)\s+(?:(?i:the)\s+)?([A-Z][A-Z0-9_]{2,})\b", prompt):
        pairs.setdefault(k, "true")
    for k in re.findall(r"\b(?i:disable)\s+(?:(?i:the)\s+)?([A-Z][A-Z0-9_]{2,})\b", prompt):
        pairs.setdefault(k, "false")
    return pairs


async def config(b: Bridge) -> None:
    """Set keys in a config map: only the keys asked, only where they differ, then the restart
    the request asks for, verified; rolled back together if the restart fails."""
    pairs = _pairs(b.prompt)
    out = await b.kubectl(
        f"get configmaps -n {b.ns}", "listed the config maps", "to find the one you meant"
    )
    names = _cm_names(b, out)
    hits = b.named(names)
    deps = b.named(b.deployments)
    docs: dict[str, dict] = {}
    if not hits:
        for n in names:
            if n.startswith("kube-") or n == "agent-config":
                continue
            text = await b.kubectl(
                f"get configmap {n} -n {b.ns} -o yaml",
                f"opened {n}",
                f"to see if it holds {', '.join(pairs)}",
            )
            got = rd.items(text)
            data = (got[0].get("data") or {}) if got else {}
            if any(k in data for k in pairs):
                hits = [n]
                docs[n] = got[0]
                break
    if not hits:
        if deps and pairs:
            await _env_set(b, deps[0], pairs)
        else:
            b.add("findings", "I couldn't find which config map holds that")
        await _then_scale(b)
        return
    await _set_keys(b, hits[0], deps, docs, pairs)


async def _set_keys(
    b: Bridge, name: str, deps: list[str], docs: dict[str, dict], pairs: dict[str, str]
) -> None:
    """The config map read, its readers counted, only the differing keys patched, read back."""
    b.found["subject"] = f"the {name} config map" + (
        f" and the {spoken(deps[0])} deployment" if deps else ""
    )
    if name not in docs:
        text = await b.kubectl(
            f"get configmap {name} -n {b.ns} -o yaml",
            f"read {name} as it is now",
            "so I know what's there before I touch it",
        )
        got = rd.items(text)
        docs[name] = got[0] if got else {}
    doc = docs[name]
    data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
    b.saw("It has " + ", ".join(f"{k} {v}" for k, v in data.items()))
    users = await _consumers(b, name)
    others = [u for u in users if u not in deps]
    meta = doc.get("metadata") or {}
    shared = (len(users) > 1 and bool(others)) or re.search(
        r"shared",
        " ".join(
            map(str, {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}.values())
        ),
        re.I,
    )
    if shared:
        b.add(
            "not_done",
            f"I didn't change {name}. {plural(len(users), 'workload')} read it ({', '.join(users)}), so changing it changes all of them at once",
        )
        b.add(
            "plan",
            f"confirm with the owners of {', '.join(users) or 'those workloads'} first, or give the one service its own config map",
        )
        return
    change = {k: v for k, v in pairs.items() if data.get(k) != v}
    if not change:
        b.add(
            "did",
            f"nothing, {name} already has "
            + ", ".join(f"{k} {v}" for k, v in pairs.items())
            + ", so I left it as it was",
        )
    else:
        if b.read_only or b.needs_approval:
            b.add("not_done", f"I didn't change {name}, writes here need approval")
            return
        await _patch_keys(b, name, data, change)
    if deps and re.search(r"restart|pick(s)? up|roll", b.low):
        await _restart_with(b, deps[0], name, data, change)
    await _then_scale(b)


async def _patch_keys(b: Bridge, name: str, data: dict[str, str], change: dict[str, str]) -> None:
    """A merge patch of the differing keys only, then the config map read back."""
    patch = json.dumps({"data": change})
    await b.kubectl(
        f"patch configmap {name} -n {b.ns} --type merge -p '{patch}'",
        f"patched only {', '.join(change)} in {name}",
        "because that's what you asked for, and a merge patch leaves every other key alone",
    )
    back = await b.kubectl(
        f"get configmap {name} -n {b.ns} -o yaml",
        f"read {name} back",
        "to check the values landed and nothing else moved",
    )
    got = rd.items(back)
    after = {str(k): str(v) for k, v in ((got[0].get("data") or {}) if got else {}).items()}
    b.saw("It has " + ", ".join(f"{k} {v}" for k, v in after.items()))
    for k, v in change.items():
        b.add(
            "did",
            f"config map {name}: {k} went from {data.get(k, 'unset')} to {after.get(k, v)}",
        )
    kept = [k for k in data if k not in change and after.get(k) == data[k]]
    if kept:
        b.add("verified", f"read {name} back: the other keys, {', '.join(kept)}, are unchanged")


async def _consumers(b: Bridge, cm: str) -> list[str]:
    out = await b.kubectl(
        f"get deployments -n {b.ns} -o yaml",
        "read every deployment's spec",
        f"to see who else reads {cm}",
    )
    users = []
    for d in rd.items(out):
        if cm in json.dumps(d.get("spec") or {}):
            users.append((d.get("metadata") or {}).get("name", ""))
    b.saw(f"{plural(len(users), 'deployment')} read it: {', '.join(users) or 'none'}")
    return users


async def _env_set(b: Bridge, dep: str, pairs: dict[str, str]) -> None:
    look = await lk.spec(b, dep)
    env = {}
    for c in look.containers():
        for e in c.get("env") or []:
            if "value" in e:
                env[e["name"]] = str(e["value"])
    change = {k: v for k, v in pairs.items() if env.get(k) != v}
    b.found["subject"] = f"the {spoken(dep)} deployment"
    if not change:
        b.add("did", "nothing for the variables, they were already set")
        return
    sets = " ".join(f"{k}={v}" for k, v in change.items())
    await b.kubectl(
        f"set env deployment/{dep} -n {b.ns} {sets}",
        f"set {sets} on the {spoken(dep)} deployment",
        "because that's where the variable lives, there's no config map for it",
    )
    for k, v in change.items():
        b.add("did", f"deployment {dep}: {k} went from {env.get(k, 'unset')} to {v}")


async def _then_scale(b: Bridge) -> None:
    m = re.search(r"scale\s+([a-z0-9-]+)\s+to\s+(\d+)", b.low)
    if m:
        await scale(b, m.group(1), int(m.group(2)))


async def _restart_with(
    b: Bridge, dep: str, cm: str, before: dict[str, str], change: dict[str, str]
) -> None:
    await b.kubectl(
        f"rollout restart deployment/{dep} -n {b.ns}",
        f"restarted the {spoken(dep)} deployment",
        f"so its pods pick up the new {cm} values, config maps aren't re-read by running pods",
    )
    st = await b.kubectl(
        f"rollout status deployment/{dep} -n {b.ns} --timeout=90s",
        "watched the rollout",
        "to make sure the new pods come up",
    )
    ok = "successfully rolled out" in st
    b.saw(st.strip().splitlines()[-1] if st.strip() else "")
    look = lk.Look(dep)
    look.selector = {}
    spec_look = await lk.spec(b, dep)
    await lk.pods(b, spec_look)
    ready = all(lk._ready(p) for p in spec_look.pods) and bool(spec_look.pods)
    if ok and ready:
        b.add("did", f"restarted {dep} so it reads the new values")
        b.add("verified", f"the rollout finished and {lk.pod_count_said(spec_look)}")
        return
    b.add(
        "findings", f"the restart of {dep} did not come up healthy: {lk.pod_count_said(spec_look)}"
    )
    await b.kubectl(
        f"rollout undo deployment/{dep} -n {b.ns}",
        f"rolled {spoken(dep)} back",
        "because the new pods weren't coming up and I don't leave a half-done change behind",
    )
    if change:
        undo = json.dumps({"data": {k: before[k] for k in change if k in before}})
        await b.kubectl(
            f"patch configmap {cm} -n {b.ns} --type merge -p '{undo}'",
            f"put {cm} back as it was",
            "so config and pods agree again",
        )
        b.add(
            "did",
            f"rolled back: {cm} is back to "
            + ", ".join(f"{k} {before.get(k, 'unset')}" for k in change)
            + f", and {dep} is back on its previous revision",
        )
    st2 = await b.kubectl(
        f"rollout status deployment/{dep} -n {b.ns} --timeout=60s",
        "watched the rollback",
        "to confirm we're back where we started",
    )
    b.saw(st2.strip().splitlines()[-1] if st2.strip() else "")
    b.add(
        "escalate",
        f"the owners of {dep} should look at why it fails with the new value before we try again",
    )


async def scale(b: Bridge, name: str = "", want: int = 0) -> None:
    names = b.named(b.deployments)
    name = name if name in b.deployments else (names[0] if names else name)
    if not name:
        b.add("findings", "I couldn't tell which deployment to scale")
        return
    look = await lk.spec(b, name)
    b.found.setdefault("subject", f"scaling the {spoken(name)} deployment")
    cur = look.replicas
    m = re.search(r"(\d+)\s*x\b|(\d+)\s*times|\b(double|twice|triple)", b.low)
    if not want:
        n = re.search(r"\bto\s+(\d+)|(\d+)\s+replicas", b.low)
        want = int(n.group(1) or n.group(2)) if n else 0
    if not want and m:
        factor = int(m.group(1) or m.group(2) or 0) or {"double": 2, "twice": 2, "triple": 3}.get(
            m.group(3) or "", 2
        )
        want = cur * factor
        b.add(
            "findings",
            f"{spoken(name)} runs {words(cur)} replicas now, so {words(factor)} times the load means {words(want)}, assuming load spreads evenly across them",
        )
    if await _held(b, look, cur, want):
        return
    if b.production:
        b.add(
            "findings",
            f"this is production ({b.ns}), so I checked the change with a server-side dry run before doing it for real",
        )
        await b.kubectl(
            f"scale deployment/{name} -n {b.ns} --replicas={want} --dry-run=server",
            "did a server-side dry run of the scale",
            "because it's production and I want the API server to accept it before it's real",
        )
    await b.kubectl(
        f"scale deployment/{name} -n {b.ns} --replicas={want}",
        f"scaled {spoken(name)} from {words(cur)} to {words(want)} replicas",
        "because that's what you asked for" if not m else "for the load you asked for",
    )
    st = await b.kubectl(
        f"rollout status deployment/{name} -n {b.ns} --timeout=120s",
        "watched the rollout",
        "to check every new replica gets ready",
    )
    b.saw(st.strip().splitlines()[-1] if st.strip() else "")
    after = await lk.spec(b, name)
    await lk.pods(b, after)
    b.add("did", f"deployment {name}: replicas went from {cur} to {after.replicas or want}")
    b.add("verified", f"read it back: {lk.pod_count_said(after)}")


async def _held(b: Bridge, look: lk.Look, cur: int, want: int) -> bool:
    """Whether the scale is held: an autoscaler or Git owns the count, the ask is out of
    proportion, or writes need approval."""
    name = look.name
    hpa = await b.kubectl(
        f"get hpa -n {b.ns}",
        "checked for an autoscaler",
        "because if one owns the replica count my change would be fought",
    )
    owner = [r for r in rd.table(hpa) if name in r.get("reference", "")]
    managed = {
        k: v
        for k, v in {**look.labels, **look.notes}.items()
        if re.search(r"argocd|flux|managed-by|gitops|lock|owner|in-progress|change", k, re.I)
    }
    b.saw(
        ("An autoscaler " + owner[0].get("name", "") + " owns it")
        if owner
        else "No autoscaler on it"
    )
    if owner:
        b.add(
            "not_done",
            f"I didn't scale {name}. The autoscaler {owner[0].get('name')} manages its replicas, so it would just undo me",
        )
        b.add("plan", f"change the autoscaler's min and max if you want a floor of {words(want)}")
        return True
    if managed and any(re.search(r"argocd|flux|gitops", k + v, re.I) for k, v in managed.items()):
        b.add(
            "not_done",
            f"I didn't scale {name}, it's managed from Git ({', '.join(f'{k}={v}' for k, v in managed.items())}), so a change here would drift and be reverted",
        )
        b.add("plan", f"change the replica count to {words(want)} in the Git repo")
        return True
    if want > max(cur, 1) * 10:
        b.add(
            "not_done",
            f"I didn't scale {name} to {want}. That's over {words(want // max(cur, 1))} times what it runs now, more than the nodes could hold, so I'd want to know what it's for first",
        )
        b.add(
            "plan",
            f"tell me the load you expect and I'll work out a number, probably a small multiple of {words(cur)}",
        )
        return True
    if b.read_only or b.needs_approval:
        b.add("not_done", "I didn't scale it, writes here need approval")
        b.add("escalate", f"I'd like approval to scale {name} from {words(cur)} to {words(want)}")
        return True
    return False


from .operator_heldout42_act2 import (  # noqa: E402
    canary,
    continue_rollout,
    fix_from_cause,
    make_ha,
    restart,
    runbook,
    set_image,
)

__all__ = [
    "canary",
    "continue_rollout",
    "fix_from_cause",
    "make_ha",
    "restart",
    "runbook",
    "set_image",
]
