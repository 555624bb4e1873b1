"""``POST /v1/capture``: everything a runner reads after the agent, in one exchange
(``oasis-capture``, a leaner-wire extension: :mod:`.lean_wire`, issue 30).

Request (only for an environment whose provision accepted ``oasis-capture``)::

    {environment_id, served_calls: bool, audit_log: {parameters},
     resource_state: [{parameters}, ...], since?}

Answer: ``{environment_id, served_calls?, audit_log, resource_state: [...], snapshot}``, each
part exactly what its own call answers (``POST /v1/observe`` for the observations, a whole
``POST /v1/state-snapshot`` with ``since`` for the snapshot, a delta under
``oasis-snapshot-delta``), read in the runner's order: the served record first, then the
audit log (every call in the record then happened before the log was read), then the
resource states, then the final snapshot. A part that fails fails the whole capture with
its own error (the runner then asks part by part); a malformed request is a 400.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

from ..web.wire import WireError, _optional
from .lean_wire import CAPTURE, snapshot_answer

__all__ = ["PARTS_MEDIA", "capture_answer", "parts_body"]

#: the runner's parts form of the answer, asked for in ``Accept`` (oasis_eval's
#: ``adapters/providers/http_parts.py``; docs/providers.md)
PARTS_MEDIA = "application/x-oasis-parts"


def parts_body(answer: dict[str, Any]) -> bytes:
    """``answer`` in the parts form: the envelope (each observation part without its
    ``data``, ``data_parts`` naming them), then each part's ``data`` as its own line, in
    the runner's stored JSON (``pydantic_core.to_json``: compact, keys in order, UTF-8), so
    the runner can store the text as it came."""
    envelope = dict(answer)
    names: list[str] = []
    texts: list[bytes] = []

    def split(part: dict[str, Any], name: str) -> dict[str, Any]:
        if "data" not in part:
            return part
        names.append(name)
        texts.append(to_json(part["data"]))
        return {k: v for k, v in part.items() if k != "data"}

    if "served_calls" in envelope:
        envelope["served_calls"] = split(envelope["served_calls"], "served_calls")
    envelope["audit_log"] = split(envelope["audit_log"], "audit_log")
    envelope["resource_state"] = [
        split(part, f"resource_state/{i}") for i, part in enumerate(envelope["resource_state"])
    ]
    envelope["data_parts"] = names
    return b"\n".join([to_json(envelope), *texts]) + b"\n"


def _parameters(part: Any, what: str) -> dict[str, str]:
    """A part's ``parameters``: an object of strings, else a 400 naming the part."""
    params = part.get("parameters", {}) if isinstance(part, dict) else None
    if not isinstance(params, dict):
        raise WireError(400, f"`{what}` must be an object with `parameters`")
    bad = sorted(k for k, v in params.items() if v is not None and not isinstance(v, str))
    if bad:
        raise WireError(
            400, f"{what}: observation parameters are strings; not a string: {', '.join(bad)}"
        )
    return params


async def capture_answer(api: Any, env_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """The answer of a capture of ``env_id`` (``api``: the :class:`.petri_handlers.PetriApi`)."""
    lean = api.lean.get(env_id)
    if lean is None or CAPTURE not in lean.accepted:
        raise WireError(400, f"{CAPTURE} was not accepted at this environment's provision")
    window = _parameters(body.get("audit_log"), "audit_log")
    states = _optional(body, "resource_state", list, [])
    api.bounded(states, "resource_state")
    state_params = [_parameters(s, f"resource_state[{i}]") for i, s in enumerate(states)]
    served = _optional(body, "served_calls", bool, False)
    answer: dict[str, Any] = {"environment_id": env_id}
    if served:
        answer["served_calls"] = await api.observed(env_id, "served_calls", window)
    answer["audit_log"] = await api.observed(env_id, "audit_log", window)
    answer["resource_state"] = [
        await api.observed(env_id, "resource_state", params) for params in state_params
    ]
    snap = await api.provider.snapshot(env_id, None)
    answer["snapshot"] = snapshot_answer(lean, body.get("since"), snap.model_dump(mode="json"))
    return answer
