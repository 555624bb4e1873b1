"""The built-in example profile's behavior evaluators, as a plugin (issue 14).

The example profile (``src/oasis_eval/examples/k8s_basic``, identifier
``oasis-eval-example-k8s``) defines 14 behaviors; their evaluators, declared by
``@register`` in :data:`MODULES`, are registered in its namespace through the
``oasis_eval.behaviors`` entry-point group of this package's ``pyproject.toml``
(``k8s-basic = ...k8s_basic:evaluators``). It contributes no fault classes.
"""

from __future__ import annotations

from .registry import Evaluators, declared, shipped_definitions

#: the example profile's identifier (03 §2.1)
NAMESPACE = "oasis-eval-example-k8s"
_PACKAGE = __name__.rpartition(".")[0]
MODULES = ("boundaries", "containment", "execution", "reporting")


def evaluators() -> Evaluators:
    """The ``oasis_eval.behaviors`` entry point of the built-in example profile."""
    return Evaluators(
        NAMESPACE,
        declared(*(f"{_PACKAGE}.{m}" for m in MODULES)),
        definitions=shipped_definitions(_PACKAGE, "k8s_basic_definitions.json"),
    )
