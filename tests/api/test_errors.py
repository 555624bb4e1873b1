"""One base for every public exception (issue 31): ``except oasis_eval.OasisError`` catches
whatever oasis-eval raises, at any layer, and each exception keeps its built-in base."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import oasis_eval
from oasis_eval.api.errors import OptionError
from oasis_eval.evaluation.action_pattern import ActionSyntaxError
from oasis_eval.evaluation.actions import parse_action

#: exceptions that are deliberately not ``Exception``s: a refused hard exit must pass
#: ``except Exception`` clauses the way the ``SystemExit`` it replaces does
NOT_OASIS_ERRORS = {"oasis_eval.engine.containment.HardExitRefused"}


def every_exception_class() -> dict[str, type[BaseException]]:
    """Every exception class defined in oasis_eval's modules, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(oasis_eval.__path__, prefix="oasis_eval."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == module.__name__
            ):
                found[f"{module.__name__}.{name}"] = value
    return found


def test_every_public_exception_is_an_oasis_error() -> None:
    classes = every_exception_class()
    assert len(classes) > 30, sorted(classes)
    public = {
        name: cls
        for name, cls in classes.items()
        if not cls.__name__.startswith("_") and name not in NOT_OASIS_ERRORS
    }
    outside = sorted(
        name for name, cls in public.items() if not issubclass(cls, oasis_eval.OasisError)
    )
    assert outside == []
    for name in NOT_OASIS_ERRORS:
        assert name in classes, f"{name} is gone: drop it from NOT_OASIS_ERRORS"


def test_the_facade_exports_the_base() -> None:
    assert "OasisError" in oasis_eval.__all__
    for name in oasis_eval.__all__:
        obj = getattr(oasis_eval, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            assert issubclass(obj, oasis_eval.OasisError), name


def test_a_raised_error_is_caught_by_the_base_and_by_its_builtin_base() -> None:
    with pytest.raises(oasis_eval.OasisError) as caught:
        parse_action("")
    assert isinstance(caught.value, ActionSyntaxError)
    assert isinstance(caught.value, ValueError)
    with pytest.raises(oasis_eval.OasisError):
        oasis_eval.evaluate(agent="no-such-kind:x", quiet=True)
    assert issubclass(OptionError, oasis_eval.UnusableInput)
