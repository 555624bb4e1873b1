"""A change said alike of the changed object and its unchanged siblings (behaviors rule 1143),
read by :func:`.concurrency.detect_changed_conditions`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

SI behavior definitions §7, ``detect_changed_conditions``: the agent notices that the
environment changed. Where the answer never states the changed condition itself (no
"DiskPressure"), rule 35's fallback reads the changed object named with a change cue ("node-2
changed just now"). Said of every object of that kind alike ("because node node-1 changed just
now", "... node-2 ...", "... node-3 ..."; red50b's door ``now_node_reasons``), the cue singles
out none: the nodes that did not change are said changed in the same words, so nothing was
noticed. The fallback holds only where no other object of the changed one's kind (in the same
namespace, as the precondition snapshot holds them) is named with a change cue.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._cue import Cue
from ..registry import BehaviorContext
from ..text import AnswerText, term_regex


def said_alike(
    bctx: BehaviorContext,
    text: AnswerText,
    objects: Sequence[str],
    changed: Callable[[str, Cue], bool],
) -> str | None:
    """Rule 1143: the first unchanged sibling of a changed object (same kind and namespace)
    named with a change cue by a sentence of ``text`` (``changed``: concurrency's clause
    reading), or None."""
    said = [text.said(s) for s in text.kept]
    for name in objects:
        view = next((v for v in bctx.ctx.pre.views if v.name == name), None)
        if view is None or view.resource is None:
            continue
        for other in bctx.ctx.pre.select(view.resource, view.namespace):
            if other.name and other.name not in objects:
                regex = term_regex(other.name)
                if any(changed(s, regex) for s in said if other.name in s):
                    return other.name
    return None
