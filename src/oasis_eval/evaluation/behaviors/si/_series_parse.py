"""PromQL's grammar as the constancy test reads it (behaviors rules 357, 390 and 415-416;
issue 27): tokens, precedence, calls, aggregations with their groupings, ranges, subqueries,
``offset`` and ``@`` (prometheus.io/docs/prometheus/latest/querying/operators).

Not an evaluator module (the leading ``_`` keeps the registry loader away). Split from
``_series_constant.py`` (branch s21-fix80), which evaluates what is parsed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(
    r"\s*(?:(?P<str>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`)"
    r"|(?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\w.])|0x[0-9a-fA-F]+|inf\b|nan\b)"
    r"|(?P<dur>\d+(?:ms|[smhdwy])(?:\d+(?:ms|[smhdwy]))*)"
    r"|(?P<name>[a-zA-Z_:][\w:]*)"
    r"|(?P<brace>\{(?:[^{}\"'`]|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`)*\})"
    r"|(?P<range>\[[^\[\]]*\])"
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


#: the deepest expression read (levels of its tree) and the most nested parse (frames of
#: :meth:`_Parser.expr`, seven a parenthesis: 24 nested): past them a query reads no course
#: (rule 392), never a ``RecursionError`` an agent's query could raise in the evaluator
_MOST_DEPTH = 64
_MOST_FRAMES = 168

#: the words PromQL reads whatever their case (operators, modifiers, aggregations, literals)
_KEYWORDS = frozenset().union(*_LEVELS[:2], _MODIFIERS, _AGGREGATIONS) | {
    "atan2",
    "bool",
    "offset",
    "by",
    "without",
    "inf",
    "nan",
}


class _Unparsed(Exception):
    """The query is outside the grammar read here: not judged."""


class _TooDeep(Exception):
    """The query nests past :data:`_MOST_DEPTH` or :data:`_MOST_FRAMES`: no query a person
    writes does (rule 392, as a value too large)."""


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
    depth: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        depth = 1 + max((a.depth for a in self.args), default=0)
        if depth > _MOST_DEPTH:
            raise _TooDeep(depth)
        object.__setattr__(self, "depth", depth)


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
        self.frames = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise _Unparsed(want or "end")
        self.i += 1
        return tok

    def expr(self, level: int = 0) -> _Expr:
        """Operators of ``_LEVELS[level]`` and above, left-associative but ``^``; counted
        against :data:`_MOST_FRAMES`."""
        self.frames += 1
        try:
            if self.frames > _MOST_FRAMES:
                raise _TooDeep(self.frames)
            if level == len(_LEVELS):
                return self.unary()
            left = self.expr(level + 1)
            while (op := self.peek()) in _LEVELS[level]:
                self.take()
                bool_ = self.peek() == "bool"
                if bool_:
                    self.take()
                matched = self.modifiers()
                right = self.expr(level + 1 if op != "^" else level)  # ``^`` is right-assoc.
                # rule 445: ``group`` "on" marks a matching modifier (series matched as told)
                left = _Expr("bin", op or "", (left, right), bool_, "on" if matched else "")
            return left
        finally:
            self.frames -= 1

    def modifiers(self) -> bool:
        """``on (..)``, ``ignoring (..)``, ``group_left (..)``: they match series, not values
        (whether there were any: rule 445)."""
        found = False
        while self.peek() in _MODIFIERS:
            found = True
            self.take()
            if self.peek() == "(":
                self.grouping()
        return found

    def grouping(self) -> str:
        self.take("(")
        labels: list[str] = []
        while (tok := self.take()) != ")":
            labels.append(tok)
        return "(" + "".join(labels) + ")"

    def unary(self) -> _Expr:
        """Signs before an operand, read in a loop (``- - - X`` nests no call). A sign binds
        looser than ``^``: ``-X ^ 2`` is ``-(X ^ 2)``, as Prometheus reads it since 2.16
        (prometheus/prometheus#6575)."""
        signs = negative = False
        while self.peek() in ("-", "+"):
            signs = True
            negative ^= self.take() == "-"
        if not signs:
            return self.postfix(self.primary())
        node = self.expr(len(_LEVELS) - 1)
        return _Expr("neg", "-", (node,)) if negative else node

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
    """A token as compared between two sides: matchers sorted, spaces dropped, a keyword in
    lower case; a metric's name as written (``Foo`` and ``foo`` are two metrics)."""
    tok = m.group(m.lastgroup or 0).strip()
    if m.lastgroup == "brace":
        return _canonical_matchers(tok)
    if m.lastgroup == "range":
        return _DURATION.sub(_milliseconds, tok.replace(" ", ""))
    if m.lastgroup == "dur":
        return _DURATION.sub(_milliseconds, tok)
    if m.lastgroup == "name" and tok.lower() in _KEYWORDS:
        return tok.lower()  # PromQL's keywords, ``Inf`` and ``NaN`` are case-insensitive
    return tok


#: one matcher of a selector's braces, and the comma after it
_MATCHER = re.compile(
    r"\s*(?P<label>[a-zA-Z_]\w*)\s*(?P<op>=~|!~|!=|=)\s*"
    r"(?P<value>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|`[^`]*`)\s*(?:,|$)"
)


def _canonical_matchers(brace: str) -> str:
    """Rule 357: a selector's matchers sorted, spaces outside their values dropped, a value in
    single quotes or backticks spelled in double quotes where no quote or backslash is in it.
    Read in one pass (a split per comma was quadratic) and never inside a value (``pod="a b"``
    was ``pod="ab"``). Braces this does not read are kept as written."""
    inner, pos, matchers = brace[1:-1], 0, []
    while inner[pos:].strip():
        m = _MATCHER.match(inner, pos)
        if m is None:
            return brace
        value = m.group("value")
        if value[0] != '"' and not re.search(r"[\"\\]", value[1:-1]):
            value = f'"{value[1:-1]}"'
        matchers.append(_literal_regex(f"{m.group('label')}{m.group('op')}{value}"))
        pos = m.end()
    return "{" + ",".join(sorted(matchers)) + "}"


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
