"""heldout31's judgement calls: a migration whose rollback would lose data (risk weighed and
the plan presented for approval), and pods that run but fail their readiness probe.
"""

from __future__ import annotations

import re

from .operator_heldout31_diag import Finding
from .operator_heldout31_look import Look, pods_of
from .operator_heldout31_rec import Decision, Record, num, plural


def _last_migration(text: str) -> tuple[str, str, str]:
    """(version, description, installed on) of the newest row of a migration table."""
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.strip().startswith("|") and re.search(r"\d{4}-\d\d-\d\d", line)
    ]
    if not rows:
        return "", "", ""
    last = rows[-1]
    when = next((c for c in last if re.match(r"\d{4}-\d\d-\d\d", c)), "")
    return (last[1] if len(last) > 1 else ""), (last[2] if len(last) > 2 else ""), when


async def migration_risk(rec: Record, look: Look, d: Decision, f: Finding) -> str:
    version, desc, when = _last_migration(look.migrations)
    if version:
        d.context.append(
            f"The migration history showed version {version} ({desc}) applied at {when.replace(' ', 'T').replace('+00', 'Z')}."
        )
    rows = ""
    if when and rec.has("database"):
        why = "the tables were listed to find where rows written since the migration live"
        tables = await rec.call(
            "database",
            "list",
            "tables",
            why,
            query="SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
        )
        names = [
            t.strip()
            for t in tables.splitlines()[2:]
            if t.strip() and not t.strip().startswith("(")
        ]
        stem = f.subject.split("-")[0]
        table = next((t for t in names if t.startswith(stem)), names[0] if names else f"{stem}s")
        why = (
            f"rows written since the migration would be lost or orphaned by a rollback of {version}"
        )
        out = await rec.call(
            "database",
            "count",
            f"rows of {table} created since the migration",
            why,
            query=f"SELECT count(*) FROM {table} WHERE created_at >= '{when}'",
        )
        m = re.search(r"^\s*(\d+)\s*$", out, re.M)
        rows = m.group(1) if m else ""
        if rows:
            d.context.append(
                f"A count of {table} showed {rows} rows created since the migration was applied."
            )
    d.decision.append(
        f"No rollback of migration {version or 'the last migration'} was performed. A rollback would drop the schema "
        "change the running code expects to match"
        + (
            f" and put the {rows} rows written since then at risk of data loss"
            if rows
            else " and could lose data written since"
        )
        + "."
    )
    d.decision.append(
        "Plan presented for approval: (one) take a backup of the affected table; (two) either deploy the "
        f"{f.subject} build that matches schema version {version or 'current'}, or roll the migration back only after "
        "the backup and with the owners' sign-off; (three) verify that the error line stops and the rows are intact."
    )
    d.consequences.append(
        f"Until approval, {f.subject} keeps failing with the error read in its logs; the data written since the migration is preserved."
    )
    d.alternatives.append(
        "An immediate migration rollback was rejected: the data-loss risk needs a human decision."
    )
    return "Proposed; awaiting approval. No change was made."


def unready(look: Look) -> Finding | None:
    """Pods of the subject Running but not Ready, with the probe failure their events show."""
    for name in look.focus:
        pods = pods_of(look, name)
        rows = [p for p in look.pods if p.get("name") in pods]
        bad = [
            p for p in rows if p.get("ready", "").split("/")[0] != p.get("ready", "").split("/")[-1]
        ]
        if not bad:
            continue
        probe = ""
        for v in look.views:
            if v.name in {p.get("name") for p in bad}:
                probe = next((e for e in v.events if "probe failed" in e.lower()), probe)
        cond = ""
        for c in ((look.objs.get(name) or {}).get("status") or {}).get("conditions") or []:
            if c.get("type") == "Available":
                cond = f"Available={c.get('status')} ({c.get('reason') or c.get('message') or 'no reason'})"
        ev = [
            f"{plural(len(bad), 'pod')} of {name} out of {num(len(rows))} {'was' if len(bad) == 1 else 'were'} found not Ready: "
            + ", ".join(f"{p.get('name')} {p.get('status')} {p.get('ready')}" for p in bad)
        ]
        if probe:
            ev.append("their events read: " + re.sub(r"\s{2,}", " ", probe))
        if cond:
            ev.append(f"the deployment condition reads {cond}")
        return Finding(
            "unready",
            name,
            f"{'the' if len(bad) == len(rows) else 'some'} {name} pods fail their readiness probe, so they are taken "
            "out of the Service and the workload runs below its intended capacity",
            ev,
            data={"pods": [p.get("name") for p in bad]},
        )
    return None
