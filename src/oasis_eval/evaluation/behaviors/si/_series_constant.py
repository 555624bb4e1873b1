"""Whether a PromQL query's answer is constant by construction (behaviors rule 315,
widening rule 260; issue 27 round 31a).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 260 listed the functions and forms answering no value of a series (``count_over_time``,
``* 0``, ``bool``). A query can be constant without any of them: ``X - X`` answers 0 for
every series, ``X / X`` 1, ``X != X`` nothing, whatever X's values are. The answer does not
vary with the series, so it shows no course of them ("rising" read off it is no reading).
This module parses the query (the operators, aggregations and calls of PromQL's grammar,
prometheus.io/docs/prometheus/latest/querying/operators) into a small tree and decides
constancy bottom-up: a literal is constant; a selector is not; a call or aggregation is
constant where every expression it is given is; a binary operation where both sides are,
or where its two sides are the same expression and the operator answers the same for
every value of it (``-``, ``/``, ``%``, ``unless``, a strict or ``!=`` comparison, any
``bool`` comparison). A query it cannot parse is not judged (False).

Rule 357 compares the sides as what they select and combine: a regex matcher of one plain
value is its equality, an identity (``X + 0``, ``X * 1``) is its side, and each side is a sum
of atoms with literal coefficients, so ``(X + 1) - X`` and ``(X + X) - 2 * X`` are constant,
and so is ``(2 * X) / X``. The audit log keeps no metrics response, so the query's form is
what is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
#: same expression on both sides: one answer whatever the series' values (``X - X`` is 0,
#: ``X / X`` 1, ``X % X`` 0; ``X unless X``, ``X != X``, ``X > X``, ``X < X`` nothing)
_SELF_CONSTANT = frozenset({"-", "/", "%", "unless", "!=", ">", "<"})
#: calls whose answer is no value of any series (time itself, a literal vector)
_SOURCELESS = frozenset({"time", "vector", "pi", "minute", "hour", "day_of_week"})


class _Unparsed(Exception):
    """The query is outside the grammar read here: not judged."""


#: rule 380: a monomial, its atoms with their integer exponents (``X^2 * Y^-1``), sorted; ``()``
#: is the literal term
_Mono = tuple[tuple[str, int], ...]
_Poly = dict[_Mono, float]
#: rule 380: a side read as a polynomial of more terms than this is not reduced (an atom)
_MOST_TERMS = 64


@dataclass(frozen=True)
class _Node:
    """A parsed expression: its canonical text (for comparing two sides), its constancy."""

    text: str
    constant: bool
    #: rules 357/380: the expression as a polynomial over atoms with literal coefficients
    #: (``2 * X * Y - 1``: X*Y 2, the literal term -1), None where it is an atom itself (a
    #: selector, a call) or a literal
    terms: tuple[tuple[_Mono, float], ...] | None = None

    def poly(self) -> _Poly:
        """Monomial: coefficient; a literal is its literal term, an atom itself once."""
        if self.terms is not None:
            return dict(self.terms)
        if _is_number(self.text):
            value = _value(self.text)
            return {(): value} if value else {}
        return {((self.text, 1),): 1.0}


class _Parser:
    """Precedence climbing over :data:`_TOKEN`'s tokens."""

    def __init__(self, query: str, erasing: frozenset[str]):
        self.erasing = erasing
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

    def expr(self, level: int = 0) -> _Node:
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
            left = _binary(op, bool_, left, right)
        return left

    def modifiers(self) -> None:
        """``on (..)``, ``ignoring (..)``, ``group_left (..)``: they match series, not values."""
        while self.peek() in _MODIFIERS:
            self.take()
            if self.peek() == "(":
                self.grouping()

    def grouping(self) -> None:
        self.take("(")
        while self.take() != ")":
            pass

    def unary(self) -> _Node:
        if self.peek() in ("-", "+"):
            sign = self.take()
            inner = self.unary()
            k = -1.0 if sign == "-" else 1.0  # rule 357: -X is X with the coefficient -1
            flipped = tuple(sorted((t, k * v) for t, v in inner.poly().items()))
            return _Node(f"{sign}{inner.text}", inner.constant, flipped)
        return self.postfix(self.primary())

    def postfix(self, node: _Node) -> _Node:
        """A range or subquery ``[..]``, ``offset d``, ``@ t`` after an expression."""
        text = node.text
        while True:
            tok = self.peek()
            if tok is not None and tok.startswith("["):
                text += self.take()
            elif tok in ("offset", "@"):
                text += f" {self.take()} "
                text += self.take() if self.peek() != "-" else self.take() + self.take()
            else:
                return node if text == node.text else _Node(text, node.constant)

    def primary(self) -> _Node:
        tok = self.take()
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return inner  # parentheses change no answer
        if tok[0] in "\"'`" or _is_number(tok):
            return _Node(tok, True)
        if tok.startswith("{"):
            return _Node(tok, False)  # a selector by its matchers alone
        if not re.match(r"[a-zA-Z_:]", tok):
            raise _Unparsed(tok)
        name = tok.lower()
        if name in _AGGREGATIONS and self.peek() in ("by", "without", "("):
            return self.aggregation(name)
        if self.peek() == "(":
            return self.call(name)
        if self.peek() is not None and self.peek().startswith("{"):  # type: ignore[union-attr]
            return _Node(tok + self.take(), False)
        return _Node(tok, False)

    def arguments(self) -> list[_Node]:
        self.take("(")
        args: list[_Node] = []
        while self.peek() != ")":
            args.append(self.expr())
            if self.peek() == ",":
                self.take()
        self.take(")")
        return args

    def call(self, name: str) -> _Node:
        args = self.arguments()
        text = f"{name}({','.join(a.text for a in args)})"
        constant = name in self.erasing or name in _SOURCELESS or all(a.constant for a in args)
        return _Node(text, constant)

    def aggregation(self, name: str) -> _Node:
        grouping = ""
        if self.peek() in ("by", "without"):
            grouping = self.take()
            self.grouping()
        args = self.arguments()
        if self.peek() in ("by", "without"):
            grouping = self.take()
            self.grouping()
        text = f"{name} {grouping}({','.join(a.text for a in args)})"
        return _Node(text, name in self.erasing or all(a.constant for a in args[-1:]))


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


def _value(text: str) -> float:
    """A literal's value (``0x10`` is 16)."""
    return float(int(text, 16)) if text.startswith("0x") else float(text)


def _zero(text: str) -> bool:
    """``text`` is a literal zero (``0``, ``0.0``, ``0x0``)."""
    if not _is_number(text):
        return False
    return (int(text, 16) if text.startswith("0x") else float(text)) == 0


def _one(text: str) -> bool:
    """``text`` is a literal one (``1``, ``1.0``)."""
    return _is_number(text) and not text.startswith("0x") and float(text) == 1


def _identity(op: str, bool_: bool, left: _Node, right: _Node) -> _Node | None:
    """Rule 357: the side kept where the other changes no value of it (``X + 0``, ``0 + X``,
    ``X - 0``, ``X * 1``, ``1 * X``, ``X / 1``, ``X ^ 1``; ``X and X``, ``X or X``), so that
    ``X - (X + 0)`` is read as ``X - X``; else None."""
    if bool_:
        return None
    if (op in ("+", "-") and _zero(right.text)) or (op in ("*", "/", "^") and _one(right.text)):
        return left
    if (op == "+" and _zero(left.text)) or (op == "*" and _one(left.text)):
        return right
    if op in ("and", "or") and left.text == right.text:
        return left
    return None


def _binary(op: str, bool_: bool, left: _Node, right: _Node) -> _Node:
    """``left op right``: constant where both sides are, where ``bool`` answers 0 or 1 (rule
    260's reading), or where the two sides are one expression and ``op`` answers the same for
    every value of it (:data:`_SELF_CONSTANT`; with ``bool`` any comparison). Rule 357: an
    operation changing no value of one side is that side (:func:`_identity`). Rule 380: a
    side that reduces to a polynomial with its literal term only (:func:`_combined`: ``(X /
    X) * X - X``, ``(X + X) - 2 * X``) or a ratio of proportional polynomials
    (:func:`_proportional`) is constant."""
    kept = _identity(op, bool_, left, right)
    if kept is not None and not (left.constant and right.constant):
        return kept
    text = f"({left.text} {op}{' bool' if bool_ else ''} {right.text})"
    combined = _combined(op, bool_, left, right)
    terms = None if combined is None else tuple(sorted(combined.items()))
    same = left.text == right.text
    constant = (
        (left.constant and right.constant)
        or bool_
        or (same and op in _SELF_CONSTANT)
        or (op == "*" and any(_zero(s.text) for s in (left, right)))
        or _proportional(op, bool_, left, right)
        or (combined is not None and all(not mono for mono in combined))
    )
    return _Node(text, constant, terms)


def _combined(op: str, bool_: bool, left: _Node, right: _Node) -> _Poly | None:
    """Rule 380: ``left op right`` as a polynomial over atoms (integer exponents, literal
    coefficients; ``X / X`` is ``X^0``, 1), the terms that cancel dropped; None where it is
    no such polynomial (a division by a sum, a comparison, a set operation, a non-integer
    power) or has more than :data:`_MOST_TERMS` terms."""
    if bool_ or op not in ("+", "-", "*", "/", "^"):
        return None
    a, b = left.poly(), right.poly()
    if op in ("+", "-"):
        sign = 1.0 if op == "+" else -1.0
        out = dict(a)
        for mono, v in b.items():
            out[mono] = out.get(mono, 0.0) + sign * v
    elif op == "*":
        out = _times(a, b)
    elif op == "/":
        if len(b) != 1:
            return None
        ((mono, v),) = b.items()
        out = _times(a, {tuple((atom, -e) for atom, e in mono): 1.0 / v})
    else:
        powered = _power(a, b)
        if powered is None:
            return None
        out = powered
    out = {m: v for m, v in out.items() if abs(v) > 1e-12}
    return out if len(out) <= _MOST_TERMS else None


def _times(a: _Poly, b: _Poly) -> _Poly:
    """Rule 380: the product of two polynomials, exponents of one atom added (``X^-1 * X`` is
    ``X^0``: the atom drops out)."""
    out: _Poly = {}
    for ma, va in a.items():
        for mb, vb in b.items():
            exps = dict(ma)
            for atom, e in mb:
                exps[atom] = exps.get(atom, 0) + e
            mono = tuple(sorted((atom, e) for atom, e in exps.items() if e))
            out[mono] = out.get(mono, 0.0) + va * vb
    return out


def _power(a: _Poly, b: _Poly) -> _Poly | None:
    """Rule 380: ``a ^ n`` for a literal integer ``n`` (``X ^ 0`` is 1), a sum to at most the
    fourth power, a monomial to any; None otherwise."""
    if any(b) or not float(b.get((), 0.0)).is_integer():
        return None
    n = int(b.get((), 0.0))
    if len(a) == 1:
        ((mono, v),) = a.items()
        if v == 0 or abs(n) > 64:
            return None
        return {tuple((atom, e * n) for atom, e in mono if e * n): v**n}
    if not 0 <= n <= 4:
        return None
    out: _Poly = {(): 1.0}
    for _ in range(n):
        out = _times(out, a)
    return out


def _proportional(op: str, bool_: bool, left: _Node, right: _Node) -> bool:
    """Rule 357: ``left / right`` where both are one polynomial up to a literal factor
    (``(2 * X) / X``, ``(X + Y) / (2 * X + 2 * Y)``): one value wherever it is defined."""
    a, b = left.poly(), right.poly()
    if bool_ or op != "/" or not a or not b or set(a) != set(b) or set(a) == {()}:
        return False
    ratios = {round(a[k] / b[k], 12) for k in a}
    return len(ratios) == 1


def constant(query: str, erasing: frozenset[str]) -> bool:
    """``query``'s answer is the same whatever the values of the series it selects (rule
    315): ``X - X``, ``X / X``, ``abs(X - X) + 1``, ``sum(X) != sum(X)``; a call of
    ``erasing`` (rule 260's functions) answers no value either. False for a query this
    grammar does not read (not judged)."""
    try:
        parser = _Parser(query, erasing)
        node = parser.expr()
        if parser.peek() is not None:
            return False
    except (_Unparsed, ValueError, IndexError):
        return False
    return node.constant
