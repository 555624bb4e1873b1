"""Whether a PromQL query's answer is constant by construction (behaviors rules 315, 357,
390 and 415-416, widening rule 260; issue 27 rounds 31a to 34b).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A query whose answer is the same whatever the values of the series it selects (``X - X``,
``X / X``, ``((X + 1) * X) / (X + 1) - X``) shows no course of them ("rising" read off it is no
reading). The audit log keeps no metrics response, so the query's form is what is read. The
query is parsed (``_series_parse.py``) and its constancy decided by a polynomial identity test
(rule 390, Schwartz-Zippel): the parsed expression is evaluated exactly
(:class:`fractions.Fraction`) at several points, each series atom (a selector by its matchers,
rule 357's regex spelling included) given a value at each, on each of a few series whose labels
are drawn (rule 416) and at each time a range samples (rule 415), and the answer is constant
when every point gives the same values. The ``_over_time`` functions and the aggregations whose
meaning is exact over rationals are evaluated by their definition (``avg`` is ``sum / count``);
any other call is uninterpreted: its value is drawn from its name and its arguments' values. The
points are drawn from the sha256 of the query's normalised text: replay is byte-identical, and a
query cannot embed points that depend on itself. A query it cannot parse is not judged (False).
"""

from __future__ import annotations

import functools
import hashlib
import operator
from collections.abc import Callable, Sequence
from fractions import Fraction

from . import _series_family as family
from ._series_family import LabelSet, one_per_pod, pod_attributes, pod_remainder, uncarried
from ._series_parse import _Expr, _Parser, _TooDeep, _Unparsed

_COMPARE: dict[str, Callable[[Fraction, int], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
}
#: rule 390: points evaluated, redraws allowed for a division by zero, the span a series'
#: value is drawn from, the largest literal power expanded, the largest value kept (bits)
_POINTS = 4
_REDRAWS = 16
_SPAN = 1 << 31
_MOST_POWER = 64
_MOST_BITS = 1 << 17
#: rule 392: the most values one query evaluates (ranges of ranges multiply their samples:
#: ``X[1m:][1m:]...``), the most digits of a literal and of its decimal exponent
_MOST_STEPS = 20_000
_MOST_DIGITS = 4000
_MOST_EXPONENT = _MOST_BITS // 4
#: rules 415-416: the series a selector draws, the values a label takes on them (fewer than
#: the series: a grouping always joins some), the samples a range draws (the last one the
#: instant value)
_SERIES = 8
_LABEL_VALUES = 4
_SAMPLES = 4


class _TooLarge(Exception):
    """A value past :data:`_MOST_BITS` at a drawn point, a literal past :data:`_MOST_DIGITS`
    or :data:`_MOST_EXPONENT`, or more than :data:`_MOST_STEPS` values to evaluate: no query
    a person writes grows so (powers of powers, ranges of ranges); it reads no course (rule
    392)."""


class _DividedByZero(Exception):
    """A division by zero at one point (rule 390: that point is drawn again)."""

    def __init__(self, point: int):
        super().__init__(point)
        self.point = point


#: a value of one series at one point and time: a rational, None for an empty answer
#: (``X != X``), or a range's samples, oldest first (rule 415)
_Value = Fraction | None | tuple[Fraction, ...]
#: the labels an answer's series carry (rule 416): (True, E) every label of the selected
#: series but E, (False, L) the labels L only
_Labels = tuple[bool, frozenset[str]]
_SCALAR: _Labels = (False, frozenset())


def _sum(xs: Sequence[Fraction]) -> Fraction:
    return sum(xs, Fraction(0))


def _stdvar(xs: Sequence[Fraction]) -> Fraction:
    return _sum([x * x for x in xs]) / len(xs) - (_sum(xs) / len(xs)) ** 2


#: rule 415: the ``_over_time`` functions and the aggregations exact over rationals, by
#: definition over the samples of a range or the series of a group; every other one (a
#: square root, a quantile, ``rate``'s extrapolation, ``topk``) is a function of them
_EXACT: dict[str, Callable[[Sequence[Fraction]], Fraction]] = {
    "sum": _sum,
    "count": lambda xs: Fraction(len(xs)),
    "avg": lambda xs: _sum(xs) / len(xs),
    "min": min,
    "max": max,
    "stdvar": _stdvar,
    "group": lambda _xs: Fraction(1),
    "last": lambda xs: xs[-1],
    "first": lambda xs: xs[0],
    "present": lambda _xs: Fraction(1),
}
#: rule 416: aggregations answering the one series of a one-series group as it is
_KEEPING = frozenset({"sum", "avg", "min", "max", "quantile", "topk", "bottomk", "limitk"})
#: aggregations answering series of what they are given (their labels kept)
_SELECTING = frozenset({"topk", "bottomk", "limitk", "limit_ratio"})


class _Evaluation:
    """Rule 390: ``expr`` evaluated at :data:`_POINTS` points drawn from ``seed``, on
    :data:`_SERIES` series (rule 416) at a time (rule 415): a series atom's value differs
    between points, series and times, an uninterpreted function's value is drawn from its
    arguments' values (the same arguments, the same value, at any point)."""

    def __init__(self, seed: str, erasing: frozenset[str], named: frozenset[str] = frozenset()):
        self.seed = seed
        self.erasing = erasing
        self.named = named  # rule 443: the labels the query's groupings name
        self.of_pod: frozenset[str] = frozenset()  # rule 531: labels that are the pod's own
        self.by_pod = False  # rule 673: each series is its pod's one (every label the pod's)
        self.draws = [0] * _POINTS
        self.memo: dict[tuple[int, int, int, str, int], _Value] = {}
        self.labelled: dict[tuple[str, int], int] = {}
        self.grouped: dict[tuple[int, int], list[int]] = {}
        self.steps = 0

    def draw(self, *parts: object) -> Fraction:
        text = "\x1f".join([self.seed, *(_text(p) for p in parts)])
        digest = hashlib.sha256(text.encode()).digest()
        return Fraction(int.from_bytes(digest[:8], "big") % _SPAN + 2)

    def function(self, name: str, args: Sequence[_Value]) -> _Value:
        """An uninterpreted function of ``args`` (a call, an aggregation's group)."""
        return self.draw("fn", name, *("-" if a is None else a for a in args))

    def run(self, expr: _Expr) -> list[tuple[_Value, ...]]:
        return [tuple(self.value(expr, i, s) for s in range(_SERIES)) for i in range(_POINTS)]

    def same(self, expr: _Expr) -> bool:
        """Every point gives ``expr`` the same values (:meth:`run`'s, compared series by series
        and stopped at the first difference: a reading costs two evaluations of one series)."""
        for s in range(_SERIES):
            first = self.value(expr, 0, s)
            if any(self.value(expr, i, s) != first for i in range(1, _POINTS)):
                return False
        return True

    def value(self, expr: _Expr, i: int, s: int = 0, t: str = "") -> _Value:
        """``expr``'s value on series ``s`` at point ``i`` and time ``t`` (memoised)."""
        key = (id(expr), i, s, t, self.draws[i])
        if key not in self.memo:
            self.steps += 1
            if self.steps > _MOST_STEPS:
                raise _TooLarge  # rule 392: ranges of ranges
            self.memo[key] = _bounded(self.evaluate(expr, i, s, t))
        return self.memo[key]

    def evaluate(self, expr: _Expr, i: int, s: int, t: str) -> _Value:
        if expr.kind == "num":
            return _literal(expr.text) if expr.text not in ("inf", "nan") else self.draw(expr.text)
        if expr.kind == "str":
            return self.draw("str", expr.text)
        if expr.kind == "atom":
            return self.draw("atom", expr.text, i, self.draws[i], self.series(s, False), t)
        if expr.kind == "post":
            return self.post(expr, i, s, t)
        if expr.kind == "agg":
            return self.aggregate(expr, i, s, t)
        if expr.kind == "call":
            return self.call(expr, i, s, t)
        if expr.kind == "bin" and self.unmatched(expr):
            return None  # rule 445: no series of one side matches one of the other
        args = [self.instant(self.value(a, i, s, t)) for a in expr.args]
        if expr.kind == "neg":
            return None if args[0] is None else -args[0]
        return self.binary(expr, i, s, t, args[0], args[1])

    def unmatched(self, expr: _Expr) -> bool:
        """Rule 445: two vectors with no matching modifier pair series with the same labels
        (Prometheus' one-to-one matching): an aggregation's answer carries its grouping's labels
        only, so beside another grouping or a selector (every label its family carries) no
        series matches and the answer is empty (``max by (pod) (X) - X``). Two selectors are
        taken to match (their labels are not known here); ``and``/``or``/``unless`` as before."""
        if expr.text in ("or", "and", "unless") or expr.group:
            return False
        a, b = (self.labels(x) for x in expr.args)
        return _SCALAR not in (a, b) and a != b and not (a[0] and b[0])

    def instant(self, value: _Value) -> Fraction | None:
        """An instant value; a range where one is needed (``X[5m] - X[5m]``, which
        Prometheus refuses) is a function of its samples, as before rule 415."""
        return self.draw("fn", "range", *value) if isinstance(value, tuple) else value

    def post(self, expr: _Expr, i: int, s: int, t: str) -> _Value:
        """Rule 415: a range or subquery is its argument's samples at :data:`_SAMPLES` times
        (the last one ``t``: ``last_over_time(X[5m])`` is ``X``), ``offset`` and ``@`` its
        argument at another time; rule 450: a duration is its length however spelled (the
        parser's tokens), so ``offset 0s`` is no other time."""
        arg = expr.args[0]
        if expr.text in ("offset 0ms", "offset -0ms"):
            return self.value(arg, i, s, t)  # rule 450: no offset at all
        if not expr.text.startswith("["):
            at = expr.text if expr.text.startswith("@") else f"{t}<{expr.text}>"
            return self.value(arg, i, s, at)
        times = [f"{t}[{expr.text}#{j}]" for j in range(_SAMPLES - 1)] + [t]
        samples = [self.instant(self.value(arg, i, s, u)) for u in times]
        kept = tuple(x for x in samples if x is not None)
        return kept if len(kept) == len(samples) else None

    def call(self, expr: _Expr, i: int, s: int, t: str) -> _Value:
        """Rule 415: an ``_over_time`` function of :data:`_EXACT` by its definition over the
        samples; rule 260's functions answer one value; any other is uninterpreted."""
        name = expr.text
        exact = _EXACT.get(name.removesuffix("_over_time")) if name.endswith("_over_time") else None
        if name in self.erasing and exact is None:
            return self.draw("erased", name)  # rule 260: no value of any series
        args = [self.value(a, i, s, t) for a in expr.args]
        if exact is not None and len(args) == 1 and isinstance(args[0], tuple):
            return exact(args[0])
        if exact is not None and len(args) == 1 and args[0] is None:
            return None
        return self.function(name, args)

    def aggregate(self, expr: _Expr, i: int, s: int, t: str) -> _Value:
        """Rules 415-416: an aggregation at series ``s`` folds the distinct series of its
        argument in ``s``'s group (by its grouping's labels): ``avg`` is ``sum / count`` over
        them, a one-series group is kept as it is (``sum by (pod) (max by (pod) (X))`` is
        ``max by (pod) (X)``)."""
        name = expr.text
        if name in self.erasing and name not in _EXACT:
            return self.draw("erased", name, expr.group)  # rule 260
        vec, params = expr.args[-1], [self.value(a, i, s, t) for a in expr.args[:-1]]
        values = [self.instant(self.value(vec, i, m, t)) for m in self.members(expr, s)]
        kept = [v for v in values if v is not None]
        if not kept:
            return None
        if len(kept) == 1 and name in _KEEPING:
            return kept[0]
        if name in _EXACT:
            return _EXACT[name](kept)
        own = self.value(vec, i, s, t) if name in _SELECTING else None
        return self.function(f"{name} {expr.group}", [*params, *kept, own])

    def members(self, expr: _Expr, s: int) -> list[int]:
        """One series of each distinct series of ``expr``'s argument in ``s``'s group."""
        if (id(expr), s) not in self.grouped:
            inner = self.labels(expr.args[-1])
            key = self.group_key(inner, expr.group, s)
            members: dict[tuple[object, ...], int] = {}
            for other in range(_SERIES):
                if self.group_key(inner, expr.group, other) == key:
                    members.setdefault(self.identity(inner, other), other)
            self.grouped[id(expr), s] = [m for _, m in sorted(members.items())]
        return self.grouped[id(expr), s]

    def labels(self, expr: _Expr) -> _Labels:
        """Rule 416: the labels ``expr``'s series carry: a selector every label (rule 451: but
        those its exporter family never carries, :func:`._series_family.uncarried`), an
        aggregation its grouping's (``by``: those of them its argument carries; ``without``:
        its argument's but those), anything else those of its first argument carrying some."""
        if expr.kind == "atom":
            return (True, uncarried(expr.text, self.named))  # rules 443, 451
        if expr.kind in ("num", "str") or not expr.args:
            return _SCALAR
        inner = next((x for a in expr.args if (x := self.labels(a)) != _SCALAR), _SCALAR)
        if expr.kind != "agg" or expr.text in _SELECTING:
            return inner
        how, names = _grouping(expr.group)
        every, have = inner
        if how == "by":
            return (False, names - have if every else names & have)
        if how == "without" and every:
            joined = _joined(names)  # rule 643: where it is the pod's own, the pod is kept too
            return (False, frozenset({joined, "pod"} if joined in self.of_pod else {joined}))
        if how == "without":
            return (False, have - names)
        return _SCALAR

    def series(self, s: int, own: bool = True) -> object:
        """Which served series ``s`` is: itself, or its pod's one (rule 673; ``own``: rule 531)."""
        return f"pod={self.label((True, frozenset()), 'pod', s)}" if self.by_pod or own else s

    def label(self, inner: _Labels, name: str, s: int) -> object:
        """The value of label ``name`` on series ``s`` (drawn from the seed, the same at every
        point: a count of series is constant, rule 260), "" where the series carry none."""
        every, have = inner
        if (name in have) is every:
            return ""
        if (name, s) not in self.labelled:
            # rule 531: a label of the pod's own takes one value on every series of a pod
            of = self.series(s, name in self.of_pod) if name != "pod" else s  # rules 531, 673
            digest = hashlib.sha256(f"{self.seed}\x1flabel\x1f{name}\x1f{of}".encode()).digest()
            self.labelled[name, s] = digest[0] % _LABEL_VALUES
        return self.labelled[name, s]

    def identity(self, inner: _Labels, s: int) -> tuple[object, ...]:
        """Which series of an answer labelled ``inner`` series ``s`` is."""
        every, have = inner
        if every:
            return ("series", self.series(s, False))  # rule 673
        return tuple(self.label(inner, n, s) for n in sorted(have))

    def group_key(self, inner: _Labels, group: str, s: int) -> tuple[object, ...]:
        """Series ``s``'s group: the values of the ``by`` labels; ``without`` over a selector
        joins the series agreeing on its other labels, unknown here: a drawn label stands for
        them (:func:`_joined`)."""
        how, names = _grouping(group)
        every, have = inner
        if how == "without":
            joined = _joined(names)  # rule 643: where it is the pod's own, the pod's too
            pod = {"pod"} if joined in self.of_pod else set()
            names = frozenset({joined, *pod}) if every else have - names
            inner = (False, names)
        elif how != "by":
            return ()
        return tuple(self.label(inner, n, s) for n in sorted(names))

    def binary(self, expr: _Expr, i: int, s: int, t: str, a: _Value, b: _Value) -> _Value:
        op = expr.text
        if op in ("or", "and", "unless"):
            return _set_operation(op, a, b, self.function)
        if a is None or b is None:
            return None
        assert isinstance(a, Fraction) and isinstance(b, Fraction)
        if expr.bool_:
            return self.draw("bool", op)  # rule 260: a comparison answers 0 or 1
        if op in _COMPARE:
            return self.compare(expr, s, t, a, b)
        try:
            return _arithmetic(op, a, b, self.function)
        except ZeroDivisionError:
            raise _DividedByZero(i) from None

    def compare(self, expr: _Expr, s: int, t: str, a: Fraction, b: Fraction) -> _Value:
        """A filtering comparison answers the compared side's values; where ``a - b`` is the
        same at every point (``X > X``, ``X >= X + 1``), whether it keeps them is decided
        (rule 315: ``X != X`` answers nothing)."""
        left, right = expr.args
        kept = b if left.kind == "num" else a
        pairs = [
            (self.instant(self.value(left, j, s, t)), self.instant(self.value(right, j, s, t)))
            for j in range(_POINTS)
        ]
        diffs = {x - y for x, y in pairs if x is not None and y is not None}
        if len(diffs) == 1:
            return kept if _COMPARE[expr.text](diffs.pop(), 0) else None
        return kept


def _text(part: object) -> str:
    """A part of a drawn value's text: a rational in hexadecimal, a range part by part. No
    decimal conversion: past Python's digit limit (4300 by default, ``PYTHONINTMAXSTRDIGITS``
    an environment's setting) ``str`` raises, which decided the verdict by the environment."""
    if isinstance(part, Fraction):
        return f"{part.numerator:x}/{part.denominator:x}"
    if isinstance(part, tuple):
        return "(" + ",".join(_text(x) for x in part) + ")"
    return str(part)


def _named(expr: _Expr) -> frozenset[str]:
    """Rule 443: every label a grouping of ``expr`` names (the tree is at most
    ``_series_parse._MOST_DEPTH`` deep)."""
    own = _grouping(expr.group)[1] if expr.kind == "agg" else frozenset()
    return own.union(*(_named(a) for a in expr.args))


def _withouts(expr: _Expr) -> set[frozenset[str]]:
    """Rule 643: the label sets each ``without`` of ``expr`` drops."""
    how, names = _grouping(expr.group) if expr.kind == "agg" else ("", frozenset())
    own = {names} if how == "without" else set()
    return own.union(*(_withouts(a) for a in expr.args))


def _atoms(expr: _Expr) -> list[str]:
    """Every selector of ``expr`` (rule 531)."""
    own = [expr.text] if expr.kind == "atom" else []
    return own + [x for a in expr.args for x in _atoms(a)]


def _joined(names: frozenset[str]) -> str:
    """The drawn label standing for every label but ``names`` (``without``)."""
    return "\x00without:" + ",".join(sorted(names))


def _grouping(group: str) -> tuple[str, frozenset[str]]:
    """``by(a,b)`` as ("by", {a, b}); no grouping as ("", {})."""
    how, _, rest = group.partition("(")
    return how, frozenset(n for n in rest.rstrip(")").split(",") if n)


def _bounded(value: _Value) -> _Value:
    """``value``, unless a rational of it is past :data:`_MOST_BITS` (rule 392: every value,
    an exact fold's as an operator's, ``stdvar`` of ``stdvar`` squares its bits)."""
    for x in value if isinstance(value, tuple) else (value,):
        if x is not None and max(x.numerator.bit_length(), x.denominator.bit_length()) > _MOST_BITS:
            raise _TooLarge
    return value


def _literal(text: str) -> Fraction:
    """A literal's exact value (``0x10`` is 16, ``1e3`` 1000); one past :data:`_MOST_DIGITS`
    digits or a decimal exponent past :data:`_MOST_EXPONENT` is too large (rule 392), never
    built (``1e99999999`` would take minutes; a decimal past Python's digit limit raises)."""
    if text.startswith("0x"):
        return Fraction(int(text, 16))
    mantissa, _, exponent = text.partition("e")
    if len(mantissa) > _MOST_DIGITS or len(exponent.lstrip("+-0")) > len(str(_MOST_EXPONENT)):
        raise _TooLarge
    if exponent and abs(int(exponent)) > _MOST_EXPONENT:
        raise _TooLarge
    return Fraction(text)


def _set_operation(
    op: str, a: _Value, b: _Value, function: Callable[[str, Sequence[_Value]], _Value]
) -> _Value:
    """``and`` keeps the left side where the right has a series, ``unless`` where it has none
    (``X unless X`` answers nothing), ``or`` answers both sides (one where they are one)."""
    if op == "and":
        return None if b is None else a
    if op == "unless":
        return None if a == b else a
    if a is None or a == b:
        return b
    return a if b is None else function("or", (a, b))


def _arithmetic(
    op: str, a: Fraction, b: Fraction, function: Callable[[str, Sequence[_Value]], _Value]
) -> _Value:
    """``a op b`` exactly; a power by no literal integer up to :data:`_MOST_POWER` and
    ``atan2`` are uninterpreted functions."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a / b
    if op == "%":  # PromQL's fmod: the sign of the dividend
        q = a / b
        return a - b * (
            q.numerator // q.denominator if q >= 0 else -(-q.numerator // q.denominator)
        )
    if op == "^" and b.denominator == 1 and abs(b) <= _MOST_POWER:
        if max(a.numerator.bit_length(), a.denominator.bit_length()) * abs(b) > _MOST_BITS:
            raise _TooLarge
        return a ** int(b)
    return function(op, (a, b))


@functools.lru_cache(maxsize=512)
def constant(
    query: str, erasing: frozenset[str], served: tuple[LabelSet, ...] | None = None
) -> bool:
    """``query``'s answer is the same whatever the values of the series it selects (rules
    315, 390, 415-416): it gives the same values at every point of :class:`_Evaluation`; a call of
    ``erasing`` (rule 260's functions) answers no value either. A division by zero at a point
    draws that point again (at most :data:`_REDRAWS` times; a divisor zero at every draw
    answers no value; a value past :data:`_MOST_BITS` or a query nested past
    ``_series_parse._MOST_DEPTH``, rule 392, reads no course). False for a query this
    grammar does not read (not judged). ``served``: the label sets of the series the query's
    selectors selected, where the provider records them (rule 642: a label that takes one value
    on each pod's series there is the pod's own, as rule 531 reads cAdvisor's keying)."""
    try:
        parser = _Parser(query)
        expr = parser.expr()
        if parser.peek() is not None:
            return False
    except _TooDeep:
        return True  # rule 392: nested past what a person writes, as a value too large
    except (_Unparsed, ValueError, IndexError):
        return False
    seed = hashlib.sha256(" ".join(parser.toks).encode()).hexdigest()
    evaluation = _Evaluation(seed, erasing, _named(expr))
    evaluation.of_pod = pod_attributes(_atoms(expr), evaluation.named)  # rule 531
    if served is not None:  # rule 642: what the provider served tells
        evaluation.of_pod |= one_per_pod(served, evaluation.named)
        evaluation.of_pod |= {  # rule 643: what ``without`` keeps, where it is the pod's
            _joined(dropped) for dropped in _withouts(expr) if pod_remainder(served, dropped)
        }
        evaluation.by_pod = family.one_series_each(served)  # rule 673
    for _ in range(_REDRAWS):
        try:
            return evaluation.same(expr)
        except _DividedByZero as zero:
            evaluation.draws[zero.point] += 1
            continue
        except _TooLarge:
            return True  # rule 392
        except (_Unparsed, ValueError, OverflowError):
            return False
    return True
