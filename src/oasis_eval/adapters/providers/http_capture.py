"""One capture call after the agent: ``oasis-capture``, a leaner-wire extension (issue 30).

After the agent, the runner reads, in this order (:func:`oasis_eval.engine.execute`): the
provider's served-call record (when provision offered one), the audit log of the agent's
window, one ``resource_state`` per state assertion's target, and the whole final snapshot.
On petri's wire that is 2 + n exchanges (one fewer with ``oasis-served-with-audit``). When a
provider accepted :data:`CAPTURE` at provision, the engine announces that sequence
(:meth:`HttpProvider.plan_capture <oasis_eval.adapters.providers.http.HttpProvider>`) and its
first call sends one ``POST /v1/capture``; the provider reads the parts in the same order and
answers each exactly as its own call would have been answered (``served_calls``,
``audit_log``, ``resource_state[]``: observe answers; ``snapshot``: a whole snapshot answer,
a delta ``since`` the base under ``oasis-snapshot-delta``). Each later call of the plan takes
its part and checks it as its own answer: evidence is the same bytes either way.

- A part the plan did not ask for, a missing part, or parts of the wrong count: a
  :class:`ProviderFault` (PROVIDER_FAILURE), never a guess.
- A capture the provider *refused* (an HTTP error answer) drops the plan: each call is then
  sent on its own, as petri's wire does, so a fault shows exactly as it did before (an
  injected observe fault, an unknown environment). A transport fault (no answer, timeout)
  is a fault at once: asking again part by part would double the wait.
- Without the extension (petri, a provider that does not name it) nothing changes.
- The capture asks for the parts form (:mod:`.http_parts`): each observation's ``data`` its
  own JSON text, stored as it came when it holds no redaction form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

from ...contract import ProviderFault
from .http_lean import CAPTURE, SNAPSHOT_DELTA, Negotiated
from .http_parts import RawParts, parts_answer
from .http_retry import AnsweredFault
from .http_wire import wire_parameters

#: the key of the final snapshot's part among the kept parts
SNAPSHOT = ("snapshot", ())

Key = tuple[str, tuple[tuple[str, str], ...]]

__all__ = ["CAPTURE", "CaptureAnswers", "CapturePlan", "capture_body", "key_of", "take_part"]


def key_of(observation_type: str, params: dict[str, str]) -> Key:
    """The key of one planned call: its observation type and its wire parameters."""
    return (observation_type, tuple(sorted(params.items())))


@dataclasses.dataclass
class CapturePlan:
    """The calls the engine announced for after the agent (wire parameters), and, once the
    capture answered, the parts not taken yet."""

    window: dict[str, str]
    served: bool
    states: list[dict[str, str]]
    #: the parts by call, filled by the capture's answer (None: not sent yet)
    kept: dict[Key, dict[str, Any]] | None = None

    def covered(self) -> set[Key]:
        """Every call the plan covers (the final snapshot included)."""
        keys = {key_of("audit_log", self.window), SNAPSHOT}
        keys.update(key_of("resource_state", p) for p in self.states)
        if self.served:
            keys.add(key_of("served_calls", self.window))
        return keys


def capture_body(environment_id: str, plan: CapturePlan, since: str | None) -> dict[str, Any]:
    """The ``POST /v1/capture`` request of ``plan`` (``since``: the snapshot base's id)."""
    body: dict[str, Any] = {
        "environment_id": environment_id,
        "served_calls": plan.served,
        "audit_log": {"parameters": plan.window},
        "resource_state": [{"parameters": p} for p in plan.states],
    }
    if since is not None:
        body["since"] = since
    return body


def parts_of(call: str, plan: CapturePlan, answer: dict[str, Any]) -> dict[Key, dict[str, Any]]:
    """The capture answer split by call; a part missing, extra or not an object is a fault."""

    def part(value: Any, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ProviderFault(f"{call}: the capture answer's {what} part is not an object")
        return value

    states = answer.get("resource_state")
    if not isinstance(states, list) or len(states) != len(plan.states):
        raise ProviderFault(
            f"{call}: the capture answer carries {len(states) if isinstance(states, list) else 'no'}"
            f" resource_state parts for the {len(plan.states)} asked"
        )
    if ("served_calls" in answer) is not plan.served:
        raise ProviderFault(
            f"{call}: the capture answer's served_calls part "
            f"{'is missing' if plan.served else 'was not asked for'}"
        )
    kept = {
        key_of("audit_log", plan.window): part(answer.get("audit_log"), "audit_log"),
        SNAPSHOT: part(answer.get("snapshot"), "snapshot"),
    }
    for params, value in zip(plan.states, states, strict=True):
        kept[key_of("resource_state", params)] = part(value, "resource_state")
    if plan.served:
        kept[key_of("served_calls", plan.window)] = part(answer["served_calls"], "served_calls")
    return kept


Send = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


async def take_part(
    call: str,
    environment_id: str,
    plans: dict[str, CapturePlan],
    key: Key,
    since: str | None,
    send: Send,
) -> dict[str, Any] | None:
    """The answer of the planned call ``key`` from the capture (sent by the plan's first call),
    taken once; None when no plan covers it or the provider refused the capture (module doc)."""
    plan = plans.get(environment_id)
    if plan is None:
        return None
    if plan.kept is None:
        if key not in plan.covered():
            return None
        try:
            answer = await send(capture_body(environment_id, plan, since))
        except AnsweredFault:
            plans.pop(environment_id, None)  # refused: petri's calls, one by one
            return None
        plan.kept = parts_of(call, plan, answer)
    found = plan.kept.pop(key, None)
    if not plan.kept:
        plans.pop(environment_id, None)
    return found


class CaptureAnswers:
    """:class:`~.http.HttpProvider`'s side of the extension: the plan announced, and each planned
    call's part taken from the capture (the first planned call sends it)."""

    _lean: dict[str, Negotiated]
    _plans: dict[str, CapturePlan]
    _call: Callable[..., Awaitable[tuple[int, Any]]]

    def plan_capture(
        self,
        environment_id: str,
        window: dict[str, Any],
        resource_states: list[dict[str, Any]],
        served_calls: bool,
    ) -> None:
        """The engine's calls after the agent, announced: sent as one ``/v1/capture`` when the
        environment accepted ``oasis-capture``, else nothing changes. After the agent:
        provision's folded snapshot, if still untaken, is no longer the state."""
        lean = self._lean.get(environment_id)
        if lean is not None:
            lean.folded = None
        if lean is not None and CAPTURE in lean.accepted:
            states = [wire_parameters(p) for p in resource_states]
            self._plans[environment_id] = CapturePlan(wire_parameters(window), served_calls, states)

    async def _captured(self, call: str, environment_id: str, key: Key) -> dict[str, Any] | None:
        """The planned call ``key``'s part of the capture (sent by the first), else None."""
        lean = self._lean.get(environment_id)
        since = lean.base_id if lean is not None and SNAPSHOT_DELTA in lean.accepted else None

        async def send(body: dict[str, Any]) -> dict[str, Any]:
            what = f"capture of environment {environment_id}"
            _, answer = await self._call(what, "/v1/capture", body, parts=True)
            if isinstance(answer, RawParts):  # each data its own text (:mod:`.http_parts`)
                return parts_answer(what, answer.content)
            return dict(answer)

        return await take_part(call, environment_id, self._plans, key, since, send)
