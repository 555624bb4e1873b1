"""Every test must be able to fail (issue 12): a test whose only checks sit inside loops
that may run zero times passes without checking anything when the loop's collection comes
back empty.

What counts as a check:

- an ``assert`` statement;
- ``pytest.raises`` / ``pytest.warns`` / ``pytest.fail`` (as a context manager or a call);
- a call of a helper whose name starts with ``assert`` or ``_assert`` (``assert_called_once``,
  ``_assert_undisclosed``, ...): the helper is trusted to assert;
- a call of a module-level function of the same file that contains a check itself (directly
  or through another such helper): ``for probe in probes: _provision(probe)`` checks inside
  the loop when ``_provision`` asserts. Helpers reached through fixtures (``ev.si_ready``) or
  other modules are not seen; a test that only calls them has no check as far as the rule knows.

A check is *skippable* when it sits in the body of a ``for``/``while`` loop or in the
element of a comprehension, at any depth (a ``with`` or an ``if`` inside the loop included),
unless the loop provably runs: ``for`` over a non-empty literal list/tuple/set/string, a
module-level name bound once to such a literal (``OWNED = ("a", "b")``), or a ``range()`` of
constants that is not empty; or ``while True``. A ``for``'s iterable, a ``while``'s condition
and a loop's ``else`` always run, so checks there are not skippable.
Functions nested in a test (``async def go(): ...`` run by ``anyio.run(go)``) are looked
through: their checks count, inside the loops around them.

A test function fails the rule when it has at least one check and every one is skippable.
Tests with no check at all are not this rule's business (many smoke tests pass by not
raising); :func:`test_tests_without_any_check_are_few` keeps an eye on their number.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

_PYTEST_CHECKS = {"raises", "warns", "fail"}
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@dataclass(frozen=True)
class Finding:
    """A test function whose every check can be skipped."""

    path: str
    line: int
    name: str
    checks: int

    def render(self) -> str:
        return f"{self.path}:{self.line} {self.name} ({self.checks} check(s), all inside loops)"


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _is_check(node: ast.AST, helpers: frozenset[str] = frozenset()) -> bool:
    if isinstance(node, ast.Assert):
        return True
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "pytest"
        and func.attr in _PYTEST_CHECKS
    ):
        return True
    if isinstance(func, ast.Name) and func.id in helpers:
        return True
    return _call_name(node).lstrip("_").startswith("assert")


def _checking_helpers(tree: ast.Module) -> frozenset[str]:
    """Module-level non-test functions that contain a check, directly or through each other."""
    functions = {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("test")
    }
    helpers: frozenset[str] = frozenset()
    while True:
        found = frozenset(
            name
            for name, fn in functions.items()
            if any(_is_check(n, helpers) for n in ast.walk(fn))
        )
        if found == helpers:
            return helpers
        helpers = found


def _constant_int(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, int)
    ):
        return -node.operand.value
    return None


def _surely_iterates(iterable: ast.expr, constants: frozenset[str] = frozenset()) -> bool:
    """Whether a ``for`` over ``iterable`` runs its body at least once, by its syntax alone
    (``constants``: module-level names bound once to a non-empty literal)."""
    if isinstance(iterable, ast.Name):
        return iterable.id in constants
    if isinstance(iterable, ast.List | ast.Tuple | ast.Set):
        return bool(iterable.elts) and not any(isinstance(e, ast.Starred) for e in iterable.elts)
    if isinstance(iterable, ast.Constant) and isinstance(iterable.value, str | bytes):
        return bool(iterable.value)
    if (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id == "range"
        and not iterable.keywords
    ):
        bounds = [b for b in (_constant_int(a) for a in iterable.args) if b is not None]
        if len(bounds) != len(iterable.args) or not 1 <= len(bounds) <= 3 or bounds[2:] == [0]:
            return False
        return len(range(*bounds)) > 0
    return False


def _literal_constants(tree: ast.Module) -> frozenset[str]:
    """Module-level names bound exactly once, to a literal that surely iterates."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        value = node.value if target is name else None
                        bound.setdefault(name.id, []).append(value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound.setdefault(node.target.id, []).append(node.value)
    return frozenset(
        name
        for name, values in bound.items()
        if len(values) == 1 and values[0] is not None and _surely_iterates(values[0])
    )


def _loop_may_skip(loop: ast.AST, constants: frozenset[str]) -> bool:
    if isinstance(loop, ast.For | ast.AsyncFor):
        return not _surely_iterates(loop.iter, constants)
    if isinstance(loop, ast.While):
        return not (isinstance(loop.test, ast.Constant) and bool(loop.test.value))
    return True  # a comprehension: its first generator may be empty


def _checks(
    node: ast.AST, skippable: bool, constants: frozenset[str], helpers: frozenset[str]
) -> Iterator[bool]:
    """Yield, for every check under ``node``, whether a loop around it may run zero times
    (``constants``: see :func:`_literal_constants`; ``helpers``: :func:`_checking_helpers`)."""
    if _is_check(node, helpers):
        yield skippable
    if isinstance(node, _LOOPS):
        body_skippable = skippable or _loop_may_skip(node, constants)
        head = node.iter if isinstance(node, ast.For | ast.AsyncFor) else node.test
        yield from _checks(head, skippable, constants, helpers)
        if isinstance(node, ast.For | ast.AsyncFor):
            yield from _checks(node.target, body_skippable, constants, helpers)
        for stmt in node.body:
            yield from _checks(stmt, body_skippable, constants, helpers)
        for stmt in node.orelse:
            yield from _checks(stmt, skippable, constants, helpers)
        return
    if isinstance(node, _COMPREHENSIONS):
        first, *rest = node.generators
        yield from _checks(first.iter, skippable, constants, helpers)  # evaluated once, always
        inner = skippable or not _surely_iterates(first.iter, constants)
        for part in [first.target, *first.ifs, *rest]:
            yield from _checks(part, inner, constants, helpers)
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for element in elements:
            yield from _checks(element, inner, constants, helpers)
        return
    for child in ast.iter_child_nodes(node):
        yield from _checks(child, skippable, constants, helpers)


def _test_functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    functions = ast.FunctionDef | ast.AsyncFunctionDef
    for node in tree.body:
        if isinstance(node, functions) and node.name.startswith("test"):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from (
                m for m in node.body if isinstance(m, functions) and m.name.startswith("test")
            )


def check_source(source: str, path: str = "<string>") -> tuple[list[Finding], list[str]]:
    """The rule's findings in one module's source, and the test functions without any check."""
    tree = ast.parse(source, filename=path)
    constants, helpers = _literal_constants(tree), _checking_helpers(tree)
    findings: list[Finding] = []
    unchecked: list[str] = []
    for fn in _test_functions(tree):
        skippable = [s for stmt in fn.body for s in _checks(stmt, False, constants, helpers)]
        if not skippable:
            unchecked.append(f"{path}:{fn.lineno} {fn.name}")
        elif all(skippable):
            findings.append(Finding(path, fn.lineno, fn.name, len(skippable)))
    return findings, unchecked


def scan(root: Path = TESTS) -> tuple[list[Finding], list[str], int]:
    """Findings and check-less tests in every ``test_*.py`` under ``root``; and how many tests."""
    findings: list[Finding] = []
    unchecked: list[str] = []
    count = 0
    for path in sorted(root.rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        rel = path.relative_to(root.parent).as_posix()
        found, bare = check_source(source, rel)
        findings += found
        unchecked += bare
        count += sum(1 for _ in _test_functions(ast.parse(source)))
    return findings, unchecked, count


# ---- the checker on small sources ---------------------------------------------------------------

FLAGGED = """
NAMES = ("a", "b")
NAMES = ()
EMPTY = []

def test_rebound_constant():
    for name in NAMES:
        assert name

def test_empty_constant():
    for name in EMPTY:
        assert name

def test_loop_only(items):
    for item in items:
        assert item.ok

def _provision(x):
    _verify(x)

def _verify(x):
    assert x.ready

def test_loop_of_a_checking_helper(xs):
    for x in xs:
        _provision(x)

async def test_while_with(items):
    while items:
        with pytest.raises(ValueError):
            items.pop()()

def test_comprehension_helper(rows):
    [assert_row(r) for r in rows]

def test_nested_function_in_loop(xs):
    for x in xs:
        def go():
            assert x
        go()

class TestGroup:
    def test_method(self, xs):
        for x in xs:
            if x:
                assert x > 0
"""

NOT_FLAGGED = """
OWNED: tuple[str, ...] = ("a", "b")

def test_over_a_constant():
    for name in OWNED:
        assert name

def test_guarded(items):
    assert items
    for item in items:
        assert item.ok

def test_literal_loop():
    for n in (1, 2, 3):
        assert n

def test_range_loop():
    for i in range(3):
        assert i < 3

def test_while_true(q):
    while True:
        assert q.get()
        break

def test_loop_else(xs):
    for x in xs:
        pass
    else:
        assert not xs

def test_iterable_is_checked(xs):
    for x in assert_all(xs):
        print(x)

def test_nested_function(xs):
    async def go():
        assert await xs()
    anyio.run(go)

def test_raises():
    with pytest.raises(KeyError, match="k"):
        {}["k"]

def _check(x):
    assert x

def test_checking_helper(x):
    _check(x)

def helper_not_a_test(xs):
    for x in xs:
        assert x
"""


def test_checker_flags_tests_whose_every_check_is_in_a_loop() -> None:
    findings, _ = check_source(FLAGGED)
    assert [f.name for f in findings] == [
        "test_rebound_constant",
        "test_empty_constant",
        "test_loop_only",
        "test_loop_of_a_checking_helper",
        "test_while_with",
        "test_comprehension_helper",
        "test_nested_function_in_loop",
        "test_method",
    ]
    assert [f.checks for f in findings] == [1] * 8


def test_checker_passes_tests_with_a_check_that_cannot_be_skipped() -> None:
    findings, unchecked = check_source(NOT_FLAGGED)
    assert findings == []
    assert unchecked == []


def test_checker_reports_tests_without_any_check() -> None:
    findings, unchecked = check_source("def test_smoke():\n    run()\n", "t.py")
    assert findings == [] and unchecked == ["t.py:1 test_smoke"]


def test_range_bounds_decide_whether_a_loop_surely_runs() -> None:
    def runs(expr: str) -> bool:
        return _surely_iterates(ast.parse(expr, mode="eval").body)

    assert [runs(e) for e in ("range(2)", "range(1, 3)", "range(0, 10, 5)", "[0]", "'ab'")] == [
        True
    ] * 5
    assert [runs(e) for e in ("range(0)", "range(3, 1)", "range(n)", "[]", "[*xs]", "xs")] == [
        False
    ] * 6


# ---- the suite ----------------------------------------------------------------------------------


def test_no_test_has_every_check_inside_a_loop_that_may_not_run() -> None:
    findings, _, count = scan()
    assert count > 1000, f"only {count} test functions found under {TESTS}: the scan is broken"
    assert findings == [], "\n".join(
        ["these tests check nothing when their loop's collection is empty:"]
        + [f.render() for f in findings]
    )


def test_tests_without_any_check_are_few() -> None:
    """A test with no check it can be seen to make passes by not raising: fine for the odd
    smoke test, a smell in bulk (there are none today; 1% leaves room for a smoke test)."""
    _, unchecked, count = scan()
    assert len(unchecked) <= 0.01 * count, "\n".join(unchecked)
