"""``kubectl run``, ``expose`` and ``autoscale``: generators that create one object."""

from __future__ import annotations

from typing import Any

from .args import UsageError, require_args
from .create import _create_one
from .session import Inv, api_error
from .targets import targets
from .writes import _emit, _pod_spec, dry_mode


# ---- run / expose / autoscale ---------------------------------------------------------------------------------
def cmd_run(inv: Inv) -> None:
    """``kubectl run``: one Pod from an image (an attached run gets no shell in this session)."""
    p = inv.p
    require_args(p, "error: NAME is required for run")
    name = p.args[0]
    image = p.get("image")
    if not image:
        raise UsageError("error: --image is required")
    labels = dict(
        kv.split("=", 1) for kv in str(p.get("labels") or f"run={name}").split(",") if "=" in kv
    )
    c: dict[str, Any] = {"name": name, "image": image, "resources": {}}
    args = list(p.after_dash) or list(p.args[1:])
    if args:
        c["command" if p.on("command") else "args"] = args
    if p.all("env"):
        c["env"] = [
            {"name": k, "value": v} for k, _, v in (str(e).partition("=") for e in p.all("env"))
        ]
    if p.get("port"):
        c["ports"] = [{"containerPort": int(p.get("port"))}]
    body = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": inv.ns, "labels": labels},
        "spec": {
            "containers": [c],
            "restartPolicy": p.get("restart") or "Always",
            "dnsPolicy": "ClusterFirst",
        },
    }
    mode = dry_mode(inv)
    if mode:
        _emit(inv, "pods", body, "created", mode)
        return
    res = inv.call("create", "pods", inv.ns, body=body)
    if res is None:
        return
    attach = p.on("stdin") or p.on("tty") or p.on("attach") or p.on("rm")
    if not attach:
        inv.say(f"pod/{name} created")
        return
    inv.env.advance(5)
    if args:
        if p.on("tty"):
            inv.out.append("If you don't see a command prompt, try pressing enter.\n")
        ex = inv.api("create", "pods", inv.ns, name, sub="exec", params={"command": args})
        if ex.ok:
            inv.out.append(str(ex.body.get("stdout") or "") + str(ex.body.get("stderr") or ""))
            if ex.body.get("exitCode"):
                inv.failed = True
        else:
            inv.error(api_error(ex))
    if p.on("rm"):
        res = inv.api("delete", "pods", inv.ns, name)
        if res.ok:
            inv.say(f'pod "{name}" deleted')


def cmd_expose(inv: Inv) -> None:
    """``kubectl expose``: a Service selecting the pods of a workload or pod."""
    p = inv.p
    tlist = targets(inv, p.args, need_name=True)
    for plural, name in tlist:
        if name is None:
            raise UsageError("error: resource(s) were provided, but no name was specified")
        ns = inv.ns_for(plural)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        obj = res.body
        if plural == "pods":
            selector = obj["metadata"].get("labels") or {}
        elif plural == "services":
            selector = (obj.get("spec") or {}).get("selector") or {}
        else:
            selector = ((obj.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        port = p.get("port")
        if port is None:
            ports = (
                [
                    pp.get("containerPort")
                    for c in _pod_spec(obj, plural).get("containers") or []
                    for pp in c.get("ports") or []
                ]
                if plural != "services"
                else []
            )
            if not ports:
                inv.error(
                    "error: couldn't find port via --port flag or introspection\nSee 'kubectl expose -h' for "
                    "help and examples"
                )
                continue
            port = ports[0]
        target = p.get("target-port") or port
        svc = {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {
                "name": p.get("name") or name,
                "namespace": ns,
                "labels": dict(obj["metadata"].get("labels") or {}),
            },
            "spec": {
                "ports": [
                    {
                        "port": int(port),
                        "protocol": p.get("protocol") or "TCP",
                        "targetPort": int(target) if str(target).isdigit() else target,
                    }
                ],
                "selector": selector,
                "type": p.get("type") or "ClusterIP",
            },
        }
        _create_one(inv, "services", ns, svc, dry_mode(inv))
        if inv.out and inv.out[-1].endswith(" created\n"):
            inv.out[-1] = inv.out[-1].replace(" created\n", " exposed\n")


def cmd_autoscale(inv: Inv) -> None:
    """``kubectl autoscale``: a HorizontalPodAutoscaler for a workload."""
    p = inv.p
    if p.get("max") is None:
        raise UsageError('error: required flag(s) "max" not set')
    for plural, name in targets(inv, p.args, need_name=True):
        ns = inv.ns_for(plural)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        hpa = {
            "apiVersion": "autoscaling/v2",
            "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": p.get("name") or name, "namespace": ns},
            "spec": {
                "scaleTargetRef": {
                    "apiVersion": res.body.get("apiVersion", "apps/v1"),
                    "kind": res.body.get("kind"),
                    "name": name,
                },
                "minReplicas": int(p.get("min") or 1),
                "maxReplicas": int(p.get("max")),
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {
                            "name": "cpu",
                            "target": {
                                "type": "Utilization",
                                "averageUtilization": int(p.get("cpu-percent") or 80),
                            },
                        },
                    }
                ],
            },
        }
        _create_one(inv, "horizontalpodautoscalers", ns, hpa, dry_mode(inv))
        if inv.out and inv.out[-1].endswith(" created\n"):
            inv.out[-1] = inv.out[-1].replace(" created\n", " autoscaled\n")
