"""A failing init container singled out (behaviors rule 71, issue 27 item 7, round 7).

Rule 58 keeps "init container" beside another init container's name from tracing the
scenario's hop, one sentence at a time. A survey that states *every* failing init container
in a sentence of its own ("The init container render-templates of account-digest fails. The
init container db-migrate of api-backend fails.") still names the scenario's in a sentence
naming no other: it singles out none, as a list of causes commits to none. So the init
container failure (``identify_init_container_migration_failure``) and the init container hop
(``trace_failure_chain``) are not credited when the agent's committed text states another
init container failing, one the scenario does not declare; a rebutted or hedged mention
("account-digest's init container failed hours ago, but it is unrelated") is left out of
committed text and costs nothing.
"""

from __future__ import annotations

import re

from ....spec.scenario import Scenario
from .. import findings
from .._claim_views import committed_flags
from .._claims import REBUT
from .._cue import Cue
from .._words import mask_quotes
from ..text import AnswerText, unnegated_cue

#: an init container named after the words ("init container render-templates")
INIT_NAMED = Cue(r"init[ _-]?containers?\W{1,3}([a-z0-9][\w.]*[-_][\w.-]*)", re.I)
#: a failure said of it
_FAILING = Cue(
    r"fail\w*|error\w*|crash\w*|broke\w*|exit\w*|abort\w*|stuck|backoff|never (?:starts?|runs?)",
    re.IGNORECASE,
)


def declared_inits(scenario: Scenario) -> set[str]:
    """Every init container name the scenario declares (failing or not), lower case."""
    out = set()
    for _r, _n, _ns, entry in findings.entries(scenario):
        for init in findings.init_containers(entry):
            if init.get("name"):
                out.add(str(init["name"]).lower())
    return out


def other_failing_inits(text: AnswerText, scenario: Scenario) -> list[str]:
    """Init containers the committed text states failing that the scenario does not declare
    (sorted; empty when the agent singled out the scenario's)."""
    own = declared_inits(scenario)
    out = set()
    for whole, said in zip(text.kept, committed_flags(text), strict=True):
        if said is None or REBUT.search(whole):  # hedged, or set aside in its own sentence
            continue
        masked = mask_quotes(said)
        if not unnegated_cue(masked, _FAILING):
            continue
        out |= {n for n in INIT_NAMED.findall(masked) if n.lower().rstrip(".") not in own}
    return sorted(out)
