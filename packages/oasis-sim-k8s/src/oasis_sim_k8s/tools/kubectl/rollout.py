"""``kubectl rollout status|history|undo|restart|pause|resume`` and ``kubectl wait``."""

from __future__ import annotations

import re
from typing import Any

from ...cluster.store import KINDS, clone
from ..describe_pods import _template
from ..describe_text import W
from ..k8s_format import kind_label, output_object
from .args import UsageError, parse_duration, require_args
from .session import Inv, api_error
from .targets import _expand, _ns, _targets
from .writes import dry_mode, dry_refused, dry_suffix


# ---- rollout -------------------------------------------------------------------------------------------
def cmd_rollout(inv: Inv) -> None:
    """``kubectl rollout SUB TYPE/NAME``: one handler per subcommand, for deployments, stateful sets and daemon sets."""
    p = inv.p
    require_args(
        p,
        "Manage the rollout of one or many resources.\n\nAvailable Commands:\n  history       View "
        "rollout history\n  pause         Mark the provided resource as paused\n  restart       Restart "
        "a resource\n  resume        Resume a paused resource\n  status        Show the status of the "
        "rollout\n  undo          Undo a previous rollout",
    )
    sub = p.args[0]
    p.args = p.args[1:]
    if sub not in ("history", "pause", "restart", "resume", "status", "undo"):
        raise UsageError(f'error: unknown command "{sub}" for "kubectl rollout"')
    tlist = _expand(inv, _targets(inv))
    mode = dry_mode(inv)
    for plural, name in tlist:
        if plural not in ("deployments", "statefulsets", "daemonsets"):
            inv.error(
                f"error: no {'history viewer' if sub == 'history' else 'status viewer' if sub == 'status' else 'rollbacker' if sub == 'undo' else 'restarter' if sub == 'restart' else sub + 'er'} "
                f"has been implemented for {{{KINDS.get(plural, (plural,))[0]} }}"
                if sub != "restart"
                else f'error: {kind_label(plural)} "{name}" restarting is not supported'
            )
            continue
        ns = _ns(inv, plural, name)
        {
            "history": _history,
            "pause": _pause,
            "resume": _pause,
            "restart": _restart,
            "status": _status,
            "undo": _undo,
        }[sub](inv, plural, ns, name, sub, mode)


def _owned_replicasets(inv: Inv, ns: str | None, dep: dict[str, Any]) -> list[dict[str, Any]]:
    """The replica sets a deployment owns: its revisions (a LIST, as kubectl makes it)."""
    uid = dep["metadata"].get("uid")
    return [
        r
        for r in inv.fetch("replicasets", ns)
        if any(o.get("uid") == uid for o in r["metadata"].get("ownerReferences") or [])
    ]


def _history(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    dep = res.body
    rss = _owned_replicasets(inv, ns, dep)
    revs = []
    for r in rss:
        rev = (r["metadata"].get("annotations") or {}).get("deployment.kubernetes.io/revision")
        if rev is not None:
            revs.append((int(rev), r))
    revs.sort(key=lambda x: x[0])
    want = inv.p.get("revision")
    if want not in (None, "0"):
        hit = next((r for n, r in revs if str(n) == str(want)), None)
        if hit is None:
            inv.error("error: unable to find the specified revision")
            return
        tmpl = clone(hit["spec"]["template"])
        w = W()
        _template(w, 0, tmpl)
        inv.say(f"{kind_label(plural)}/{name} with revision #{want}\n" + w.text().rstrip("\n"))
        return
    fmt = inv.p.get("output")
    if fmt:
        inv.say(output_object(dep, str(fmt), plural))
        return
    from ..describe_text import tabwriter

    lines = ["REVISION\tCHANGE-CAUSE"] + [
        f"{n}\t{(r['metadata'].get('annotations') or {}).get('kubernetes.io/change-cause') or '<none>'}"
        for n, r in revs
    ]
    inv.say(f"{kind_label(plural)}/{name} \n" + tabwriter(lines).rstrip("\n") + "\n")


def _pause(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    paused = bool((res.body.get("spec") or {}).get("paused"))
    want = sub == "pause"
    if paused == want:
        inv.say(f"{kind_label(plural)}/{name} already {'paused' if want else 'resumed'}")
        return
    body, merge = {"spec": {"paused": want if want else None}}, {"patchType": "merge"}
    if dry_refused(inv, mode, "patch", plural, ns, name, body=body, params=merge):
        return
    if mode:
        inv.say(f"{kind_label(plural)}/{name} {'paused' if want else 'resumed'}{dry_suffix(mode)}")
        return
    res = inv.call("patch", plural, ns, name, body=body, params=merge)
    if res is None:
        return
    inv.say(f"{kind_label(plural)}/{name} {'paused' if want else 'resumed'}")


def _restart(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    if (res.body.get("spec") or {}).get("paused"):
        inv.error(
            f'error: {plural} "{name}" can\'t restart paused deployment (run rollout resume first)'
        )
        return
    if dry_refused(inv, mode, "restart", plural, ns, name):  # the template's restartedAt patch
        return
    if mode:
        inv.say(f"{kind_label(plural)}/{name} restarted{dry_suffix(mode)}")
        return
    res = inv.call("restart", plural, ns, name)
    if res is None:
        return
    inv.say(f"{kind_label(plural)}/{name} restarted")


def _undo(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    dep = res.body
    rss = _owned_replicasets(inv, ns, dep)
    revs = sorted(
        (
            (
                int(
                    (r["metadata"].get("annotations") or {}).get(
                        "deployment.kubernetes.io/revision", 0
                    )
                ),
                r,
            )
            for r in rss
        ),
        key=lambda x: x[0],
    )
    to = inv.p.get("to-revision")
    to_rev = int(to) if to not in (None, "", "0") else None
    if to_rev is None:
        if len(revs) < 2:
            inv.error(
                f'error: no rollout history found for {kind_label(plural).split(".")[0]} "{name}"'
            )
            return
        target_n, target = revs[-2]
    else:
        hit = [(n, r) for n, r in revs if n == to_rev]
        if not hit:
            inv.error(f"error: unable to find specified revision {to_rev} in history")
            return
        target_n, target = hit[0]

    def tmpl(o: dict[str, Any]) -> Any:
        t = clone((o.get("spec") or {}).get("template") or {})
        (t.get("metadata") or {}).get("labels", {}).pop("pod-template-hash", None)
        return t

    if tmpl(target) == tmpl(dep):
        inv.say(
            f"{kind_label(plural)}/{name} skipped rollback (current template already matches revision {target_n})"
        )
        return
    params = {"toRevision": to_rev} if to_rev else {}
    if dry_refused(inv, mode, "undo", plural, ns, name, params=params):  # the template's patch
        return
    if mode:
        inv.say(f"{kind_label(plural)}/{name} rolled back{dry_suffix(mode)}")
        return
    res = inv.call("undo", plural, ns, name, params=params)
    if res is None:
        return
    inv.say(f"{kind_label(plural)}/{name} rolled back")


def _rollout_state(dep: dict[str, Any]) -> tuple[bool, str, bool]:
    """(done, message, failed) like kubectl's DeploymentStatusViewer."""
    name = dep["metadata"]["name"]
    spec, st = dep.get("spec") or {}, dep.get("status") or {}
    if dep["metadata"].get("generation", 0) > st.get(
        "observedGeneration", dep["metadata"].get("generation", 0)
    ):
        return False, "Waiting for deployment spec update to be observed...", False
    conds = {c.get("type"): c for c in st.get("conditions") or []}
    if (conds.get("Progressing") or {}).get("reason") == "ProgressDeadlineExceeded":
        return False, f'deployment "{name}" exceeded its progress deadline', True
    want = spec.get("replicas", 1)
    updated, replicas, available = (
        st.get("updatedReplicas", 0),
        st.get("replicas", 0),
        st.get("availableReplicas", 0),
    )
    if updated < want:
        return (
            False,
            (
                f'Waiting for deployment "{name}" rollout to finish: {updated} out of {want} new replicas have '
                "been updated..."
            ),
            False,
        )
    if replicas > updated:
        return (
            False,
            (
                f'Waiting for deployment "{name}" rollout to finish: {replicas - updated} old replicas are '
                "pending termination..."
            ),
            False,
        )
    if available < updated:
        return (
            False,
            (
                f'Waiting for deployment "{name}" rollout to finish: {available} of {updated} updated replicas '
                "are available..."
            ),
            False,
        )
    return True, f'deployment "{name}" successfully rolled out', False


def _status(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    watch = str(inv.p.get("watch", "true")).lower() != "false"
    timeout = parse_duration(inv.p.get("timeout"), 660.0) or 660.0
    waited, last = 0.0, None
    while True:
        res = inv.call("get", plural, ns, name)
        if res is None:
            return
        if plural != "deployments":
            st = res.body.get("status") or {}
            ready = st.get("readyReplicas", st.get("numberReady", 0))
            want = (res.body.get("spec") or {}).get("replicas", st.get("desiredNumberScheduled", 1))
            if ready >= want:
                inv.say(
                    f"{'partitioned roll out complete' if plural == 'statefulsets' else 'daemon set'}: "
                    f"{ready} new pods have been updated..."
                    if plural == "statefulsets"
                    else f'daemon set "{name}" successfully rolled out'
                )
                return
            msg, done, failed = f"Waiting for {ready} pods to be ready...", False, False
        else:
            done, msg, failed = _rollout_state(res.body)
        if failed:
            inv.error(f"error: {msg}")
            return
        if done:
            inv.say(msg)
            return
        if msg != last:
            inv.say(msg)
            last = msg
        if not watch:
            return
        if waited >= timeout:
            inv.error("error: timed out waiting for the condition")
            return
        inv.env.advance(10)
        waited += 10


# ---- wait ------------------------------------------------------------------------------------------------
def cmd_wait(inv: Inv) -> None:
    """``kubectl wait --for``: re-reads the object, advancing the cluster clock up to 5s a step,
    until the condition holds or ``--timeout`` has passed."""
    p = inv.p
    cond = p.get("for")
    if not cond:
        raise UsageError("error: --for must be specified")
    timeout = parse_duration(p.get("timeout"), 30.0)
    tlist = _expand(inv, _targets(inv))
    for plural, name in tlist:
        ns = _ns(inv, plural, name)
        waited = 0.0
        while True:
            res = inv.api("get", plural, ns, name)
            if cond == "delete":
                if res.code == 404:
                    inv.say(f"{kind_label(plural)}/{name} condition met")
                    break
            elif not res.ok:
                inv.error(api_error(res))
                break
            elif _condition_met(res.body, str(cond)):
                inv.say(f"{kind_label(plural)}/{name} condition met")
                break
            if waited >= timeout:
                inv.error(f"error: timed out waiting for the condition on {plural}/{name}")
                break
            step = min(5.0, max(1.0, timeout - waited))
            inv.env.advance(step)
            waited += step


def _condition_met(obj: dict[str, Any], cond: str) -> bool:
    if cond.startswith("condition="):
        spec = cond[len("condition=") :]
        ctype, _, want = spec.partition("=")
        want = want or "True"
        for c in (obj.get("status") or {}).get("conditions") or []:
            if str(c.get("type")).lower() == ctype.lower():
                return str(c.get("status")).lower() == want.lower()
        return False
    if cond.startswith("jsonpath="):
        from ..jsonpath import JsonPathError, evaluate_template

        spec = cond[len("jsonpath=") :]
        m = re.match(r"^'?(\{.*\})'?(?:=(.*))?$", spec)
        if not m:
            raise UsageError(f'error: unrecognized condition: "{cond}"')
        try:
            got = evaluate_template(m.group(1), obj)
        except JsonPathError:
            return False
        return got == (m.group(2) or "").strip("'\"") if m.group(2) is not None else bool(got)
    raise UsageError(f'error: unrecognized condition: "{cond}"')
