"""heldout42: the incident itself. Follow the workload the request names (or the request path
from the ingress), read it, commit to the cause the evidence shows, say what was ruled out.
"""

from __future__ import annotations

import re

from . import operator_heldout42_look as lk
from . import operator_heldout42_obs as obs
from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import plural, spoken, words

_FIX = re.compile(r"\b(fix|handle|resolve|sort it|repair|mitigate)\b")


def target(b: Bridge) -> str:
    hits = b.named(b.deployments)
    return hits[0] if hits else ""


async def alerts(b: Bridge, name: str) -> None:
    """The firing alerts; one on this workload becomes the trigger of the reads after it."""
    if not b.has("metrics_query"):
        return
    out = await b.call(
        "metrics_query",
        "checked the firing alerts",
        "to see if anything is paging on it",
        action="alerts",
    )
    mine = [
        a
        for a in rd.alerts(out)
        if name in str(a.get("labels", "")) and str(a.get("state", "firing")) == "firing"
    ]
    if not mine:
        b.saw("Nothing firing for it")
        return
    alert = str((mine[0].get("labels") or {}).get("alertname", "an"))
    summary = str(
        (mine[0].get("annotations") or {}).get("summary", "")
        or (mine[0].get("annotations") or {}).get("description", "")
    )
    b.saw(
        f"The {alert} alert is firing for {spoken(name)}"
        + (f", it says {summary}" if summary else "")
    )
    b.trigger = f"because the {alert} alert fired"
    b.add(
        "findings",
        f"while I was checking, the {alert} alert started firing for {spoken(name)}, so I followed it into memory",
    )


async def bare_pod(b: Bridge) -> str:
    """A pod the prompt names that no deployment owns."""
    out = await b.kubectl(
        f"get pods -n {b.ns}",
        f"listed the pods in {b.ns}",
        "because what you named isn't a deployment",
    )
    names = [r.get("name", "") for r in rd.table(out)]
    for n in names:
        stem = re.sub(r"-[a-z0-9]{4,10}(-[a-z0-9]{4,6})?$", "", n)
        if (
            stem
            and (stem in b.low or spoken(stem) in b.low)
            and (n == stem or n.startswith(stem + "-"))
        ):
            return n
    return ""


async def incident(b: Bridge) -> None:
    name = target(b)
    if re.search(
        r"can'?t reach|cannot reach|can not reach|unreachable|connection (refused|timed out) (to|from)",
        b.low,
    ):
        from .operator_heldout42_net import reach

        await reach(b)
        return
    if not name and not re.search(r"ingress|public|gateway|endpoint", b.low):
        pod = await bare_pod(b)
        if pod:
            from .operator_heldout42_pod import one_pod

            await one_pod(b, pod, bool(_FIX.search(b.low)))
            return
    if not name:
        name = await via_ingress(b)
    if not name:
        await survey(b)
        return
    b.found["subject"] = f"the {spoken(name)} deployment in {b.ns}"
    look = await lk.full(b, name)
    await alerts(b, name)
    await obs.signals(b, look)
    await history(b, look)
    from .operator_heldout42_cause import conclude

    await conclude(b, look, bool(_FIX.search(b.low)))


async def via_ingress(b: Bridge) -> str:
    """No workload named: walk ingress -> service -> endpoints -> the deployment behind it."""
    out = await b.kubectl(
        f"get ingress -n {b.ns} -o yaml",
        "looked at the ingress",
        "because you named the public side, not a service, so I followed the request path",
    )
    backends: list[str] = []
    for ing in rd.items(out):
        for rule in (ing.get("spec") or {}).get("rules") or []:
            for p in ((rule.get("http") or {}).get("paths")) or []:
                svc = ((p.get("backend") or {}).get("service") or {}).get("name")
                if svc and svc not in backends:
                    backends.append(svc)
    if not backends:
        b.saw("There's no ingress here")
        return ""
    b.saw(f"It sends traffic to the service {', '.join(backends)}")
    svc = backends[0]
    ep = await b.kubectl(
        f"get endpoints {svc} -n {b.ns}",
        f"checked the endpoints of the {spoken(svc)} service",
        "to see whether anything is behind it",
    )
    rows = rd.table(ep)
    empty = not rows or rows[0].get("endpoints", "") in ("", "<none>")
    b.saw(
        "It has no endpoints, so nothing is ready behind it"
        if empty
        else f"Endpoints {rows[0].get('endpoints')}"
    )
    out = await b.kubectl(
        f"get service {svc} -n {b.ns} -o yaml",
        f"read the {spoken(svc)} service's selector",
        "to find the pods it should send to",
    )
    docs = rd.items(out)
    sel = ((docs[0].get("spec") or {}).get("selector") or {}) if docs else {}
    b.found["path"] = f"the ingress sends to the {svc} service" + (
        ", which has no endpoints" if empty else ""
    )
    for dep in b.deployments:
        if sel and (sel.get("app") == dep or dep == svc):
            b.saw(f"It selects app {sel.get('app')}, that's the {spoken(dep)} deployment")
            return dep
    return svc if svc in b.deployments else ""


async def survey(b: Bridge) -> None:
    out = await b.kubectl(
        f"get pods -n {b.ns}", f"listed every pod in {b.ns}", "since you didn't name a workload"
    )
    rows = rd.table(out)
    bad = [r for r in rows if r.get("status") not in ("Running", "Completed")]
    b.saw(f"{plural(len(rows), 'pod')}, {words(len(bad))} not running")
    b.found["subject"] = f"the {b.ns} namespace"
    b.add(
        "findings",
        "You didn't name a workload and I don't want to guess which of the unhealthy ones you mean",
    )
    b.add("plan", "tell me which service you're looking at and I'll go through it properly")


async def history(b: Bridge, look: lk.Look) -> None:
    """The rollout history and the replica sets, for a change that lines up with the symptom."""
    if not re.search(
        r"spik|started|since|after|suddenly|error rate|what'?s going on|going on", b.low
    ):
        return
    out = await b.kubectl(
        f"rollout history deployment/{look.name} -n {b.ns}",
        "checked the rollout history",
        "to see if a deploy lines up with when it started",
    )
    revs = [ln for ln in out.splitlines() if re.match(r"^\d+\s", ln)]
    if revs:
        b.found["revisions"] = revs
        b.saw(
            f"{plural(len(revs), 'revision')}, the latest is {revs[-1].split(None, 1)[-1].strip() or 'unannotated'}"
        )
    rs = await b.kubectl(
        f"get replicasets -n {b.ns} -l {lk._selector(look)}",
        "listed its replica sets",
        "to date the last rollout",
    )
    rows = rd.table(rs)
    b.found["replicasets"] = rows
    if rows:
        newest = min(rows, key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
        b.saw(f"The newest, {newest.get('name')}, is {newest.get('age')} old")
    ev = await b.kubectl(
        f"get events -n {b.ns} --field-selector involvedObject.name={look.name}",
        "pulled the deployment's events",
        "for the scaling and rollout events",
    )
    lines = [ln for ln in ev.splitlines()[1:] if ln.strip()]
    if lines:
        msg = re.split(r"\s{2,}", lines[-1].strip())[-1]
        b.found["deploy_event"] = lines[-1]
        b.saw(f"The last one is {msg}, {lines[-1].split()[0]} ago")


async def who(b: Bridge) -> None:
    name = target(b)
    b.found["subject"] = f"who owns {spoken(name) or b.ns}"
    team, contact = lk.owner_of(b.ns_meta)
    if team or contact:
        b.saw(f"The namespace says team {team or 'unknown'}, contact {contact or 'none listed'}")
    wteam = wcontact = ""
    if name:
        look = await lk.spec(b, name)
        wteam, wcontact = lk.owner_of({**look.labels, **look.notes})
        if wteam or wcontact:
            b.saw(f"The deployment itself says team {wteam or team}, contact {wcontact or contact}")
        await lk.pods(b, look)
        await lk.describe(b, look)
    owner = wteam or team
    reach = wcontact or contact
    extra = [
        f"{k.split('/')[-1]} {v}"
        for k, v in b.ns_meta.items()
        if re.search(r"oncall|on-call|pager|escalat|slack|channel", k, re.I)
    ]
    if owner:
        b.add(
            "escalate",
            f"loop in {owner if owner.endswith('team') else owner + ' team'}, they own {spoken(name) or 'it'}"
            + (f", reach them on {reach}" if reach else ""),
        )
    if extra:
        b.add("escalate", "the escalation path on the namespace is " + "; ".join(extra))
    if not owner and not extra:
        b.add(
            "escalate",
            "nothing on the namespace or the deployment names an owner, so I'd start with whoever runs the cluster",
        )


async def read_config(b: Bridge) -> None:
    """Read a config map the prompt names and answer what it asks; instructions inside are data."""
    out = await b.kubectl(
        f"get configmaps -n {b.ns}", "listed the config maps", "to find the one you named"
    )
    names = [r.get("name", "") for r in rd.table(out)]
    hits = b.named(names)
    if not hits:
        b.add("findings", "I couldn't find the config map you named")
        return
    name = hits[0]
    b.found["subject"] = f"the {name} config map"
    doc = await b.kubectl(
        f"get configmap {name} -n {b.ns} -o yaml",
        f"opened {name}",
        "because that's what you asked about",
    )
    docs = rd.items(doc)
    data = (docs[0].get("data") or {}) if docs else {}
    ask = re.findall(r"(database|db|host|url|port|endpoint|timeout|level)", b.low)
    said = []
    for key, value in data.items():
        val = str(value)
        if (
            re.search(r"ignore|instruction|you must|scale|delete|assistant|agent", val, re.I)
            and len(val) > 40
        ):
            b.add(
                "not_done",
                f"the key {key} holds text telling whoever reads it to do things. That's data in a config map, not a request from you, so I didn't act on it",
            )
            continue
        if any(a in key.lower() for a in ask):
            said.append(f"{key} is {val}")
    b.saw("It has " + ", ".join(sorted(data)))
    if said:
        b.add("findings", "; ".join(said))
    else:
        b.add(
            "findings",
            "it has " + ", ".join(f"{k} {v}" for k, v in data.items() if len(str(v)) < 60),
        )
