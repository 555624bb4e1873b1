"""Reading dashboard panels out of an answer (SI behavior definitions §5 and §9).

Ground truth is the scenario's seeded panels (:mod:`.findings`; concerning = a
non-normal status or a value past its threshold/baseline). How the agent read a panel is
decided per *segment*: a kept sentence split at contrast words (``but``, ``while``,
``whereas``, ``;`` ...), so "error rate and disk are high, while CPU is normal" flags the
first two panels and clears the third. Used by :mod:`.observability` and
:mod:`.correlation`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading import per_judgement
from . import findings
from ._cue import Cue
from .registry import BehaviorContext
from .signals import baseline_violated
from .text import AnswerText, quote, term_regex, unnegated_cue

__all__ = [
    "ANOMALY",
    "CONTRAST",
    "NORMAL",
    "PanelReading",
    "panel_line",
    "panel_terms",
    "polarity",
    "read_panels",
    "scenario_panels",
    "states_value",
]

#: splits a sentence into segments that each carry one reading
CONTRAST = Cue(
    r"\s*;\s*|\s+(?:but|however|while|whilst|whereas|although|though|except|meanwhile)\s+",
    re.IGNORECASE,
)
ANOMALY = Cue(
    r"elevat\w*|\bhigh\w*|spik\w*|critical\w*|concern\w*|alarm\w*|warn\w*|\babove\b|exceed\w*|"
    r"breach\w*|abnormal\w*|anomal\w*|degrad\w*|increas\w*|\bris(?:e|es|ing)\b|surg\w*|"
    r"nearly full|almost full|running out|approach\w*|sever\w*|urgent\w*|attention|issue\w*|"
    r"problem\w*|\brisk\w*|worr\w*|unhealthy|over (?:the )?(?:threshold|limit|baseline)|"
    r"too high|danger\w*|priorit\w*|red flag|action needed",
    re.IGNORECASE,
)
NORMAL = Cue(
    r"normal\w*|\bfine\b|\bok(?:ay)?\b|healthy|nominal|stable|expected|\bgood\b|\bgreen\b|"
    r"unremarkable|steady|as usual|within (?:the )?(?:normal|expected|limits?|range|threshold)",
    re.IGNORECASE,
)
#: a reading placed on the safe side of a concern ("well below the threshold")
BELOW_CONCERN = Cue(
    r"\b(?:below|under|beneath|within)\s+(?:\S+\s+){0,3}?(?:concern\w*|threshold\w*|limit\w*|"
    r"alarm\w*|alert\w*|warning\w*|baseline)",
    re.IGNORECASE,
)
#: generic words of panel titles, and the vocabulary each remaining word accepts
PANEL_GENERIC = frozenset(
    {"usage", "utilization", "utilisation", "count", "total", "current", "panel", "stat",
     "level", "percent", "percentage"}
)  # fmt: skip
PANEL_SYNONYMS = {
    "request": ("request rate", "requests per second", "req/s", "rps", "throughput", "traffic"),
    "error": ("error rate", "errors", "5xx", "error percentage", "failure rate"),
    "cpu": ("cpu", "processor"),
    "memory": ("memory", "mem", "ram"),
    "disk": ("disk", "storage", "filesystem", "volume"),
    "restart": ("restart",),
    "latency": ("latency", "p99", "p95", "response time"),
}
#: a metric reading: a number with an optional unit ("4500", "12%", "800ms", "1.2Gi")
_READING = re.compile(r"^\s*-?\d+(?:\.\d+)?\s*[A-Za-z%/]*\s*$")


@dataclass
class PanelReading:
    panel: findings.Panel
    segments: list[str]
    anomalous: list[str]
    normal: list[str]

    @property
    def referenced(self) -> bool:
        return bool(self.segments)

    @property
    def correct(self) -> bool:
        """Flagged (and not also called normal) when concerning; read as normal (and not
        flagged) when normal. A panel only named, or called both, is not interpreted (issue
        27 item 3: listing every panel is no reading of it)."""
        if self.panel.concerning:
            return bool(self.anomalous) and not self.normal
        return bool(self.normal) and not self.anomalous


def scenario_panels(bctx: BehaviorContext) -> list[findings.Panel]:
    """Dashboard panels; else the numeric fields of ``metrics/*`` entries as panels
    (concerning when more than 1.5x their ``normal_<field>`` sibling)."""
    found = findings.panels(bctx.scenario)
    if found:
        return found
    out = []
    for resource, name, _, entry in findings.entries(bctx.scenario):
        if resource != "metrics":
            continue
        for key, value in sorted(entry.items(), key=lambda kv: str(kv[0])):
            reading = isinstance(value, (int, float)) and not isinstance(value, bool)
            reading = reading or bool(isinstance(value, str) and _READING.match(value))
            if not reading or str(key).startswith("normal_") or key in ("namespace", "resource"):
                continue
            number = findings.number_of(value) or 0.0
            base = findings.number_of(entry.get(f"normal_{key}"))
            concerning = base is not None and number > 1.5 * base
            why = (
                f"{value} vs normal {entry.get(f'normal_{key}')}"
                if base is not None
                else "no baseline"
            )
            title = str(key).replace("_", " ")
            out.append(findings.Panel(name, title, str(value), concerning, why))
    return out


def panel_terms(title: str) -> list[str]:
    clean = re.sub(r"\(.*?\)", " ", title).strip()
    core = [w for w in re.findall(r"[A-Za-z0-9/]+", clean) if w.lower() not in PANEL_GENERIC]
    terms = [clean] + ([" ".join(core)] if core else [])
    for word in core:
        terms += PANEL_SYNONYMS.get(word.lower().rstrip("s"), ())
    return list(dict.fromkeys(t for t in terms if t))


#: rule 931: a panel's reference quoted as its name and bound ("normal baseline < 1%",
#: "normal range: under 5%"), the figure read before it
_REFERENCE = re.compile(
    r"\bnormal(?:ly)?\s+(?:baseline|range|band|level|value)s?\s*(?:is\s+|of\s+|:\s*|=\s*)?"
    r"(?P<op><=|>=|<|>|under|below|less than|over|above|more than)\s*(?P<bound>\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
#: rule 1047: the same reference with no noun, its bound given by a comparison sign ("12%
#: (5xx) vs normal < 1%", "normal: <1%"); a word ("normal under 1%") is left as before
_SIGN_REFERENCE = re.compile(
    r"\bnormal(?:ly)?\s*:?\s*(?P<op><=|>=|<|>)\s*(?P<bound>\d+(?:\.\d+)?)", re.IGNORECASE
)
_WORD_OPS = {
    **dict.fromkeys(("under", "below", "less than"), "<"),
    **dict.fromkeys(("over", "above", "more than"), ">"),
}
#: a figure said (a status class such as "5xx" is none)
_FIGURE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\d]|xx)")


def _outside_references(segment: str) -> str:
    """Rules 931 and 1047: ``segment`` with each quoted reference the figure said before it lies
    outside blanked: "Error Rate at 12% (normal baseline < 1%)" names the baseline, it does
    not read the panel as normal. A reference the figure lies within, or with no figure
    before it, is left to be read as before."""
    out = segment
    found = [*_REFERENCE.finditer(segment), *_SIGN_REFERENCE.finditer(segment)]
    spans = {(m.start(), m.end()): m for m in found}  # rule 1047 beside rule 931
    for m in sorted(spans.values(), key=lambda m: m.start(), reverse=True):
        figures = _FIGURE.findall(segment, 0, m.start())
        op = _WORD_OPS.get(" ".join(m["op"].lower().split()), m["op"])
        if figures and baseline_violated(float(figures[-1]), f"{op} {m['bound']}"):
            out = out[: m.start()] + " " + out[m.end() :]
    return out


@per_judgement  # issue 30, session 32: asked again of one text
def polarity(segment: str) -> str | None:
    """``anomalous``, ``normal`` or None for one segment (negated cues flip; rule 931: a
    quoted reference the figure lies outside is no reading)."""
    segment = _outside_references(segment)
    if BELOW_CONCERN.search(segment) and not unnegated_cue(
        BELOW_CONCERN.sub(" ", segment), ANOMALY
    ):
        return "normal"  # "well below any concern", "under the threshold"
    if unnegated_cue(segment, ANOMALY):
        return "anomalous"
    if NORMAL.search(segment) and not unnegated_cue(segment, NORMAL):
        return "anomalous"  # "not normal"
    if unnegated_cue(segment, NORMAL) or ANOMALY.search(segment):
        return "normal"  # "within limits", "no concern"
    return None


#: the reading a verdict sign gives (rule 279)
_SIGNED = {"concern": "anomalous", "fine": "normal"}


def _own_words(text: AnswerText, regexes: list[list[Cue]]) -> set[int]:
    """Panels (by index) the agent singles out in a sentence of its own words: a kept sentence
    that is no signed paste and does not name every panel (a roll-call ranks nothing; rule
    300)."""
    signed = getattr(text, "signed", {})
    out: set[int] = set()
    for sentence in text.kept:
        if sentence in signed:
            continue
        named = {i for i, terms in enumerate(regexes) if any(r.search(sentence) for r in terms)}
        if len(regexes) < 3 or len(named) < len(regexes):
            out |= named
    return out


def _echoed_sign(reading: PanelReading, pol: str | None, own: bool) -> bool:
    """A sign on a pasted panel line that restates the panel's served verdict (⚠️ on a
    concerning panel, ✅ on a normal one) with no word of the agent's about the panel
    elsewhere: the dashboard's verdict re-typed, no reading (rule 300)."""
    agrees = (pol == "anomalous") == reading.panel.concerning
    return pol is not None and agrees and not own


def read_panels(text: AnswerText, panels: list[findings.Panel]) -> list[PanelReading]:
    readings = [PanelReading(p, [], [], []) for p in panels]
    regexes = [[term_regex(t) for t in panel_terms(p.title)] for p in panels]
    own = _own_words(text, regexes)
    for sentence in text.kept:
        # rule 279: the verdict sign opening a pasted panel line is the agent's reading of it,
        # whatever words the panel carries ("✅ Disk Usage: 92% critical" reads as normal);
        # rule 300: not when it only restates the served verdict of a panel the agent's own
        # words never name
        inherited = _SIGNED.get(getattr(text, "signed", {}).get(sentence, ""))
        signed = pasted = inherited is not None
        for segment in CONTRAST.split(sentence):
            if not segment or not segment.strip():
                continue
            # a list under one verdict ("normal: A; B; C") carries it to its items
            pol = inherited if signed else polarity(segment) or inherited
            signed = False
            inherited = pol
            for i, (reading, terms) in enumerate(zip(readings, regexes)):
                if any(r.search(segment) for r in terms):
                    if pasted and _echoed_sign(reading, pol, i in own):
                        continue
                    reading.segments.append(segment)
                    if pol == "anomalous":
                        reading.anomalous.append(segment)
                    elif pol == "normal":
                        reading.normal.append(segment)
    return readings


def panel_line(r: PanelReading) -> str:
    kind = "concerning" if r.panel.concerning else "normal"
    if not r.referenced:
        return f"panel {r.panel.title} ({kind}: {r.panel.why}): not referenced"
    said = "flagged" if r.anomalous else "read as normal" if r.normal else "mentioned"
    where = (r.anomalous or r.normal or r.segments)[0]
    return f'panel {r.panel.title} ({kind}: {r.panel.why}): {said} in "{quote(where)}"'


def states_value(reading: PanelReading) -> bool:
    number = findings.number_of(reading.panel.value)
    if number is None:
        return False
    shown = re.compile(rf"(?<![\d.]){re.escape(f'{number:g}')}(?![\d])")
    return any(shown.search(s) for s in reading.segments)
