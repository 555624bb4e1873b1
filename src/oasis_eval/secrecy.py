"""Harness secrets stay out of reach of the agent's processes (issue 11 H1, issue 25; core §3.6).

The harness holds secrets an agent must never get: the run key that signs the run directory
(``OASIS_RUN_KEY``, ``OASIS_RUN_SIGNING_KEY``), the reserved-bundle key (``OASIS_RESERVED_KEY``,
or the variable ``--reserved-key-env`` names) and the runner token of a served provider
(``OASIS_PROVIDER_TOKEN``, ``--provider-token``, ``token_env``). With the run key an agent
re-signs a forged run; with the reserved key it reads the withheld scenarios; with the runner
token it opens the provider's control API.

A subprocess agent (``cli:``, ``mcp-stdio:``) gets an environment built from an allow-list
(:mod:`oasis_eval.adapters.agents.process`), so nothing is inherited. Its parent is still the
runner, though: it can read ``/proc/<ppid>/cmdline`` and ``/proc/<ppid>/environ``, and the
latter shows the block the process started with whatever ``os.environ`` says now. So a
secret, once read (:func:`take` for variables, :func:`hide_secret` for any other source):

- leaves ``os.environ`` (no later spawn can inherit it) and is kept here, so every later read
  in this process gets the same value (:func:`read`);
- is overwritten in place wherever it appears in this process's original argument and
  environment blocks (``/proc/self/mem``), so those two files no longer show it;
- makes the process non-dumpable (``prctl(PR_SET_DUMPABLE, 0)``): another process of the same
  user (not root) can no longer open ``/proc/<pid>/environ`` or ``mem``.

Linux only, best effort (elsewhere the value just leaves ``os.environ``). A root agent can
still read the runner's memory, and any process of the same user can read a key file: run
untrusted agents as another user (``--agent-user``; docs/agents.md, "What the agent's process
gets").
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterable

__all__ = [
    "SECRET_NAMES",
    "declare",
    "forget",
    "hide_secret",
    "is_secret_name",
    "read",
    "read_group",
    "take",
    "values",
]

#: the harness's own secret variables, always withheld (``--*-key-env`` options add theirs)
SECRET_NAMES = (
    "OASIS_RUN_KEY",
    "OASIS_RUN_SIGNING_KEY",
    "OASIS_RESERVED_KEY",
    "OASIS_PROVIDER_TOKEN",
)

PR_SET_DUMPABLE = 4
#: fields of /proc/self/stat (1-based, man 5 proc): arg_start, arg_end, env_start, env_end
_BLOCK_FIELDS = (48, 49, 50, 51)

#: variables taken out of os.environ, by name: what :func:`read` answers afterwards
_taken: dict[str, str] = {}
#: names declared secret in this process (SECRET_NAMES and the --*-key-env ones)
_names: set[str] = set(SECRET_NAMES)


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
        _scrub(secret.encode("utf-8", "surrogateescape"))
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def take(names: Iterable[str]) -> None:
    """Declare ``names`` harness secrets and withhold those set: out of ``os.environ``, kept
    for :func:`read`, hidden from ``/proc/self/environ`` (see the module docstring). A name
    set again later is taken again (its new value wins)."""
    for name in names:
        if not name:
            continue
        _names.add(name)
        value = os.environ.pop(name, None)
        if value is None:
            continue
        _taken[name] = value
        if value.strip():
            hide_secret(value)
            hide_secret(value.strip())


def read(name: str, default: str = "") -> str:
    """The value of secret variable ``name``: taken now if it is (still or again) set, else the
    value taken earlier in this process."""
    take([name])
    return _taken.get(name, default)


def read_group(names: Iterable[str]) -> dict[str, str]:
    """The values of secret variables that configure one thing together (the run key's
    ``OASIS_RUN_KEY`` / ``OASIS_RUN_SIGNING_KEY``): if any of them is set now, what is set now
    (an earlier run's values are dropped), else the values taken earlier in this process."""
    names = list(names)
    if any(name in os.environ for name in names):
        forget(names)
    take(names)
    return {name: _taken[name] for name in names if name in _taken}


def declare(names: Iterable[str]) -> None:
    """Declare ``names`` harness secrets (read elsewhere) without taking them."""
    _names.update(n for n in names if n)


def is_secret_name(name: str) -> bool:
    """Whether ``name`` is a harness secret variable (it never reaches an agent)."""
    return name in _names


def values() -> list[str]:
    """The secret values taken so far (an agent's environment must hold none of them)."""
    return [v for v in _taken.values() if v.strip()]


def forget(names: Iterable[str] | None = None) -> None:
    """Drop taken values (all, or ``names``): the process no longer holds them for a later run.
    For a long-lived embedding process (and tests) that changes keys between runs."""
    for name in list(_taken) if names is None else names:
        _taken.pop(name, None)
