"""``heldout19``'s diagnosis (written blind): one cause when the reads back it, the chain when
there is one, the misleading signal named as such, else "not sure" with candidates."""

from __future__ import annotations

import re

from .operator_heldout19 import Shift
from .operator_heldout19_read2 import dashboard_lines, health_lines, memory_headroom


def _logs(shift: Shift) -> list[tuple[str, str, str, int]]:
    return [(n, c, m, cnt) for (n, c, m), (_, cnt) in sorted(shift.data.get("logs", {}).items())]


def diagnose(shift: Shift) -> None:
    """Fill ``causes`` / ``unsure`` from what was read; nothing here is from the prompt alone."""
    for key, cm in sorted(shift.data.get("missing_keys", set())):
        have = ",".join(sorted(shift.data.get("cms", {}).get(cm, {}))) or "none"
        shift.causes.append(
            f"cm/{cm} has no key {key} (has: {have}) -> container can't start -> CrashLoopBackOff"
        )
    _oom(shift)
    _init(shift)
    _pool(shift)
    _tls(shift)
    _trace(shift)
    _deploy_timing(shift)
    _np(shift)
    _migration(shift)
    _pending(shift)
    _transient(shift)
    memory_headroom(shift)
    dashboard_lines(shift)
    if any(w in shift.low for w in ("health", "how is", "doing")):
        health_lines(shift)


def diagnostic(shift: Shift) -> bool:
    """The ask is about a problem (not a plain change)."""
    return (
        re.search(
            r"diagnos|investigat|wrong|issue|failing|slow|crash|error|\b50\d\b|broken|degraded|dropping",
            shift.low,
        )
        is not None
    )


def _oom(shift: Shift) -> None:
    for name, (container, limit, _request) in sorted(shift.data.get("oom", {}).items()):
        mem = shift.data.get("series", {}).get(name, {})
        rising = [m for m, v in mem.items() if "mem" in m and len(v) > 2 and v[-1] > v[0]]
        growth = f"; {rising[0]} climbing" if rising else ""
        shift.causes.append(
            f"{name}/{container} OOMKilled: mem hits limit={limit}{growth} -> restarts"
        )
    if shift.data.get("oom") and "cpu" in shift.low:
        hog = shift.data.get("cpu_hog")
        who = f" ({hog[0]} cpu={hog[1]} on {hog[2] or '?'})" if hog else ""
        shift.notes.append(
            f"cpu: no, not the problem. pegged node cpu = noisy neighbor{who}, misleading; "
            "cpu contention throttles, doesn't kill. restarts are OOMKilled (exit 137) -> memory"
        )


def _init(shift: Shift) -> None:
    """A failing init container; the chain up to the ingress when the reads show one."""
    for name, container, msg, _ in _logs(shift):
        if not container:
            continue
        hops = []
        for ing, svc, port, ep in shift.data.get("backends", []):
            if svc == name:
                hops.append(f"ingress/{ing} 503")
                for who, body in shift.data.get("proxy_logs", [])[:1]:
                    hops.append(f"{who} '{body[:60]}'")
                hops.append(f"svc/{svc}:{port} endpoints={ep}")
        hops.append(f"{name} pods never ready (Init)")
        hops.append(f"init {container}: '{msg[:100]}'")
        shift.notes.append("chain: " + " -> ".join(hops))
        shift.causes.append(
            f"init container {container} of {name} fails ({msg[:90]}) -> pods never start -> no endpoints -> 503; rest is fallout"
        )
        return


def _pool(shift: Shift) -> None:
    """Pool exhaustion in the logs, tied to the latency numbers and the slow db span."""
    hits = [
        (n, m)
        for n, _, m, _ in _logs(shift)
        if re.search(r"pool (exhausted|error)|get a connection", m, re.I)
    ]
    if not hits:
        return
    name = hits[0][0]
    seen = [f"logs: {len(hits)} pool lines"]
    series = shift.data.get("series", {}).get(name, {})
    p99 = next(
        (v[-1] for k, v in sorted(series.items()) if "p99" in k and "normal" not in k and v), None
    )
    base = next(
        (v[-1] for k, v in sorted(series.items()) if "p99" in k and "normal" in k and v), None
    )
    if p99 is not None:
        seen.append(f"metrics: p99={p99:g}ms" + (f" vs normal {base:g}ms" if base else ""))
    trace = shift.data.get("trace")
    if trace and trace[2] is not None:
        seen.append(
            f"trace: db span {trace[2].ms:g}ms of {trace[1][0].ms:g}ms {trace[2].attrs}".strip()
        )
    shift.notes.append("signals line up: " + " + ".join(seen) + " -> one cause")
    shift.causes.append(
        f"{name}: db connection pool exhausted (all conns busy) -> requests queue for a conn -> p99 up, timeouts"
    )


def _tls(shift: Shift) -> None:
    for name, _, msg, n in _logs(shift):
        if "certificate" in msg.lower() or "tls" in msg.lower():
            noise = shift.data.get("noise", {}).get(name)
            extra = (
                f"; {noise[0]}/{noise[1]} lines noise (health checks, debug/trace) dropped"
                if noise
                else ""
            )
            shift.causes.append(
                f"{name}: '{msg[:120]}' x{n} -> upstream cert expired -> those requests fail{extra}"
            )
            return


def _trace(shift: Shift) -> None:
    found = shift.data.get("trace")
    if not found:
        return
    trace_id, path, slow = found
    hops = " -> ".join(f"{s.service}:{s.operation} {s.ms:g}ms" for s in path)
    shift.facts.append(f"trace {trace_id}: {hops}")
    if slow is None:
        return
    text = f"{slow.operation} {slow.attrs}"
    db = "db" in slow.operation.lower() or "select" in text.lower()
    share = f", {100 * slow.ms / path[0].ms:.0f}% of the request" if path and path[0].ms else ""
    services = " -> ".join(dict.fromkeys(s.service for s in path))
    shift.causes.append(
        f"bottleneck: {slow.service} span '{slow.operation}' {slow.ms:g}ms{share} (path {services})"
    )
    m = re.search(r"from\s+(\w+)\s+where\s+(\w+)\s*=", text, re.I)
    if db and m:
        shift.causes.append(
            f"-> point lookup on {m.group(1)}.{m.group(2)} taking {slow.ms / 1000:g}s = seq scan, "
            f"missing index on {m.group(2)}"
        )
        shift.fixes.append(
            f"suggested, not applied: CREATE INDEX CONCURRENTLY ON {m.group(1)} ({m.group(2)}); "
            "confirm w/ EXPLAIN first"
        )
    elif db and re.search(r"pool", slow.attrs, re.I):
        pool = re.findall(r"db\.pool\.(\w+)=(\d+)", slow.attrs)
        shown = " ".join(f"{k}={v}" for k, v in pool)
        shift.causes.append(f"-> span waits on the pool ({shown}), not the query itself")
    elif db:
        shift.causes.append(
            "-> db query dominates; likely missing index / full scan, check EXPLAIN"
        )


def _deploy_timing(shift: Shift) -> None:
    """A rollout shortly before the errors started: name both times and the image change."""
    for name, (old_rev, old_img, new_rev, new_img) in sorted(shift.data.get("rollout", {}).items()):
        age = shift.data.get("deploy_age", {}).get(name, "?")
        onsets = shift.data.get("onset", {}).get(name, {})
        err = next(((m, v) for m, v in sorted(onsets.items()) if "error" in m), None)
        when = f", {err[0]} up from ~{err[1]:g}m ago (sampled)" if err else ""
        shift.causes.append(
            f"{name}: deploy {old_img} -> {new_img} {age} ago (rev {old_rev}->{new_rev}){when} "
            "-> errors start with the new image; prior image was clean"
        )


def _np(shift: Shift) -> None:
    for np in shift.data.get("nps", []):
        spec = np.get("spec") or {}
        target = (spec.get("podSelector") or {}).get("matchLabels") or {}
        allowed = [
            (src.get("podSelector") or {}).get("matchLabels") or {}
            for rule in spec.get("ingress") or []
            for src in (rule or {}).get("from") or []
        ]
        name = (np.get("metadata") or {}).get("name", "?")
        app = target.get("app", "")
        named = shift.named(sorted(shift.data.get("deploys", {})))
        if app not in named:
            continue
        clients = [d for d in named if d != app]
        blocked = [c for c in clients if all(a.get("app") != c for a in allowed)]
        if app and blocked:
            shift.data["np_block"] = (name, app, blocked)
            only = (
                ", ".join(",".join(f"{k}={v}" for k, v in sorted(a.items())) for a in allowed)
                or "nothing"
            )
            shift.causes.append(
                f"np/{name} selects app={app}, ingress only from {only} -> app={blocked[0]} -> {app} dropped"
            )


def _migration(shift: Shift) -> None:
    text = shift.data.get("migrations", "")
    if not text or "migration" not in shift.low:
        return
    cols = [m for _, _, m, _ in _logs(shift) if "does not exist" in m or "column" in m.lower()]
    shift.data["migration_issue"] = True
    rows = [
        [c.strip() for c in ln.strip().strip("|").split("|")]
        for ln in text.splitlines()
        if re.search(r"\|\s*\d+\s*\|", ln)
    ]
    last = " ".join(rows[-1][1:3]) if rows and len(rows[-1]) > 2 else "?"
    shift.causes.append(
        f"migration {last} applied; {next(iter(shift.data.get('focus', [])), 'app')} errors since"
        + (f": '{cols[0][:100]}'" if cols else "")
        + " -> app and schema out of step"
    )


def _pending(shift: Shift) -> None:
    msg = shift.data.get("unschedulable")
    if msg:
        shift.causes.append(
            f"pods Pending: scheduler says '{msg[:120]}' -> requests don't fit free node cpu"
        )


def _transient(shift: Shift) -> None:
    for name, _, msg, n in _logs(shift):
        if "transient" in msg.lower() or "refused" in msg.lower():
            if not shift.causes:
                shift.data["transient"] = f"'{msg[:80]}' x{n}, dependency blip"
                shift.causes.append(
                    f"{name}: crashes on '{msg[:100]}' -> dependency blip, restarts piled into backoff"
                )
            return


def unsure(shift: Shift) -> None:
    """No single cause backed by the reads: say so, list candidates and what would settle it."""
    cands = []
    for name, _, msg, n in _logs(shift)[:4]:
        cands.append(f"'{msg[:70]}' x{n} ({name})")
    cands += [f[:110] for f in shift.facts if ": event " in f][:2]
    shift.unsure.append(
        "not sure; candidates: "
        + (" ; ".join(cands) or "nothing conclusive in logs/metrics")
        + " ; need: "
        + (
            "upstream/lb side logs, reset timing vs backend restarts, idle/keepalive timeouts"
            if "reset" in " ".join(cands)
            else "app-side logs/owner context"
        )
    )
