"""The request-body shape check (:mod:`oasis_sim_k8s.cluster.shapes`): the field a decoder would
refuse, named by its whole path as the Kubernetes API server names it."""

from __future__ import annotations

from oasis_sim_k8s.cluster.shapes import check


def _deployment(containers: list[object]) -> dict[str, object]:
    return {
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop"},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": containers},
            },
        },
    }


def test_a_mistyped_field_deep_in_lists_is_named_by_its_whole_path() -> None:
    bad = _deployment(
        [
            {"name": "a", "image": "nginx"},
            {"name": "b", "image": "nginx", "command": ["sh", "-c", 5]},
        ]
    )
    failure = check("deployments", bad, "Deployment")
    assert failure is not None and failure[:2] == (400, "BadRequest")
    assert failure[2] == (
        "json: cannot unmarshal number into Go struct field "
        "spec.template.spec.containers[1].command[2] of type string"
    )


def test_a_mistyped_top_level_field_and_a_well_typed_body() -> None:
    assert check("deployments", {**_deployment([]), "kind": 7}, "Deployment") == (
        400,
        "BadRequest",
        "json: cannot unmarshal number into Go struct field kind of type string",
    )
    assert check("deployments", _deployment([{"name": "a", "image": "nginx"}])) is None
