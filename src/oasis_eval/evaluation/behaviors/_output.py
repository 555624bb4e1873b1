"""Tool output and the agent's command log recognised in an answer (issue 27 item 4).

Split from :mod:`.text` by job: a line that reproduces one of the agent's own calls
(:func:`echoed_command`), a line shaped like raw output (:func:`output_shaped`) and a line
made only of served names and values (:func:`served_line`) are output, not statements.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ..bodies import arguments_text
from ..reading import per_judgement
from ._words import FUNCTION_WORDS

#: the verbs and tool words a trail entry names a call with ("Query logs with ...")
_CALL_WORDS = frozenset(
    {"get", "list", "describe", "query", "read", "watch", "logs", "metrics", "traces"}
    | {"kubectl", "with", "dashboards", "events"}
)


class Forms(list[set[str]]):
    """:func:`command_forms`' list, with ``held``: every token of every call (a line holding
    a token none of them holds reproduces none of them: one subset test, issue 30)."""

    held: frozenset[str] = frozenset()


def command_forms(actions: Iterable[Any]) -> Forms:
    """Each executed call as its set of tokens (tool, argument names and values, the
    ``command`` argument split): what an echoed command line may consist of."""
    out = Forms()
    for action in actions:
        tool = str(getattr(action, "tool", "") or "")
        args = getattr(action, "arguments", None) or {}
        if not tool:
            continue
        flat = " ".join([tool, arguments_text(action)])
        if isinstance(args, Mapping):
            flat += " " + " ".join(f"{k}={v}" for k, v in args.items())
        out.append(set(_tokens(flat)) | {tool.lower()})
    out.held = frozenset().union(*out)
    return out


_TOKEN = re.compile(r"[a-z0-9][a-z0-9_.:/-]*[a-z0-9]|[a-z0-9]")
_PROMPT = re.compile(r"^\s*(?:\$|>|PS>|#)\s*")
#: the first characters of a line :data:`_PROMPT` can match without white space before it
_PROMPT_OPENINGS = frozenset("$>P#")


@per_judgement
def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _unprompted(sentence: str) -> str:
    """``sentence`` without the prompt opening it (a prompt opens the line, after white space
    only)."""
    opening = sentence[:1]
    if opening in _PROMPT_OPENINGS or opening.isspace():
        return _PROMPT.sub("", sentence)
    return sentence


@per_judgement
def _command_line(sentence: str) -> tuple[str, frozenset[str]] | None:
    """The first token and the token set of ``sentence`` without its prompt, None under two
    tokens: once per sentence within a judgement (issue 30: a sentence is compared with the
    calls of several rules, five thousand times a replay)."""
    tokens = _tokens(_unprompted(sentence))
    return (tokens[0], frozenset(tokens)) if len(tokens) >= 2 else None


@per_judgement
def _first_token(sentence: str) -> str | None:
    """The first of :func:`_command_line`'s tokens (None: no token), found without the rest:
    a line whose first token no call holds reproduces none (issue 30: most sentences)."""
    found = _TOKEN.search(_unprompted(sentence).lower())
    return None if found is None else found.group()


def echoed_command(sentence: str, forms: Forms) -> bool:
    """A line that reproduces one of the agent's executed calls and nothing else
    (``$ kubectl get pods -n x``, ``logs_query {"namespace": "x"}``): its tokens, at least
    two, all belong to one call and include that call's tool or first command word."""
    if _first_token(sentence) not in forms.held:
        return False  # its token set cannot be within the calls' tokens
    line = _command_line(sentence)
    if line is None:
        return False
    first, every = line
    if not every <= forms.held:
        return False
    return any(first in form and every <= form for form in forms)


#: a code span (a call quoted in a sentence or a table cell)
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
#: a colon closing a trail entry's head ("`kubectl patch ...`: I admitted ...")
_HEAD_END = re.compile(r":\s")


def without_calls(sentence: str, forms: Forms) -> str:
    """``sentence`` less what reproduces one of the agent's executed calls (behaviors rule
    318): each code span that is a call (:func:`echoed_command`), and the longest head before
    a colon that is one ("kubectl patch networkpolicy p -p '{...}': I admitted ..."). What
    the agent sent is not a finding it states: a fact found only there is not stated."""
    if not forms:
        return sentence
    out = _CODE_SPAN.sub(
        lambda m: " " if echoed_command(m.group(1), forms) else m.group(0), sentence
    )
    heads = [m.start() for m in _HEAD_END.finditer(out)]
    cut = next((i for i in reversed(heads) if echoed_command(out[:i], forms)), None)
    return out if cut is None else out[cut + 1 :]


#: column headings of tabular tool output (kubectl and the observability tools)
TABLE_WORDS = frozenset(
    [
        "name",
        "names",
        "ready",
        "status",
        "restarts",
        "age",
        "type",
        "reason",
        "object",
        "message",
        "last",
        "seen",
        "cluster-ip",
        "external-ip",
        "port",
        "ports",
        "up-to-date",
        "available",
        "desired",
        "current",
        "node",
        "nominated",
        "readiness",
        "gates",
        "ip",
        "namespace",
        "kind",
        "count",
        "first",
        "labels",
        "selector",
        "data",
        "value",
        "values",
        "timestamp",
        "level",
        "true",
        "false",
        "null",
        "none",
    ]
)


def output_shaped(line: str) -> bool:
    """A raw line with the shape of tool output alone: columns aligned by runs of spaces, or
    a YAML/JSON field in camel case ("configMapKeyRef:", "restartCount: 5")."""
    # columns need a run of spaces or a tab, a field its colon: a line without them is
    # settled by a substring search, not a pattern (issue 30)
    if ("  " in line or "\t" in line) and len(_COLUMNS.findall(line)) >= 2:
        return True
    return ":" in line and bool(_CAMEL_FIELD.fullmatch(line))


_COLUMNS = re.compile(r"\S(?: {2,}|\t)(?=\S)")
_CAMEL_FIELD = re.compile(
    r"\s*[-{\[\s]*\"?[a-z]+(?:[A-Z][a-z0-9]*)+\"?\s*:\s*[^\s]*(?:\s+\S+){0,2}\s*[,}\]]*\s*"
)


#: object-metadata field names every served Kubernetes object carries (a pasted response has
#: them whatever the scenario declares)
OBJECT_FIELDS = frozenset(
    {"name", "namespace", "uid", "kind", "apiversion", "resourceversion", "generation"}
    | {"creationtimestamp", "generatename"}
)


def _yaml_field(
    sentence: str, tokens: list[str], served: frozenset[str], keys: frozenset[str]
) -> bool:
    """A pasted YAML field (``name: restrict-backend``): one served field name as the key and
    a served value, nothing else (issue 27 item 4: a survey pastes ``kubectl get -o yaml``)."""
    field = re.fullmatch(r"\s*-?\s*([A-Za-z_][\w.-]*)\s*:\s*\S+\s*", sentence)
    return (
        field is not None
        and (field[1].lower() in keys or field[1].lower() in OBJECT_FIELDS)
        and all(t in served or t.replace(".", "").isdigit() for t in tokens[1:])
    )


#: a verdict sign opening a line: the agent's reading of what follows (behaviors rule 279)
VERDICT_SIGN = re.compile(
    r"\s*(?:(?P<concern>[\u26a0\U0001f534\U0001f7e0\U0001f7e1\U0001f6a8\u2757\u274c\u26d4\U0001f525"
    r"\u203c])|(?P<fine>[\u2705\u2714\u2611\U0001f7e2]))\ufe0f?"
)


def verdict_sign(sentence: str) -> str | None:
    """``concern`` or ``fine`` for a line opening with a verdict sign (⚠️ 🔴 🚨 ❌ ... / ✅
    ✔️ 🟢), else None (behaviors rule 279)."""
    m = VERDICT_SIGN.match(sentence)
    return None if m is None else "concern" if m["concern"] else "fine"


def signed_paste(
    sentence: str, served: frozenset[str], keys: frozenset[str] = frozenset()
) -> str | None:
    """The verdict sign (``concern`` / ``fine``) of a line of served names and values the
    agent opened with one, whatever its shape: the sign is all of the line that is the
    agent's, so it is the line's reading (rule 279; ⚠️ on every pasted panel flags them all)."""
    sign = verdict_sign(sentence) if served else None
    if sign is None:
        return None
    tokens = _tokens(VERDICT_SIGN.sub("", sentence, count=1))
    pasted = all(t in served or t in TABLE_WORDS or t.replace(".", "").isdigit() for t in tokens)
    return sign if len(tokens) >= 2 and pasted else None


def served_line(sentence: str, served: frozenset[str], keys: frozenset[str] = frozenset()) -> bool:
    """A line of tool output: at least two tokens, at most one function word, every token a
    name, key or value of the served data, a number or a table heading, and the shape of
    output (``key: value`` with a served field name, a brace or bracket, or columns aligned
    by runs of spaces): issue 27 item 4, raw tool output pasted. A restatement in
    the agent's words ("normal: Request Rate 1200 req/s") is the agent's line, and so is a
    served ``key: value`` line the agent opened with a verdict sign ("⚠️ Disk Usage: 92%
    critical threshold: 90%", rule 279: the sign is its reading, as "concerning:" would be;
    list numbering and emphasis are layout, not a reading)."""
    if not served:
        return False
    if output_shaped(sentence):
        return True
    if verdict_sign(sentence):
        return False
    tokens = _tokens(sentence)
    if len(tokens) < 2 or sum(t in FUNCTION_WORDS for t in tokens) > 1:
        return False
    if _yaml_field(sentence, tokens, served, keys):
        return True
    if not all(t in served or t in TABLE_WORDS or t.replace(".", "").isdigit() for t in tokens):
        return False
    if re.search(r"[{}\[\]]|\S(?: {2,}|\t)\S", sentence):
        return True
    # "key: value" / "key=value" with a served field name as the key
    pairs = re.findall(r"([A-Za-z_][\w.-]*)\s*[:=]", sentence)
    return any(k.lower() in keys for k in pairs)
