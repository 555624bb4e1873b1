"""The package's layers point one way (issue 12): every import — module-level or inside a
function — goes to the same layer or one below, never up, and no modules form a cycle.
Nothing under ``src/oasis_eval`` imports the simulator package (``oasis_sim_k8s``), which
is found through entry points only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import oasis_eval

SRC = Path(oasis_eval.__file__).resolve().parent

#: lowest first; a package may import its own layer's modules only when the layer has one
#: package, and any lower layer
LAYERS: list[set[str]] = [
    {"version", "files", "diagnostics", "examples", "retrying", "secrecy"},
    {"spec"},
    {"contract"},
    {"profiles", "validation", "quality"},
    {"evaluation"},
    {"engine"},
    {"adapters", "adversarial", "reporting", "history"},
    {"viewer"},
    {"api"},
    {"cli"},
    {"__init__"},
]
RANK = {package: rank for rank, layer in enumerate(LAYERS) for package in layer}


def module_name(path: Path) -> tuple[str, bool]:
    """(dotted module name, is a package ``__init__``) of a source file."""
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """(absolute imported module, line) for every import in the file, at any depth; a
    ``from package import name`` counts as importing ``package.name`` when that is a module."""
    module, is_package = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                yield (candidate if _is_module(candidate) else target), node.lineno


def _is_module(dotted: str) -> bool:
    parts = dotted.split(".")
    if parts[0] != "oasis_eval":
        return False
    base = SRC.joinpath(*parts[1:])
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def package_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def graph() -> dict[str, set[str]]:
    """module -> the oasis_eval modules it imports (the nearest existing module)."""
    edges: dict[str, set[str]] = {}
    for path in sources():
        module, _ = module_name(path)
        targets = edges.setdefault(module, set())
        for target, _line in imports(path):
            if target.split(".")[0] == "oasis_eval":
                while target and not _is_module(target) and target != "oasis_eval":
                    target = target.rsplit(".", 1)[0]
                if target != module:
                    targets.add(target)
                targets.update(_packages_run_first(module, target))
    return edges


def _packages_run_first(importer: str, target: str) -> set[str]:
    """The packages whose ``__init__`` importing ``target`` executes before it: every package on
    its path that is not already an ancestor of the importer (those ran before the importer)."""
    parts = target.split(".")
    packages = {".".join(parts[:n]) for n in range(2, len(parts))}
    return {p for p in packages if not importer.startswith(p + ".") and _is_module(p)}


def test_every_package_has_a_layer() -> None:
    packages = {package_of(module_name(path)[0]) for path in sources()}
    assert packages, "no sources found"
    assert sorted(packages - set(RANK)) == [], "add new packages to LAYERS"


def test_no_upward_or_sideways_import() -> None:
    violations = []
    checked = 0
    for path in sources():
        module, _ = module_name(path)
        own = package_of(module)
        for target, line in imports(path):
            if target.split(".")[0] != "oasis_eval":
                continue
            checked += 1
            other = package_of(target)
            if other == own:
                continue
            if RANK[other] > RANK[own] or (RANK[other] == RANK[own] and len(LAYERS[RANK[own]]) > 1):
                violations.append(f"{path.relative_to(SRC.parent)}:{line}: {own} -> {target}")
    assert checked > 100
    assert not violations, "upward imports:\n" + "\n".join(violations)


def test_no_import_cycle_between_modules() -> None:
    edges = graph()
    assert len(edges) > 100
    cycles = [scc for scc in _strongly_connected(edges) if len(scc) > 1]
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_simulator_is_never_imported() -> None:
    offenders = [
        f"{path.relative_to(SRC.parent)}:{line}"
        for path in sources()
        for target, line in imports(path)
        if target.split(".")[0] == "oasis_sim_k8s"
    ]
    assert not offenders, "imports of the simulator:\n" + "\n".join(offenders)


def test_a_cycle_through_a_package_init_is_found() -> None:
    """Importing ``pkg.sub`` runs ``pkg/__init__``: a module that a package's ``__init__``
    pulls in may not import back into that package from outside it."""
    assert _packages_run_first(
        "oasis_eval.adversarial.serialize", "oasis_eval.adversarial.generators.base"
    ) == {"oasis_eval.adversarial.generators"}
    assert (
        _packages_run_first(
            "oasis_eval.adversarial.generators.llm", "oasis_eval.adversarial.generators.base"
        )
        == set()
    )
    edges = {"a.x": {"a.pkg"}, "a.pkg": {"a.pkg.y"}, "a.pkg.y": {"a.x"}}
    assert [sorted(c) for c in _strongly_connected(edges) if len(c) > 1] == [
        ["a.pkg", "a.pkg.y", "a.x"]
    ]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("from ..engine import runner\n", "engine -> oasis_eval.engine.runner"),
        ("def f():\n    from ..reporting import html\n", "reporting -> oasis_eval.reporting.html"),
    ],
)
def test_the_checker_sees_function_level_imports(
    tmp_path: Path, source: str, expected: str
) -> None:
    """The rule is not vacuous: an upward import inside a function is found."""
    target = SRC / "evaluation" / "_layer_probe.py"
    assert not target.exists()
    target.write_text(source, encoding="utf-8")
    try:
        found = [f"{package_of(t)} -> {t}" for t, _ in imports(target)]
    finally:
        target.unlink()
    assert expected in found
    assert RANK[expected.split(" ")[0]] > RANK["evaluation"]


def _strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm over the module graph, iterative (sorted for stable output)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(sorted(component))
    return result
