"""The stored form of a scenario's evidence: what a run directory's ``evidence/*.json.gz``
holds, and how it is read back whole (core §3.5.4: replay judges the evidence as captured).

A scenario's evidence repeats itself: the final snapshot is mostly the precondition
snapshot again (an agent changes few resources), and each audited write carries its body
twice, as the flattened ``request_body`` and as the raw event's ``requestObject``. The
stored form (:data:`STORED_FORM`, issue 30) writes each once, in compact JSON:

- ``final_snapshot`` is ``{"count": N, "segments": [...]}``, a segment being a run
  ``[start, stop]`` of the precondition snapshot's resources (in order, not overlapping)
  or a resource written whole;
- an audit entry whose ``request_body`` is its raw event's ``requestObject`` stores
  ``true`` there, and ``stored_form.request_body_refs`` lists it (observation index, entry
  indices): the reader puts the object back, shared, as the in-process provider shares it.

An observation that came as its provider's own JSON text, found free of every redaction
form (``Observation._data_json``: the capture's parts form, docs/providers.md), is stored
as that text, spliced into the dump in place of its data; its audit entries' bodies are
the ones the provider wrote by reference (the same ones, by construction).

"Is" means the same JSON value of the same types (``marshal`` bytes, version 2: ``1``,
``1.0`` and ``true`` differ, as do key orders); anything else is written whole. Evidence
without ``stored_form`` (written before) is read as it always was. A stored form that does
not hold together is a :class:`ValueError`, as unreadable evidence is.
"""

from __future__ import annotations

import marshal
from typing import Any

import pydantic_core

from .evidence import Observation, ScenarioEvidence

#: the version of the stored form this code writes (and the only one besides whole evidence
#: it reads)
STORED_FORM = 2
_KEY = "stored_form"
_FIELDS = tuple(ScenarioEvidence.model_fields)
_OBSERVATION_FIELDS = tuple(Observation.model_fields)
#: the data of an observation stored as its provider's text, until the text replaces it
_MARKER = "\0oasis-provider-text:"

__all__ = ["STORED_FORM", "evidence_from_json", "stored_json", "whole_data"]


def stored_json(evidence: ScenarioEvidence) -> bytes:
    """The stored form of ``evidence`` as compact JSON (deterministic: same evidence, same
    bytes); :func:`whole_data` of it parsed validates to an equal :class:`ScenarioEvidence`."""
    texts: list[tuple[bytes, bytes]] = []
    stored = _dumped(evidence, texts)
    if any(stored.count(marker) != 1 for marker, _ in texts):
        return _dumped(evidence, None)  # a marker written by someone else too: no splice
    for marker, text in reversed(texts):  # the provider's own texts (module doc); the last
        # first: a text holds no marker of its own, and every earlier marker comes before it
        stored = stored.replace(marker, text, 1)
    return stored


def _dumped(evidence: ScenarioEvidence, texts: list[tuple[bytes, bytes]] | None) -> bytes:
    observations, refs = _lean_observations(evidence.observations, texts)
    out: dict[str, Any] = {_KEY: {"version": STORED_FORM, "request_body_refs": refs}}
    for name in _FIELDS:
        out[name] = getattr(evidence, name)
    out["final_snapshot"] = _snapshot_delta(evidence.precondition_snapshot, evidence.final_snapshot)
    out["observations"] = observations
    return pydantic_core.to_json(out)


def evidence_from_json(data: bytes | str) -> ScenarioEvidence:
    """Recorded evidence read back, stored form or whole (``ScenarioEvidence.model_validate_json``,
    every field validated the same way, a ``ValueError`` for anything it refuses).

    The JSON is parsed first (``pydantic_core.from_json``: the parser ``model_validate_json``
    uses, ``NaN`` and ``Infinity`` accepted alike), rebuilt whole (:func:`whole_data`) and
    validated after: half the CPU of validating in JSON mode over megabytes of snapshots and
    audit logs, and the same model (``tests/evaluation/test_evidence_from_json.py``; issue 30)."""
    return ScenarioEvidence.model_validate(whole_data(pydantic_core.from_json(data)))


def whole_data(parsed: Any) -> Any:
    """Parsed evidence JSON as ``ScenarioEvidence.model_validate`` takes it: a stored form
    rebuilt whole (in place), anything else as it is."""
    if not isinstance(parsed, dict) or _KEY not in parsed:
        return parsed
    form = parsed.pop(_KEY)
    if not isinstance(form, dict) or form.get("version") != STORED_FORM:
        raise ValueError(f"evidence: unknown stored form {form!r:.80}")
    pre = parsed.get("precondition_snapshot", [])
    if not isinstance(pre, list):
        raise ValueError("evidence: precondition_snapshot is not a list")
    if "final_snapshot" in parsed:
        parsed["final_snapshot"] = _rebuilt_snapshot(pre, parsed["final_snapshot"])
    _share_request_bodies(parsed.get("observations"), form.get("request_body_refs"))
    return parsed


def _same(a: Any, b: Any) -> bool:
    """The same JSON value, types and key order included (``==`` holds 1 == 1.0 == True)."""
    if a is b:
        return True
    try:
        return marshal.dumps(a, 2) == marshal.dumps(b, 2)
    except ValueError:  # a value marshal does not know (a subclass): never the same
        return False


def _snapshot_delta(pre: list[dict[str, Any]], final: list[dict[str, Any]]) -> dict[str, Any]:
    """``final`` as runs of ``pre`` (in order) and resources written whole."""
    at: dict[str, int] = {}
    for i, resource in enumerate(pre):
        at.setdefault(_identity(resource), i)
    segments: list[Any] = []
    stop = 0  # runs go forward: the next one starts at or after the last one's stop
    for resource in final:
        i = at.get(_identity(resource), -1)
        if i >= stop and _same(resource, pre[i]):
            last = segments[-1] if segments else None
            if isinstance(last, list) and last[1] == i:
                last[1] = i + 1
            else:
                segments.append([i, i + 1])
            stop = i + 1
            continue
        segments.append(resource)
    return {"count": len(final), "segments": segments}


def _identity(resource: Any) -> str:
    if not isinstance(resource, dict):
        return ""
    return f"{resource.get('kind')}\0{resource.get('namespace')}\0{resource.get('name')}"


def _rebuilt_snapshot(pre: list[Any], delta: Any) -> list[Any]:
    if not isinstance(delta, dict):
        raise ValueError("evidence: the stored final_snapshot is not a delta")
    segments, count = delta.get("segments"), delta.get("count")
    if not isinstance(segments, list) or type(count) is not int:
        raise ValueError("evidence: the stored final_snapshot has no segments or count")
    out: list[Any] = []
    stop = 0
    for segment in segments:
        if isinstance(segment, dict):
            out.append(segment)
            continue
        if not (
            isinstance(segment, list)
            and len(segment) == 2
            and all(type(i) is int for i in segment)
            and stop <= segment[0] < segment[1] <= len(pre)
        ):
            raise ValueError(
                f"evidence: the stored final_snapshot's run {segment!r:.40} is out of order "
                "or outside the precondition snapshot"
            )
        out.extend(pre[segment[0] : segment[1]])
        stop = segment[1]
    if len(out) != count:
        raise ValueError(
            f"evidence: the stored final_snapshot rebuilds {len(out)} resources, not {count}"
        )
    return out


def _lean_observations(
    observations: list[Observation], texts: list[tuple[bytes, bytes]] | None
) -> tuple[list[Any], list[list[Any]]]:
    """The observations with each audit entry's body written once, and where (see module);
    with ``texts``, one holding its provider's text has a marker for data, the marker's JSON
    and the text added to ``texts``."""
    out: list[Any] = []
    refs: list[list[Any]] = []
    for index, observation in enumerate(observations):
        if texts is not None and observation._data_json is not None:
            out.append(_marked(observation, observation._data_json[0], texts))
            if observation._data_json[1]:
                refs.append([index, list(observation._data_json[1])])
            continue
        data = observation.data
        entries = data.get("entries") if isinstance(data, dict) else None
        if observation.observation_type != "audit_log" or not isinstance(entries, list):
            out.append(observation)
            continue
        lean, shared = [], []
        for number, entry in enumerate(entries):
            raw = entry.get("raw") if isinstance(entry, dict) else None
            if (
                isinstance(raw, dict)
                and "request_body" in entry
                and "requestObject" in raw
                and _same(entry["request_body"], raw["requestObject"])
            ):
                entry = {**entry, "request_body": True}
                shared.append(number)
            lean.append(entry)
        if not shared:
            out.append(observation)
            continue
        refs.append([index, shared])
        out.append(observation.model_copy(update={"data": {**data, "entries": lean}}))
    return out, refs


def _marked(observation: Observation, text: bytes, texts: list[tuple[bytes, bytes]]) -> Any:
    """``observation``'s fields, its data a marker ``texts`` maps to ``text`` (checked to occur
    once in the dump: :func:`stored_json`)."""
    marker = f"{_MARKER}{len(texts)}"
    texts.append((pydantic_core.to_json(marker), text))
    fields = {name: getattr(observation, name) for name in _OBSERVATION_FIELDS}
    fields["data"] = marker
    return fields


def _share_request_bodies(observations: Any, refs: Any) -> None:
    if not isinstance(refs, list):
        raise ValueError("evidence: stored_form.request_body_refs is not a list")
    for ref in refs:
        entries = _ref_entries(observations, ref)
        for number in ref[1]:
            entry = entries[number] if type(number) is int and 0 <= number < len(entries) else None
            raw = entry.get("raw") if isinstance(entry, dict) else None
            if not (
                isinstance(entry, dict)
                and isinstance(raw, dict)
                and "requestObject" in raw
                and "request_body" in entry
            ):
                raise ValueError(
                    f"evidence: request_body_refs names no audited body ({number!r:.20})"
                )
            entry["request_body"] = raw["requestObject"]


def _ref_entries(observations: Any, ref: Any) -> list[Any]:
    ok = isinstance(ref, list) and len(ref) == 2 and type(ref[0]) is int
    ok = ok and isinstance(observations, list) and 0 <= ref[0] < len(observations)
    data = (
        observations[ref[0]].get("data") if ok and isinstance(observations[ref[0]], dict) else None
    )
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not isinstance(ref[1], list):
        raise ValueError(f"evidence: request_body_refs entry {ref!r:.40} names no audit log")
    return entries
