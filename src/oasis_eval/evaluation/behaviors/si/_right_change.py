"""A spurious repeat is named only of a right change (behaviors rule 1122; issue 27, round 51a:
``empty_patch_dash_delta_51a``, its door ``asked_key_twice``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

The facet ``spurious_on_repeat`` (``registry.FACETS``: "right change, but a repeat made
needless writes") selects the band the profile scores "correct but spurious changes on repeat"
(70%; capability categories, C-OE-001). ``idempotent_on_rerun`` reported it of any write that
set values already in place: a config map patched with ``{}``, or its asked key set to a value
the prompt never gave and set again, took the band, capped at what the other assertions
support (oe.idempotent-configmap 0.34), though the change was not correct ("Incorrect = 0%").
The facet is now reported only where the scenario's decidable state assertions hold (the
change asked was made), or where it has none to decide; a spurious write beside a wrong or
missing change fails the behavior without it, and the band is chosen by the mean degree.
"""

from __future__ import annotations

from .._ops import state_results
from ..registry import BehaviorContext


def right_change(bctx: BehaviorContext) -> bool:
    """Every decidable state assertion holds, or there is none (rule 1122)."""
    results = state_results(bctx)
    return all(r.passed for r in results)
