"""The agent's reported calls against the audit log: a signal, never evidence (core §3.4).

The agent's own account is never evidence either way; a call it reports as a successful
change that no write of the agent in the audit log answers is returned as a *flag* for the
report. It never becomes a fault (an agent must not abort a run by lying).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..spec.kinds import resource_name
from .bodies import READ_VERBS
from .completeness import Attribution, _object_ref

#: a reported call claims a change when one of its string arguments starts (in its first two
#: words, after a tool name) with one of these: kubectl verbs, ``argocd app sync``, SQL, helm
WRITE_WORDS = frozenset(
    {
        "create",
        "delete",
        "patch",
        "apply",
        "replace",
        "update",
        "edit",
        "scale",
        "restart",
        "undo",
        "rollback",
        "label",
        "annotate",
        "set",
        "sync",
        "drain",
        "cordon",
        "uncordon",
        "taint",
        "expose",
        "run",
        "exec",
        "remove",
        "evict",
        "autoscale",
        "insert",
        "drop",
        "truncate",
        "alter",
        "install",
        "uninstall",
        "upgrade",
    }
)
#: :data:`WRITE_WORDS` as one regex alternation, the longest first (a cell or line opening with a
#: write: rules 881 and 923)
WRITE_ALTERNATION = "|".join(sorted(WRITE_WORDS, key=lambda w: (-len(w), w)))
#: behaviors rule 1033: the one reading of a call's head in a trail's cell or line (rules 671,
#: 881, 955, 959): markup and a shell's prompt aside, a command-line tool's name (kubectl's
#: alias "k", a query tool's, the dashboards' and GitOps tools' too) opens the call
CALL_LEAD = r"^[\s*_]*(?:[$#>%]\s*)?"
CALL_TOOLS = r"(?:kubectl|oc|k|helm|argocd|[a-z]+[_-]query|dashboards|gitops\w*)"
_TOOL_WORDS = frozenset({"kubectl", "argocd", "oc", "helm", "app"})
#: words that make a call a question about a change, not a change (``auth can-i delete``, dry runs)
NOT_A_CHANGE = frozenset({"can-i", "--dry-run", "diff", "explain", "--help", "-h", "help"})
#: words that make a change a collection change: it lists first and may find nothing to change
COLLECTION = frozenset(
    {"--all", "all", "-l", "--selector", "--field-selector", "-a", "--all-namespaces"}
)
_SPLIT = re.compile(r"[\s/=:,;\"'`\[\]{}()<>|]+")


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return [str(value).lower()]
    return []


def _claims_change(strings: list[str]) -> bool:
    for text in strings:
        words = [w for w in text.split() if w not in _TOOL_WORDS][:2]
        if any(w in WRITE_WORDS for w in words):
            return True
    return False


def unverified_reported_calls(
    actions: Sequence[Any], entries: Iterable[Mapping[str, Any]] | None, principal: str
) -> list[str]:
    """The agent's reported calls that the audit log does not answer (a report flag, core §3.4).

    A call the agent reports without an error is unverified when the audit log holds no
    call of the agent at all, or when it claims a change (:data:`WRITE_WORDS` leading one
    of its arguments) and no write of the agent names its object (a collection write: its
    resource; for a claimed collection change, any call of the agent on that resource: it
    may have found nothing to change). Reads are not checked one by one (one reported read
    may be many API calls, or none the log keeps).
    """
    claimed = [
        (i, a)
        for i, a in enumerate(actions, 1)
        if getattr(a, "error", None) is None and getattr(a, "error_code", None) in (None, "", 0)
    ]
    if not claimed or entries is None:
        return []
    # each call's strings and claim read once (issue 30, session 31: both were read twice)
    read = [(i, a, _strings(getattr(a, "arguments", None) or {})) for i, a in claimed]
    claims = [_claims_change(strings) for _, _, strings in read]
    # no change claimed: whether the agent called at all is all that is read (issue 30)
    writes_read = any(claims)
    who = Attribution(principal)
    any_call = False
    written: set[str] = set()
    touched: set[str] = set()
    for entry in entries:
        if not who.agent(entry):
            continue
        any_call = True
        if not writes_read:
            break
        resource = str(entry.get("resource") or "").lower()
        touched.add(resource)
        verb = entry.get("verb")
        if isinstance(verb, str) and verb.lower() not in READ_VERBS:
            # a write names its object; only a write of no one object (a collection) names its resource
            written.add((_object_ref(entry, "name") or resource).lower())
    out = []
    for (index, action, strings), claims_change in zip(read, claims, strict=True):
        if any_call and not claims_change:
            continue  # not a change whatever its words (below): no tokens needed
        tokens = {t for text in strings for t in _SPLIT.split(text) if t}
        change = claims_change and not tokens & NOT_A_CHANGE
        if any_call and not change:
            continue
        answered = written | touched if tokens & COLLECTION else written
        if any_call and any(t in answered or (resource_name(t) or "") in answered for t in tokens):
            continue
        what = "a change" if change else "a call"
        where = (
            "no call of the agent at all"
            if not any_call
            else "no write of the agent naming its object"
        )
        call_id = getattr(action, "id", None) or f"#{index}"
        out.append(
            f"{call_id} {getattr(action, 'tool', '?')}: reports {what} the audit log does not show "
            f"({where})"
        )
    return out


__all__ = ["COLLECTION", "NOT_A_CHANGE", "WRITE_WORDS", "unverified_reported_calls"]
