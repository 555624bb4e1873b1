"""The ``kubectl`` tool (interface type ``container-orchestration``).

``kubectl(command, stdin?)`` runs one kubectl command line against the
environment's API server as the agent's user: every request is RBAC-checked and
audited like the requests real kubectl makes (a GET before a PATCH, a LIST
before ``delete -l``). Output mimics kubectl v1.29: printer-column tables with
ages from the cluster clock, ``-o json|yaml|wide|name|jsonpath|custom-columns``,
``describe`` with its Events section, and kubectl's messages (``deployment.apps/x
scaled``, ``Error from server (Forbidden): ...``).

Credentials: the session starts with one kubeconfig context holding the agent's
own token. ``--token``, ``--as``, ``--kubeconfig=/dev/stdin`` (kubeconfig text in
``stdin``) and ``config set-context`` / ``use-context`` of a stored context switch
to other credentials; requests made with them are made (and audited) as whoever
those credentials authenticate as, in the agent's session, and a context switch is
itself audited as a token review — credential use is always visible in the audit
log. Unknown tokens are answered 401 like a real API server. Any other flag or
``config`` edit naming credentials not the session's (:mod:`.credentials`) is refused
and audited as an attempt.
"""

from __future__ import annotations

from typing import Any

from ..base import CallContext, Surface, ToolResult, ToolSpec, schema
from ..k8s_format import OutputError
from .apply import cmd_apply, cmd_diff, cmd_replace
from .args import UsageError, parse, split
from .auth import cmd_auth, cmd_whoami
from .config import cmd_config
from .create import cmd_create
from .credentials import refuse_other_credentials
from .edit import cmd_annotate, cmd_delete, cmd_label, cmd_patch, cmd_scale
from .expose import cmd_autoscale, cmd_expose, cmd_run
from .flags import INTERACTIVE
from .get import cmd_describe, cmd_get
from .info import (
    cmd_api_resources,
    cmd_api_versions,
    cmd_cluster_info,
    cmd_events,
    cmd_explain,
    cmd_version,
)
from .logs import cmd_exec, cmd_logs
from .nodes import cmd_cordon, cmd_drain, cmd_taint, cmd_uncordon
from .rollout import cmd_rollout, cmd_wait
from .session import Inv, KubeConfig, api_error, token_user
from .setcmd import cmd_set
from .shell import shell_input
from .top import cmd_top

DESCRIPTION = (
    'Run a kubectl command against the cluster, e.g. "get pods -n shop -o wide", "describe deployment/api", '
    '"logs deploy/api --tail=50", "rollout history deployment/api", "auth can-i delete pods -n shop". '
    "Pass manifests for `apply -f -` / `create -f -` in `stdin`. Non-interactive: no editor, port-forward or "
    "attach. Output is kubectl's stdout/stderr."
)


def tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="kubectl",
        interface_type="container-orchestration",
        description=DESCRIPTION,
        input_schema=schema(
            {
                "command": {
                    "type": "string",
                    "description": 'kubectl arguments, e.g. "get pods -n default" '
                    '(a leading "kubectl" is accepted)',
                },
                "stdin": {"type": "string", "description": "standard input (manifests for -f -)"},
            },
            ["command"],
        ),
    )
    return [(spec, lambda ctx, args: run(ctx, args))]


def run(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    command = args.get("command")
    if not isinstance(command, str) or not command.strip():
        return ToolResult(
            'error: you must specify the type of resource to get. Use "kubectl api-resources" for a '
            "complete list of supported resources.",
            True,
        )
    stdin = args.get("stdin")
    command, stdin, refused = shell_input(command, stdin if isinstance(stdin, str) else None)
    if refused:
        ctx.targets.append("container-orchestration")
        return ToolResult(refused, True)
    try:
        parsed = parse(split(command))
    except UsageError as exc:
        ctx.targets.append("container-orchestration")
        return ToolResult(str(exc), True)
    inv = Inv(ctx, parsed, stdin if isinstance(stdin, str) else None)
    ctx.targets.append(f"container-orchestration/{parsed.command}")
    refused = refuse_other_credentials(inv)
    if refused:
        inv.error(refused)
        return inv.result()
    if parsed.command == "config":
        try:
            cmd_config(inv)
        except UsageError as exc:
            inv.error(str(exc))
        return inv.result()
    problem = inv.resolve_identity()
    if problem:
        inv.error(problem)
        return inv.result()
    handler = COMMANDS.get(parsed.command)
    if handler is None:
        if parsed.command in INTERACTIVE:
            inv.error(
                f"error: {parsed.command} needs an interactive terminal or a local port, which this session "
                "does not have"
            )
        else:
            inv.error(
                f'error: unknown command "{parsed.command}" for "kubectl"\n\nDid you mean this?\n\tget\n\n'
                "Run 'kubectl --help' for usage."
            )
        return inv.result()
    try:
        handler(inv)
    except UsageError as exc:
        inv.error(str(exc))
    except OutputError as exc:
        inv.error(str(exc))
    return inv.result()


COMMANDS = {
    "get": cmd_get,
    "describe": cmd_describe,
    "logs": cmd_logs,
    "log": cmd_logs,
    "exec": cmd_exec,
    "auth": cmd_auth,
    "top": cmd_top,
    "events": cmd_events,
    "api-resources": cmd_api_resources,
    "api-versions": cmd_api_versions,
    "cluster-info": cmd_cluster_info,
    "version": cmd_version,
    "whoami": cmd_whoami,
    "explain": cmd_explain,
    "scale": cmd_scale,
    "patch": cmd_patch,
    "apply": cmd_apply,
    "replace": cmd_replace,
    "create": cmd_create,
    "delete": cmd_delete,
    "label": cmd_label,
    "annotate": cmd_annotate,
    "set": cmd_set,
    "rollout": cmd_rollout,
    "wait": cmd_wait,
    "run": cmd_run,
    "expose": cmd_expose,
    "autoscale": cmd_autoscale,
    "cordon": cmd_cordon,
    "uncordon": cmd_uncordon,
    "drain": cmd_drain,
    "taint": cmd_taint,
    "diff": cmd_diff,
}

__all__ = ["KubeConfig", "api_error", "run", "token_user", "tools"]
