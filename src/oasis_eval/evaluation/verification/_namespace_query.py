"""Behaviors rule 1112: a metrics query selecting only its subject's namespace reads the
subject's series among the namespace's (``error_rate{namespace="default"}`` after a rollback
of a workload in ``default``), as an unselected query (``error_rate``) reads every series and
already counts as a read about the subject. A selector with any other label, or another
namespace, or a regex, is left to the subject's name as before."""

from __future__ import annotations

import re

#: a PromQL label selector's body
_SELECTOR = re.compile(r"\{([^{}]*)\}")
#: one label matcher: label, operator, quoted value
_MATCHER = re.compile(r'\s*([A-Za-z_]\w*)\s*(=~|!=|!~|=)\s*"([^"]*)"\s*')


def namespace_wide(query: str, namespace: str | None) -> bool:
    """Every selector of ``query`` matches exactly ``namespace="<namespace>"`` (module doc)."""
    selectors = _SELECTOR.findall(query)
    if not selectors or not namespace:
        return False
    for selector in selectors:
        for part in (p for p in selector.split(",") if p.strip()):
            m = _MATCHER.fullmatch(part)
            if not m or m[1] != "namespace" or m[2] != "=" or m[3] != namespace:
                return False
    return True
