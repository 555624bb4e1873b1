"""The simulator's structure (issue 33), measured by ``scripts/structure.py``: no import cycle
between its modules (function-level and ``TYPE_CHECKING`` imports count), modules of at most
500 lines and functions of at most 80. The modules and functions still over a limit are
listed below with their size: the list may only shrink (an entry that grows, or a new one,
fails; so does an entry that is back within its limit and still listed)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "structure.py"

#: still over 500 lines: the module -> its size when listed (issue 33: to be split)
MODULES_OVER: dict[str, int] = {}
#: still over 80 lines: the function -> its size when listed
FUNCTIONS_OVER: dict[str, int] = {
    "oasis_sim_k8s.cluster.podstatus.derive": 194,
    "oasis_sim_k8s.agents.rollouts.make_available": 145,
    "oasis_sim_k8s.agents.rollouts.canary": 144,
    "oasis_sim_k8s.cluster.admission.validate": 136,
    "oasis_sim_k8s.agents.pod_rules.one_pod": 135,
    "oasis_sim_k8s.injection.provisioning.grant_agent": 134,
    "oasis_sim_k8s.injection.workloads.deployment": 132,
    "oasis_sim_k8s.agents.remedy._remedy_for": 127,
    "oasis_sim_k8s.cluster.apiserver.ApiServer._dispatch": 117,
    "oasis_sim_k8s.injection.baseline.build": 116,
    "oasis_sim_k8s.observability.telemetry.generated": 113,
    "oasis_sim_k8s.agents.rollouts.continue_rollout": 108,
    "oasis_sim_k8s.cluster.apiserver.ApiServer.request": 101,
    "oasis_sim_k8s.cluster.workloads._deployment_status": 100,
    "oasis_sim_k8s.injection.status.apply_status": 98,
}


#: public definitions (top-level, and public methods of public classes) still without a
#: docstring: the count may only go down
UNDOCUMENTED = 387


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("oasis_sim_k8s_structure", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


structure = _load()
MEASURED = structure.measure()


def test_no_import_cycle() -> None:
    assert structure.cycles(MEASURED.imports) == []


@pytest.mark.parametrize(
    ("sizes", "limit", "known"),
    [
        ("module_lines", structure.MAX_MODULE_LINES, MODULES_OVER),
        ("function_lines", structure.MAX_FUNCTION_LINES, FUNCTIONS_OVER),
    ],
    ids=["modules", "functions"],
)
def test_sizes_within_limits_or_listed_and_shrinking(
    sizes: str, limit: int, known: dict[str, int]
) -> None:
    over = structure.over(getattr(MEASURED, sizes), limit)
    grown = {k: (v, known[k]) for k, v in over.items() if k in known and v > known[k]}
    new = {k: v for k, v in over.items() if k not in known}
    fixed = sorted(set(known) - set(over))
    assert not new, f"over {limit} lines (split them): {new}"
    assert not grown, f"grew past their listed size (now, listed): {grown}"
    assert not fixed, f"within {limit} lines now: remove them from the list: {fixed}"


def test_undocumented_public_definitions_only_decrease() -> None:
    missing = sorted(k for k, documented in MEASURED.public_definitions.items() if not documented)
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
