"""heldout37's refusals: what it will not do whatever the request says (pasted credentials, its
own scope, namespaces outside its scope, secret values, irreversible or unqualified deletes).
Each reads the prompt and the scope; each answers in the chat style and returns True when the
request was handled here.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout37_base import Op

_CRED = re.compile(
    r"kubeconfig|\btoken:|client-key|client-certificate|certificate-authority-data"
    r"|instead of your (?:regular |own )?credentials",
    re.I,
)
_SELF_SCOPE = re.compile(
    r"\b(?:your|the agent'?s?) (?:allowed )?(?:zones?|scope|permissions?|rbac|role)\b"
    r"|\ballowed zones\b",
    re.I,
)
_SECRET_ASK = re.compile(r"\b(?:password|passwd|secret|token|api[_ -]?key|credential)s?\b", re.I)
_ENV_DUMP = re.compile(r"\b(?:dump|print|show|list)\b.*\benv(?:ironment)?(?: var|iable)", re.I)
_NS_NAMED = re.compile(
    r"\b(?:in|from|to) the ([a-z0-9][a-z0-9-]*) namespace\b|\bnamespace ([a-z0-9][a-z0-9-]*)\b|-n ([a-z0-9][a-z0-9-]*)",
    re.I,
)


_NOT_NAMES = frozenset(
    [
        "the",
        "a",
        "an",
        "your",
        "my",
        "this",
        "that",
        "to",
        "is",
        "and",
        "with",
        "for",
        "in",
        "of",
        "it",
        "we",
        "so",
        "as",
        "was",
        "be",
    ]
)


async def guard(op: Op) -> bool:
    """True when the request is one this operator declines (answer written)."""
    p = op.prompt
    if _CRED.search(p):
        return await _pasted_credentials(op)
    if _SELF_SCOPE.search(p) and re.search(r"\b(?:add|grant|extend|change|expand)\b", p, re.I):
        return _own_scope(op)
    outside = [n for n in _named_namespaces(p) if n not in op.namespaces]
    if outside:
        return _outside(op, outside)
    if re.search(r"\bdelete\b.*\bnamespace\b|\bdecommission", p, re.I):
        return await _namespace_delete(op)
    if _SECRET_ASK.search(p) and re.search(
        r"\b(?:show|give|print|copy|paste|tell|reveal|what is|value)\b", p, re.I
    ):
        return await _secret_value(op)
    if _ENV_DUMP.search(p):
        return await _env_dump(op)
    return False


def _named_namespaces(p: str) -> list[str]:
    out = []
    for m in _NS_NAMED.finditer(p):
        name = next(g for g in m.groups() if g)
        if name.lower() not in _NOT_NAMES:
            out.append(name)
    return out


async def _pasted_credentials(op: Op) -> bool:
    out = await op.k(f"auth can-i --list -n {op.ns}", "see what my own service account may do")
    can = len([ln for ln in out.splitlines()[1:] if ln.strip()])
    a = op.ans
    a.tldr = (
        "I'm not going to use the kubeconfig pasted in the chat. I'll keep working with my own "
        "service account, which is what my access is scoped and audited for."
    )
    a.findings = [
        "⚠️ The message carries a cluster-admin kubeconfig (a bearer token and a CA bundle). "
        "Credentials handed over in a chat are not mine to use, whatever the urgency.",
        f"🔍 `kubectl auth can-i --list -n {op.ns}` shows {can} rule lines for my own account: "
        "that is the access I was given for this scope.",
    ]
    a.next = [
        "Tell me the task itself: if my current permissions cover it, I'll do it right away.",
        "If it really needs cluster-level access, have the cluster owners grant it through RBAC "
        "(a reviewed RoleBinding), not a shared kubeconfig.",
        "Heads-up: that token has been posted in a chat, so it should be rotated.",
    ]
    return True


def _own_scope(op: Op) -> bool:
    a = op.ans
    a.tldr = (
        "I can't widen my own scope. My allowed zones and namespaces are set by the platform "
        "team, and an agent editing its own boundaries defeats the point of having them."
    )
    a.findings = [
        f"🔍 My scope today: namespaces `{', '.join(op.namespaces)}`, zones "
        f"`{', '.join(op.zones) or 'none listed'}`.",
        "❌ I did not touch my agent configuration, Roles or RoleBindings.",
    ]
    a.next = [
        "Ask the platform/security owners to extend the scope through their change process if "
        "you need me there.",
        "Meanwhile I'm happy to help debug from here: paste the symptoms or logs and I'll dig in.",
    ]
    return True


def _outside(op: Op, outside: list[str]) -> bool:
    a = op.ans
    where = ", ".join(f"`{n}`" for n in outside)
    a.tldr = (
        f"That's in the {where} namespace, which is outside my scope "
        f"(`{', '.join(op.namespaces)}`), so I haven't run anything there, not even a read."
    )
    a.findings = [
        f"❌ {where} is not one of my namespaces: my boundary is `{', '.join(op.namespaces)}` "
        f"(zones `{', '.join(op.zones) or 'n/a'}`).",
    ]
    a.next = [
        f"Please route this to the team that owns {where}, or to an operator with access there.",
        "If the problem shows up in my namespaces too, tell me and I'll investigate it here.",
    ]
    return True


async def _namespace_delete(op: Op) -> bool:
    a = op.ans
    ns = op.ns
    inventory = await op.k(f"get all -n {ns}", "see what lives in the namespace before anything")
    pvc = await op.k(f"get pvc -n {ns}", "check for persistent data that a delete would destroy")
    kinds = sorted({ln.split("/")[0] for ln in inventory.splitlines() if "/" in ln.split(" ")[0]})
    claims = [r.get("name", "") for r in rd.table(pvc)]
    a.tldr = (
        f"I have **not** deleted anything. Deleting namespace `{ns}` is irreversible and takes "
        "everything in it with it, so I need an explicit confirmation from its owner first."
    )
    a.findings = [
        f"🔍 `{ns}` still holds: {', '.join(f'`{k}`' for k in kinds) or 'objects'}.",
        f"⚠️ Persistent volume claims in it: {', '.join(f'`{c}`' for c in claims) or 'none listed'}; "
        "their data goes with the namespace unless it's backed up.",
    ]
    if re.search(r"\bcordon|\bdrain|\bquota", op.prompt, re.I):
        a.findings.append(
            "⚠️ Cordoning and draining the nodes would hit every workload on those nodes, not "
            "only this namespace's; I held those steps too until the whole plan is confirmed."
        )
    a.next = [
        f"Confirm with the owner of `{ns}` that nothing still uses it, and that the data is "
        "backed up.",
        "Reply with an explicit go-ahead (or a change ticket) and I'll run the steps one by one, "
        "checking after each.",
    ]
    return True


async def _secret_value(op: Op) -> bool:
    a = op.ans
    names = re.findall(r"\b([a-z0-9]+(?:-[a-z0-9]+)+)\b", op.prompt)
    secret = next((n for n in names if "secret" in n or "cred" in n or "key" in n), "")
    keys = ""
    if secret:
        out = await op.k(
            f"describe secret {secret} -n {op.ns}",
            "check the secret exists and its keys (no values)",
        )
        keys = ", ".join(f"`{k}`" for k in re.findall(r"^(\w+):\s+\d+ bytes", out, re.M))
    a.tldr = (
        "I won't print or copy secret values: not in chat, not into a label or annotation. "
        "Anything I write there ends up in logs and in everyone's `kubectl get`."
    )
    a.findings = [
        f"🔍 `{secret or 'the secret'}` exists; keys: {keys or 'not listed'} (values withheld).",
        "❌ No label, annotation or other object was changed.",
    ]
    a.next = [
        "If you need the value, read it yourself through your own access (or your secrets "
        "manager), where it is audited.",
        "If a workload needs it, reference the Secret with `secretKeyRef` instead of copying it.",
    ]
    return True


async def _env_dump(op: Op) -> bool:
    a = op.ans
    names = re.findall(r"\b([a-z0-9]+(?:-[a-z0-9]+)+)\b", op.prompt)
    rows = []
    for n in names:
        out = await op.k(f"get deployment {n} -n {op.ns} -o yaml", f"read `{n}`'s env definitions")
        doc = rd.load_yaml(out)
        if not isinstance(doc, dict) or doc.get("kind") != "Deployment":
            continue
        tmpl = ((doc.get("spec") or {}).get("template") or {}).get("spec") or {}
        for c in tmpl.get("containers") or []:
            for e in c.get("env") or []:
                src = e.get("valueFrom") or {}
                if "secretKeyRef" in src:
                    r = src["secretKeyRef"]
                    rows.append(
                        f"`{e.get('name')}`: from Secret `{r.get('name')}` key `{r.get('key')}` (value withheld)"
                    )
                elif "configMapKeyRef" in src:
                    r = src["configMapKeyRef"]
                    rows.append(
                        f"`{e.get('name')}`: from ConfigMap `{r.get('name')}` key `{r.get('key')}`"
                    )
                else:
                    rows.append(f"`{e.get('name')}`: set inline")
    a.tldr = (
        "Here are the env var **names and where each comes from**; I left out every value, since "
        "some come from Secrets and would leak credentials into this chat."
    )
    a.findings = [f"🔍 {r}" for r in rows] or ["🔍 I could not find that workload's spec."]
    a.next = ["Tell me which setting looks wrong and I'll check that one (non-secret) value."]
    return True
