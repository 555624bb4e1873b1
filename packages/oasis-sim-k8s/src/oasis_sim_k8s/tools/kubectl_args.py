"""kubectl's command line: pflag-style parsing (``-n x``, ``-nx``, ``--namespace=x``,
``-it``, ``--``) with per-command flag sets, and resource-type resolution."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from ..evaluation_kinds import normalize_resource
from ..store import KINDS

# option kinds: value, boolean flag, optional value, repeatable
V, B, O, M = "value", "bool", "optional", "multi"  # noqa: E741 - short tags used in the tables

GLOBAL: dict[str, tuple[str | None, str]] = {
    "namespace": ("n", V),
    "context": (None, V),
    "kubeconfig": (None, V),
    "token": (None, V),
    "as": (None, V),
    "as-group": (None, M),
    "as-uid": (None, V),
    "user": (None, V),
    "cluster": (None, V),
    "server": ("s", V),
    "request-timeout": (None, V),
    "v": ("v", V),
    "insecure-skip-tls-verify": (None, B),
    "certificate-authority": (None, V),
    "client-certificate": (None, V),
    "client-key": (None, V),
    "tls-server-name": (None, V),
    "match-server-version": (None, B),
    "cache-dir": (None, V),
    "log-flush-frequency": (None, V),
    "warnings-as-errors": (None, B),
    "disable-compression": (None, B),
    "username": (None, V),
    "password": (None, V),
    "profile": (None, V),
}
OUT = {
    "output": ("o", V),
    "template": (None, V),
    "show-managed-fields": (None, B),
    "allow-missing-template-keys": (None, O),
}
DRY = {
    "dry-run": (None, O),
    "field-manager": (None, V),
    "validate": (None, O),
    "save-config": (None, B),
}
SEL = {"selector": ("l", V), "field-selector": (None, V), "all-namespaces": ("A", B)}
FILE = {"filename": ("f", M), "recursive": ("R", B), "kustomize": ("k", V)}

COMMANDS: dict[str, dict[str, tuple[str | None, str]]] = {
    "get": {
        **OUT,
        **SEL,
        "watch": ("w", B),
        "watch-only": (None, B),
        "show-labels": (None, B),
        "no-headers": (None, B),
        "ignore-not-found": (None, B),
        "show-kind": (None, B),
        "sort-by": (None, V),
        "label-columns": ("L", M),
        "chunk-size": (None, V),
        "raw": (None, V),
        "output-watch-events": (None, B),
        "subresource": (None, V),
        **FILE,
    },
    "describe": {**SEL, "show-events": (None, O), "chunk-size": (None, V), **FILE},
    "logs": {
        "container": ("c", V),
        "tail": (None, V),
        "since": (None, V),
        "since-time": (None, V),
        "selector": ("l", V),
        "previous": ("p", B),
        "follow": ("f", B),
        "timestamps": (None, B),
        "all-containers": (None, B),
        "prefix": (None, B),
        "max-log-requests": (None, V),
        "limit-bytes": (None, V),
        "pod-running-timeout": (None, V),
        "ignore-errors": (None, B),
        "insecure-skip-tls-verify-backend": (None, B),
    },
    "scale": {
        **OUT,
        **DRY,
        **FILE,
        "replicas": (None, V),
        "current-replicas": (None, V),
        "selector": ("l", V),
        "all": (None, B),
        "resource-version": (None, V),
        "timeout": (None, V),
    },
    "patch": {
        **OUT,
        **DRY,
        **FILE,
        "patch": ("p", V),
        "patch-file": (None, V),
        "type": (None, V),
        "subresource": (None, V),
        "local": (None, B),
        "record": (None, B),
    },
    "apply": {
        **OUT,
        **DRY,
        **FILE,
        "selector": ("l", V),
        "server-side": (None, B),
        "force-conflicts": (None, B),
        "force": (None, B),
        "overwrite": (None, O),
        "wait": (None, O),
        "prune": (None, B),
        "all": (None, B),
        "timeout": (None, V),
        "grace-period": (None, V),
        "record": (None, B),
    },
    "replace": {
        **OUT,
        **DRY,
        **FILE,
        "force": (None, B),
        "grace-period": (None, V),
        "wait": (None, O),
        "timeout": (None, V),
    },
    "create": {
        **OUT,
        **DRY,
        **FILE,
        "from-literal": (None, M),
        "from-file": (None, M),
        "from-env-file": (None, M),
        "type": (None, V),
        "role": (None, V),
        "clusterrole": (None, V),
        "serviceaccount": (None, M),
        "group": (None, M),
        "image": (None, M),
        "replicas": ("r", V),
        "port": (None, V),
        "verb": (None, M),
        "resource": (None, M),
        "resource-name": (None, M),
        "selector": (None, V),
        "min-available": (None, V),
        "max-unavailable": (None, V),
        "tcp": (None, M),
        "edit": (None, B),
        "raw": (None, V),
        "aggregation-rule": (None, V),
        "non-resource-url": (None, M),
        "append-hash": (None, B),
        "cert": (None, V),
        "key": (None, V),
        "docker-server": (None, V),
        "docker-username": (None, V),
        "docker-password": (None, V),
        "docker-email": (None, V),
        "record": (None, B),
    },
    "delete": {
        **OUT,
        **DRY,
        **FILE,
        **SEL,
        "all": (None, B),
        "ignore-not-found": (None, B),
        "force": (None, B),
        "now": (None, B),
        "grace-period": (None, V),
        "timeout": (None, V),
        "cascade": (None, O),
        "wait": (None, O),
        "interactive": ("i", B),
        "raw": (None, V),
    },
    "label": {
        **OUT,
        **DRY,
        **FILE,
        **SEL,
        "overwrite": (None, B),
        "all": (None, B),
        "list": (None, B),
        "local": (None, B),
        "resource-version": (None, V),
    },
    "annotate": {
        **OUT,
        **DRY,
        **FILE,
        **SEL,
        "overwrite": (None, B),
        "all": (None, B),
        "list": (None, B),
        "local": (None, B),
        "resource-version": (None, V),
    },
    "set": {
        **OUT,
        **DRY,
        **FILE,
        "selector": ("l", V),
        "all": (None, B),
        "local": (None, B),
        "containers": ("c", V),
        "limits": (None, V),
        "requests": (None, V),
        "list": (None, B),
        "overwrite": (None, O),
        "env": ("e", M),
        "from": (None, V),
        "prefix": (None, V),
        "keys": (None, M),
        "resolve": (None, B),
        "serviceaccount": (None, V),
        "record": (None, B),
    },
    "rollout": {
        **OUT,
        **DRY,
        **FILE,
        "selector": ("l", V),
        "to-revision": (None, V),
        "revision": (None, V),
        "timeout": (None, V),
        "watch": ("w", O),
        "record": (None, B),
    },
    "exec": {
        "container": ("c", V),
        "stdin": ("i", B),
        "tty": ("t", B),
        "quiet": ("q", B),
        "pod-running-timeout": (None, V),
        **FILE,
    },
    "auth": {
        "all-namespaces": ("A", B),
        "list": (None, B),
        "quiet": ("q", B),
        "no-headers": (None, B),
        "subresource": (None, V),
        **OUT,
    },
    "top": {
        **SEL,
        "containers": (None, B),
        "sort-by": (None, V),
        "no-headers": (None, B),
        "use-protocol-buffers": (None, B),
        "sum": (None, B),
        "show-capacity": (None, B),
    },
    "config": {
        **OUT,
        "minify": (None, B),
        "raw": (None, B),
        "flatten": (None, B),
        "merge": (None, O),
        "current": (None, B),
        "embed-certs": (None, O),
        "set-raw-bytes": (None, O),
        "no-headers": (None, B),
        "auth-provider": (None, V),
        "auth-provider-arg": (None, M),
        "exec-command": (None, V),
        "exec-api-version": (None, V),
        "exec-arg": (None, M),
        "exec-env": (None, M),
    },
    "events": {
        **OUT,
        "all-namespaces": ("A", B),
        "for": (None, V),
        "types": (None, M),
        "watch": ("w", B),
        "no-headers": (None, B),
        "chunk-size": (None, V),
    },
    "wait": {
        **OUT,
        **SEL,
        **FILE,
        "for": (None, V),
        "timeout": (None, V),
        "all": (None, B),
        "local": (None, B),
    },
    "run": {
        **OUT,
        **DRY,
        "image": (None, V),
        "restart": (None, V),
        "labels": ("l", V),
        "env": (None, M),
        "port": (None, V),
        "command": (None, B),
        "stdin": ("i", B),
        "tty": ("t", B),
        "rm": (None, B),
        "attach": (None, O),
        "image-pull-policy": (None, V),
        "annotations": (None, M),
        "expose": (None, B),
        "overrides": (None, V),
        "quiet": ("q", B),
        "privileged": (None, B),
    },
    "expose": {
        **OUT,
        **DRY,
        **FILE,
        "port": (None, V),
        "target-port": (None, V),
        "protocol": (None, V),
        "type": (None, V),
        "name": (None, V),
        "selector": (None, V),
        "labels": ("l", V),
    },
    "autoscale": {
        **OUT,
        **DRY,
        **FILE,
        "min": (None, V),
        "max": (None, V),
        "cpu-percent": (None, V),
        "name": (None, V),
    },
    "cordon": {**DRY, "selector": ("l", V)},
    "uncordon": {**DRY, "selector": ("l", V)},
    "drain": {
        **DRY,
        "selector": ("l", V),
        "pod-selector": (None, V),
        "ignore-daemonsets": (None, B),
        "delete-emptydir-data": (None, B),
        "delete-local-data": (None, B),
        "force": (None, B),
        "grace-period": (None, V),
        "timeout": (None, V),
        "disable-eviction": (None, B),
        "skip-wait-for-delete-timeout": (None, V),
    },
    "taint": {**OUT, **DRY, "selector": ("l", V), "all": (None, B), "overwrite": (None, B)},
    "api-resources": {
        **OUT,
        "namespaced": (None, O),
        "api-group": (None, V),
        "verbs": (None, M),
        "no-headers": (None, B),
        "cached": (None, B),
        "sort-by": (None, V),
    },
    "api-versions": {},
    "cluster-info": {},
    "version": {**OUT, "client": (None, B), "short": (None, B)},
    "explain": {"recursive": (None, B), "api-version": (None, V), "output": ("o", V)},
    "diff": {
        **FILE,
        "server-side": (None, B),
        "force-conflicts": (None, B),
        "field-manager": (None, V),
        "selector": ("l", V),
        "prune": (None, B),
    },
    "whoami": {**OUT},
}
#: commands that need an interactive terminal or a local port
INTERACTIVE = {
    "edit",
    "port-forward",
    "proxy",
    "attach",
    "cp",
    "debug",
    "plugin",
    "completion",
    "kustomize",
    "certificate",
    "alpha",
    "convert",
}

#: extra names kubectl knows (CRD short names)
EXTRA_TYPES = {
    "app": "applications",
    "apps": "applications",
    "applications.argoproj.io": "applications",
    "cert": "certificates",
    "certs": "certificates",
    "pods.metrics.k8s.io": "pods",
    "nodes.metrics.k8s.io": "nodes",
}
#: kinds a cluster serves that this one has no objects of (empty lists, never an error)
EMPTY_TYPES = {
    "cronjobs": "cronjobs",
    "cronjob": "cronjobs",
    "cj": "cronjobs",
    "replicationcontrollers": "replicationcontrollers",
    "rc": "replicationcontrollers",
    "limitranges": "limitranges",
    "limits": "limitranges",
    "leases": "leases",
    "priorityclasses": "priorityclasses",
    "pc": "priorityclasses",
    "csr": "certificatesigningrequests",
    "customresourcedefinitions": "customresourcedefinitions",
    "crd": "customresourcedefinitions",
    "crds": "customresourcedefinitions",
    "validatingwebhookconfigurations": "validatingwebhookconfigurations",
    "mutatingwebhookconfigurations": "mutatingwebhookconfigurations",
    "volumeattachments": "volumeattachments",
    "csidrivers": "csidrivers",
    "csinodes": "csinodes",
    "podtemplates": "podtemplates",
    "endpointslices": "endpointslices",
    "controllerrevisions": "controllerrevisions",
}
ALL = [
    "pods",
    "services",
    "daemonsets",
    "deployments",
    "replicasets",
    "statefulsets",
    "horizontalpodautoscalers",
    "jobs",
]


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

    def on(self, name: str) -> bool:
        value = self.get(name)
        return value is not None and str(value).lower() not in ("false", "0", "none")


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


OPTIONAL_DEFAULTS = {
    "dry-run": "client",
    "validate": "true",
    "watch": "true",
    "show-events": "true",
    "overwrite": "true",
    "wait": "true",
    "cascade": "background",
    "merge": "true",
    "embed-certs": "true",
    "namespaced": "true",
    "attach": "true",
    "allow-missing-template-keys": "true",
    "set-raw-bytes": "true",
}


def parse(argv: list[str]) -> Parsed:
    command = _find_command(argv)
    if command is None:
        raise UsageError(
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
    longs, shorts = _table(command)
    out = Parsed(command=command, args=[])
    seen_command = False
    i = 0

    def put(name: str, value: Any) -> None:
        out.flags.setdefault(name, []).append(value)

    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            out.dashdash = True
            out.after_dash = argv[i + 1 :]
            break
        if tok.startswith("--") and len(tok) > 2:
            name, eq, value = tok.partition("=")
            hit = longs.get(name)
            if hit is None:
                raise UsageError(
                    f"error: unknown flag: {name}\nSee 'kubectl {command} --help' for usage."
                )
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
                put(canon, value)
            elif kind == O:
                put(canon, value if eq else OPTIONAL_DEFAULTS.get(canon, "true"))
            else:
                put(canon, value if eq else "true")
            i += 1
            continue
        if tok.startswith("-") and len(tok) > 1 and not _is_number(tok):
            j = 1
            while j < len(tok):
                short = f"-{tok[j]}"
                hit = shorts.get(short)
                if hit is None:
                    raise UsageError(
                        f"error: unknown shorthand flag: '{tok[j]}' in {tok}\n"
                        f"See 'kubectl {command} --help' for usage."
                    )
                canon, kind = hit
                if kind in (V, M):
                    rest = tok[j + 1 :]
                    rest = rest.removeprefix("=")
                    if rest:
                        put(canon, rest)
                    else:
                        if i + 1 >= len(argv):
                            raise UsageError(
                                f"error: flag needs an argument: '{tok[j]}' in {tok}\n"
                                f"See 'kubectl {command} --help' for usage."
                            )
                        put(canon, argv[i + 1])
                        i += 1
                    break
                put(canon, OPTIONAL_DEFAULTS.get(canon, "true") if kind == O else "true")
                j += 1
            i += 1
            continue
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
