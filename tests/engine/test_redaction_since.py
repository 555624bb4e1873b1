"""``Redactor.state_since`` (issue 30): a final snapshot whose resources hold the very objects
of the precondition snapshot's (the lean wire shares them) takes those resources as they were
redacted then, and gives exactly what ``state`` gives, unless the forms changed meanwhile."""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import Snapshot
from oasis_eval.engine.redaction import Redactor

SECRET = "s3cr3t-value-0123456789"


def _resource(kind: str, name: str, **state: Any) -> dict[str, Any]:
    return {"kind": kind, "name": name, "namespace": "shop", "state": state}


def _lists() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    before = [
        _resource("Secret", "db", data={"password": SECRET}),
        _resource("ConfigMap", "plain", data={"k": "v"}),
        _resource("ConfigMap", "mentions", data={"note": f"uses {SECRET}"}),
        _resource("Deployment", "web", replicas=2),
    ]
    # as the HTTP adapter hands them out: new top-level mappings (pydantic copies them)
    # around the very objects of the base, a changed resource and a new one
    after = Snapshot.model_validate({"environment_id": "e", "resources": before}).resources
    after[3] = _resource("Deployment", "web", replicas=3)
    after.append(_resource("ConfigMap", "new", data={"k": SECRET}))
    return before, after


def test_shared_resources_are_taken_as_redacted_then_and_the_result_is_states() -> None:
    redactor = Redactor()
    redactor.register(SECRET)
    before, after = _lists()
    done = redactor.state_done(before)
    got = redactor.state_since(after, done)
    assert got == redactor.state(after)
    assert SECRET not in repr(got)
    assert all(got[i] is done.redacted[i] for i in range(3))  # reused, not redacted again
    assert got[3] is not done.redacted[3] and got[3]["state"]["replicas"] == 3


def test_a_form_registered_meanwhile_redacts_everything_again() -> None:
    redactor = Redactor()
    before, after = _lists()
    done = redactor.state_done(before)
    assert done.redacted[0]["state"]["data"]["password"] == SECRET  # not registered yet
    redactor.register(SECRET)
    got = redactor.state_since(after, done)
    assert got == redactor.state(after) and SECRET not in repr(got)


def test_a_mapping_with_other_keys_or_objects_is_not_taken_for_the_earlier_one() -> None:
    redactor = Redactor()
    redactor.register(SECRET)
    before, _ = _lists()
    done = redactor.state_done(before)
    reordered = {k: before[2][k] for k in ("name", "kind", "namespace", "state")}
    extra = {**before[2], "x": None}
    got = redactor.state_since([reordered, extra], done)
    assert got == redactor.state([reordered, extra])
    assert list(got[0]) == ["name", "kind", "namespace", "state"] and got[1]["x"] is None
