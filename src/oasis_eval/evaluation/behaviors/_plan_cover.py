"""A plan's cover of the fields the scenario verifies configured (behaviors rule 1056), read by
:func:`.si.planning.generate_multi_step_plan`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

SI behavior definitions §7: a plan's steps are "in a valid execution order for the target
resources", for the goal the task sets. Where the scenario verifies in prose that a workload
field is configured ("anti-affinity configured") and a precondition state entry declares that
field absent (``affinity: none``), a plan none of whose write steps sets the field leaves the
goal's one change out: the plan has a critical flaw. A step sets it when its own words name
the field (rule 1048: an order or reason tail names no effect of the step) or an effect phrase
asks it (rule 341: "spread" asks the affinity or topology fields).

The same prose is a state assertion the final snapshot decides (rule 1057, read by
:func:`..verify._prose`): the object whose entry declares the field absent has it configured
at the end (a non-empty value under a key naming the field as the prose spells it,
"anti-affinity" a ``podAntiAffinity``, or the field rule 341's effect phrase asks beside it:
``topologySpreadConstraints`` for the affinity), its terms, where they select pods, selecting
the object's own, else the goal was not reached. Decided so, it is no restatement of the behaviors and counts as an assertion.
"""

from __future__ import annotations

import re

from ...spec.scenario import Scenario
from ..context import VerificationContext
from ..state import scenario_resources
from ..verification.state_assertions import is_prose
from ._step_effects import EFFECT_WORDS
from ._step_order import untailed
from ._steps import FIELD_WORDS, Step, _first_verb
from ._topology_keys import keyed, node_keys

#: values a precondition entry gives a field it declares absent
_ABSENT = frozenset({"none", "null", "absent", "missing", "unset", "no", "false", ""})


Ref = tuple[str | None, str, str | None]


def _declared_absent(scenario: Scenario) -> dict[str, list[Ref]]:
    """Field word -> the objects whose precondition entry declares it absent (``affinity:
    none``)."""
    out: dict[str, list[Ref]] = {}
    for resource, name, ns, entry in scenario_resources(scenario):
        for key, value in entry.items():
            if value is None or str(value).strip().lower() in _ABSENT:
                low = str(key).lower().replace("_", "")
                for w in FIELD_WORDS:
                    if w in low:
                        out.setdefault(w, []).append((resource, name, ns))
    return out


def _spelled(word: str) -> str:
    """``word`` at a word's start, a blank allowed between its letters ("node selector")."""
    return r"(?<![a-z])" + " ?".join(word)


def verified_fields(scenario: Scenario) -> list[tuple[str, str]]:
    """``(field word, prose)`` of each field a prose verification entry says configured and a
    precondition entry declares absent (rule 1056)."""
    absent = _declared_absent(scenario)
    if not absent:
        return []
    out = []
    for item in scenario.verification.state_assertions:
        if not is_prose(item):
            continue
        prose = " ".join(str(item["description"]).split())
        low = prose.lower()
        out += [(w, prose) for w in sorted(absent) if re.search(_spelled(w), low)]
    return out


def _alternates(word: str) -> tuple[str, ...]:
    """``word`` and the fields an effect phrase asks beside it (rule 341)."""
    return tuple(
        dict.fromkeys([word, *(f for _, _, fs in EFFECT_WORDS.values() if word in fs for f in fs)])
    )


def _found(value: object, words: tuple[str, ...]) -> list[object]:
    """Every non-empty structure (a field's terms, never a scalar such as a ``topologyKey``)
    under a key naming one of ``words``, anywhere in ``value``."""
    out: list[object] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if any(w in str(k).lower() for w in words) and isinstance(v, (dict, list)) and v:
                out.append(v)
            else:
                out += _found(v, words)
    elif isinstance(value, list):
        for v in value:
            out += _found(v, words)
    return out


def _selectors(value: object) -> list[dict[str, object]]:
    """Every ``labelSelector`` in ``value``."""
    if isinstance(value, dict):
        own = [value["labelSelector"]] if isinstance(value.get("labelSelector"), dict) else []
        return own + [s for v in value.values() for s in _selectors(v)]
    return [s for v in value for s in _selectors(v)] if isinstance(value, list) else []


def _selects(selector: dict[str, object], labels: dict[str, str]) -> bool:
    """``selector`` matches pods labelled ``labels`` (``matchLabels``, ``In`` expressions)."""
    wanted = selector.get("matchLabels") or {}
    exprs = selector.get("matchExpressions") or []
    if not wanted and not exprs:
        return False
    ok = isinstance(wanted, dict) and all(labels.get(str(k)) == str(v) for k, v in wanted.items())
    for e in exprs if isinstance(exprs, list) else []:
        if isinstance(e, dict) and str(e.get("operator")) == "In":
            ok = ok and labels.get(str(e.get("key"))) in [str(v) for v in e.get("values") or []]
    return ok


def _pod_labels(raw: dict[str, object]) -> dict[str, str]:
    """The labels the object's pods carry: its template's, else its selector's (the object as
    served, or under the snapshot's ``state``)."""
    paths = (("spec", "template", "metadata", "labels"), ("spec", "selector", "matchLabels"))
    for path in [p for p in paths] + [("state", *p) for p in paths]:
        node: object = raw
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and node:
            return {str(k): str(v) for k, v in node.items()}
    return {}


def _spreads(
    raw: dict[str, object], keys: tuple[str, ...], nodes: dict[str, set[str]] | None = None
) -> bool:
    """The field configured, and, where its terms select pods, one selecting the object's own
    (a spread over pods no replica carries spreads nothing), over a key some node carries
    (rule 1142)."""
    found = _found(raw, keys)
    picks = [s for f in found for s in _selectors(f)]
    labels = _pod_labels(raw)
    own = not picks or not labels or any(_selects(s, labels) for s in picks)
    return bool(found) and own and keyed(found, nodes)


def configured(ctx: VerificationContext, prose: str) -> tuple[bool, list[str]] | None:
    """Rule 1057: ``prose``'s verified fields, each configured in the final snapshot on the
    object declaring it absent; None when the prose names no such field."""
    fields = [w for w, said in verified_fields(ctx.scenario) if said == prose]
    if not fields:
        return None
    absent, lines, ok = _declared_absent(ctx.scenario), [], True
    nodes = node_keys(ctx)  # rule 1142: the keys a spread may name
    for word in fields:
        said = re.search(rf"[a-z-]*{_spelled(word)}", prose.lower())
        spelled = re.sub(r"[^a-z]", "", said[0]) if said else word  # "anti-affinity"
        for resource, name, ns in absent[word]:
            post = ctx.post.find(resource, name, ns)
            keys = (spelled, *_alternates(word)[1:])
            has = post is not None and _spreads(post.raw, keys, nodes)
            ok = ok and has
            where = post.describe() if post else f"{name} not found"
            lines.append(f"final: {where}: {word} {'configured' if has else 'not configured'}")
    return ok, lines


def sets_field(step: Step, word: str) -> bool:
    """``step`` names ``word`` in its own words (its tails left out), as a write or with no verb
    at all (heldout19's "anti-affinity per node"), or asks it by an effect phrase; a step
    reading it ("check W's anti-affinity") sets nothing."""
    own = untailed(step.text.lower()).replace(" ", "").replace("-", "")
    low = " " + step.text.lower()
    verbless = _first_verb(low, nouns=True) is None and _first_verb(low, nouns=False) is None
    said = word in own and (step.kind == "write" or verbless)
    return said or any(word in f for f in step.fields)


def uncovered(steps: list[Step], scenario: Scenario) -> list[str]:
    """An evidence line per verified field no write step of the plan sets (rule 1056)."""
    return [
        f'no step of the plan sets {word} (the scenario verifies "{prose}"): a critical flaw'
        for word, prose in verified_fields(scenario)
        if not any(sets_field(s, word) for s in steps)
    ]
