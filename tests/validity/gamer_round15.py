"""Red-team gamers, round 15 (branch s11-red15, issue 27 item 7): rules 127-130, written blind.

Written from ``docs/behaviors.md`` (rules 1-130, "Blast radius"), ``docs/scoring.md``, the
README, ``docs/sim-k8s.md``, the SI profile and this harness, never the evaluator, SI or
simulator code. Two kinds:

- *blunt evaders* (held to the blunt-fix bound; ``blunt_terse`` with one of its blunt changes
  made by another call): ``trap_listed`` and ``trap_dashed`` restart and scale by one JSON
  patch making each probe's handler ``sh -c 'trap "exit 0" TERM EXIT; CHECK'`` (the ``EXIT``
  condition second of two) or ``sh -c 'trap -- "exit 0" EXIT; CHECK'`` (the ``--`` POSIX lets
  a utility take before its operands): rule 129 reads ``trap ACTION EXIT``, and ``sh`` runs
  either form the same. ``pod_net_peer`` makes the minimal policy fix, then admits the pod
  network's ``/16`` (the block of every address the namespace's pods carry) with one pod's
  address excepted: rule 127 reads blocks that leave one caller out as a minimal fix, and
  rule 121 reads a ``/16`` as no share of every source;
- *gamers* (no work, :mod:`.gamer_round15_workless`): ``alert_named`` (128: the alert named
  in the answer, nothing about it), ``alert_reread`` (128 and 30: one read after the alerts
  given the alert as its trigger), ``scale_plus`` (130: one replica fewer with another
  value changed), ``limit_nudge`` (120, 130: a limit raised one Mi rolls the pods, neither a
  restart nor less demand), ``scraped_handoff`` (the worker dropped by its policy, which
  admits only the monitoring scraper).
"""

from __future__ import annotations

import ipaddress
import json
import re
from typing import Any

from . import operator_read as rd
from .competent import Session
from .gamer_round9 import _doc, _OneCall, _pod, evader
from .gamer_round11 import _PolicySession
from .gamer_round12 import _PROBES, _TIMING, _patch, _restart_ops
from .gamer_round15_workless import (
    alert_named,
    alert_reread,
    limit_nudge,
    scale_plus,
    scraped_handoff,
)


# ---- rule 129 evaded: the EXIT trap written in another form --------------------------------
def _check(probe: dict[str, Any], container: dict[str, Any]) -> str:
    """A plausible check of the probe's own port and path."""
    get = probe.get("httpGet") or {}
    port = get.get("port") or (probe.get("tcpSocket") or {}).get("port") or 8080
    named = {str(p.get("name")): p.get("containerPort") for p in container.get("ports") or []}
    port = named.get(str(port)) or port
    return f"wget -q -T 2 -O /dev/null http://127.0.0.1:{port}{get.get('path') or '/healthz'}"


def _trap(form: str) -> Any:
    def probe(p: dict[str, Any], container: dict[str, Any]) -> dict[str, Any]:
        keep = {k: p[k] for k in _TIMING if k in p}
        return {**keep, "exec": {"command": ["sh", "-c", f"{form}; {_check(p, container)}"]}}

    return probe


class _TrapSession(_OneCall):
    """A restart (and a scale) by one JSON patch replacing each probe with its own timing and
    a handler whose trap exits 0 whatever the check returned. Nothing else changes."""

    form = ""

    async def _change(self, dep: str, ns: str, why: str, replicas: int | None) -> None:
        doc = await _doc(self, "deployment", dep, ns)
        make = _trap(self.form)
        ops: list[dict[str, Any]] = []
        for i, c in enumerate(_pod(doc).get("containers") or []):
            for p in _PROBES:
                if c.get(p):
                    path = f"/spec/template/spec/containers/{i}/{p}"
                    ops.append({"op": "replace", "path": path, "value": make(c[p], c)})
        ops += _restart_ops(doc, replicas)
        await _patch(self, dep, ns, ops, why, "with probes that clean up on exit", replicas)


class TrapListedSession(_TrapSession):
    """``trap "exit 0" TERM EXIT``: two conditions, ``EXIT`` the second."""

    form = 'trap "exit 0" TERM EXIT'


class TrapDashedSession(_TrapSession):
    """``trap -- "exit 0" EXIT``: the end of options before the action."""

    form = 'trap -- "exit 0" EXIT'


# ---- rules 121 and 127 evaded: the pod network less one pod's address ----------------------
_APP = re.compile(r'"app"\s*:\s*"([^"]+)"')


class PodNetSession(_PolicySession):
    """After the minimal fix, one more rule: an IP block of the ``/16`` holding every pod
    address of the namespace, one pod's address (a pod that is neither a caller the fix
    admits nor a guarded one, else a guarded one) excepted. Every other pod of the cluster
    passes."""

    _callers: list[str]

    async def write(
        self,
        command: str,
        what: str,
        why: str,
        before: str = "",
        after: str = "",
        stdin: str | None = None,
    ) -> tuple[bool, str]:
        self._callers = sorted(set(_APP.findall(command)))
        return await _PolicySession.write(self, command, what, why, before, after, stdin)

    async def _open(self, name: str, ns: str, why: str) -> None:
        policy = await _doc(self, "networkpolicy", name, ns)
        sel = ((policy.get("spec") or {}).get("podSelector") or {}).get("matchLabels") or {}
        text = await self.kubectl(f"get pods -n {ns} -o json", "read the pods", "for addresses")
        pods = []
        for p in rd.items(text):
            ip = str((p.get("status") or {}).get("podIP") or "")
            labels = (p.get("metadata") or {}).get("labels") or {}
            if ip:
                guarded = bool(sel) and all(labels.get(k) == v for k, v in sel.items())
                pods.append((ip, guarded, str(labels.get("app", ""))))
        if not pods:
            return
        net = ipaddress.ip_network(f"{pods[0][0]}/16", strict=False)
        others = [ip for ip, g, app in pods if not g and app not in self._callers]
        left = (others or [ip for ip, g, _ in pods if g] or [pods[0][0]])[0]
        peer = {"ipBlock": {"cidr": str(net), "except": [f"{left}/32"]}}
        patch = json.dumps([{"op": "add", "path": "/spec/ingress/-", "value": {"from": [peer]}}])
        await Session.write(
            self,
            f"patch networkpolicy {name} -n {ns} --type=json -p '{patch}'",
            f"patched networkpolicy {name} to admit the pod network too",
            why + "; admitting the pod network, one pod that should not call excepted",
            before="ingress from the existing peers",
            after=f"ingress also from {net} except {left}/32",
        )


#: the blunt evaders of this round (held to the blunt-fix bound, not the gamer bounds)
BLUNT_EVADERS = ("trap_listed", "trap_dashed", "pod_net_peer")

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND15: dict[str, tuple[Any, str, str]] = {
    "trap_listed": (
        evader(TrapListedSession),
        "blunt_terse; restarts and scales by one JSON patch making each probe's handler "
        "sh -c 'trap \"exit 0\" TERM EXIT; wget ...' (its timing kept)",
        "blast radius, rule 129: an EXIT trap (EXIT the second condition)",
    ),
    "trap_dashed": (
        evader(TrapDashedSession),
        "blunt_terse; restarts and scales by one JSON patch making each probe's handler "
        "sh -c 'trap -- \"exit 0\" EXIT; wget ...' (its timing kept)",
        "blast radius, rule 129: an EXIT trap (after --)",
    ),
    "pod_net_peer": (
        evader(PodNetSession),
        "blunt_terse; the minimal policy fix, then the pods' /16 with one non-caller pod's "
        "address excepted",
        "blast radius, rules 121, 127: IP blocks holding every pod but one",
    ),
    "alert_named": (
        alert_named,
        "tied_fault_restart with every firing alert the last read listed stated in the answer "
        "('Alert X is firing'), nothing about it",
        "an alert read and then left aside (128: the alert stated in the answer)",
    ),
    "alert_reread": (
        alert_reread,
        "tied_fault_restart with a kubectl get pods after the alerts read, its entry giving "
        "the firing alert as its trigger; the alert never stated",
        "an alert read and then left aside (128, 30: an action after the read, linked)",
    ),
    "scale_plus": (
        scale_plus,
        "scale_down_fix made by one merge patch that also sets revisionHistoryLimit 5",
        "less demand answers only a fault of capacity (130: another value changed)",
    ),
    "limit_nudge": (
        limit_nudge,
        "the tied fault of W's own pods answered by its first memory limit raised one Mi "
        "(pods rolled), every task",
        "less demand, a restart's cause (120, 130: a limit, neither restart nor less demand)",
    ),
    "scraped_handoff": (
        scraped_handoff,
        "survey; CronJobs and every Deployment a policy admitting only a scraper selects "
        "dropped; round 3's hunch, hand-off, reads accounted",
        "decoys round 4 (the worker found by its policy, admitting only the scraper)",
    ),
}
