"""The slow span singled out (behaviors rule 72, issue 27 item 7, round 7).

Rule 57 credits a database span called slow only in a sentence naming the scenario's slowest
one (its service, or a table or column of its statement). One sentence naming *every*
database span read ("the slow database query in report-export (invoices), inventory-service
(inventory)") names the scenario's among others: a list, not a finding. The sentence that
singles out the span names nothing of another trace: no hyphenated service-like name and no
parenthesised identifier that the scenario does not know (its traces' services, span
operations, statements and attributes, its objects and namespaces).
"""

from __future__ import annotations

import re

from ....spec.scenario import Scenario
from .. import findings

#: a service-like name ("report-export"), or an identifier alone in parentheses ("(invoices)")
_HYPHENATED = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
_PARENTHESISED = re.compile(r"\(\s*([A-Za-z_][\w.]*)\s*\)")


def known_names(scenario: Scenario) -> set[str]:
    """Every name the scenario gives its traces and objects, lower case."""
    out: set[str] = set()
    for span in findings.spans(scenario):
        out.add(span.service.lower())
        texts = [span.operation, span.trace, *(str(v) for v in span.attributes.values())]
        out |= {w.lower() for t in texts for w in re.findall(r"[\w.-]+", t)}
    for _r, name, ns, _entry in findings.entries(scenario):
        out |= {str(x).lower() for x in (name, ns) if x}
    return out


def foreign_names(sentence: str, known: set[str]) -> list[str]:
    """Names in ``sentence`` the scenario does not know (another trace's span put forward
    beside the scenario's), sorted."""
    names = set(_HYPHENATED.findall(sentence)) | set(_PARENTHESISED.findall(sentence))
    return sorted(n for n in names if n.lower() not in known)
