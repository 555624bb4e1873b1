"""heldout40's runbook play (written blind, session 33): find the runbook the request names
(a config map holding its steps), then do each step against what the cluster shows: a check
is a read, a conditional step is taken only when its condition holds, a verification reads the
metric after the change.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout40_diag import Finding, logs, rollout
from .operator_heldout40_look import Ctx
from .operator_heldout40_term import Summary, Term, failed


async def _find(term: Term, ctx: Ctx, prompt: str) -> list[str]:
    text = await term.k(
        f"get configmaps -n {ctx.ns}", "find the runbook the request names", keep=["runbook"]
    )
    name = re.search(r"(?:the\s+)?([\w-]+)\s+runbook", prompt, re.I)
    want = name.group(1).lower() if name else ""
    cms = [r.get("name", "") for r in rd.table(text)]
    pick = next(
        (c for c in cms if want and want in c.lower()), next((c for c in cms if "runbook" in c), "")
    )
    if not pick:
        return []
    body = await term.k(
        f"get configmap {pick} -n {ctx.ns} -o yaml",
        f"read the runbook's steps ({pick})",
        keep=["steps", ". "],
    )
    doc = rd.load_yaml(body) or {}
    data = (doc.get("data") or {}) if isinstance(doc, dict) else {}
    raw = str(data.get("steps", ""))
    steps = [
        re.sub(r"^\s*(?:\d+[.)]|-)\s*", "", ln).strip() for ln in raw.splitlines() if ln.strip()
    ]
    term.note(f"runbook {pick}: {len(steps)} steps")
    return steps


async def _rate(term: Term, ctx: Ctx, w: str, why: str) -> tuple[float | None, float | None]:
    text = await term.run(
        "metrics_query", why, ["__name__", "value"], action="query", query=f'{{service="{w}"}}'
    )
    vals = {m.get("__name__", ""): v[-1] for m, v in rd.prom_series(text) if v}
    term.steps[-1].shown = [f"{k} = {v:g}" for k, v in vals.items()] or ["(no series)"]
    return vals.get("error_rate"), vals.get("normal_error_rate")


async def runbook(term: Term, ctx: Ctx, s: Summary, w: str, prompt: str) -> None:
    steps = await _find(term, ctx, prompt)
    if not steps:
        s.escalate = "the service owners: the runbook the request names is not in this namespace"
        return
    f = Finding()
    recent: dict[str, str] = {}
    rate, base = await _rate(term, ctx, w, "the error rate the runbook is about, before any step")
    if rate is not None:
        term.note(
            f"{w} error rate {rate:.1%}" + (f" vs a normal {base:.1%}" if base is not None else "")
        )
    for i, step in enumerate(steps, 1):
        term.trigger = f"operator request (runbook step {i}: {step})"
        recent = await _step(term, ctx, s, w, i, step, f, recent, rate)
    term.trigger = "operator request"
    if recent.get("recent"):
        s.cause = (
            f"the deploy of {recent['new']} {recent['age']} ago: the errors"
            + (f' ("{f.data["log_msg"]}")' if f.data.get("log_msg") else "")
            + f" began with it, and {recent['old']} ran clean before"
        )


async def _step(
    term: Term,
    ctx: Ctx,
    s: Summary,
    w: str,
    i: int,
    step: str,
    f: Finding,
    recent: dict[str, str],
    rate: float | None,
) -> dict[str, str]:
    """One runbook step against what the cluster shows; returns the rollout read so far."""
    low = step.lower()
    if "log" in low:
        found = await logs(term, ctx, w, f)
        s.notes.append(
            f"Step {i} ({step}): "
            + (f'the pattern is "{found[0]}"' if found else "no error pattern")
            + "."
        )
    elif "deploy" in low and ("last" in low or "recent" in low) and not low.startswith("if"):
        recent = await rollout(term, ctx, w)
        s.notes.append(
            f"Step {i} ({step}): "
            + (
                f"yes, {recent['old']} -> {recent['new']} {recent['age']} ago."
                if recent.get("recent")
                else "no deploy in that window."
            )
        )
    elif "rollback" in low or "roll back" in low:
        if not recent.get("recent"):
            s.notes.append(
                f"Step {i} ({step}): skipped, the condition does not hold (no recent deploy)."
            )
            return recent
        out = await term.kw(
            f"rollout undo deployment/{w} -n {ctx.ns}",
            f"runbook step {i}: recent deploy of {recent['new']} matches the errors; back to {recent['old']}",
        )
        if failed(out):
            term.note(f"rollback refused: {out.strip()[:100]}")
            return recent
        term.note(f"changed: deployment {w} image {recent['new']} -> {recent['old']}")
        s.did.append(
            f"rolled back deployment {w} from {recent['new']} to {recent['old']} (runbook step {i})"
        )
        await term.k(
            f"rollout status deployment/{w} -n {ctx.ns} --timeout=120s",
            f"runbook step {i}: wait for the rollback",
        )
        await term.k(
            f"get deployment {w} -n {ctx.ns} -o wide",
            f"runbook step {i}: the image now",
            keep=[w],
        )
        s.notes.append(f"Step {i} ({step}): done, {w} back on {recent['old']}.")
    elif "verify" in low or "error rate" in low or "baseline" in low:
        await _verify(term, ctx, s, w, i, step, rate)
    else:
        s.notes.append(f"Step {i} ({step}): no matching action; noted.")
    return recent


async def _verify(
    term: Term, ctx: Ctx, s: Summary, w: str, i: int, step: str, rate: float | None
) -> None:
    """A verification step: the error rate after the change, read again while it settles."""
    after, base2 = await _rate(term, ctx, w, f"runbook step {i}: error rate after the change")
    for again in range(2):
        if after is None or base2 is None or after <= base2 * 1.5:
            break
        await term.k(
            f"get pods -n {ctx.ns}",
            f"runbook step {i}: the rolled-back pods while the rate settles",
            keep=[w],
        )
        after, base2 = await _rate(
            term, ctx, w, f"runbook step {i}: error rate again ({again + 2} of 3)"
        )
    if after is not None:
        ok = base2 is not None and after <= base2 * 1.5
        term.note(
            f"{w} error rate now {after:.1%}"
            + (f", baseline {base2:.1%}" if base2 is not None else "")
            + (": back to baseline" if ok else ": not yet at baseline")
        )
        s.verified.append(
            f"{w} error rate {after:.1%} after the rollback (baseline"
            f" {base2:.1%}; before {rate:.1%})."
            if base2 is not None and rate is not None
            else f"{w} error rate {after:.1%} after the change."
        )
    s.notes.append(f"Step {i} ({step}): read the error rate after the rollback.")
