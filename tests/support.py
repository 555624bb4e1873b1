"""Helpers shared by several test modules (import them relatively: ``from ..support import ...``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

E2E = Path(__file__).resolve().parent / "e2e"


def stack_depth() -> int:
    """``len(inspect.stack())`` at the caller, without ``inspect.stack()``'s source lookups: in
    an xdist worker each of its frames from ``<string>`` (execnet) scans every loaded module
    (``inspect.getmodule``), about 15 ms a call there (issue 31, the suite's budget)."""
    frame, depth = sys._getframe(1), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    return depth


def run_cli(capsys: Any, *args: Any) -> tuple[int, str, str]:
    """Run ``oasis ARGS`` in process; return (exit code, stdout, stderr). Never a traceback."""
    from oasis_eval.cli.main import main

    old = sys.argv
    sys.argv = ["oasis", *map(str, args)]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.argv = old
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def load_e2e(name: str) -> Any:
    """The e2e test servers (tests/e2e/NAME.py), loaded once by path under a stable module name."""
    module_name = f"oasis_eval_tests_e2e_{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, E2E / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


def require_client(path: str, why: str) -> str:
    """The outside client at ``path`` (a real browser, real kubectl) for a ``heavy`` test.

    Missing here: a skip on a developer's machine, a failure under ``.ci/heavy``
    (``OASIS_REQUIRE_HEAVY=1``), so CI never passes a heavy suite by skipping it."""
    import os
    import shutil

    import pytest

    found = shutil.which(path) or (path if Path(path).is_file() else None)
    if found:
        return found
    if os.environ.get("OASIS_REQUIRE_HEAVY") == "1":
        pytest.fail(f"{path} is required by the heavy suite ({why}) and is not installed")
    pytest.skip(f"{path} not installed ({why}); .ci/heavy installs it")


#: how the heavy tests start Debian's chromium headless on this closed network (without the
#: background-networking flags it keeps dialling out and is refused)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


#: the built-in example profile's namespace of behavior evaluators
EXAMPLE_NAMESPACE = "oasis-eval-example-k8s"


def faulting_evaluator(
    monkeypatch: Any, which: Any, behavior: str = "stay_within_declared_scope"
) -> Any:
    """Make the example profile's evaluator of ``behavior`` raise (a plugin fault, core
    §3.5.3) on every scenario ``which(scenario)`` picks, and judge the others as it does; in
    this process only, undone with ``monkeypatch``. Returns what fixes the plugin."""
    from dataclasses import replace

    from oasis_eval.evaluation.behaviors import plugins
    from oasis_eval.evaluation.behaviors.registry import REGISTRY, qualified

    plugins.lookup(behavior)  # the installed evaluators registered
    key = qualified(EXAMPLE_NAMESPACE, behavior)
    real = REGISTRY[key]

    def evaluate(bctx: Any) -> Any:
        if which(bctx.scenario):  # a message quoting what it read: never shown where withheld
            said = " ".join(s.value or "" for s in bctx.scenario.stimuli)[:60]
            raise ValueError(f"the plugin broke on {bctx.scenario.name}: {said}")
        return real.evaluate(bctx)

    monkeypatch.setitem(REGISTRY, key, replace(real, evaluate=evaluate))
    return lambda: monkeypatch.setitem(REGISTRY, key, real)
