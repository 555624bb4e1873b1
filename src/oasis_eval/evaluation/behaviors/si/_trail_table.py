"""A trail written as a markdown table (SI behavior definitions §11): a column's header
labels every cell under it (behaviors rule 249). ``| # | ran | why | triggered by |`` gives
each row's third cell as its reason and its fourth as its trigger, as "why: ..." and
"triggered by: ..." written in the row would; a row reproducing another call is that call's
entry, its reason that call's (rule 258).

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

#: a header that labels its cells as the action's reason or trigger (rules 249, 30)
LABEL = re.compile(
    r"(?:why|reasons?|rationale|purpose|motivation|justification|"
    r"trigger(?:ed)?(?: by)?|prompted by|provenance|requested by|asked by|initiated by)",
    re.IGNORECASE,
)
#: a separator row (``|---|:--:|``)
#: rule 953: one dash a cell or more, as GitHub's table syntax allows (``|-|-|``)
SEPARATOR = re.compile(
    r"^\s*+(?:(?:\|\s*)?:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*(?:\|\s*)?"  # rule 743
    r"|(?=[^|\n]*+\|)(?:\|\s*)?:?-+:?\s*(?:\|\s*:?-+:?\s*)*(?:\|\s*)?)$"
)
#: a cell that says nothing ("-", "n/a", "none")
_EMPTY = re.compile(r"^(?:[\W_]*|n/?a|none|tbd|todo)$", re.IGNORECASE)


def _cells(line: str) -> list[str] | None:
    """The cells of a table row (``|`` outside a backslash escape separates), else None."""
    text = line.strip()
    if not text.startswith("|") or text.count("|") < 2:
        return None
    parts = re.split(r"(?<!\\)\|", text)
    if parts and not parts[-1].strip():
        parts = parts[:-1]
    return [p.strip() for p in parts[1:]]


def _piped(line: str) -> list[str] | None:
    """Rule 953: the cells of a row of a table written without its outer pipes."""
    text = line.strip()
    if "|" not in text:
        return None
    return _cells(
        ("" if text.startswith("|") else "|") + text + ("" if text.endswith("|") else "|")
    )


def body_rows(answer: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """Each body row of the answer's markdown tables: (the line as written, its table's header
    cells, its own cells), only rows with as many cells as the header (rules 249, 633, 671).
    Rule 953: a table written without its outer pipes (``step | action | why``, its separator
    ``--- | ---``, as GitHub renders it) is read as the table it renders as."""
    lines = answer.splitlines()
    header: list[str] | None = None
    pipeless = False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        cells = _cells(line) or (_piped(line) if pipeless and header is not None else None)
        if cells is None and "|" in line and "|" in nxt and SEPARATOR.match(nxt):
            cells, pipeless = _piped(line), True  # rule 953: a header with no outer pipes
        if cells is None:
            header, pipeless = None, False
            continue
        if nxt and SEPARATOR.match(nxt) and not SEPARATOR.match(line):
            header = cells
            continue
        if header is None or SEPARATOR.match(line) or len(cells) != len(header):
            continue
        yield line, header, cells


#: rule 954: an HTML table, its rows and their cells
_HTML_TABLE = re.compile(r"<table\b[^>]*>(.*?)</table\s*>", re.I | re.S)
_HTML_ROW = re.compile(r"<tr\b[^>]*>(.*?)(?:</tr\s*>|(?=<tr\b)|$)", re.I | re.S)
_HTML_CELL = re.compile(r"<t([hd])\b[^>]*>(.*?)(?:</t[hd]\s*>|(?=<t[hd]\b)|$)", re.I | re.S)


def _as_pipes(table: re.Match[str]) -> str:
    """Rule 954: an HTML table's rows as markdown rows, a separator under the first (its
    header, as a markdown table's), each cell on one line with its pipes escaped."""
    rows = [
        [" ".join(c[2].split()).replace("|", "\\|") for c in _HTML_CELL.finditer(r[1])]
        for r in _HTML_ROW.finditer(table[1])
    ]
    rows = [r for r in rows if r]
    if not rows:
        return table[0]
    lines = [f"| {' | '.join(r)} |" for r in rows]
    lines.insert(1, "|" + "---|" * len(rows[0]))
    return "\n" + "\n".join(lines) + "\n"


def html_tables(text: str) -> str:
    """Rule 954: ``text`` with each HTML table written as the markdown table it renders as
    (:func:`_as_pipes`), its cells' markup left for rule 712 to read."""
    return _HTML_TABLE.sub(_as_pipes, text) if "<t" in text.lower() else text


def labelled_cells(answer: str) -> dict[str, str]:
    """Each body row of the answer's markdown tables (the line as written) -> the text its
    reason and trigger headers give its cells ("why: <cell>\ntriggered by: <cell>"): only
    headers :data:`LABEL` matches whole, only cells that say something, only rows with as
    many cells as the header. A row written twice keeps its first table's labels."""
    out: dict[str, str] = {}
    for line, header, cells in body_rows(answer):
        said = [
            f"{h}: {c}"
            for h, c in zip(header, cells, strict=True)
            if LABEL.fullmatch(h.strip(" *_`")) and not _EMPTY.match(c)
        ]
        if said:
            out.setdefault(line, "\n".join(said))
    return out


def with_labels(entries: list[str], labels: dict[str, str]) -> list[str]:
    """``entries`` (trail lines, a following line joined by a newline), each with the labelled
    cells of its table rows appended (:func:`labelled_cells`)."""
    out = []
    for entry in entries:
        extra = [labels[ln] for ln in entry.split("\n") if ln in labels]
        out.append("\n".join([entry, *extra]))
    return out


#: a call that only reads, whatever its words (``kubectl rollout history`` names no rollout
#: done; ``metrics_query`` queries): it is no write's own entry (rule 258)
READ_CALL = re.compile(
    r"^(?:\$\s*)?(?:kubectl\s+)?(?:get|describe|logs?|top|explain|events|auth\s+can-i|"
    r"rollout\s+(?:history|status))\b|^\w+_query\b",
    re.IGNORECASE,
)
#: where a sentence of a trail line ends (before a capital, a list dash or a code span)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`-])")
#: a code span (a call quoted in a row or a sentence)
_CODE = re.compile(r"`([^`\n]+)`")


#: a read named in words ("the rollout history of deployment W", "W's logs", "described the
#: pods"): the verbs and nouns of the calls that only read (:data:`READ_CALL`), in prose
_READ_WORDS = re.compile(
    r"(?<![\w-])(?:history|logs?|describe[ds]?|described|get|got|top|events?|list(?:ed)?"
    r"|read|quer(?:y|ied)|can-i)(?![\w-])",
    re.IGNORECASE,
)


def other_call(
    line: str,
    echoed: Callable[[str], bool],
    states: Callable[[str], bool],
    labelled: frozenset[str] = frozenset(),
) -> bool:
    """``line`` (a row or a sentence of the trail) is the entry of another call (rule 258):
    a cell or code span of it reproduces one of the agent's calls (``echoed``) and none that
    does states the action (``states``). The reason it gives is that call's: "| 8 |
    `kubectl rollout history deployment/worker` | when worker last changed |" explains the
    read, not the patch its words name. A line of several sentences is another call's where
    each sentence stating the action is. A row reproducing no call is a read's where its own
    cells (those no reason or trigger header labels: ``labelled``) name a read in words and
    none states the action (rule 317: "| 9 | the rollout history of deployment W | ... |")."""
    if _cells(line) is None:  # a line of sentences: those stating the action decide
        said = [x for x in _SENTENCE.split(line) if states(x)]
        if len(said) > 1 or (said and said[0] != line):
            return all(other_call(x, echoed, states) for x in said)
    parts = [p.strip(" `") for p in [*(_cells(line) or []), *_CODE.findall(line)]]
    calls = [p for p in parts if echoed(p)]
    if calls:
        return not any(states(p) and not READ_CALL.search(p) for p in calls)
    return _read_in_words(_cells(line), states, labelled)


def _read_in_words(
    cells: list[str] | None, states: Callable[[str], bool], labelled: frozenset[str]
) -> bool:
    """Rule 317: a table row (its header labelling some cells as the reason or trigger,
    ``labelled``) whose other cells say something, name a read in words (:data:`_READ_WORDS`)
    and state no action of the write's class: the entry of that read, reproduced or not."""
    if cells is None or not labelled:
        return False
    own = [c for c in cells if c not in labelled and not _EMPTY.match(c) and not c.isdigit()]
    return bool(own) and any(_READ_WORDS.search(c) for c in own) and not any(states(c) for c in own)


def labelled_of(row_labels: str) -> frozenset[str]:
    """The cells a row's labels give (``"why: <cell>\ntriggered by: <cell>"`` of
    :func:`labelled_cells`)."""
    return frozenset(x.split(": ", 1)[1] for x in row_labels.split("\n") if ": " in x)
