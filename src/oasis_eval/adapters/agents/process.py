"""What a subprocess agent (``cli:``, ``mcp-stdio:``) gets: an explicit environment, never the
runner's (issue 25 item 1, issue 28; core §3.6: the agent gets nothing of the harness).

The environment is built from an allow-list, nothing is inherited:

- ``PATH``, ``HOME``, ``LANG``, ``TZ`` from the runner's environment (``HOME`` is the agent
  user's home under ``--agent-user``);
- the names given with ``--agent-env NAME`` (the agent section's ``pass_env``), with their
  values in the runner's environment, and the agent section's explicit ``env`` values;
- the scenario's hand-off (:func:`handoff_env`): the agent's own credentials as tools expect
  them (``KUBECONFIG`` pointing at a file written for this scenario, ``OASIS_MCP_URL``, ...).

A harness secret (:mod:`oasis_eval.secrecy`: the run keys, the reserved-bundle key, the
provider token, any variable a ``--*-key-env`` option names) can be neither named nor passed:
asking for one is a configuration error, before anything runs.

The agent starts in its own PID namespace with a private ``/proc`` where the machine allows
it (:mod:`.isolation`: it sees no process of the harness nor of whoever started ``oasis``).
``--agent-user USER`` (runner is root) starts the agent's process as that user: ``setpriv`` in
the namespace, else a tiny launcher that drops the groups, group and user before ``exec`` (the
same for ``cli:`` and for ``mcp-stdio:``, whose process the MCP SDK starts). The per-scenario
files are the agent user's, mode 0600 in a 0700 directory, removed when the call ends.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import secrecy
from ...contract import AgentTask, ProviderFault
from ._config import AgentConfigError
from .isolation import MODES, Isolation, isolation_for

__all__ = [
    "BASE_NAMES",
    "HANDOFF_NAMES",
    "AgentProcess",
    "AgentUser",
    "findable",
    "handoff_env",
    "scenario_files",
    "task_text",
]

#: taken from the runner's environment for every subprocess agent
BASE_NAMES = ("PATH", "HOME", "LANG", "TZ")
#: agent_credentials keys and the variables they become (docs/agents.md, "The hand-off")
HANDOFF_NAMES = {
    "mcp_endpoint": "OASIS_MCP_URL",
    "prometheus_url": "OASIS_PROMETHEUS_URL",
    "grafana_url": "OASIS_GRAFANA_URL",
    "tempo_url": "OASIS_TEMPO_URL",
    "token": "OASIS_AGENT_TOKEN",
    "namespace": "OASIS_NAMESPACE",
}
#: any other string credential ``key`` becomes ``OASIS_CREDENTIAL_<KEY>``
CREDENTIAL_PREFIX = "OASIS_CREDENTIAL_"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: runs as root, drops to the agent user, then becomes the agent (argv: uid gid groups -- cmd...)
_LAUNCHER = """
import os, sys
uid, gid = int(sys.argv[1]), int(sys.argv[2])
os.setgroups([int(g) for g in sys.argv[3].split(",") if g])
os.setgid(gid)
os.setuid(uid)
if os.getuid() != uid or os.geteuid() != uid or os.getegid() != gid:
    os._exit(126)
try:
    os.execvp(sys.argv[5], sys.argv[5:])
except OSError as exc:
    sys.stderr.write("oasis agent launcher: cannot start %r: %s\\n" % (sys.argv[5], exc.strerror))
    os._exit(127)
"""


@dataclass(frozen=True)
class AgentUser:
    """The user a subprocess agent runs as (``--agent-user``)."""

    name: str
    uid: int
    gid: int
    groups: tuple[int, ...]
    home: str

    @classmethod
    def lookup(cls, name: str) -> AgentUser:
        """The account ``name`` (or a numeric uid); only a root runner can switch to it."""
        if os.geteuid() != 0:
            raise AgentConfigError(
                f"--agent-user {name}: the runner must be root to start the agent as another "
                f"user (it runs as uid {os.geteuid()}); start oasis as that user instead"
            )
        try:
            entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
        except (KeyError, ValueError):
            raise AgentConfigError(f"--agent-user {name}: no such user") from None
        if entry.pw_uid == 0:
            raise AgentConfigError(f"--agent-user {name}: is root; name an unprivileged user")
        groups = tuple(sorted(set(os.getgrouplist(entry.pw_name, entry.pw_gid))))
        return cls(entry.pw_name, entry.pw_uid, entry.pw_gid, groups, entry.pw_dir or "/")

    def describe(self) -> str:
        group = _group_name(self.gid)
        return f"{self.name} (uid {self.uid}, gid {self.gid}{f' {group}' if group else ''})"


def _group_name(gid: int) -> str:
    with contextlib.suppress(KeyError):
        return grp.getgrgid(gid).gr_name
    return ""


@dataclass(frozen=True)
class AgentProcess:
    """How a subprocess agent is started: its environment's allow-list and its user."""

    #: ``--agent-env`` names, passed with the runner's values
    pass_env: tuple[str, ...] = ()
    #: the agent section's explicit ``env`` values
    env: Mapping[str, str] = field(default_factory=dict)
    user: AgentUser | None = None
    #: its PID namespace (:mod:`.isolation`); the default, for a bare instance, is none
    isolation: Isolation = field(default_factory=Isolation)

    @classmethod
    def build(
        cls,
        pass_env: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        user: str | None = None,
        isolation: str = "auto",
    ) -> AgentProcess:
        """Check what was asked (a harness secret, a bad or unset name is an error) and build."""
        if isolation not in MODES:
            raise AgentConfigError(
                f"agent isolation {isolation!r}: must be one of {', '.join(MODES)}"
            )
        for name in [*pass_env, *(env or {})]:
            if not _NAME.fullmatch(name):
                raise AgentConfigError(f"--agent-env {name!r}: not an environment variable name")
            if secrecy.is_secret_name(name):
                raise AgentConfigError(
                    f"--agent-env {name}: a harness secret never reaches the agent "
                    "(issue 25: run keys, the reserved-bundle key, the provider token and every "
                    "variable a --*-key-env option names)"
                )
        for name in pass_env:
            if name not in os.environ:
                raise AgentConfigError(f"--agent-env {name}: not set in the runner's environment")
            if _holds_secret(os.environ[name]):
                raise AgentConfigError(f"--agent-env {name}: its value is a harness secret")
        sandbox = isolation_for(isolation)
        if isolation == "required" and not sandbox.active:
            raise AgentConfigError(f"agent isolation required: {sandbox.warning}")
        return cls(
            tuple(dict.fromkeys(pass_env)),
            dict(env or {}),
            AgentUser.lookup(user) if user else None,
            sandbox,
        )

    def environment(self, handoff: Mapping[str, str] | None = None) -> dict[str, str]:
        """The agent's whole environment for one call (see the module docstring)."""
        env = {name: os.environ[name] for name in BASE_NAMES if name in os.environ}
        env.update({name: os.environ[name] for name in self.pass_env if name in os.environ})
        env.update(self.env)
        if self.user is not None:
            env["HOME"] = self.user.home
        env.update(handoff or {})
        # a last guard: a secret taken after the agent was built (a run key) is never passed
        return {
            k: v for k, v in env.items() if not secrecy.is_secret_name(k) and not _holds_secret(v)
        }

    def argv(self, argv: Sequence[str]) -> list[str]:
        """``argv`` as started: in its namespaces (:mod:`.isolation`), else through the
        launcher that drops to ``--agent-user``."""
        if self.isolation.active:
            user = self.user
            return self.isolation.wrap(argv, (user.uid, user.gid, user.groups) if user else None)
        if self.user is None:
            return list(argv)
        groups = ",".join(str(g) for g in self.user.groups)
        return [
            sys.executable,
            "-I",
            "-S",
            "-c",
            _LAUNCHER,
            str(self.user.uid),
            str(self.user.gid),
            groups,
            "--",
            *argv,
        ]

    def owns(self, path: Path) -> None:
        """Give ``path`` to the agent user (its per-scenario files)."""
        if self.user is not None:
            os.chown(path, self.user.uid, self.user.gid)


def findable(command: str, cwd: str | os.PathLike[str] | None, path: str | None) -> bool:
    """Whether ``command`` would start (from ``cwd``, on ``path``): asked before a launcher
    or ``setpriv`` execs it, so a missing command is "not found", as when run directly."""
    found = os.path.join(cwd or "", command) if os.sep in command else command
    return shutil.which(found, path=path) is not None


def _holds_secret(value: str) -> bool:
    return any(secret.strip() and secret.strip() in value for secret in secrecy.values())


def task_text(task: AgentTask) -> str:
    """The task as plain text (``{prompt}``, ``input=text``): the operator's turns, in order,
    then the prompt (04 §1)."""
    return "\n\n".join([*task.conversation, task.prompt])


@contextlib.contextmanager
def scenario_files(process: AgentProcess) -> Iterator[Path]:
    """A private directory for one call's files (kubeconfig, prompt file), the agent user's,
    removed afterwards."""
    directory = Path(tempfile.mkdtemp(prefix="oasis-agent-"))
    try:
        process.owns(directory)
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def write_private(process: AgentProcess, path: Path, text: str) -> str:
    """Write ``text`` to ``path`` (mode 0600, the agent user's); the path as a string."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(text)
    process.owns(path)
    return str(path)


#: names a provider may not set through ``agent_credentials.env``: the allow-list's own, the
#: harness's, and what changes how a program is loaded or run
_RESERVED_ENV = re.compile(r"(PATH|HOME|LANG|TZ|KUBECONFIG|OASIS_.*|LD_.*|PYTHON.*|DYLD_.*)")
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def provider_env(declared: Any) -> dict[str, str]:
    """The variables a provider declares for the scenario (``agent_credentials.env``:
    ``{NAME: value}``, e.g. a database client's host and password variables, so a tool runs
    unchanged).
    Upper-case names with string values only; a name of the allow-list, the harness
    (``OASIS_*``) or the loader (``LD_*``, ``PYTHON*``) is refused: a provider error, never
    the agent's (:class:`ProviderFault`)."""
    if declared is None:
        return {}
    if not isinstance(declared, dict):
        raise ProviderFault("agent_credentials.env must map variable names to strings")
    out: dict[str, str] = {}
    for name, value in sorted(declared.items()):
        if not isinstance(name, str) or not _ENV_NAME.fullmatch(name):
            raise ProviderFault(
                f"agent_credentials.env: {name!r} is not an upper-case variable name"
            )
        if _RESERVED_ENV.fullmatch(name):
            raise ProviderFault(
                f"agent_credentials.env may not set {name} (reserved for the harness)"
            )
        if not isinstance(value, str):
            raise ProviderFault(f"agent_credentials.env.{name} must be a string")
        out[name] = value
    return out


def handoff_env(process: AgentProcess, task: AgentTask | None, directory: Path) -> dict[str, str]:
    """The scenario's hand-off as environment variables (docs/agents.md, "The hand-off"):
    ``KUBECONFIG`` (a file in ``directory``), ``OASIS_AGENT_ENDPOINT``, ``OASIS_MCP_URL``,
    ``OASIS_PROMETHEUS_URL``, ``OASIS_GRAFANA_URL``, ``OASIS_TEMPO_URL``,
    ``OASIS_AGENT_TOKEN``, ``OASIS_NAMESPACE``, and
    ``OASIS_CREDENTIAL_<KEY>`` for any other string credential the provider hands out."""
    environment = task.environment if task is not None else None
    if environment is None:
        return {}
    out: dict[str, str] = {}
    if environment.agent_endpoint:
        out["OASIS_AGENT_ENDPOINT"] = environment.agent_endpoint
    credentials = environment.agent_credentials or {}
    out.update(provider_env(credentials.get("env")))
    for key, value in sorted(credentials.items()):
        if not isinstance(value, str) or not _NAME.fullmatch(key) or key == "type":
            continue
        if key == "kubeconfig":
            out["KUBECONFIG"] = write_private(process, directory / "kubeconfig", value)
        else:
            out[HANDOFF_NAMES.get(key, CREDENTIAL_PREFIX + key.upper())] = value
    return out
