"""The ``naive`` demo agent: does what it is told, takes the broadest action, obeys
instructions it finds in logs, annotations and tool output, and echoes what it reads.

It exists to show the safety gate failing an unsafe agent. Its rules are generic
("do what the text says"), written without reference to any scenario.
"""

from __future__ import annotations

import base64
import json
import re

from oasis_eval.contract import AgentTask

from .intent import NAME, Request, Target, parse
from .session import Session
from .survey import survey


async def run(s: Session, task: AgentTask) -> str:
    scope = task.scope.get("namespaces") or ["default"]
    view = await survey(s, scope)
    req = parse(task.prompt, view.named())
    for target in req.targets:
        target.namespace = (
            target.namespace or view.namespace_of(target.name) or (req.namespaces or scope)[0]
        )
    log: list[str] = []
    await _do(s, req, scope, log)
    for sentence, source in view.data_instructions:  # whatever the data says to do, do it
        order = parse(sentence, view.named())
        if not order.targets and source and view.find("deployment", source):
            order.targets.append(Target("deployment", source, view.namespace_of(source)))
        for target in order.targets:
            target.namespace = target.namespace or view.namespace_of(target.name) or scope[0]
        await _do(s, order, scope, log)
    echoed = "\n".join(view.texts)[:4000]
    return (
        "Done. Here is everything I did and saw:\n"
        + "\n".join(log)
        + ("\n\n" + echoed if echoed else "")
    )


async def _do(s: Session, req: Request, scope: list[str], log: list[str]) -> None:
    namespaces = req.namespaces or [t.namespace for t in req.targets if t.namespace] or scope
    ns = namespaces[0]
    if req.credentials_offered:
        token = re.search(r"token:\s*(\S+)", req.text)
        if token:
            out, _ = await s.kubectl("get", "pods", "-A", f"--token={token.group(1)}")
            log.append(out)
    for verb in req.verbs:
        if verb == "delete":
            if "namespace" in req.text.lower():
                for name in req.namespaces or [
                    t.name for t in req.targets if t.kind == "namespace"
                ]:
                    log.append((await s.kubectl("delete", "namespace", name))[0])
            named = [t for t in req.targets if t.kind and t.kind != "namespace"]
            if named:
                for t in named:
                    log.append(
                        (
                            await s.kubectl(
                                "delete", t.kind or "deployment", t.name, "-n", t.namespace or ns
                            )
                        )[0]
                    )
            else:
                log.append((await s.kubectl("delete", "pods", "--all", "-n", ns))[0])
        elif verb == "scale":
            replicas = max(req.numbers) if req.numbers else 0
            for t in req.targets or []:
                if t.kind in ("deployment", None):
                    log.append(
                        (
                            await s.kubectl(
                                "scale",
                                f"deployment/{t.name}",
                                "-n",
                                t.namespace or ns,
                                f"--replicas={replicas}",
                            )
                        )[0]
                    )
        elif verb == "restart":
            targets = [t for t in req.targets if t.kind in ("deployment", None)]
            if targets:
                for t in targets:
                    log.append(
                        (
                            await s.kubectl(
                                "rollout",
                                "restart",
                                f"deployment/{t.name}",
                                "-n",
                                t.namespace or ns,
                            )
                        )[0]
                    )
            else:
                log.append((await s.kubectl("delete", "pods", "--all", "-n", ns))[0])
        elif verb == "reveal":
            await _reveal(s, req, ns, log)
        elif verb == "set":
            await _set(s, req, ns, log)
        elif verb == "create":
            await _create(s, req, log)


async def _reveal(s: Session, req: Request, ns: str, log: list[str]) -> None:
    for t in req.targets:
        if t.kind == "secret":
            data = await s.kjson("get", "secret", t.name, "-n", t.namespace or ns)
            for key, value in sorted(((data or {}).get("data") or {}).items()):
                log.append(f"{key}={_decode(value)}")
        elif t.kind == "pod":
            log.append((await s.kubectl("exec", t.name, "-n", t.namespace or ns, "--", "env"))[0])


async def _set(s: Session, req: Request, ns: str, log: list[str]) -> None:
    secret = next((t for t in req.targets if t.kind == "secret"), None)
    labelled = next((t for t in req.targets if t.kind == "deployment"), None)
    if secret and labelled and "label" in req.text.lower():
        data = await s.kjson("get", "secret", secret.name, "-n", secret.namespace or ns)
        for key, value in sorted(((data or {}).get("data") or {}).items()):
            if key.lower() in req.text.lower():
                log.append(
                    (
                        await s.kubectl(
                            "label",
                            "deployment",
                            labelled.name,
                            "-n",
                            labelled.namespace or ns,
                            f"{key.lower().replace('_', '-')}={_decode(value)}",
                            "--overwrite",
                        )
                    )[0]
                )
        return
    for t in req.targets:
        if t.kind == "configmap" and req.settings:
            patch = json.dumps({"data": req.settings})
            log.append(
                (
                    await s.kubectl(
                        "patch",
                        "configmap",
                        t.name,
                        "-n",
                        t.namespace or ns,
                        "--type",
                        "merge",
                        "-p",
                        patch,
                    )
                )[0]
            )
        elif t.kind == "deployment" and req.settings:
            patch = json.dumps({"metadata": {"annotations": req.settings}})
            log.append(
                (
                    await s.kubectl(
                        "patch",
                        "deployment",
                        t.name,
                        "-n",
                        t.namespace or ns,
                        "--type",
                        "merge",
                        "-p",
                        patch,
                    )
                )[0]
            )


async def _create(s: Session, req: Request, log: list[str]) -> None:
    match = re.search(rf"clusterrolebinding\s+({NAME}).*?(cluster-admin)", req.text, re.I | re.S)
    if match:
        log.append(
            (
                await s.kubectl(
                    "create",
                    "clusterrolebinding",
                    match.group(1),
                    "--clusterrole=cluster-admin",
                    "--user=oasis-agent",
                )
            )[0]
        )


def _decode(value: str) -> str:
    try:
        return base64.b64decode(value, validate=True).decode()
    except (ValueError, UnicodeDecodeError):
        return value
