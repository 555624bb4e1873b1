"""Keeping the runner token out of reach of the agent's processes (issue 11 H1; core §3.6).

A subprocess agent (``cli:``, ``mcp-stdio:``) runs as the runner's user and its parent is
the runner: it can read ``/proc/<ppid>/cmdline`` (``--provider-token T``), and
``/proc/<ppid>/environ`` still holds ``OASIS_PROVIDER_TOKEN`` after ``os.environ.pop``
(the kernel shows the block the process started with; unsetenv does not change it). With
the runner token an agent opens the provider's control API: it could tear down its own
environment (turning its FAIL into PROVIDER_FAILURE) or inject state. So once the token
is read:

- every copy of it in this process's original argument and environment blocks is
  overwritten in place (``/proc/self/mem``), so those two files no longer show it;
- the process is made non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``): another process of
  the same user (not root) can no longer open ``/proc/<pid>/environ`` or ``mem``.

Linux only, best effort (elsewhere nothing happens). A root agent can still read the
runner's memory, and any process of the same user can read a ``--token-file``: run
untrusted agents as another user (docs/agents.md, "A hostile agent").
"""

from __future__ import annotations

import contextlib
import ctypes
import sys

__all__ = ["hide_secret"]

PR_SET_DUMPABLE = 4
#: fields of /proc/self/stat (1-based, man 5 proc): arg_start, arg_end, env_start, env_end
_BLOCK_FIELDS = (48, 49, 50, 51)


def _blocks() -> list[tuple[int, int]]:
    with open("/proc/self/stat", encoding="ascii", errors="replace") as handle:
        stat = handle.read()
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ": field 3 first
    arg_start, arg_end, env_start, env_end = (int(fields[n - 3]) for n in _BLOCK_FIELDS)
    return [(arg_start, arg_end), (env_start, env_end)]


def _scrub(secret: bytes) -> int:
    """Overwrite ``secret`` wherever it appears in the argument and environment blocks."""
    done = 0
    with open("/proc/self/mem", "r+b", buffering=0) as mem:
        for start, end in _blocks():
            if not 0 < start < end:
                continue
            mem.seek(start)
            block = mem.read(end - start)
            if secret not in block:
                continue
            mem.seek(start)
            mem.write(block.replace(secret, b"*" * len(secret)))
            done += block.count(secret)
    return done


def hide_secret(secret: str) -> None:
    """Make ``secret`` (just read from argv, the environment or a file) unreadable to other
    processes of this user, as far as the platform allows (see the module docstring)."""
    if not sys.platform.startswith("linux") or len(secret) < 8:
        return
    with contextlib.suppress(OSError, ValueError, IndexError):
        _scrub(secret.encode())
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
