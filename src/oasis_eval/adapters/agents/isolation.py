"""A subprocess agent sees no process of the harness (issue 25; core §3.6: the agent gets
nothing of the harness).

An allow-listed environment (:mod:`.process`) and a scrubbed runner (:mod:`oasis_eval.secrecy`)
leave one way to a harness secret: ``/proc/<pid>/environ`` (and ``cmdline``, ``mem``, ``fd``)
of the processes that started ``oasis``, e.g. the CI step's shell holding ``OASIS_RUN_KEY``.
So the agent starts in its own PID namespace with a private ``/proc`` (util-linux
``unshare --pid --fork --mount-proc``): the only processes it can name are its own.

- The runner is root: ``unshare`` makes the namespaces, then ``setpriv`` drops every
  capability (bounding and inheritable sets), sets ``no_new_privs`` and, with
  ``--agent-user``, switches user: a capable agent could unmount its ``/proc`` and see the
  one below.
- Another user: ``unshare --user --map-current-user`` (unprivileged user namespaces); the agent
  keeps its uid, and loses at ``exec`` the capabilities the namespace gave.

The agent is the namespace's init (pid 1): when it exits, every process it left is killed
(a daemon cannot outlive it), a timeout's ``SIGKILL`` of its process group still ends it and
its children, and a signal it has no handler for (``SIGTERM``) is ignored by it, as by any
init, so the MCP SDK's SIGTERM becomes its SIGKILL two seconds later.

``isolation`` (the agent section's key, ``--agent-option isolation=...``): ``auto`` (the
default) isolates when this machine allows it, else the run carries a warning; ``required``
makes that a configuration error; ``off`` runs the agent without it (also warned).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MODES", "Isolation", "isolation_for"]

MODES = ("auto", "required", "off")
#: how long the one probe per process may take (a loaded machine)
_PROBE_SECONDS = 20.0

WHAT_IT_MEANS = (
    "a same-user agent can read /proc/<pid>/environ of the processes that started oasis "
    "(a shell or CI step holding OASIS_RUN_KEY or another harness secret) and outlive its "
    "scenario; run it as another user (--agent-user, docs/agents.md) or where unshare works"
)


@dataclass(frozen=True)
class Isolation:
    """How a subprocess agent's argv is wrapped; ``warning`` when it is not isolated."""

    mode: str = "off"
    #: the unshare command before setpriv's options, empty when not isolated
    unshare: tuple[str, ...] = ()
    setpriv: tuple[str, ...] = ()
    warning: str | None = None

    @property
    def active(self) -> bool:
        return bool(self.unshare)

    def wrap(self, argv: Sequence[str], user: tuple[int, int, tuple[int, ...]] | None) -> list[str]:
        """``argv`` started in the namespaces, as ``user`` (uid, gid, groups) when given."""
        drop: list[str] = []
        if user is not None:
            uid, gid, groups = user
            drop += [f"--reuid={uid}", f"--regid={gid}"]
            drop += [f"--groups={','.join(map(str, groups))}"] if groups else ["--clear-groups"]
        return [*self.unshare, "--", *self.setpriv, *drop, *self._caps(), "--", *argv]

    def _caps(self) -> list[str]:
        if os.geteuid() == 0:
            return ["--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"]
        return ["--no-new-privs"]


def isolation_for(mode: str) -> Isolation:
    """The isolation of ``mode`` on this machine (probed once per process)."""
    if mode == "off":
        return Isolation(
            "off",
            warning="the subprocess agent runs without a PID namespace (isolation: off): "
            + WHAT_IT_MEANS,
        )
    command, reason = _probe()
    if command is None:
        return Isolation(
            mode,
            warning=f"the subprocess agent runs without a PID namespace ({reason}): "
            + WHAT_IT_MEANS,
        )
    unshare, setpriv = command
    return Isolation(mode, unshare, setpriv)


def _commands() -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    unshare, setpriv = shutil.which("unshare"), shutil.which("setpriv")
    if unshare is None or setpriv is None:
        return "util-linux unshare and setpriv are not on PATH"
    spaces = ["--pid", "--fork", "--kill-child", "--mount-proc"]
    if os.geteuid() != 0:
        spaces = ["--user", "--map-current-user", *spaces]
    return (unshare, *spaces), (setpriv,)


@functools.lru_cache(maxsize=1)
def _probe() -> tuple[tuple[tuple[str, ...], tuple[str, ...]] | None, str]:
    """The commands when they work here (the probe is pid 1 and sees only itself), else why not."""
    found = _commands()
    if isinstance(found, str):
        return None, found
    sh = shutil.which("sh") or "/bin/sh"
    check = 'test "$$" = 1 && test ! -e /proc/2'
    probe = Isolation("auto", *found).wrap([sh, "-c", check], None)
    try:
        done = subprocess.run(
            probe, capture_output=True, text=True, timeout=_PROBE_SECONDS, check=False
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"unshare could not run: {exc}"
    if done.returncode != 0:
        said = " ".join(done.stderr.split())[:200] or f"exit status {done.returncode}"
        return None, f"unshare is refused here: {said}"
    return found, ""
