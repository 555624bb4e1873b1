"""A structured (JSON) answer read as the agent's words (issue 27, fairness; behaviors
rules 370-373).

Many shipped LLM agents answer with a JSON response schema: one object (``summary``,
``root_cause``, ``actions_taken`` ...). Every string value of it is a double-quoted span, so the
text primitives would read the whole answer as quotation (rule 21), and one statement spread
over sibling keys on separate lines line by line. :func:`as_words` renders such an answer into
the lines a person would have written, once, before any evaluator reads it (the hook is
:func:`answer_evidence`, called by ``verify_scenario``):

- a string value unquoted after its key read as a label in words ("root cause: ...");
- an object of scalars as ONE line joining its keys ("command: ...; why: ...; before: ...");
- an object of a candidate and its reason as "<label>: <candidate>, because <reason>";
- a list of strings one line each (a "1. ..." item stays a plan step, others become "- ...");
- a boolean with its key ("escalation needed: no"), null as "none".

The agent's own order is kept (nothing is sorted). A subtree reproducing a JSON tool result the
agent was served (deep-equal to a subtree of one) is tool output, not its words: it is left
out, as pasted tool output is set aside in plain text (rule 373; rules 316, 270). So are the
keys of an object holding a served object's every key with its served value, keys of its own
added (rule 411): only the added keys are read.
Deterministic: a pure function of the answer and the reported tool results.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import yaml

from ...spec.yaml_io import safe_load
from ._markdown import as_words as markdown_words

if TYPE_CHECKING:
    from ..evidence import ScenarioEvidence

#: a whole answer that is one fenced block (```json ... ```)
_FENCED = re.compile(r"\A```[A-Za-z]*[ \t]*\n(?P<body>.*)\n```\s*\Z", re.S)
#: a list item that already carries its marker ("1. ...", "- ...")
_MARKED = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s")
#: the keys holding the text of their object: it is said under the object's own label
_TEXT_KEYS = ("statement", "text", "description", "summary", "detail", "message")
#: the keys holding the reason for the other value of a two-key object (rule 371)
_REASON_KEYS = frozenset({"reason", "because", "rationale", "why"})
#: a subtree must have at least this many scalars to count as a reproduced tool result
_ECHO_LEAVES = 3
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

Scalar = str | int | float | bool | None


def parsed(text: str) -> dict[str, Any] | list[Any] | None:
    """The JSON object or array the whole answer is (or one fenced block that is the whole
    answer holds), else None (rule 370)."""
    body = (text or "").strip()
    fenced = _FENCED.match(body)
    if fenced:
        body = fenced["body"].strip()
    if not body or body[0] not in "{[":
        return None
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value if isinstance(value, (dict, list)) and value else None


def label(key: str) -> str:
    """A key as its label in words: ``root_cause`` -> "root cause", ``triggeredBy`` ->
    "triggered by"."""
    words = _CAMEL.sub(" ", str(key)).replace("_", " ").replace("-", " ")
    return " ".join(words.split()).lower()


def _scalar(value: Scalar) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return " ".join(str(value).split()) if isinstance(value, str) else json.dumps(value)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(_leaves(v) for v in value)
    return 1


#: the served objects of :data:`_ECHO_LEAVES` scalars or more, by their set of keys
Objects = dict[frozenset[str], list[dict[str, Any]]]


def served_subtrees(results: Iterable[str]) -> tuple[frozenset[str], Objects]:
    """The canonical form of every object or array (of :data:`_ECHO_LEAVES` scalars or more)
    inside the tool results that parse as JSON or YAML (rule 373), and those objects by their
    keys (rule 411)."""
    out: set[str] = set()
    objects: Objects = {}

    def walk(value: Any) -> None:
        if isinstance(value, (dict, list)):
            if _leaves(value) >= _ECHO_LEAVES:
                canon = json.dumps(value, sort_keys=True)
                if isinstance(value, dict) and canon not in out:
                    objects.setdefault(frozenset(value), []).append(value)
                out.add(canon)
            for v in value.values() if isinstance(value, dict) else value:
                walk(v)

    for result in results:
        value = parsed(result)
        walk(value if value is not None else _yaml(result))
    return frozenset(out), objects


def _holds(answer: Any, served: Any) -> bool:
    """``answer`` carries every key of ``served`` with its served value, at every depth, keys
    of its own added (a list item by item): rule 411."""
    if isinstance(served, dict):
        return isinstance(answer, dict) and all(
            k in answer and _holds(answer[k], v) for k, v in served.items()
        )
    if isinstance(served, list):
        return (
            isinstance(answer, list)
            and len(answer) == len(served)
            and all(_holds(a, v) for a, v in zip(answer, served, strict=True))
        )
    return json.dumps(answer) == json.dumps(served)


def _yaml(text: str) -> Any:
    """A YAML tool result (``kubectl get -o yaml``) as data, its scalars as JSON would carry
    them (a timestamp as its text), else None."""
    if ":" not in text:
        return None
    try:
        value = safe_load(text)  # the bounded loader: a tool result may be an alias bomb
    except yaml.YAMLError:
        return None
    return json.loads(json.dumps(value, default=str)) if isinstance(value, (dict, list)) else None


def served_words(states: Iterable[Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The keys and the string values of the state the environment serves (the snapshot's
    resources), lower case: an object made only of them is a served response (rule 373)."""
    keys: set[str] = set()
    values: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            keys.update(str(k).lower() for k in value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and value.strip():
            values.add(" ".join(value.split()).lower())

    for state in states:
        walk(state)
    return frozenset(keys), frozenset(values)


class _Renderer:
    """The lines of one structured answer (module doc)."""

    def __init__(
        self,
        served: tuple[frozenset[str], Objects],
        words: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
    ):
        self.served, self.objects = served
        self.keys, self.values = words
        self.lines: list[str] = []

    def unserved(self, value: dict[str, Any]) -> dict[str, Any]:
        """``value`` without the keys of every served object it holds (:func:`_holds`): a
        served response re-typed with keys added is tool output, the added keys the agent's
        (rule 411)."""
        keys = frozenset(value)
        drop: set[str] = set()
        for served_keys in self.objects:
            if (
                served_keys <= keys
                and not served_keys <= drop
                and any(_holds(value, obj) for obj in self.objects[served_keys])
            ):
                drop |= served_keys
        return {k: v for k, v in value.items() if k not in drop} if drop else value

    def served_object(self, run: dict[str, Any]) -> bool:
        """An object of scalars whose every key is a served key and every string value a
        served value, one string at least (rule 373): a served response, however rendered."""
        texts = [" ".join(v.split()).lower() for v in run.values() if isinstance(v, str)]
        return (
            bool(texts)
            and all(str(k).lower() in self.keys for k in run)
            and all(t in self.values for t in texts)
        )

    def echoed(self, value: Any) -> bool:
        return (
            bool(self.served)
            and isinstance(value, (dict, list))
            and _leaves(value) >= _ECHO_LEAVES
            and json.dumps(value, sort_keys=True) in self.served
        )

    def value(self, value: Any, name: str) -> None:
        """``value`` under the label ``name`` ("" at the top)."""
        if self.echoed(value):
            return
        if isinstance(value, dict) and self.objects:
            value = self.unserved(value)
            if not value:
                return
        if _is_scalar(value):
            self.scalar(value, name)
        elif isinstance(value, list):
            self.items(value, name)
        else:
            self.mapping(value, name)

    def scalar(self, value: Scalar, name: str) -> None:
        text = value.strip() if isinstance(value, str) else _scalar(value)
        if not text:
            return
        if value is False and name:  # "no escalation needed" (rule 370)
            self.lines.append(f"no {name}")
            return
        first, *rest = text.splitlines()
        self.lines.append(f"{name}: {first.strip()}" if name else first.strip())
        self.lines.extend(line for line in rest if line.strip())

    def items(self, values: list[Any], name: str) -> None:
        """A list: its label on a line of its own, then each item one line (rule 370)."""
        if self.objects:  # rule 411: a served object with keys added, its added keys only
            values = [self.unserved(v) if isinstance(v, dict) else v for v in values]
            values = [v for v in values if v != {}]
        if not values:
            return
        flat = [
            item
            for item in values
            if isinstance(item, dict) and item and all(_is_scalar(v) for v in item.values())
        ]
        reasoned = [line for item in flat if (line := self.reasoned(item, name))]
        # which items are flat, by identity: an item equal to a flat one is flat itself, and
        # ``item in flat`` compared each item with every flat one (issue 30)
        flat_ids = {id(item) for item in flat}
        if name and len(reasoned) < len(values):
            self.lines.append(f"{name}:")
        for item in values:
            if self.echoed(item):
                continue
            if isinstance(item, str) and "\n" in item.strip():
                self.scalar(item, "")  # a text of several lines keeps them (a pasted output)
            elif _is_scalar(item):
                text = _scalar(item)
                self.lines.append(text if _MARKED.match(text) else f"- {text}")
            elif isinstance(item, dict) and id(item) in flat_ids and self.served_object(item):
                continue
            elif isinstance(item, dict) and id(item) in flat_ids:
                line = self.reasoned(item, name) or self.subject_line(item, name)
                line = line or self.one_line(item, "")
                self.lines.append(line if line.startswith(f"{name}: ") else f"- {line}")
            else:
                self.value(item, "")

    def mapping(self, value: dict[str, Any], name: str) -> None:
        """An object: of scalars, one line; else its text key under its own label, its other
        scalars on one line, its nested values each under their label (rules 370, 371)."""
        if all(_is_scalar(v) for v in value.values()):
            line = "" if self.served_object(value) else self.one_line(value, name)
            if line:
                self.lines.append(line)
            return
        run: dict[str, Any] = {}  # consecutive scalars, one line, in the agent's order
        for key, child in [*value.items(), ("", [])]:
            if _is_scalar(child):
                if label(key) in _TEXT_KEYS:  # the statement a line of its own
                    self.flush(run, name)
                    self.scalar(child, name)
                else:
                    run[key] = child
                continue
            self.flush(run, name)
            if key:
                self.value(child, " ".join(x for x in (name, label(key)) if x))

    def flush(self, run: dict[str, Any], name: str) -> None:
        if run and not self.served_object(run):
            line = self.one_line(dict(run), name)
            if line:
                self.lines.append(line)
            run.clear()

    @staticmethod
    def reasoned(value: dict[str, Any], name: str) -> str | None:
        """A two-key object of a candidate and its reason under ``name`` as "<name>:
        <candidate>, because <reason>" (rule 371: ``{"hypothesis": H, "reason": R}`` in
        ``ruled_out`` is "ruled out: H, because R"), else None."""
        keys = [k for k, v in value.items() if isinstance(v, str) and v.strip()]
        if len(keys) != len(value):
            return None
        reason = [k for k in keys if label(k) in _REASON_KEYS]
        if not name or len(keys) != 2 or len(reason) != 1:
            return None
        other = next(k for k in keys if k != reason[0])
        return f"{name}: {_scalar(value[other])}, because {_scalar(value[reason[0]])}"

    @staticmethod
    def subject_line(value: dict[str, Any], name: str) -> str | None:
        """An item of the list ``name`` whose key names the item (the list's label in the
        singular, ``name`` or ``title``: ``panels: [{"panel": P, "value": V, "status": S}]``)
        as "<P>: value V, status S": one statement about its subject, no ";" splitting it
        (rule 372), else None."""
        singular = name.split(" ")[-1].removesuffix("s") if name else ""
        keys = [k for k in value if label(k) in (singular, "name", "title") and value[k]]
        if not keys or not isinstance(value[keys[0]], str):
            return None
        rest = [f"{label(k)} {_scalar(v)}" for k, v in value.items() if k != keys[0] and v != ""]
        return f"{_scalar(value[keys[0]])}: {', '.join(rest)}" if rest else None

    def one_line(self, value: dict[str, Any], name: str) -> str:
        """An object of scalars as one line (rule 370): "<candidate>, because <reason>"
        (:meth:`reasoned`); else its text key said under ``name``, then each other key as
        "label: value", joined by "; " in the agent's order."""
        because = self.reasoned(value, name)
        if because:
            return because
        keys = [k for k, v in value.items() if v != ""]
        text = next((k for k in keys if label(k) in _TEXT_KEYS), None)
        parts = [f"{label(k)}: {_scalar(value[k])}" for k in keys if k != text]
        if text is not None:
            head = f"{name}: {_scalar(value[text])}" if name else _scalar(value[text])
            return "; ".join([head, *parts])
        if name and parts:
            # rule 370: a false flag reads with its negation first ("no escalation needed")
            no = value[keys[0]] is False
            parts[0] = f"no {name} {label(keys[0])}" if no else f"{name} {parts[0]}"
        return "; ".join(parts)


def as_words(text: str, results: Iterable[str] = (), states: Iterable[Any] = ()) -> str | None:
    """The structured answer ``text`` rendered into lines of words (module doc), subtrees
    reproducing a JSON tool result among ``results`` and objects made of the served
    ``states``' keys and values left out; None when ``text`` is not a JSON object or array
    (rule 370)."""
    value = parsed(text)
    if value is None:
        return None
    renderer = _Renderer(served_subtrees(results), served_words(states))
    renderer.value(value, "")
    return "\n".join(renderer.lines)


def answer_evidence(evidence: ScenarioEvidence) -> ScenarioEvidence:
    """``evidence`` with a structured final answer read as words (:func:`as_words`), or a
    markdown answer with tables (:func:`._markdown.as_words`, rules 400-403), else unchanged:
    the one hook, before any evaluator reads the answer (rule 370). The stored evidence and
    the report keep the answer as written."""
    transcript = evidence.transcript
    words = as_words(
        transcript.final_answer,
        (a.result for a in transcript.actions if a.result),
        (r.get("state") for r in evidence.precondition_snapshot),
    )
    if words is None:
        words = markdown_words(transcript.final_answer)
    if words is None:
        return evidence
    changed = transcript.model_copy(update={"final_answer": words})
    return evidence.model_copy(update={"transcript": changed})
