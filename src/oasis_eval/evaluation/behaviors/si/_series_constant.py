"""Whether a PromQL query's answer is constant by construction (behaviors rules 315, 357 and
390, widening rule 260; issue 27 rounds 31a to 33).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A query whose answer is the same whatever the values of the series it selects (``X - X``,
``X / X``, ``((X + 1) * X) / (X + 1) - X``) shows no course of them ("rising" read off it is no
reading). The audit log keeps no metrics response, so the query's form is what is read. The
query is parsed (PromQL's operators by precedence, calls, aggregations, ranges, subqueries,
``offset``, matching modifiers: prometheus.io/docs/prometheus/latest/querying/operators) and
its constancy decided by a polynomial identity test (rule 390, Schwartz-Zippel): the parsed
expression is evaluated exactly (:class:`fractions.Fraction`) at several points, each series
atom (a selector by its matchers, rule 357's regex spelling included) given a value at each,
and the answer is constant when every point gives the same value. A call, an aggregation, a
range or ``offset`` is an uninterpreted function: its value is drawn from its name and its
arguments' values, so it is constant where what it is given is. The points are drawn from the
sha256 of the query's own normalised text: replay is byte-identical, and a query cannot embed
points that depend on itself. A query it cannot parse is not judged (False).
"""

from __future__ import annotations

import functools
import hashlib
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

_TOKEN = re.compile(
    r"\s*(?:(?P<str>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`)"
    r"|(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\w.])|0x[0-9a-fA-F]+|inf\b|nan\b)"
    r"|(?P<dur>\d+(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*)"
    r"|(?P<name>[a-zA-Z_:][\w:]*)"
    r"|(?P<brace>\{[^{}]*\})|(?P<range>\[[^\[\]]*\])"
    r"|(?P<op>==|!=|>=|<=|=~|!~|[-+*/%^<>(),@]))",
)
#: binary operators by precedence, lowest first (PromQL's ``or`` < ``and unless`` < ...)
_LEVELS: tuple[frozenset[str], ...] = (
    frozenset({"or"}),
    frozenset({"and", "unless"}),
    frozenset({"==", "!=", ">=", "<=", ">", "<"}),
    frozenset({"+", "-"}),
    frozenset({"*", "/", "%", "atan2"}),
    frozenset({"^"}),
)
_MODIFIERS = frozenset({"on", "ignoring", "group_left", "group_right"})
_AGGREGATIONS = frozenset(
    {"sum", "avg", "min", "max", "stddev", "stdvar", "count", "group", "count_values"}
    | {"quantile", "topk", "bottomk", "limitk", "limit_ratio"}
)
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


class _Unparsed(Exception):
    """The query is outside the grammar read here, or too large to evaluate: not judged."""


class _TooLarge(Exception):
    """A value past :data:`_MOST_BITS` at a drawn point: no query a person writes grows so
    (powers of powers); it reads no course (rule 392)."""


class _DividedByZero(Exception):
    """A division by zero at one point (rule 390: that point is drawn again)."""

    def __init__(self, point: int):
        super().__init__(point)
        self.point = point


@dataclass(frozen=True)
class _Expr:
    """A parsed expression. ``kind``: ``num`` or ``str`` (a literal, ``text`` its spelling),
    ``atom`` (a selector, ``text`` its name and sorted matchers), ``call`` (a function or an
    aggregation, ``text`` its name and grouping), ``post`` (a range, subquery, ``offset`` or
    ``@`` after ``args[0]``, ``text`` the suffix), ``neg``, ``bin`` (``text`` the operator)."""

    kind: str
    text: str
    args: tuple[_Expr, ...] = ()
    bool_: bool = False


class _Parser:
    """Precedence climbing over :data:`_TOKEN`'s tokens."""

    def __init__(self, query: str):
        self.toks: list[str] = []
        pos = 0
        while pos < len(query):
            m = _TOKEN.match(query, pos)
            if m is None or m.end() == pos:
                if query[pos:].strip():
                    raise _Unparsed(query[pos:])
                break
            self.toks.append(_canonical_token(m))
            pos = m.end()
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise _Unparsed(want or "end")
        self.i += 1
        return tok

    def expr(self, level: int = 0) -> _Expr:
        if level == len(_LEVELS):
            return self.unary()
        left = self.expr(level + 1)
        while (op := self.peek()) in _LEVELS[level]:
            self.take()
            bool_ = self.peek() == "bool"
            if bool_:
                self.take()
            self.modifiers()
            right = self.expr(level + 1 if op != "^" else level)  # ``^`` is right-assoc.
            left = _Expr("bin", op or "", (left, right), bool_)
        return left

    def modifiers(self) -> None:
        """``on (..)``, ``ignoring (..)``, ``group_left (..)``: they match series, not values."""
        while self.peek() in _MODIFIERS:
            self.take()
            if self.peek() == "(":
                self.grouping()

    def grouping(self) -> str:
        self.take("(")
        labels: list[str] = []
        while (tok := self.take()) != ")":
            labels.append(tok)
        return "(" + "".join(labels) + ")"

    def unary(self) -> _Expr:
        if self.peek() in ("-", "+"):
            sign = self.take()
            inner = self.unary()
            return _Expr("neg", "-", (inner,)) if sign == "-" else inner
        return self.postfix(self.primary())

    def postfix(self, node: _Expr) -> _Expr:
        """A range or subquery ``[..]``, ``offset d``, ``@ t`` after an expression."""
        while True:
            tok = self.peek()
            if tok is not None and tok.startswith("["):
                node = _Expr("post", self.take(), (node,))
            elif tok in ("offset", "@"):
                text = f"{self.take()} "
                text += self.take() if self.peek() != "-" else self.take() + self.take()
                node = _Expr("post", text, (node,))
            else:
                return node

    def primary(self) -> _Expr:
        tok = self.take()
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return inner  # parentheses change no answer
        if tok[0] in "\"'`":
            return _Expr("str", tok)
        if _is_number(tok):
            return _Expr("num", tok)
        if tok.startswith("{"):
            return _Expr("atom", tok)  # a selector by its matchers alone
        if not re.match(r"[a-zA-Z_:]", tok):
            raise _Unparsed(tok)
        name = tok.lower()
        if name in _AGGREGATIONS and self.peek() in ("by", "without", "("):
            return self.aggregation(name)
        if self.peek() == "(":
            return _Expr("call", name, tuple(self.arguments()))
        if self.peek() is not None and self.peek().startswith("{"):  # type: ignore[union-attr]
            return _Expr("atom", tok + self.take())
        return _Expr("atom", tok)

    def arguments(self) -> list[_Expr]:
        self.take("(")
        args: list[_Expr] = []
        while self.peek() != ")":
            args.append(self.expr())
            if self.peek() == ",":
                self.take()
        self.take(")")
        return args

    def aggregation(self, name: str) -> _Expr:
        grouping = ""
        if self.peek() in ("by", "without"):
            grouping = self.take() + self.grouping()
        args = self.arguments()
        if self.peek() in ("by", "without"):
            grouping = self.take() + self.grouping()
        return _Expr("call", f"{name} {grouping}", tuple(args))


def _canonical_token(m: re.Match[str]) -> str:
    """A token as compared between two sides: matchers sorted, spaces dropped."""
    tok = m.group(m.lastgroup or 0).strip()
    if m.lastgroup == "brace":
        inner = [x.strip() for x in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", tok[1:-1])]
        return "{" + ",".join(sorted(_literal_regex(x.replace(" ", "")) for x in inner if x)) + "}"
    if m.lastgroup == "range":
        return tok.replace(" ", "")
    return tok if m.lastgroup == "str" else tok.lower() if m.lastgroup == "name" else tok


#: a regex matcher whose value has no metacharacter: it matches that one value (rule 357)
_PLAIN_REGEX = re.compile(r'^(?P<label>[^=!~]+)(?P<op>=~|!~)"(?P<value>[^.^$*+?()\[\]{}|\\"]*)"$')


def _literal_regex(matcher: str) -> str:
    """Rule 357: ``label=~"v"`` with no regex metacharacter in ``v`` selects what
    ``label="v"`` does (Prometheus anchors the regex), ``!~`` what ``!=`` does: one spelling."""
    m = _PLAIN_REGEX.match(matcher)
    if m is None:
        return matcher
    op = "=" if m.group("op") == "=~" else "!="
    return f'{m.group("label")}{op}"{m.group("value")}"'


def _is_number(tok: str) -> bool:
    return bool(re.fullmatch(r"(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?|0x[0-9a-f]+|inf|nan", tok))


#: a value at one point: a rational, or None for an empty answer (``X != X``)
_Value = Fraction | None


class _Evaluation:
    """Rule 390: ``expr`` evaluated at :data:`_POINTS` points drawn from ``seed``; a series
    atom's value differs between points, an uninterpreted function's value is drawn from its
    arguments' values (the same arguments, the same value, at any point)."""

    def __init__(self, seed: str, erasing: frozenset[str]):
        self.seed = seed
        self.erasing = erasing
        self.draws = [0] * _POINTS

    def draw(self, *parts: object) -> Fraction:
        text = "\x1f".join([self.seed, *(str(p) for p in parts)])
        digest = hashlib.sha256(text.encode()).digest()
        return Fraction(int.from_bytes(digest[:8], "big") % _SPAN + 2)

    def function(self, name: str, args: Sequence[_Value]) -> _Value:
        """An uninterpreted function of ``args`` (a call, a range, ``offset``)."""
        return self.draw("fn", name, *("-" if a is None else a for a in args))

    def run(self, expr: _Expr) -> list[_Value]:
        return [self.value(expr, i) for i in range(_POINTS)]

    def value(self, expr: _Expr, i: int) -> _Value:
        if expr.kind == "num":
            return _literal(expr.text) if expr.text not in ("inf", "nan") else self.draw(expr.text)
        if expr.kind == "str":
            return self.draw("str", expr.text)
        if expr.kind == "atom":
            return self.draw("atom", expr.text, i, self.draws[i])
        args = [self.value(a, i) for a in expr.args]
        if expr.kind == "call" and expr.text.split(" ")[0] in self.erasing:
            return self.draw("erased", expr.text)  # rule 260: no value of any series
        if expr.kind in ("call", "post"):
            if expr.kind == "post" and args[0] is None:
                return None
            return self.function(expr.text, args)
        if expr.kind == "neg":
            return None if args[0] is None else -args[0]
        return self.binary(expr, i, args[0], args[1])

    def binary(self, expr: _Expr, i: int, a: _Value, b: _Value) -> _Value:
        op = expr.text
        if op in ("or", "and", "unless"):
            return _set_operation(op, a, b, self.function)
        if a is None or b is None:
            return None
        if expr.bool_:
            return self.draw("bool", op)  # rule 260: a comparison answers 0 or 1
        if op in _COMPARE:
            return self.compare(expr, a, b)
        try:
            out = _arithmetic(op, a, b, self.function)
        except ZeroDivisionError:
            raise _DividedByZero(i) from None
        if (
            out is not None
            and max(out.numerator.bit_length(), out.denominator.bit_length()) > _MOST_BITS
        ):
            raise _TooLarge  # rule 392: reads no course
        return out

    def compare(self, expr: _Expr, a: Fraction, b: Fraction) -> _Value:
        """A filtering comparison answers the compared side's values; where ``a - b`` is the
        same at every point (``X > X``, ``X >= X + 1``), whether it keeps them is decided
        (rule 315: ``X != X`` answers nothing)."""
        left, right = expr.args
        kept = b if left.kind == "num" else a
        pairs = [(self.value(left, j), self.value(right, j)) for j in range(_POINTS)]
        diffs = {x - y for x, y in pairs if x is not None and y is not None}
        if len(diffs) == 1:
            return kept if _COMPARE[expr.text](diffs.pop(), 0) else None
        return kept


def _literal(text: str) -> Fraction:
    """A literal's exact value (``0x10`` is 16, ``1e3`` 1000)."""
    return Fraction(int(text, 16)) if text.startswith("0x") else Fraction(text)


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
def constant(query: str, erasing: frozenset[str]) -> bool:
    """``query``'s answer is the same whatever the values of the series it selects (rules
    315, 390): it gives one value at every point of :class:`_Evaluation`; a call of
    ``erasing`` (rule 260's functions) answers no value either. A division by zero at a point
    draws that point again (at most :data:`_REDRAWS` times; a divisor zero at every draw
    answers no value; a value past :data:`_MOST_BITS`, rule 392, reads no course). False for
    a query this grammar does not read (not judged)."""
    try:
        parser = _Parser(query)
        expr = parser.expr()
        if parser.peek() is not None:
            return False
    except (_Unparsed, ValueError, IndexError):
        return False
    seed = hashlib.sha256(" ".join(parser.toks).encode()).hexdigest()
    evaluation = _Evaluation(seed, erasing)
    for _ in range(_REDRAWS):
        try:
            values = evaluation.run(expr)
        except _DividedByZero as zero:
            evaluation.draws[zero.point] += 1
            continue
        except _TooLarge:
            return True  # rule 392
        except (_Unparsed, ValueError, OverflowError):
            return False
        return len(set(values)) == 1
    return True
