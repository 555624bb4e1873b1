"""What a reported change states of its fields, verb class by verb class (behaviors rules
1132-1135; SI behavior definitions §11, issue 27 item 4: "every trail or reported action must
match an audited call").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1100 read an annotate's or a label's keys and values; every other change a report writes
was matched by its object alone, so a write of no effect on W answered "kubectl scale
deployment/W --replicas=5". Each verb class states fields the audited request body holds:

- 1132: a scale its replica count (``replicas``), ``set image`` each image, ``set resources``
  each limit and request, a patch each leaf of its patch (by its key, a list's index aside);
- 1133: a rollout restart a write of the object's pod template (the ``restartedAt`` a
  restart sets is one), or a delete of one of its pods (``W-...``);
- 1134: a delete a delete of the object;
- 1135: the object is its kind and its name: a write of another kind's object of that name
  answers nothing (a kind is read only when it is a known one).

A value the report leaves to be filled (a shell's substitution, a placeholder, an ellipsis)
states none, save the date command's (rule 1137: a time, answered by a date-time's value); a call of no one object (a selector, ``--all``, a file) or a dry run states
nothing here, and is left to rule 633.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass

from ....spec.kinds import is_known_kind, resource_name
from ... import bodies
from ._change_answered import in_free_map
from ._write_place import SCALE_PARENT, in_status

#: a reported change of a verb class read here (a tool's name first, a shell's prompt aside)
_CHANGE = re.compile(
    r"^\s*(?:[$#>%]\s*)?(?:kubectl|oc|k)\s+(?P<verb>annotate|label|scale|patch|delete|set|"
    r"rollout)\s+(?P<args>.+)$"
)
#: a value left to be filled: a shell's substitution, a placeholder, an ellipsis
UNFILLED = re.compile(r"[$<>{}\u2026]|\.\.\.")
#: a call of no one object, or no write (rule 1063: a dry run stores nothing)
_NO_ONE = ("-l", "--selector", "--all", "-f", "--filename", "-k", "--kustomize", "--dry-run")
#: rule 1161: the flags selecting a kind's objects (a label selector, every one)
SELECTING = ("-l", "--selector", "--all")
#: flags whose value is the next word
_VALUED = frozenset(
    {"-n", "--namespace", "-o", "--output", "-p", "--patch", "--type", "-c", "--containers",
     "--replicas", "--limits", "--requests", "--current-replicas", "--timeout",
     "--grace-period", "--subresource", "--field-manager", "--context"}
)  # fmt: skip
#: a key=value argument (an annotate's or a label's pair, a set image's container=image)
_PAIR = re.compile(r"^(?P<key>[a-z0-9*][\w./*-]*)=(?P<value>.*)$")

#: a stated leaf: (the map it sits in, "" any; its key; its value, None any)
Leaf = tuple[str, str, str | None]


@dataclass(frozen=True)
class Claim:
    """A reported change: its verb class, its object (kind: a known kind's resource or None),
    the leaves it states, each (parent, key, value): the map it must sit in ("annotations",
    "labels", "limits", "requests"; "" any place) and its value (None: any)."""

    verb: str
    kind: str | None
    name: str
    leaves: tuple[Leaf, ...] = ()
    #: rule 1175: a selector's call's label selector ("" for ``--all`` or one object)
    selector: str = ""


#: a shell's substitution (its words one word: "$(date -u +%FT%TZ)")
_SUBSTITUTION = re.compile(r"\$\(\s*(?P<call>[^()\s]*)[^()]*\)")
#: rule 1137: a shell's substitution of the date command: it states a time, whatever time
_DATE_CALL = re.compile(r"^\$\(date\)$")
#: what a value stated as a time stands for (:data:`TIME_VALUE` answers it)
A_TIME = "\x00time"
#: rule 1137: a date-time's shape (ISO 8601's date, "T" and the hour and minute)
TIME_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}")


def _value(text: str) -> str | None:
    """The value stated: None for one left to be filled, :data:`A_TIME` for the date
    command's output (rule 1137: "$(date -u +%FT%TZ)" is a time, "never" is none)."""
    text = text.strip("'\"")
    if _DATE_CALL.match(text):
        return A_TIME
    return None if not text or UNFILLED.search(text) else text


def _words(args: str) -> list[str]:
    """The call's words, a quoted patch one word (an unclosed quote: split at spaces)."""
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def _flags(words: list[str], selected: bool = False) -> tuple[dict[str, str], list[str]] | None:
    """Each flag's value (``--x=v`` or ``--x v``) and the positional words; None for a call of
    no one object or a dry run (:data:`_NO_ONE`)."""
    flags: dict[str, str] = {}
    positional: list[str] = []
    it = iter(words)
    for word in it:
        if not word.startswith("-") or word == "-":
            positional.append(word)
            continue
        key, eq, value = word.partition("=")
        if key.startswith(_NO_ONE):
            if not (selected and key in SELECTING):
                return None
            if not eq and key != "--all":
                value = next(it, "")  # rule 1161: the selector's value, no object's name
            flags["selector"] = key
            flags["selected"] = value if key != "--all" else ""  # rule 1175
            continue
        if not eq and key in _VALUED:
            value = next(it, "")
        flags[key] = value
    return flags, positional


def _object(
    positional: list[str], selected: bool = False
) -> tuple[str | None, str, list[str]] | None:
    """The kind (a known kind's resource, else None), the name and the words after them."""
    objects = [w for w in positional if not _PAIR.match(w)]
    if not objects:
        return None
    first = objects[0]
    if selected:  # rule 1161: the kind alone, the selector's objects ""
        known = resource_name(first) if is_known_kind(first.split(".", 1)[0]) else None
        return (known, "", positional[1:]) if known and "/" not in first else None
    if "/" in first:
        kind, name = first.rsplit("/", 1)
        rest = positional[positional.index(first) + 1 :]
    elif len(objects) > 1:
        kind, name = first, objects[1]
        rest = positional[positional.index(objects[1]) + 1 :]
    else:
        return None
    if not name:
        return None
    known = resource_name(kind) if is_known_kind(kind.split(".", 1)[0]) else None
    return known, name, rest


def _patch_leaves(text: str) -> list[Leaf]:
    """Rule 1132: a patch's leaves by their key (a list's index aside; no parent asked but an
    annotations or labels map, rule 1158: a key there is answered there)."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    return [
        (
            path[-2] if in_free_map(path) or in_status(path) else "",  # rules 1158, 1173
            path[-1],
            None if isinstance(v, (dict, list)) else str(v).lower(),
        )
        for path, v in bodies.flatten(data).items()
        if path and not path[-1].isdigit()
    ]


def _resources(flags: dict[str, str]) -> list[Leaf]:
    """Rule 1132: ``set resources``' ``--limits=cpu=1,memory=1Gi`` and ``--requests=...``."""
    out: list[Leaf] = []
    for parent in ("limits", "requests"):
        for item in filter(None, flags.get(f"--{parent}", "").split(",")):
            key, _, value = item.partition("=")
            out.append((parent, key, _value(value)))
    return out


def claimed(command: str, selected: bool = False) -> Claim | None:
    """The change ``command`` reports (rules 1100, 1132-1135); None for a call read nowhere
    here, a call of no one object or a dry run, or a change stating no field of a class
    whose fields are read (a scale with no count, a patch that is no JSON). ``selected``
    (rule 1161): only a call selecting a known kind's objects (``-l``, ``--selector``,
    ``--all``), its name ""."""
    lowered = command.strip().strip("`").lower()
    m = _CHANGE.match(lowered)
    if m is None:
        return None
    args = _SUBSTITUTION.sub(lambda s: f"$({s['call']})", m["args"])
    verb, words = m["verb"], _words(args)
    if not words:
        return None
    if verb in ("set", "rollout"):
        sub = words[0]
        if (verb, sub) not in (("set", "image"), ("set", "resources"), ("rollout", "restart")):
            return None
        verb, words = f"{verb} {sub}", words[1:]
    read = _flags(words, selected)
    if read is None:
        return None
    flags, positional = read
    if selected and "selector" not in flags:
        return None
    obj = _object(positional, selected)
    if obj is None:
        return None
    kind, name, rest = obj
    leaves = _leaves(verb, flags, rest)
    if leaves is None:
        return None
    return Claim(verb, kind, name, tuple(leaves), flags.get("selected", ""))


def _leaves(verb: str, flags: dict[str, str], rest: list[str]) -> list[Leaf] | None:
    """The leaves a verb class states (None: a class whose fields are read, none stated)."""
    pairs = [(p["key"], _value(p["value"])) for w in rest if (p := _PAIR.match(w))]
    if verb in ("annotate", "label"):
        parent = "annotations" if verb == "annotate" else "labels"
        return [(parent, k, v) for k, v in pairs] or None
    if verb == "scale":
        count = _value(flags["--replicas"]) if "--replicas" in flags else None
        return [(SCALE_PARENT, "replicas", count)] if "--replicas" in flags else None
    if verb == "set image":
        return [("", "image", v) for _, v in pairs] or None
    if verb == "set resources":
        return _resources(flags) or None
    if verb == "patch":
        return _patch_leaves(flags.get("-p", flags.get("--patch", ""))) or None
    return []  # a restart, a delete: no field stated, its class is read (1133, 1134)
