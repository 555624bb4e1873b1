"""The simulator's structure (issue 33), measured by ``scripts/structure.py``: no import cycle
between its modules (function-level and ``TYPE_CHECKING`` imports count), modules of at most
500 lines and functions of at most 80, all of them: there is no exception list."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "structure.py"

#: public definitions (top-level, and public methods of public classes) still without a
#: docstring: the count may only go down
UNDOCUMENTED = 379


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("oasis_sim_k8s_structure", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


structure = _load()


@pytest.fixture(scope="module")
def measured() -> Any:
    """The simulator measured once, by the worker that runs these tests (at import it cost
    every xdist worker about 1.3 CPU-s of collection; issue 31)."""
    return structure.measure()


def test_no_import_cycle(measured: Any) -> None:
    assert structure.cycles(measured.imports) == []


@pytest.mark.parametrize(
    ("sizes", "limit"),
    [
        ("module_lines", structure.MAX_MODULE_LINES),
        ("function_lines", structure.MAX_FUNCTION_LINES),
    ],
    ids=["modules", "functions"],
)
def test_sizes_within_limits(measured: Any, sizes: str, limit: int) -> None:
    """No exception list: every module and every function is within its limit."""
    over = structure.over(getattr(measured, sizes), limit)
    assert not over, f"over {limit} lines (split them): {over}"


def test_undocumented_public_definitions_only_decrease(measured: Any) -> None:
    missing = sorted(k for k, documented in measured.public_definitions.items() if not documented)
    assert len(missing) <= UNDOCUMENTED, (
        f"{len(missing)} public definitions without a docstring (at most {UNDOCUMENTED}); "
        f"the newest are among: {missing[-10:]}"
    )


def test_the_measures_see_what_they_must(tmp_path: Path) -> None:
    """Not vacuous: a cycle through a function-level import, a module and a function over the
    limits, planted in a scratch package, are all reported."""
    pkg = tmp_path / "planted"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import a\n")
    body = "".join(f"    x{n} = {n}\n" for n in range(90))
    (pkg / "big.py").write_text("def long():\n" + body + "\n" * 420)
    (pkg / "doc.py").write_text('class A:\n    """A."""\n\n    def f(self):\n        pass\n')
    found = structure.measure(pkg)
    assert structure.cycles(found.imports) == [["planted.a", "planted.sub.b"]]
    assert structure.over(found.module_lines, 500) == {"planted.big": 511}
    assert structure.over(found.function_lines, 80) == {"planted.big.long": 91}
    documented = {k: v for k, v in found.public_definitions.items() if k.startswith("planted.doc")}
    assert documented == {"planted.doc.A": True, "planted.doc.A.f": False}
    assert structure.main([str(pkg)]) == 1
