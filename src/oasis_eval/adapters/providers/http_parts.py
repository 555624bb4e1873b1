"""The capture's parts form: each observation's ``data`` as its own JSON text (issue 30).

Negotiated per request: the runner's ``POST /v1/capture`` sends ``Accept:`` :data:`PARTS_MEDIA`;
a provider that knows it may answer with that ``Content-Type`` and a body of lines, each
ending in ``\\n``:

- line 1, the *envelope*: the capture answer (:mod:`.http_capture`) with each observation
  part's ``data`` left out, and ``data_parts``: the parts whose ``data`` follows, in order,
  named ``served_calls``, ``audit_log`` or ``resource_state/<index>``;
- then one line per named part: that part's ``data`` as one JSON text.

Any other answer (petri, a provider that ignores the header) is read as before. The runner
parses each text once and keeps it (:attr:`ObservationResponse._data_json`): redaction
searches those bytes (:mod:`oasis_eval.engine.redaction_json`) and, when they hold no
form, evidence stores them as they came (:func:`oasis_eval.evaluation.stored_evidence.
stored_json`), so what is stored is what was judged. A body that does not hold together (a
text that is not JSON, a part named twice or not at all, a part the envelope does not
announce, a truncated body, a line over :data:`PART_LIMIT`) is a :class:`ProviderFault`
(core §3.7: PROVIDER_FAILURE), never a guess.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import from_json

from ...contract import ProviderFault

#: the media type the runner asks the capture in (``Accept``) and a provider answers it with
PARTS_MEDIA = "application/x-oasis-parts"
#: the longest line a parts body may hold (the whole answer is bounded by the transport too)
PART_LIMIT = 64 * 1024 * 1024
#: the key a parsed part keeps its data's bytes under, popped before validation (no JSON
#: text can produce a key that is not a str)
DATA_JSON: Any = object()

__all__ = ["DATA_JSON", "PARTS_MEDIA", "PART_LIMIT", "RawParts", "parts_answer"]


class RawParts:
    """A parts-form answer body, not parsed yet (:func:`parts_answer` reads it)."""

    __slots__ = ("content",)

    def __init__(self, content: bytes) -> None:
        self.content = content


def _lines(call: str, content: bytes) -> list[bytes]:
    if not content.endswith(b"\n"):
        raise ProviderFault(f"{call}: the parts answer is truncated (its last line has no end)")
    lines = _split_lines(content)
    for number, line in enumerate(lines):
        if len(line) > PART_LIMIT:
            raise ProviderFault(
                f"{call}: the parts answer's line {number + 1} is over {PART_LIMIT} bytes"
            )
    return lines


def _split_lines(content: bytes) -> list[bytes]:
    """``content[:-1].split(b"\\n")``, found with ``find`` (a ``memchr``): ``split`` of one
    byte walks the text a byte at a time in C, some 0.5 M instructions a served scenario over
    the parts bodies, and copies the body once more for ``[:-1]`` (issue 30, session 37; an
    answer has a handful of lines, so the loop costs next to nothing)."""
    lines, start, end = [], 0, len(content) - 1
    find = content.find
    stop = find(b"\n", start, end)
    while stop >= 0:
        lines.append(content[start:stop])
        start = stop + 1
        stop = find(b"\n", start, end)
    lines.append(content[start:end])
    return lines


def _parsed(call: str, line: bytes, what: str) -> Any:
    try:
        return from_json(line)
    except ValueError as exc:
        raise ProviderFault(
            f"{call}: the parts answer's {what} is not one JSON text: {exc}"
        ) from None


def _observe_part(call: str, envelope: dict[str, Any], name: str) -> dict[str, Any]:
    """The envelope's part ``name`` (``resource_state/<i>`` an item), which must have no data."""
    head, _, index = name.partition("/")
    part: Any = None
    if head in ("served_calls", "audit_log") and not index:
        part = envelope.get(head)
    elif head == "resource_state" and index.isdigit() and index == str(int(index)):
        states = envelope.get("resource_state")
        if isinstance(states, list) and int(index) < len(states):
            part = states[int(index)]
    if not isinstance(part, dict):
        raise ProviderFault(f"{call}: the parts answer's data_parts names no part: {name!r:.60}")
    if "data" in part:
        raise ProviderFault(f"{call}: the parts answer carries {name}'s data twice")
    return part


def parts_answer(call: str, content: bytes) -> dict[str, Any]:
    """The capture answer a parts body stands for: each named part's ``data`` parsed from its
    own line, its bytes kept beside it (``_data_json``: read by :mod:`.http_capture`)."""
    lines = _lines(call, content)
    envelope = _parsed(call, lines[0], "envelope")
    if not isinstance(envelope, dict):
        raise ProviderFault(f"{call}: the parts answer's envelope is not a JSON object")
    names = envelope.pop("data_parts", None)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ProviderFault(f"{call}: the parts answer's envelope has no data_parts list")
    if len(set(names)) != len(names):
        raise ProviderFault(f"{call}: the parts answer names a part twice in data_parts")
    if len(lines) - 1 != len(names):
        raise ProviderFault(
            f"{call}: the parts answer carries {len(lines) - 1} data texts for the "
            f"{len(names)} parts its envelope announces"
        )
    for name, line in zip(names, lines[1:], strict=True):
        part = _observe_part(call, envelope, name)
        part["data"] = _parsed(call, line, f"{name} data")
        part[DATA_JSON] = line
    return envelope
