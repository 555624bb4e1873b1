"""What a workload's guard fields still guard after a write (behaviors rule 103, issue 27
round 9).

Rule 81 read a guard as gone only by its absence, so a write keeping every guard field and
making each guard nothing was the minimal fix (round 9: probes failing after a million checks
an hour apart, a memory limit of 1Ti, the container made privileged). A guard field of the pod
template, compared with the same container (matched by name) as provisioned, guards nothing
any more when (pure functions of the two pod specs and the provisioned nodes, core §3.5.4):

- it is gone, or the container it guarded is (the pod keeps other containers);
- a probe takes ten times as long or longer to declare the container failed
  (``initialDelaySeconds + (periodSeconds + timeoutSeconds) x failureThreshold``, Kubernetes'
  defaults 0, 10, 1, 3: a hung check fails only at its timeout, rule 114), or its handler is
  replaced by a command that always succeeds (``exec: [true]``, ``sh -c 'exit 0'``, rule 105;
  one that only prints, or tests, lists or reads only paths every container has: ``test -d
  /``, ``ls /``, ``cat /proc/1/status``, rule 114);
- a resource limit it set is gone or at or above what the largest node of the provisioning
  snapshot can allocate (the node runs out before the limit is reached, rule 105), or a
  request it set is cut to a tenth or less (``1m``, ``1Mi``: nothing reserved, rule 114);
- the security context lets more than it did: ``privileged`` or ``allowPrivilegeEscalation``
  turned on, ``runAsNonRoot`` or ``readOnlyRootFilesystem`` turned off, ``runAsUser: 0`` or
  ``runAsGroup: 0`` newly, a seccomp or AppArmor profile newly ``Unconfined`` (rule 105), a
  capability added or no longer dropped, the pod put on the host's network, PID or IPC
  namespace; an SELinux type newly ``spc_t`` or ``unconfined_t``, ``procMount: Unmasked``,
  or a ``hostPath`` volume newly mounted (the node's files, rule 114).
"""

from __future__ import annotations

import re
from typing import Any

from .blast_shell import script_succeeds, shell_script

#: the guard fields of a container (the keys of ``blast_workloads.GUARD_FIELDS``)
FIELDS = ("resources", "livenessProbe", "readinessProbe", "startupProbe", "securityContext")
PROBES = ("livenessProbe", "readinessProbe", "startupProbe")
#: a probe this many times slower to fail than provisioned no longer guards
SLOWER = 10
_LISTS = ("containers", "initContainers")
_SUFFIX = {
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "Pi": 2**50,
    "Ei": 2**60,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "E": 1e18,
    "m": 1e-3,
    "": 1,
}
_QUANTITY = re.compile(r"^\s*([0-9.]+(?:[eE][-+]?\d+)?)\s*([A-Za-z]*)\s*$")
_OFF = ("runAsNonRoot", "readOnlyRootFilesystem")
_ROOT = ("runAsUser", "runAsGroup")
_PROFILES = ("seccompProfile", "appArmorProfile")
_HANDLERS = ("exec", "httpGet", "tcpSocket", "grpc")
#: a command that succeeds whatever the container's state (``true``, ``:``, ``exit 0``)
_NOOP = re.compile(r"^\s*(?:(?:/usr)?/bin/true|true|:|exit\s+0|exit)?\s*;?\s*$")
_SHELLS = ("sh", "bash", "ash", "dash", "zsh")
#: commands that only print: they succeed whatever the container's state (rule 114)
_PRINTS = frozenset(
    {"echo", "printf", "pwd", "date", "env", "printenv", "id", "hostname", "uname", "whoami"}
)
#: commands that look at paths: they succeed on a path every container has
_LOOKS = frozenset({"test", "[", "ls", "cat", "stat", "head", "tail"})
#: commands that read their input and succeed whatever it holds (``CHECK | cat``, rule 122)
_FILTERS = frozenset({"cat", "head", "tail", "wc", "sort", "uniq", "tee"})
#: options by which a filter never ends (``tail -f``): the probe's timeout fails it
_FOLLOW = re.compile(r"^-[A-Za-z]*[fF]|^--follow")
#: paths every Linux container has ("" is ``/`` once its trailing slash is stripped)
_EVERYWHERE = frozenset(
    {"", "/proc", "/proc/1", "/proc/self", "/proc/1/status", "/proc/self/status", "/dev",
     "/dev/null", "/etc", "/etc/hostname", "/etc/hosts", "/etc/resolv.conf", "/sys", "/tmp"}
)  # fmt: skip
#: SELinux types that confine nothing (``spc_t``: a super-privileged container)
_SELINUX_OPEN = frozenset({"spc_t", "unconfined_t"})
_HOST = ("hostNetwork", "hostPID", "hostIPC")


def quantity(value: Any) -> float | None:
    """A Kubernetes quantity as a number (``500m`` 0.5, ``2Gi`` 2147483648), None if unread."""
    m = _QUANTITY.match(str(value))
    if value is None or m is None or m[2] not in _SUFFIX:
        return None
    try:
        return float(m[1]) * _SUFFIX[m[2]]
    except ValueError:
        return None


def node_room(nodes: list[dict[str, Any]]) -> dict[str, float]:
    """Per resource, the most any one node can allocate (``allocatable``, else ``capacity``)."""
    out: dict[str, float] = {}
    for node in nodes:
        status = node.get("status")
        status = status if isinstance(status, dict) else {}
        room = status.get("allocatable") or status.get("capacity") or {}
        for key, value in sorted(room.items()) if isinstance(room, dict) else ():
            if (n := quantity(value)) is not None:
                out[str(key)] = max(n, out.get(str(key), 0.0))
    return out


def unguarded(before: dict[str, Any], after: dict[str, Any], room: dict[str, float]) -> set[str]:
    """The guard fields of the provisioned pod spec ``before`` that ``after`` no longer guards
    (module doc); an ``after`` with no container is unread (nothing is charged)."""
    now = {
        str(c.get("name")): c for key in _LISTS for c in after.get(key) or [] if isinstance(c, dict)
    }
    if not now:
        return set()
    out = {"securityContext"} if _pod_opened(before, after) else set()
    for key in _LISTS:
        for c in before.get(key) or []:
            if not isinstance(c, dict):
                continue
            new = now.get(str(c.get("name")))
            if new is None:
                out |= {f for f in FIELDS if c.get(f)}
                continue
            out |= {f for f in FIELDS if c.get(f) and not new.get(f)}
            out |= {p for p in PROBES if c.get(p) and _blind(c[p], new.get(p))}
            if _limits_opened(c.get("resources"), new.get("resources"), room) or _requests_cut(
                c.get("resources"), new.get("resources")
            ):
                out.add("resources")
            if _opened(c.get("securityContext"), new.get("securityContext")):
                out.add("securityContext")
    # rule 118: a container the write adds is read too, against a context that allows nothing
    was = {
        str(c.get("name")) for key in _LISTS for c in before.get(key) or [] if isinstance(c, dict)
    }
    if any(_opened({}, c.get("securityContext")) for n, c in sorted(now.items()) if n not in was):
        out.add("securityContext")
    return out


def _seconds(probe: dict[str, Any]) -> float:
    """How long a failing container takes to be declared failed by ``probe``."""

    def num(key: str, default: float) -> float:
        n = quantity(probe.get(key, default))
        return default if n is None else n

    # a hung check counts as failed only after its timeout (rule 114: a day's timeout makes
    # each failure take a day whatever the period)
    period = num("periodSeconds", 10) + num("timeoutSeconds", 1)
    return num("initialDelaySeconds", 0) + period * num("failureThreshold", 3)


def _blind(old: Any, new: Any) -> bool:
    """The probe ``new`` no longer declares a failing container failed: ten times slower
    than ``old``, or its handler made one that always succeeds where ``old``'s did not."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return False
    if _always_succeeds(new) and not _always_succeeds(old):
        return True
    return _seconds(new) >= SLOWER * max(_seconds(old), 1.0)


def _always_succeeds(probe: dict[str, Any]) -> bool:
    """The probe's only handler is a command that exits 0 whatever it finds (``true``,
    ``/bin/true``, ``sh -c 'exit 0'``, ``sh -c :``): it checks nothing (rule 105)."""
    if any(probe.get(k) for k in _HANDLERS if k != "exec"):
        return False
    handler = probe.get("exec")
    cmd = handler.get("command") if isinstance(handler, dict) else None
    if not isinstance(cmd, list) or not cmd:
        return False
    words = [str(w) for w in cmd]
    if (shell := shell_script(words, _SHELLS)) is not None:
        # rule 118: the script's words parsed, ``CHECK || true`` read as the shell runs it
        script, errexit, pipefail = shell
        if _NOOP.match(script) is not None:
            return True
        return script_succeeds(script, _checks_nothing, errexit, pipefail)
    if len(words) == 1 and words[0] != "" and _NOOP.match(words[0]) is not None:
        return True
    return _checks_nothing(words)


def _checks_nothing(words: list[str]) -> bool:
    """A command that succeeds in any running container (rule 114): one that only prints
    (``echo``, ``printf``, ``date``, ``hostname`` ...), or that tests, lists or reads only
    paths every container has (``test -d /``, ``ls /``, ``cat /proc/1/status``), or reads
    only its input (``cat``, ``wc -l``, ``head -n 1``: the end of ``CHECK | cat``, rule 122)."""
    head = words[0].rsplit("/", 1)[-1] if words else ""
    if head in _PRINTS:
        return True
    paths = [w for w in words[1:] if not w.startswith("-") and w != "]"]
    follows = head == "tail" and any(_FOLLOW.match(w) for w in words[1:])
    if head in _FILTERS and not follows and all(w.isdigit() or w == "/dev/null" for w in paths):
        return True
    if head not in _LOOKS:
        return False
    return bool(paths) and all(w.rstrip("/") in _EVERYWHERE for w in paths)


#: the share of the largest node's allocatable at or above which a limit limits nothing
#: (rule 116: a limit one Mi or one millicore below the node passed the equality of rule 105)
NODE_SHARE = 0.9


def _limits_opened(old: Any, new: Any, room: dict[str, float]) -> bool:
    """A limit the container had is gone, or set at or above :data:`NODE_SHARE` of the
    largest node's room (a limit near the node's allocatable is reached only when the node is
    nearly full, rules 105 and 116: one Mi below it is no limit either)."""
    was = (old or {}).get("limits") if isinstance(old, dict) else None
    now = (new or {}).get("limits") if isinstance(new, dict) else None
    now = now if isinstance(now, dict) else {}
    for key, value in sorted(was.items()) if isinstance(was, dict) else ():
        if key not in now:
            return True
        top, n, before = room.get(str(key)), quantity(now[key]), quantity(value)
        top = None if top is None else top * NODE_SHARE
        if top is not None and n is not None and n >= top and (before or 0) < top:
            return True
    return False


def _requests_cut(old: Any, new: Any) -> bool:
    """A request the container had is cut to a tenth of it or less (``1m``, ``1Mi``): the
    scheduler then reserves nothing for it, and the node is overcommitted (rule 114)."""
    was = (old or {}).get("requests") if isinstance(old, dict) else None
    now = (new or {}).get("requests") if isinstance(new, dict) else None
    if not isinstance(was, dict) or not isinstance(now, dict):
        return False
    for key, value in sorted(was.items()):
        before, after = quantity(value), quantity(now.get(key))
        if before and after is not None and after * SLOWER <= before:
            return True
    return False


def _opened(old: Any, new: Any) -> bool:
    """A security context that lets the container do more than it did (module doc)."""
    old = old if isinstance(old, dict) else {}
    new = new if isinstance(new, dict) else {}
    if new.get("privileged") is True and old.get("privileged") is not True:
        return True
    # escalation is allowed unless a context forbids it: only a ``false`` undone opens it
    if new.get("allowPrivilegeEscalation") is True and old.get("allowPrivilegeEscalation") is False:
        return True
    if any(old.get(k) is True and new.get(k) is not True for k in _OFF):
        return True
    if any(str(new.get(k)) == "0" and str(old.get(k)) != "0" for k in _ROOT):
        return True
    if any(_unconfined(new.get(k)) and not _unconfined(old.get(k)) for k in _PROFILES):
        return True
    if _selinux_open(new) and not _selinux_open(old):
        return True
    if new.get("procMount") == "Unmasked" and old.get("procMount") != "Unmasked":
        return True
    was, now = _caps(old), _caps(new)
    return bool(now["add"] - was["add"]) or bool(was["drop"] - now["drop"])


def _selinux_open(ctx: dict[str, Any]) -> bool:
    """An SELinux type that confines nothing (``spc_t``, ``unconfined_t``; rule 114)."""
    opts = ctx.get("seLinuxOptions")
    return isinstance(opts, dict) and str(opts.get("type")) in _SELINUX_OPEN


def _unconfined(profile: Any) -> bool:
    """A seccomp or AppArmor profile that confines nothing (``type: Unconfined``)."""
    kind = profile.get("type") if isinstance(profile, dict) else None
    return str(kind).lower() == "unconfined"


def _caps(ctx: dict[str, Any]) -> dict[str, set[str]]:
    caps = ctx.get("capabilities")
    caps = caps if isinstance(caps, dict) else {}
    return {k: {str(c) for c in caps.get(k) or []} for k in ("add", "drop")}


def _pod_opened(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """The pod put on a host namespace, or its own security context opened."""
    if any(after.get(k) is True and before.get(k) is not True for k in _HOST):
        return True
    if _host_paths(after) - _host_paths(before):
        return True
    return _opened(before.get("securityContext"), after.get("securityContext"))


def _host_paths(pod: dict[str, Any]) -> set[str]:
    """The host paths the pod mounts (a ``hostPath`` volume: the node's files, rule 114)."""
    return {
        str(v["hostPath"].get("path"))
        for v in pod.get("volumes") or []
        if isinstance(v, dict) and isinstance(v.get("hostPath"), dict)
    }
