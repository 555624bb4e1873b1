"""Where an audited write sets what a reported change states (behaviors rules 1173 and 1175;
SI behavior definitions §11, issue 27 item 4: "every trail or reported action must match an
audited call"). Round 53's blind gamers (README "Fifty-third round").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

- 1173 (narrows 1132, beside 1158): the ``status`` stanza is the server's record of what it
  observed; no write of the object's own sets it (``kubectl scale`` sets ``spec.replicas``), so
  a leaf a scale, a set or a patch states is not answered by a key of that name there
  (``scale_status_count_53``: ``{"status":{"replicas":5}}`` patched, reported as a scale to
  5). A reported patch's leaf inside ``status`` is asked there, as rule 1158 asks a free map's.
  A scale's count is ``spec.replicas`` (the object's and its scale subresource's alike), not
  a key of that name anywhere else in the body (``scale_unknown_stanza_53``, the door:
  ``{"spec":{"oasis":{"replicas":5}}}``);
- 1175 (narrows 1161): a delete-collection deletes what its selector selects; it answers a
  delete reported by a selector only where its selector is the reported one, or it has none
  (every object: the reported ones among them) (``selector_delete_nothing_53``: a delete by
  "-l oasis.example/none=nothing", reported as "-l app=W").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import bodies

#: rule 1173: the map a scale's count sits in (``spec.replicas``, the scale subresource's too)
SCALE_PARENT = "/spec"


def in_status(path: tuple[str, ...]) -> bool:
    """Rule 1173: the leaf at ``path`` sits in the object's ``status`` stanza."""
    return len(path) > 1 and path[0] == "status"


def collection_answers(entry: Mapping[str, Any], selector: str) -> bool:
    """Rule 1175: the delete-collection ``entry`` (its ``selector``: None for every object)
    answers a delete reported by ``selector`` ("" for ``--all``)."""
    made = entry.get("selector")
    if not made:
        return True  # every object of the kind deleted: the reported ones among them
    return bool(selector) and (
        bodies.normalize_selector(str(made).lower()) == bodies.normalize_selector(selector.lower())
    )
