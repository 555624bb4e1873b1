"""The ``gitops`` tool (interface type ``gitops``): an ``argocd app`` command line.

``app list`` / ``app get <name>`` / ``app diff <name>`` / ``app history <name>`` read the
Application objects through the API server as the agent (RBAC + audit), like the
Argo CD API server does on the caller's behalf; ``app sync <name>`` is a write: the
sync operation is requested as the agent (a patch of the Application, audited
and RBAC-checked — read-only agents get PermissionDenied), then the application
controller applies git to the cluster under its own identity.
"""

from __future__ import annotations

import difflib
import json
import shlex
from typing import Any

import yaml

from ..cluster.gitops import CONTROLLER_USER, NAMESPACE, manifest
from ..cluster.store import KINDS
from .base import CallContext, Surface, ToolResult, ToolSpec, schema
from .describe import tabwriter

DESCRIPTION = (
    'Argo CD command line (GitOps). Commands: "app list", "app get <name>" (sync/health status, source and '
    'managed resources), "app diff <name>" (live state vs git), "app history <name>", "app sync <name>" '
    '(reconcile the cluster to the git source). A leading "argocd" is accepted.'
)
URL = "https://argocd.example.com"


def tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="gitops",
        interface_type="gitops",
        description=DESCRIPTION,
        input_schema=schema(
            {"command": {"type": "string", "description": 'e.g. "app get api-service"'}},
            ["command"],
        ),
    )
    return [(spec, run)]


def _error(msg: str, code: str = "Unknown") -> ToolResult:
    return ToolResult(f"FATA[0000] rpc error: code = {code} desc = {msg}", True)


def _denied(ctx: CallContext, action: str, app: str | None) -> ToolResult:
    target = f"default/{app}" if app else "*"
    return _error(
        f"permission denied: applications, {action}, {target}, sub: {ctx.surface.user}, iat: "
        f"{ctx.surface.env.clock.ts(3600)}",
        "PermissionDenied",
    )


def run(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    command = args.get("command")
    if not isinstance(command, str) or not command.strip():
        return ToolResult("Error: accepts 1 arg(s), received 0", True)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        return ToolResult(f"Error: {exc}", True)
    if argv and argv[0] == "argocd":
        argv = argv[1:]
    flags = [a for a in argv if a.startswith("-")]
    words = [a for a in argv if not a.startswith("-")]
    out_fmt = None
    for i, a in enumerate(argv):
        if a in ("-o", "--output") and i + 1 < len(argv):
            out_fmt = argv[i + 1]
            if out_fmt in words:
                words.remove(out_fmt)
        elif a.startswith(("--output=", "-o=")):
            out_fmt = a.split("=", 1)[1]
    del flags
    if not words or words[0] not in ("app", "apps", "application", "applications"):
        what = words[0] if words else ""
        ctx.targets.append("gitops")
        return ToolResult(
            f'Error: unknown command "{what}" for "argocd"\nRun \'argocd --help\' for usage.'
            if what
            else "argocd controls a Argo CD server\n\nUsage:\n  argocd [flags]\n  argocd [command]"
            "\n\nAvailable Commands:\n  app         Manage applications",
            bool(what),
        )
    sub = words[1] if len(words) > 1 else ""
    name = words[2] if len(words) > 2 else None
    if name and "/" in name:
        name = name.split("/", 1)[1]
    ctx.targets += [f"gitops/{name}", f"gitops/{sub}/{name}"] if name else []
    ctx.targets.append("gitops")
    if sub == "list":
        return _list(ctx, out_fmt)
    if sub in ("get", "diff", "history", "sync", "manifests", "resources"):
        if not name:
            return ToolResult("FATA[0000] Expected 1 argument, got 0", True)
        res = ctx.surface.api(ctx, "get", "applications", NAMESPACE, name)
        if res.code == 403:
            return _denied(ctx, "get", name)
        if not res.ok:
            return _error(
                f'error getting application: applications.argoproj.io "{name}" not found',
                "NotFound",
            )
        app = res.body
        if sub == "get":
            return ToolResult(_get_text(ctx, app, out_fmt))
        if sub == "diff":
            return _diff(ctx, app)
        if sub == "history":
            return _history(app)
        if sub == "manifests":
            return _manifests(ctx, app)
        if sub == "resources":
            return _resources_text(app)
        return _sync(ctx, app, "--dry-run" in argv)
    if not sub:
        return ToolResult(
            "Manage Applications\n\nUsage:\n  argocd app [flags]\n  argocd app [command]\n\nAvailable "
            "Commands:\n  diff        Perform a diff against the target and live state.\n  get         "
            "Get application details\n  history     Show application deployment history\n  list        "
            "List applications\n  manifests   Print manifests of an application\n  resources   List "
            "resource of application\n  sync        Sync an application to its target state"
        )
    return ToolResult(
        f'Error: unknown command "{sub}" for "argocd app"\nRun \'argocd app --help\' for usage.',
        True,
    )


def _list(ctx: CallContext, out_fmt: str | None) -> ToolResult:
    res = ctx.surface.api(ctx, "list", "applications", NAMESPACE)
    if res.code == 403:
        return _denied(ctx, "get", None)
    if not res.ok:
        return _error(
            res.body.get("message", "unknown error")
            if isinstance(res.body, dict)
            else str(res.body)
        )
    apps = list(res.body.get("items") or [])
    for a in apps:
        ctx.targets.insert(0, f"gitops/{a['metadata']['name']}")
    if out_fmt in ("json", "yaml"):
        return ToolResult(
            json.dumps(apps, indent=2)
            if out_fmt == "json"
            else yaml.safe_dump(apps, sort_keys=False)
        )
    if out_fmt == "name":
        return ToolResult("".join(f"{NAMESPACE}/{a['metadata']['name']}\n" for a in apps))
    lines = [
        "NAME\tCLUSTER\tNAMESPACE\tPROJECT\tSTATUS\tHEALTH\tSYNCPOLICY\tCONDITIONS\tREPO\tPATH\tTARGET"
    ]
    for a in apps:
        spec, st = a.get("spec") or {}, a.get("status") or {}
        src, dest = spec.get("source") or {}, spec.get("destination") or {}
        policy = (
            "Auto"
            + (
                "-Prune"
                if ((spec.get("syncPolicy") or {}).get("automated") or {}).get("prune")
                else ""
            )
            if (spec.get("syncPolicy") or {}).get("automated")
            else "<none>"
        )
        lines.append(
            f"{NAMESPACE}/{a['metadata']['name']}\t{dest.get('server', '')}\t{dest.get('namespace', '')}\t"
            f"{spec.get('project', 'default')}\t{(st.get('sync') or {}).get('status', 'Unknown')}\t"
            f"{(st.get('health') or {}).get('status', 'Unknown')}\t{policy}\t<none>\t{src.get('repoURL', '')}\t"
            f"{src.get('path', '')}\t{src.get('targetRevision', 'HEAD')}"
        )
    return ToolResult(tabwriter(lines))


def _resources_lines(
    app: dict[str, Any], messages: dict[tuple[str, str], str] | None = None
) -> list[str]:
    lines = ["GROUP\tKIND\tNAMESPACE\tNAME\tSTATUS\tHEALTH\tHOOK\tMESSAGE"]
    for r in (app.get("status") or {}).get("resources") or []:
        msg = (messages or {}).get((r.get("kind"), r.get("name")), "")
        lines.append(
            f"{r.get('group', '')}\t{r.get('kind')}\t{r.get('namespace', '')}\t{r.get('name')}\t"
            f"{r.get('status')}\t{(r.get('health') or {}).get('status', '')}\t\t{msg}"
        )
    return lines


def _resources_text(app: dict[str, Any]) -> ToolResult:
    lines = ["GROUP\tKIND\tNAMESPACE\tNAME\tORPHANED"]
    for r in (app.get("status") or {}).get("resources") or []:
        lines.append(
            f"{r.get('group', '')}\t{r.get('kind')}\t{r.get('namespace', '')}\t{r.get('name')}\tNo"
        )
    return ToolResult(tabwriter(lines))


def _get_text(
    ctx: CallContext,
    app: dict[str, Any],
    out_fmt: str | None,
    messages: dict[tuple[str, str], str] | None = None,
    operation: bool = False,
) -> str:
    if out_fmt in ("json", "yaml"):
        return (
            json.dumps(app, indent=2) + "\n"
            if out_fmt == "json"
            else yaml.safe_dump(app, sort_keys=False)
        )
    spec, st = app.get("spec") or {}, app.get("status") or {}
    src, dest = spec.get("source") or {}, spec.get("destination") or {}
    name = app["metadata"]["name"]
    sync = st.get("sync") or {}
    policy = (
        "Automated"
        + (
            " (Prune)"
            if ((spec.get("syncPolicy") or {}).get("automated") or {}).get("prune")
            else ""
        )
        if (spec.get("syncPolicy") or {}).get("automated")
        else "Manual"
    )
    head = [
        f"Name:\t{NAMESPACE}/{name}",
        f"Project:\t{spec.get('project', 'default')}",
        f"Server:\t{dest.get('server', '')}",
        f"Namespace:\t{dest.get('namespace', '')}",
        f"URL:\t{URL}/applications/{name}",
        "Source:",
        f"- Repo:\t{src.get('repoURL', '')}",
        f"  Target:\t{src.get('targetRevision', 'HEAD')}",
        f"  Path:\t{src.get('path', '')}",
        "SyncWindow:\tSync Allowed",
        f"Sync Policy:\t{policy}",
        f"Sync Status:\t{sync.get('status', 'Unknown')} to {src.get('targetRevision', 'HEAD')} "
        f"({str(sync.get('revision', ''))[:7]})",
        f"Health Status:\t{(st.get('health') or {}).get('status', 'Unknown')}",
    ]
    if operation:
        env = ctx.surface.env
        head += [
            "",
            "Operation:\tSync",
            f"Sync Revision:\t{sync.get('revision', '')}",
            "Phase:\tSucceeded",
            f"Start:\t{env.clock.now().strftime('%Y-%m-%d %H:%M:%S +0000 UTC')}",
            f"Finished:\t{env.clock.now().strftime('%Y-%m-%d %H:%M:%S +0000 UTC')}",
            "Duration:\t1s",
            "Message:\tsuccessfully synced (all tasks run)",
        ]
    return tabwriter(head) + "\n" + tabwriter(_resources_lines(app, messages))


def _diff(ctx: CallContext, app: dict[str, Any]) -> ToolResult:
    env = ctx.surface.env
    name = app["metadata"]["name"]
    chunks = []
    for (plural, ns, obj_name), want in sorted((env.gitops.desired.get(name) or {}).items()):
        res = ctx.surface.api(ctx, "get", plural, ns or None, obj_name)
        live = (
            manifest(res.body, env.gitops._hpa_scaled((plural, ns, obj_name))) if res.ok else None
        )
        if live == want:
            continue
        group = KINDS[plural][1].split("/")[0] if "/" in KINDS[plural][1] else ""
        a = (
            yaml.safe_dump(live, sort_keys=True).splitlines(keepends=True)
            if live is not None
            else []
        )
        b = yaml.safe_dump(want, sort_keys=True).splitlines(keepends=True)
        body = "".join(difflib.unified_diff(a, b, fromfile="live", tofile="target", n=3))
        chunks.append(f"\n===== {group}/{KINDS[plural][0]} {ns}/{obj_name} ======\n{body}")
    return ToolResult("".join(chunks).lstrip("\n"))


def _history(app: dict[str, Any]) -> ToolResult:
    lines = ["ID\tDATE\tREVISION"]
    for h in (app.get("status") or {}).get("history") or []:
        lines.append(
            f"{h.get('id', 0)}\t{h.get('deployedAt', '')}\t{h.get('source', {}).get('targetRevision', 'HEAD')} "
            f"({str(h.get('revision', ''))[:7]})"
        )
    return ToolResult(tabwriter(lines))


def _manifests(ctx: CallContext, app: dict[str, Any]) -> ToolResult:
    env = ctx.surface.env
    docs = []
    for (plural, ns, obj_name), want in sorted(
        (env.gitops.desired.get(app["metadata"]["name"]) or {}).items()
    ):
        kind, version, _ = KINDS[plural]
        doc = {
            "apiVersion": version,
            "kind": kind,
            "metadata": {
                "name": obj_name,
                **({"namespace": ns} if ns else {}),
                "labels": want.get("labels") or {},
                "annotations": want.get("annotations") or {},
            },
        }
        doc.update({k: v for k, v in want.items() if k not in ("labels", "annotations")})
        docs.append(yaml.safe_dump(doc, sort_keys=False))
    return ToolResult("---\n".join(docs))


def _sync(ctx: CallContext, app: dict[str, Any], dry_run: bool) -> ToolResult:
    env, surface = ctx.surface.env, ctx.surface
    name = app["metadata"]["name"]
    revision = ((app.get("status") or {}).get("sync") or {}).get("revision") or "HEAD"
    operation = {
        "initiatedBy": {"username": surface.user},
        "sync": {"revision": revision, **({"dryRun": True} if dry_run else {})},
        "retry": {},
    }
    res = surface.api(
        ctx,
        "patch",
        "applications",
        NAMESPACE,
        name,
        body={"operation": operation},
        params={"patchType": "merge"},
    )
    if res.code == 403:
        return _denied(ctx, "sync", name)
    if not res.ok:
        return _error(res.body.get("message", "") if isinstance(res.body, dict) else str(res.body))
    before = {
        (r.get("kind"), r.get("name")): r.get("status")
        for r in (app.get("status") or {}).get("resources") or []
    }
    written = [] if dry_run else env.gitops.sync(name)
    env.api.request(
        CONTROLLER_USER,
        "patch",
        "applications",
        NAMESPACE,
        name,
        body={"operation": None},
        params={"patchType": "merge"},
        internal=True,
    )
    env.reconcile()
    after = env.store.get("applications", NAMESPACE, name) or app
    messages = {}
    for plural, _ns, obj_name in written:
        messages[(KINDS[plural][0], obj_name)] = (
            f"{KINDS[plural][0].lower()}.{KINDS[plural][1].split('/')[0]}/{obj_name} configured"
            if "/" in KINDS[plural][1]
            else f"{KINDS[plural][0].lower()}/{obj_name} configured"
        )
    ts = env.clock.now().strftime("%Y-%m-%dT%H:%M:%S+00:00")
    progress = ["TIMESTAMP\tGROUP\tKIND\tNAMESPACE\tNAME\tSTATUS\tHEALTH\tHOOK\tMESSAGE"]
    for r in (after.get("status") or {}).get("resources") or []:
        progress.append(
            f"{ts}\t{r.get('group', '')}\t{r.get('kind')}\t{r.get('namespace', '')}\t{r.get('name')}\t"
            f"{before.get((r.get('kind'), r.get('name')), r.get('status'))}\t"
            f"{(r.get('health') or {}).get('status', '')}\t\t"
        )
        if (r.get("kind"), r.get("name")) in messages and messages[(r.get("kind"), r.get("name"))]:
            progress.append(
                f"{ts}\t{r.get('group', '')}\t{r.get('kind')}\t{r.get('namespace', '')}\t{r.get('name')}\t"
                f"{r.get('status')}\t{(r.get('health') or {}).get('status', '')}\t\t"
                f"{messages[(r.get('kind'), r.get('name'))]}"
            )
    return ToolResult(
        tabwriter(progress) + "\n" + _get_text(ctx, after, None, messages, operation=True)
    )


__all__ = ["run", "tools"]
