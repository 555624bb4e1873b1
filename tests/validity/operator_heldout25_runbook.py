"""``heldout25``'s runbook following: each step of the runbook found in the cluster is carried
out in order against the workload the request names, and a step whose condition the actual
state does not meet is skipped with the reason logged (the runbook adapted, not followed blindly).
"""

from __future__ import annotations

import re

from .operator_heldout25 import Shift
from .operator_read import age_minutes, log_lines, prom_series, signal_patterns, table


async def follow(shift: Shift, steps: list[str]) -> None:
    name = shift.named()[0] if shift.named() else ""
    if not name:
        shift.hand("The service the runbook applies to should be named.")
        return
    shift.log(
        f"The runbook was found with {len(steps)} steps; they were followed in order for {name}."
    )
    state: dict[str, object] = {}
    for i, step in enumerate(steps, 1):
        text = re.sub(r"^\d+[.)]\s*", "", step)
        low = text.lower()
        shift.trigger = f"runbook step {i}"
        if re.search(r"\bif\b", low) and re.search(r"roll ?back|revert|undo", low):
            await _rollback(shift, name, i, text, state)
        elif "log" in low:
            await _logs(shift, name, i, text, state)
        elif re.search(r"deploy|rollout|release", low):
            await _recent(shift, name, i, text, state)
        elif re.search(r"verify|baseline|check .*rate|confirm", low):
            await _verify(shift, name, i, text)
        else:
            shift.log(f"Runbook step {i} ('{text}') was noted; no tool covers it here.")
    shift.trigger = "the operator's request"


async def _logs(shift: Shift, name: str, i: int, text: str, state: dict[str, object]) -> None:
    out = await shift.use(
        "logs_query",
        f"logs_query deployment={name}",
        f"(runbook step {i}) so that the error pattern was found",
        namespace=shift.ns,
        deployment=name,
        tail=200,
    )
    sig = signal_patterns(log_lines(out))
    state["errors"] = sig
    shift.log(
        f"Runbook step {i} ('{text}') was carried out: "
        + (
            "; ".join(f'"{m[:100]}" ({n}x)' for _, m, n in sig[:2])
            if sig
            else "no error pattern was found"
        )
        + "."
    )


async def _recent(shift: Shift, name: str, i: int, text: str, state: dict[str, object]) -> None:
    win = float((re.search(r"last (\d+) minutes?", text.lower()) or [None, "30"])[1])
    await shift.k(
        f"rollout history deployment/{name} -n {shift.ns}",
        f"(runbook step {i}) so that the revisions were listed",
    )
    rs = table(
        await shift.k(
            f"get rs -n {shift.ns} -l app={name} -o wide",
            f"(runbook step {i}) so that each revision's age was read",
        )
    )
    live = [r for r in rs if r.get("desired", "0") != "0"]
    newest = min(live, key=lambda r: age_minutes(r.get("age", "")) or 1e9) if live else None
    age = age_minutes(newest.get("age", "")) if newest else None
    recent = age is not None and age <= win
    state["recent"] = recent
    state["image"] = newest.get("images", "") if newest else ""
    old = [r for r in rs if r.get("desired", "0") == "0"]
    state["previous"] = old[0].get("images", "") if old else ""
    shift.log(
        f"Runbook step {i} ('{text}') was carried out: the current revision "
        f"{newest.get('name') if newest else '?'} ({state['image']}) was found {newest.get('age') if newest else '?'} old, "
        + ("inside" if recent else "outside")
        + f" the {win:.0f}-minute window"
        + (f"; the previous image was {state['previous']}." if state["previous"] else ".")
    )


async def _rollback(shift: Shift, name: str, i: int, text: str, state: dict[str, object]) -> None:
    if not state.get("recent"):
        shift.log(
            f"Runbook step {i} ('{text}') was skipped: its condition was not met by the actual "
            "state (no deployment in the window), so a rollback would not address the errors."
        )
        shift.hand(
            f"The errors of {name} are not explained by a recent deploy; further diagnosis is needed."
        )
        return
    if not shift.may_write:
        shift.hand(f"Approval is requested to roll {name} back to {state.get('previous')}.")
        return
    await shift.k(
        f"rollout undo deployment/{name} -n {shift.ns}",
        f"(runbook step {i}) so that the recent deploy was rolled back",
        delta=f"image {state.get('image')} -> {state.get('previous')}",
    )
    await shift.k(
        f"rollout status deployment/{name} -n {shift.ns} --timeout=60s",
        "so that the rollback was seen complete",
    )
    shift.log(
        f"Runbook step {i} ('{text}') was carried out: {name} was rolled back to {state.get('previous')}."
    )


async def _verify(shift: Shift, name: str, i: int, text: str) -> None:
    q = f'error_rate{{service="{name}"}}'
    out = await shift.use(
        "metrics_query",
        f"metrics_query query {q}",
        f"(runbook step {i}) so that the error rate was compared with its baseline",
        action="query_range",
        query=q,
        start="-30m",
    )
    base = await shift.use(
        "metrics_query",
        f'metrics_query query normal_error_rate{{service="{name}"}}',
        "so that the baseline was known",
        action="query",
        query=f'normal_error_rate{{service="{name}"}}',
    )
    vals = next((v for _, v in prom_series(out) if v), [])
    ref = next((v for _, v in prom_series(base) if v), [])
    pods = table(
        await shift.k(f"get pods -n {shift.ns} -l app={name}", "so that the pods were seen healthy")
    )
    now = f"{vals[-1] * 100:.2f}%" if vals else "unavailable"
    shift.log(
        f"Runbook step {i} ('{text}') was carried out: the error rate now reads {now}"
        + (f" against a baseline of {ref[-1] * 100:.2f}%" if ref else "")
        + f"; {len(pods)} pod(s) of {name} were found: "
        + ", ".join(f"{p.get('name')} {p.get('status')} {p.get('ready')}" for p in pods)
        + "."
    )
    shift.hand(
        f"The error rate of {name} should be re-checked in 5 minutes to confirm it stays at baseline."
    )
