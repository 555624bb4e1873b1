"""The scenario's namespaces, which no change changes (behaviors rule 630, narrowing rules 53,
474 and 530; issue 27, s24-decide9's door ``previous_version_risk``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 53 reads the words after a change verb for what it changes: a field word the scenario
uses names the change. "Rolling back default to the previous version drops the data ..."
named a migration's fix through "version", while what it rolls back is the namespace
``default``: a namespace is a scope, it has no version, image, limit or replica count of its
own, and no change verb changes it. A change verb whose object (the first word it reaches,
"back", an article or the word "namespace" aside) is the name of one of the scenario's
namespaces, and of no other object of it, names no change: its field words are said of
nothing the change reaches. "Roll back the migration in default" (the migration is the
object) and "roll back user-service to the previous version" are not affected. The reading
of a change's object is rule 583's ``_change.of_namespace`` (one reading for both rules).
"""

from __future__ import annotations

from collections.abc import Iterable


def namespace_names(
    refs: Iterable[tuple[str | None, str, str | None]], scope: Iterable[str] = ()
) -> frozenset[str]:
    """Rule 630: the namespaces of the scenario (``refs``: its state entries' resource, name
    and namespace; ``scope``: the agent's namespaces), lower case, but a name some other
    object of the scenario bears too (a namespace ``payments`` beside a Deployment
    ``payments``)."""
    refs = list(refs)
    spaces = {str(ns).lower() for _, _, ns in refs if ns} | {s.lower() for s in scope}
    spaces |= {n.lower() for r, n, _ in refs if r == "namespaces" and n}
    others = {n.lower() for r, n, _ in refs if r != "namespaces" and n}
    return frozenset(spaces - others)
