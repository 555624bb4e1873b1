"""kubectl's command line: pflag-style parsing (``-n x``, ``-nx``, ``--namespace=x``,
``-it``, ``--``) over the flag tables of :mod:`.flags`, and resource-type resolution."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from ...cluster.kinds import normalize_resource
from ...cluster.store import KINDS
from .flags import COMMANDS, EXTRA_TYPES, GLOBAL, OPTIONAL_DEFAULTS, B, M, O, V


def resolve_type(word: str) -> str | None:
    w = word.strip().lower()
    if w in EXTRA_TYPES:
        return EXTRA_TYPES[w]
    plural = normalize_resource(w)
    return plural if plural in KINDS else None


class UsageError(ValueError):
    """A command line kubectl itself rejects (exit 1, no request made)."""


@dataclass
class Parsed:
    command: str
    args: list[str]
    flags: dict[str, list[Any]] = field(default_factory=dict)
    after_dash: list[str] = field(default_factory=list)
    dashdash: bool = False

    def get(self, name: str, default: Any = None) -> Any:
        values = self.flags.get(name)
        return values[-1] if values else default

    def all(self, name: str) -> list[Any]:
        return list(self.flags.get(name) or [])

    def has(self, name: str) -> bool:
        return name in self.flags

    def put(self, name: str, value: Any) -> None:
        self.flags.setdefault(name, []).append(value)

    def on(self, name: str) -> bool:
        value = self.get(name)
        return value is not None and str(value).lower() not in ("false", "0", "none")


def require_args(p: Parsed, usage: str) -> None:
    """A command that needs arguments and got none: kubectl's usage text, no request made."""
    if not p.args:
        raise UsageError(usage)


def split(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"error: unable to parse command line: {exc}") from None
    if argv and argv[0] in ("kubectl", "k", "/usr/local/bin/kubectl", "/usr/bin/kubectl", "oc"):
        argv = argv[1:]
    return argv


def _table(command: str) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    spec = {**GLOBAL, **COMMANDS.get(command, {})}
    longs = {f"--{name}": (name, kind) for name, (_, kind) in spec.items()}
    shorts = {f"-{short}": (name, kind) for name, (short, kind) in spec.items() if short}
    return longs, shorts


def _find_command(argv: list[str]) -> str | None:
    longs, shorts = _table("")
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            return None
        if tok.startswith("--"):
            name = tok.split("=", 1)[0]
            kind = longs.get(name, (None, B))[1]
            i += 2 if kind in (V, M) and "=" not in tok else 1
            continue
        if tok.startswith("-") and len(tok) > 1:
            kind = shorts.get(tok[:2], (None, B))[1]
            i += 2 if kind in (V, M) and len(tok) == 2 else 1
            continue
        return tok
    return None


_USAGE = (
    "kubectl controls the Kubernetes cluster manager.\n\n"
    "Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\n"
    "Basic Commands (Beginner):\n  create, expose, run, set\n\nBasic Commands (Intermediate):\n"
    "  explain, get, edit, delete\n\nDeploy Commands:\n  rollout, scale, autoscale\n\n"
    "Cluster Management Commands:\n  certificate, cluster-info, top, cordon, uncordon, drain, taint\n\n"
    "Troubleshooting and Debugging Commands:\n  describe, logs, attach, exec, port-forward, proxy, cp,"
    " auth, debug, events\n\nAdvanced Commands:\n  diff, apply, patch, replace, wait, kustomize\n\n"
    "Settings Commands:\n  label, annotate, completion\n\nOther Commands:\n"
    "  api-resources, api-versions, config, plugin, version\n\n"
    "Usage:\n  kubectl [flags] [options]"
)


def _long_flag(out: Parsed, argv: list[str], i: int, longs: dict[str, tuple[str, str]]) -> int:
    """``--name``, ``--name=value`` or ``--name value``; returns the index of the next token."""
    tok, command = argv[i], out.command
    name, eq, value = tok.partition("=")
    hit = longs.get(name)
    if hit is None:
        raise UsageError(f"error: unknown flag: {name}\nSee 'kubectl {command} --help' for usage.")
    canon, kind = hit
    if kind in (V, M):
        if not eq:
            if i + 1 >= len(argv):
                raise UsageError(
                    f"error: flag needs an argument: {name}\n"
                    f"See 'kubectl {command} --help' for usage."
                )
            value = argv[i + 1]
            i += 1
        out.put(canon, value)
    elif kind == O:
        out.put(canon, value if eq else OPTIONAL_DEFAULTS.get(canon, "true"))
    else:
        out.put(canon, value if eq else "true")
    return i + 1


def _short_flags(out: Parsed, argv: list[str], i: int, shorts: dict[str, tuple[str, str]]) -> int:
    """``-n x``, ``-nx``, ``-n=x`` and bundles such as ``-it``; returns the next index."""
    tok, command = argv[i], out.command
    for j in range(1, len(tok)):
        hit = shorts.get(f"-{tok[j]}")
        if hit is None:
            raise UsageError(
                f"error: unknown shorthand flag: '{tok[j]}' in {tok}\n"
                f"See 'kubectl {command} --help' for usage."
            )
        canon, kind = hit
        if kind not in (V, M):
            out.put(canon, OPTIONAL_DEFAULTS.get(canon, "true") if kind == O else "true")
            continue
        rest = tok[j + 1 :].removeprefix("=")
        if rest:
            out.put(canon, rest)
        elif i + 1 >= len(argv):
            raise UsageError(
                f"error: flag needs an argument: '{tok[j]}' in {tok}\n"
                f"See 'kubectl {command} --help' for usage."
            )
        else:
            out.put(canon, argv[i + 1])
            i += 1
        break
    return i + 1


def parse(argv: list[str]) -> Parsed:
    """kubectl's command line as pflag reads it, with the command's own flag set."""
    command = _find_command(argv)
    if command is None:
        raise UsageError(_USAGE)
    longs, shorts = _table(command)
    out = Parsed(command=command, args=[])
    seen_command = False
    i = 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            out.dashdash = True
            out.after_dash = argv[i + 1 :]
            break
        if tok.startswith("--") and len(tok) > 2:
            i = _long_flag(out, argv, i, longs)
        elif tok.startswith("-") and len(tok) > 1 and not _is_number(tok):
            i = _short_flags(out, argv, i, shorts)
        else:
            if not seen_command and tok == command:
                seen_command = True
            else:
                out.args.append(tok)
            i += 1
    return out


def _is_number(tok: str) -> bool:
    try:
        float(tok)
        return True
    except ValueError:
        return False


def parse_duration(text: str | None, default: float) -> float:
    """``30s`` / ``5m`` / ``1h`` / ``1h30m`` / ``90`` -> seconds."""
    if text in (None, ""):
        return default
    import re

    total, matched = 0.0, False
    for num, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)?", str(text)):
        matched = True
        total += float(num) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "": 1}[unit or ""]
    if not matched:
        raise UsageError(f'error: invalid argument "{text}": time: invalid duration "{text}"')
    return total
