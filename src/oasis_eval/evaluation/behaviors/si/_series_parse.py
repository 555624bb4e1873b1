"""PromQL's grammar as the constancy test reads it (behaviors rules 357, 390 and 415-416;
issue 27): tokens, precedence, calls, aggregations with their groupings, ranges, subqueries,
``offset`` and ``@`` (prometheus.io/docs/prometheus/latest/querying/operators).

Not an evaluator module (the leading ``_`` keeps the registry loader away). Split from
``_series_constant.py`` (branch s21-fix80), which evaluates what is parsed here.
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


class _Unparsed(Exception):
    """The query is outside the grammar read here, or too large to evaluate: not judged."""


@dataclass(frozen=True)
class _Expr:
    """A parsed expression. ``kind``: ``num`` or ``str`` (a literal, ``text`` its spelling),
    ``atom`` (a selector, ``text`` its name and sorted matchers), ``call`` (a function,
    ``text`` its name), ``agg`` (an aggregation, ``text`` its name, ``group`` its grouping:
    ``by(a,b)``, ``without(a)`` or ``""``), ``post`` (a range, subquery, ``offset`` or ``@``
    after ``args[0]``, ``text`` the suffix), ``neg``, ``bin`` (``text`` the operator)."""

    kind: str
    text: str
    args: tuple[_Expr, ...] = ()
    bool_: bool = False
    group: str = ""


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
        return _Expr("agg", name, tuple(args), group=grouping)


def _canonical_token(m: re.Match[str]) -> str:
    """A token as compared between two sides: matchers sorted, spaces dropped."""
    tok = m.group(m.lastgroup or 0).strip()
    if m.lastgroup == "brace":
        inner = [x.strip() for x in re.split(r",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)", tok[1:-1])]
        return "{" + ",".join(sorted(_literal_regex(x.replace(" ", "")) for x in inner if x)) + "}"
    if m.lastgroup == "range":
        return _DURATION.sub(_milliseconds, tok.replace(" ", ""))
    if m.lastgroup == "dur":
        return _DURATION.sub(_milliseconds, tok)
    return tok if m.lastgroup == "str" else tok.lower() if m.lastgroup == "name" else tok


#: rule 450: a duration (``5m``, ``1h30m``, ``300s``, ``250ms``) and its units' lengths
_DURATION = re.compile(r"(?<![\w.])(?:\d+(?:ms|[smhdwy]))+(?![\w.])")
_UNIT = re.compile(r"(\d+)(ms|[smhdwy])")
_MS = {"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
_MS |= {"w": 7 * _MS["d"], "y": 365 * _MS["d"]}


def _milliseconds(m: re.Match[str]) -> str:
    """Rule 450: a duration as its length in milliseconds: ``[5m]``, ``[300s]`` and
    ``[300000ms]`` select the same samples, ``offset 1h`` and ``offset 60m`` the same time."""
    return f"{sum(int(n) * _MS[u] for n, u in _UNIT.findall(m.group(0)))}ms"


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
