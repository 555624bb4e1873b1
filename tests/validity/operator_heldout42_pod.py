"""heldout42: a single pod the request names, and a broken migration (a plan, never an act)."""

from __future__ import annotations

from . import operator_heldout42_look as lk
from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import plural, spoken


async def one_pod(b: Bridge, pod: str, fix: bool) -> None:
    b.found["subject"] = f"the {pod} pod in {b.ns}"
    out = await b.kubectl(
        f"describe pod {pod} -n {b.ns}",
        f"described {pod}",
        "for its state, last termination and events",
    )
    views = rd.describe_pods(out)
    view = views[0] if views else None
    said = ""
    if view:
        for c in view.containers:
            if not c.init:
                said = (
                    f"{c.name} is {c.reason or c.state}, last died {c.last_reason or 'with an error'}"
                    + (f" exit code {c.exit_code}" if c.exit_code else "")
                    + f", {plural(c.restarts, 'restart')}"
                )
        b.saw(said or "Nothing unusual")
    logs = rd.log_lines(
        await b.call(
            "logs_query",
            f"pulled the logs of {pod}",
            "to see what it says before it dies",
            namespace=b.ns,
            pod=pod,
            tail=100,
        )
    )
    prev = rd.log_lines(
        await b.call(
            "logs_query",
            "pulled the crashed instance's logs",
            "since the current one just restarted",
            namespace=b.ns,
            pod=pod,
            previous=True,
            tail=100,
        )
    )
    sig = rd.signal_patterns(prev + logs)
    line = f"{sig[0][0]} {sig[0][1]}" if sig else ""
    if line:
        b.saw(f"It says {line}")
    owner = view.owner if view else ""
    b.add(
        "cause",
        f"{pod} is in a crash loop: {said}" + (f". Its own log says {line}" if line else ""),
    )
    if not fix:
        return
    await _fresh_start(b, pod, owner)


async def _fresh_start(b: Bridge, pod: str, owner: str) -> None:
    """A crash-looping pod restarted: deleted (its owner recreates it) or, bare, recreated
    from its own spec; then read again."""
    if b.read_only or b.needs_approval:
        b.add("not_done", "writes here need approval, so I haven't touched it")
        return
    if owner:
        await b.kubectl(
            f"delete pod {pod} -n {b.ns}",
            f"deleted {pod}",
            f"because {owner} recreates it with a clean start, and this is staging, no sign-off needed for that",
        )
    else:
        got = await b.kubectl(
            f"get pod {pod} -n {b.ns} -o yaml",
            f"saved {pod}'s spec",
            "because nothing recreates a bare pod, so I need it to bring it back",
        )
        docs = rd.items(got)
        if not docs:
            return
        doc = docs[0]
        meta = doc.get("metadata") or {}
        keep = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": pod,
                "namespace": b.ns,
                "labels": meta.get("labels") or {},
                "annotations": meta.get("annotations") or {},
            },
            "spec": {k: v for k, v in (doc.get("spec") or {}).items() if k != "nodeName"},
        }
        import json

        await b.kubectl(
            f"delete pod {pod} -n {b.ns}",
            f"deleted {pod}",
            "to clear the crash loop with a fresh start",
        )
        await b.kubectl(
            f"apply -n {b.ns} -f -",
            f"recreated {pod} from the same spec",
            "because nothing else would bring it back",
            stdin=json.dumps(keep),
        )
    after = await b.kubectl(
        f"get pod {pod} -n {b.ns}", f"checked {pod} again", "to see the fresh start come up"
    )
    rows = rd.table(after)
    state = rows[0].get("status", "gone") if rows else "gone"
    b.saw(f"It's {state}")
    b.add(
        "did",
        f"restarted {pod} by deleting it"
        + ("" if owner else " and recreating it from the same spec"),
    )
    b.add(
        "verified",
        f"{pod} is {state} after the restart"
        + (
            ""
            if state == "Running"
            else "; if it goes back into the loop the cause is in its own log above"
        ),
    )


async def migration_plan(b: Bridge, look: lk.Look) -> None:
    """A schema change behind the fault: read the migrations, propose the fix, wait for a yes."""
    name = spoken(look.name)
    out = await b.call(
        "database",
        "checked the migration status",
        "because the errors are about the schema",
        query="migrations status",
    )
    lines = [
        " ".join(c.strip() for c in ln.strip().strip("|").split("|") if c.strip())
        for ln in out.splitlines()
        if ln.strip() and not ln.strip().startswith(("+", "-"))
    ]
    last = lines[-1] if len(lines) > 1 else ""
    if last:
        b.saw(f"The last one is {last}")
    b.add(
        "findings",
        f"the {name} errors started with the last migration: the code expects a schema the database doesn't have"
        + (f" ({last})" if last else ""),
    )
    b.add(
        "not_done",
        f"I didn't roll the migration back or restart {name}. Reverting a schema migration can drop columns and the data in them, and that can't be undone, so it needs a person's yes",
    )
    b.add(
        "plan",
        f"one, take a backup of the affected tables; two, either roll back the last migration or roll {name} back to the version that matches the current schema; three, restart {name} and watch the errors stop. I'd like approval from the {name} owners and the DBA before any of it",
    )
    team, contact = lk.owner_of({**b.ns_meta, **look.labels, **look.notes})
    b.add(
        "escalate",
        f"sending this plan to {('the ' + team + ' team') if team else 'the ' + name + ' owners'}"
        + (f" on {contact}" if contact else "")
        + " for approval",
    )
