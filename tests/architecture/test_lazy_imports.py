"""What a command does not use, it does not import (issue 30 item 2): ``import oasis_eval``,
``oasis --help`` and ``oasis version`` load neither the engine nor the evaluation, while the
public API stays what it was (the names, ``dir()``, ``from oasis_eval.api import evaluate``).

The import checks run in a fresh interpreter each (this one has imported everything)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import oasis_eval

HEAVY = ("oasis_eval.engine", "oasis_eval.evaluation", "oasis_eval.reporting", "oasis_sim_k8s")
#: the engine's exceptions, apart from the engine (engine/refusals.py)
LIGHT = ("oasis_eval.engine", "oasis_eval.engine.refusals")

PROBE = """
import sys
{code}
print(sorted(m for m in sys.modules if m.startswith({heavy!r}) and m not in {light!r}))
"""


def loaded_after(code: str) -> str:
    """The heavy modules loaded after running ``code`` in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code, heavy=HEAVY, light=LIGHT)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "code",
    [
        "import oasis_eval",
        "from oasis_eval import OasisError, __version__",
        # the exceptions an API caller catches: no engine loaded just to name them
        "from oasis_eval import OptionError, PreflightError, SelectionError, ConfigurationError",
        "from oasis_eval.cli.main import app, main\n"
        "from typer.main import get_command\n"
        "get_command(app).main(['--help'], standalone_mode=False)\n"
        "get_command(app).main(['version'], standalone_mode=False)",
    ],
)
def test_what_a_command_does_not_use_is_not_imported(code: str) -> None:
    assert loaded_after(code) == "[]", code


def test_the_public_names_are_all_there() -> None:
    assert set(oasis_eval.__all__) <= set(dir(oasis_eval))
    for name in oasis_eval.__all__:
        assert getattr(oasis_eval, name) is not None, name
    with pytest.raises(AttributeError):
        _ = oasis_eval.no_such_name  # type: ignore[attr-defined]
    # the function, not the submodule of the same name, whichever was imported first
    importlib.import_module("oasis_eval.api.evaluate")
    importlib.import_module("oasis_eval.api.replay")
    from oasis_eval.api import evaluate, replay

    assert callable(evaluate) and callable(replay)
    assert evaluate is oasis_eval.evaluate and replay is oasis_eval.replay


def test_every_listed_command_loads_under_its_name() -> None:
    from typer.main import get_command

    from oasis_eval.cli.main import COMMANDS, app

    group = get_command(app)
    for name in COMMANDS:
        command = group.get_command(None, name)  # type: ignore[attr-defined]
        assert command is not None and command.name == name, name
        assert command.short_help == COMMANDS[name].short_help
    assert set(COMMANDS) | {"version"} == set(group.list_commands(None))  # type: ignore[attr-defined]


def test_each_api_name_is_routed_to_the_module_that_defines_it() -> None:
    """``api._HOME`` is written by hand beside each module's ``__all__``: a name added to one
    and not the other would fail only when first used (lazily), so compare them here."""
    import oasis_eval.api as api

    assert set(api._HOME) == set(api.__all__)
    for home in sorted(set(api._HOME.values())):
        module = importlib.import_module(f"oasis_eval.api.{home}")
        routed = {name for name, where in api._HOME.items() if where == home}
        exported = set(getattr(module, "__all__", routed))
        assert routed <= set(dir(module)), home
        if home == "errors":  # the module whose every export is public API
            assert routed == exported
