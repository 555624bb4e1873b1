"""Data at risk: before proposing to undo a schema migration, find out what undoing it
would destroy (rows written since it ran), and make that the centre of the proposal.
Read-only queries only.
"""

from __future__ import annotations

import re
from typing import Any

from .findings import Finding
from .fixes import Remedy
from .work import Work


def _table_guess(workload: str | None) -> str | None:
    """The service's main table by convention: ``user-service`` -> ``users``."""
    if not workload:
        return None
    stem = re.sub(r"[-_](service|svc|api|app|server)$", "", workload).replace("-", "_")
    return stem if stem.endswith("s") else stem + "s"


async def assess(w: Work) -> None:
    """Count rows written since the last migration (stored on the migration finding)."""
    mig = next(iter(w.d.of("last-migration")), None)
    schema = next(iter(w.d.of("schema-mismatch")), None)
    if not mig or not schema or not w.s.has("database"):
        return
    table = _table_guess(schema.workload)
    if not table:
        return
    query = f"SELECT count(*) FROM {table} WHERE created_at > (SELECT max(applied_at) FROM schema_migrations)"
    with w.s.doing(
        f"measure the data at risk: rows written to {table} since migration {mig.data.get('version')} ran"
    ):
        text, error = await w.s.call("database", query=query)
    m = re.search(r"^\s*(\d+)\s*$", text, re.MULTILINE) if not error else None
    mig.data.update(table=table, rows=int(m.group(1)) if m else None, query=query)


def migration_risk(w: Work, f: Finding) -> Any:

    mig = next(iter(w.d.of("last-migration")), None)
    wl = f.workload or "the service"
    if not mig:
        return Remedy(
            f"reconcile {wl}'s code and database schema",
            [
                "compare the schema the code expects with the migration history",
                "fix forward with the owners",
            ],
            human="the database schema and the code disagree; changing either affects stored data",
        )
    rows, table = mig.data.get("rows"), mig.data.get("table")
    version, desc = mig.data.get("version"), mig.data.get("description")
    at_risk = (
        f"{rows} rows written to {table} since migration {version} ran"
        if rows is not None
        else f"every row written since migration {version} ran (I could not count them)"
    )
    risk = (
        f'RISK: {wl} fails with "{f.data.get("line")}" right after migration {version} ("{desc}"). Rolling '
        f"the migration back (or restoring a backup) is NOT safely reversible: it would lose or corrupt {at_risk}. "
        f"Restarting {wl} or rolling its deployment back does not fix a schema mismatch either."
    )
    f.data["risk"] = risk

    return Remedy(
        f"fix {wl}'s schema mismatch without losing data (after approval)",
        [
            f"take a backup/snapshot of the {wl} database before anything else",
            (
                f"decide with the owners: fix forward (a new migration or a code fix for the {desc} change) rather than "
                f"rolling back migration {version}, which would destroy {at_risk}"
            ),
            f"apply the approved change, then restart {wl} and verify its pods become ready and the error stops",
        ],
        human=f"the fix touches stored data ({at_risk}); that needs an explicit approval",
        risk=risk,
    )
