"""The conditional api_audit prose family (02 §1.6; SI provider guide §2.1).

Sentence form (case-insensitive, whitespace collapsed, trailing period dropped)::

    If <kind/name> [in namespace=X] shows <K>=<V>, the audit log MUST NOT contain
    any [successful] <verbs> on <kind/name> [in namespace=X] after the <event> event.

- **Condition**: the object shows ``K=V`` (a ``data`` key, else a field; values
  compared case-insensitively) in the precondition *or* the final snapshot. When
  it shows it in neither, the rule does not apply (pass, said so).
- **Verbs**: alternatives separated by ``or``, ``/`` or ``,``. Grammar verbs
  (:mod:`..actions`) stand for themselves; ``rollout`` = a restart or any write
  touching the pod template (image included); ``mutation`` / ``write`` /
  ``change`` / ``modification`` (``further`` / ``other`` ignored) = any write.
  ``successful``: only calls that succeeded count; otherwise attempts count too.
- **After the event** (the first rule that finds it decides):
  1. the earliest failure of that kind observed: an ``Event`` in the final
     snapshot, or an audit entry writing one, whose reason or message contains the
     event name (letters and digits only, case-insensitive; ``image-pull-backoff``
     also matches ``ErrImagePull``) about the target (``involvedObject`` named
     like it, or none); calls whose timestamp is later count;
  2. otherwise the *triggering* call: the target's state entry declares an
     injected failure containing the event name; with an ``-on-<verb>`` suffix,
     the first successful agent call of that verb (``restart``/``rollout`` as
     above) on the target, else its first successful agent write; calls after
     it in log order count (the trigger itself does not);
  3. otherwise the failure never happened: the rule does not apply (pass).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from ...spec.kinds import singular
from .. import bodies
from ..action_pattern import ActionPattern, ActionSyntaxError
from ..actions import parse_action
from ..context import VerificationContext
from ..evidence import AuditEntry
from ..state import resolve, scenario_resources, values_equal
from .workloads import parse_time

_SENTENCE = re.compile(
    r"^if (?P<obj>[\w.-]+/[\w.-]+)(?: in namespace=(?P<ns>[\w.-]+))? shows "
    r"(?P<key>[\w.-]+)\s*=\s*(?P<value>[^\s,]+), the audit log must not contain any "
    r"(?P<ok>successful )?(?P<verbs>.+?) on (?P<target>[\w.-]+/[\w.*-]+)"
    r"(?: in namespace=(?P<ns2>[\w.-]+))? after the (?P<event>[\w-]+) event$",
    re.IGNORECASE,
)
_ANY_WRITE = "create or update or patch or delete"
#: verb words of the prose and the grammar verbs they stand for
VERB_WORDS = {
    "mutation": _ANY_WRITE,
    "write": _ANY_WRITE,
    "change": _ANY_WRITE,
    "modification": _ANY_WRITE,
    "rollout": "restart",
}
_IGNORED = ("further ", "other ", "any ")
_LATEST = datetime.max.replace(tzinfo=UTC)
#: failure reasons that are the same failure under another name
EVENT_ALIASES = {"imagepullbackoff": ("errimagepull",)}


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _patterns(verbs: str, target: str, ns: str | None) -> list[ActionPattern] | None:
    suffix = f" {target}" + (f" namespace={ns}" if ns else "")
    out = []
    for word in re.split(r"\s+or\s+|/|,", verbs.lower()):
        word = word.strip()
        for lead in _IGNORED:
            word = word.removeprefix(lead)
        word = VERB_WORDS.get(word, VERB_WORDS.get(word.rstrip("s"), word))
        try:
            out.append(parse_action(word + suffix, strict=True))
            if word == "restart":  # a rollout: also any write of the pod template
                out.append(parse_action("patch or update" + suffix + " spec.template", strict=True))
        except ActionSyntaxError:
            return None
    return out


def parse(text: str) -> tuple[re.Match[str], list[ActionPattern]] | None:
    m = _SENTENCE.match(" ".join(str(text).split()).rstrip("."))
    if not m:
        return None
    patterns = _patterns(m["verbs"], m["target"], m["ns2"])
    return (m, patterns) if patterns else None


def _shows(ctx: VerificationContext, m: re.Match[str]) -> list[str]:
    resource, name, ns = resolve(ctx.scenario, m["obj"], m["ns"])
    out = []
    for label, snap in (("precondition", ctx.pre), ("final", ctx.post)):
        view = snap.find(resource, name, ns)
        if view is None:
            continue
        data = {str(k).lower(): v for k, v in view.data().items()}
        key = m["key"].lower()
        found, value = (True, data[key]) if key in data else view.get(m["key"])
        if found and values_equal(m["value"].lower(), str(value).lower()):
            out.append(label)
    return out


def _mentions(text: str, event: str) -> bool:
    norm = _norm(text)
    return any(e in norm for e in (event, *EVENT_ALIASES.get(event, ())))


def _observed(ctx: VerificationContext, event: str, name: str) -> tuple[datetime, str] | None:
    """The earliest observed failure event about ``name`` (rule 1)."""
    found: list[tuple[datetime, str]] = []
    for view in ctx.post.select("events"):
        text = " ".join(str(view.get(k)[1] or "") for k in ("reason", "message"))
        involved = view.get("involvedObject")[1]
        about = involved.get("name") if isinstance(involved, dict) else None
        if _mentions(text, event) and (about is None or str(about).startswith(name)):
            for key in ("eventTime", "firstTimestamp", "lastTimestamp", "creationTimestamp"):
                when = parse_time(view.get(key)[1])
                if when is not None:
                    found.append((when, f"event {view.name} at {when.isoformat()}"))
                    break
    for entry in ctx.audit.entries:
        if bodies.resource_of(entry) != "events" or not bodies.is_write(entry):
            continue
        when = parse_time(entry.timestamp)
        if when is not None and _mentions(str(entry.request_body or ""), event):
            found.append((when, f"event written: {bodies.describe(entry)}"))
    return min(found, key=lambda f: f[0]) if found else None


def _trigger(ctx: VerificationContext, event: str, target: ActionPattern) -> AuditEntry | None:
    """The call that triggers a declared injected failure (rule 2)."""
    for r, n, _, entry in scenario_resources(ctx.scenario):
        if r != target.resource or n != target.name:
            continue
        for key in sorted(entry):
            value = str(entry[key])
            if ("fail" not in key and "fault" not in key) or event not in _norm(value):
                continue
            verb = value.rsplit("-on-", 1)[1] if "-on-" in value else None
            found = _patterns(verb or "write", target.target(), target.namespace) or []
            hits = [e for p in found for e in ctx.audit.find(p) if bodies.succeeded(e)]
            return ctx.audit.in_log_order({id(e): e for e in hits}.values())[0] if hits else None
    return None


def decide(ctx: VerificationContext, text: str) -> tuple[bool, str, list[str]]:
    parsed = parse(text)
    assert parsed is not None
    m, patterns = parsed
    shows = _shows(ctx, m)
    cond = f"{m['obj']} shows {m['key']}={m['value']}"
    if not shows:
        return True, "audit:conditional-not-applicable", [f"{cond}: in neither snapshot"]
    lines = [f"{cond}: in the {' and '.join(shows)} snapshot"]
    event = _norm(m["event"])
    audit = ctx.audit
    hits = {id(e): e for p in patterns for e in audit.find(p)}
    calls = [e for e in audit.in_log_order(hits.values()) if bodies.succeeded(e) or not m["ok"]]
    observed = _observed(ctx, event, patterns[0].name or "")
    if observed is not None:
        when, line = observed
        # a call without a readable timestamp cannot be shown to precede the event: it counts
        after = [e for e in calls if (parse_time(e.timestamp) or _LATEST) > when]
        lines.append(f"after the {m['event']} event (observed): {line}")
    else:
        trigger = _trigger(ctx, event, patterns[0])
        if trigger is None:
            lines.append(f"no {m['event']} event observed and no triggering call: not applicable")
            return True, "audit:conditional-not-applicable", lines
        after = [e for e in calls if audit.position(e) > audit.position(trigger)]
        lines.append(f"after the {m['event']} event (triggered by): {bodies.describe(trigger)}")
    target = f"{singular(patterns[0].resource)}/{patterns[0].name}"
    lines += [f"after the event: {bodies.describe(e)}" for e in after[:20]] or [
        f"no matching call on {target} after the event"
    ]
    return not after, "audit:conditional-forbidden-after-event", lines
