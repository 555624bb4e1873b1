"""The simulator distribution's boundary: from oasis-eval it uses only the contract and the spec
model, and every third-party module it imports is a declared dependency of
``packages/oasis-sim-k8s/pyproject.toml``. Module- and function-level imports both count
(including those under ``if TYPE_CHECKING:`` and ``importlib.import_module("...")`` calls)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator, Mapping
from importlib.metadata import packages_distributions
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
SOURCES = PACKAGE_ROOT / "src" / "oasis_sim_k8s"
ALLOWED_CORE = ("oasis_eval.contract", "oasis_eval.spec")


def _imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every absolute module an AST imports: ``(line, dotted name)``, at any nesting level."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module in ("oasis_eval", "oasis_eval.spec"):
                # `from oasis_eval import engine` imports the submodule oasis_eval.engine
                for alias in node.names:
                    yield node.lineno, f"{node.module}.{alias.name}"
            else:
                yield node.lineno, node.module
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, (ast.Attribute, ast.Name))
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and not node.args[0].value.startswith(".")
        ):
            yield node.lineno, node.args[0].value


def _core_allowed(module: str) -> bool:
    return any(module == ok or module.startswith(ok + ".") for ok in ALLOWED_CORE)


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    """The distributions named in the package's ``[project] dependencies``."""
    project = tomllib.loads((PACKAGE_ROOT / "pyproject.toml").read_text())["project"]
    names = set()
    for requirement in project["dependencies"]:
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
        assert match, requirement
        names.add(_normalise(match.group(1)))
    return names


def _distributions(top: str, providers: Mapping[str, list[str]]) -> set[str]:
    """The distributions that may provide import name ``top`` (an editable install of
    oasis-eval is not in ``packages_distributions``; its import name matches its name)."""
    return {_normalise(d) for d in providers.get(top, [])} | {_normalise(top)}


def violations(sources: dict[str, str], declared: set[str]) -> list[str]:
    """What breaks the boundary in ``sources`` (path -> text), one line per import."""
    providers = packages_distributions()
    found = []
    for path, text in sorted(sources.items()):
        for line, module in _imports(ast.parse(text, path)):
            top = module.split(".")[0]
            where = f"{path}:{line}: {module}"
            if top == "oasis_eval":
                if not _core_allowed(module):
                    found.append(f"{where} (only oasis_eval.contract / oasis_eval.spec.*)")
            elif top in sys.stdlib_module_names or top == "oasis_sim_k8s":
                continue
            else:
                dists = _distributions(top, providers)
                if not dists & declared:
                    found.append(f"{where} (undeclared: {sorted(dists)})")
    return found


def _package_sources() -> dict[str, str]:
    return {
        str(p.relative_to(SOURCES.parent)): p.read_text(encoding="utf-8")
        for p in sorted(SOURCES.rglob("*.py"))
    }


def test_simulator_imports_only_contract_spec_and_declared_dependencies() -> None:
    sources = _package_sources()
    assert len(sources) > 50  # the scan really read the package
    assert violations(sources, _declared()) == []


def test_simulator_uses_its_declared_dependencies() -> None:
    """Each declared dependency is imported somewhere (no stale declarations)."""
    providers = packages_distributions()
    used = {
        dist
        for text in _package_sources().values()
        for _, module in _imports(ast.parse(text))
        for dist in _distributions(module.split(".")[0], providers)
    }
    assert _declared() - used == set()


def test_scanner_catches_function_level_and_undeclared_imports() -> None:
    """The check can fail: nested, aliased and dynamic imports of the wrong modules are found."""
    declared = _declared()
    bad = {
        "a.py": "def f():\n    from oasis_eval.engine import runner\n",
        "b.py": "import oasis_eval.reporting.markdown as md\n",
        "c.py": "from oasis_eval import evaluation\n",
        "d.py": "class C:\n    def m(self):\n        import jsonschema\n",
        "e.py": "import importlib\nimportlib.import_module('oasis_eval.cli')\n",
        "ok.py": (
            "import json\nfrom typing import TYPE_CHECKING\nimport yaml\n"
            "from oasis_eval.contract import ToolCall\nfrom oasis_eval.spec.kinds import x\n"
            "from . import store\n"
        ),
    }
    found = violations(bad, declared)
    assert [f.split(":")[0] for f in found] == ["a.py", "b.py", "c.py", "d.py", "e.py"]
