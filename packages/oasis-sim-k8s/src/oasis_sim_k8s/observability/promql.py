"""A small PromQL subset over the environment's series (SI provider guide §1.8).

Supported: instant selectors ``name{l="v", l!="v", l=~"re", l!~"re"}``, range
selectors ``[5m]``, the range functions ``rate irate increase delta
avg_over_time min_over_time max_over_time sum_over_time count_over_time
last_over_time``, the aggregations ``sum avg min max count`` with ``by (...)`` /
``without (...)``, number literals and ``+ - * /`` (scalar/vector, and
vector/vector on identical label sets). A metric nobody recorded yields an empty
result, never a made-up value; a malformed query raises :class:`QueryError`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cluster.clock import parse_age

Sample = tuple[dict[str, str], float]
Lookup = Callable[[str | None, list[tuple[str, str, str]]], list[Any]]

RANGE_FUNCS = {
    "rate",
    "irate",
    "increase",
    "delta",
    "avg_over_time",
    "min_over_time",
    "max_over_time",
    "sum_over_time",
    "count_over_time",
    "last_over_time",
}
AGGS = {"sum", "avg", "min", "max", "count"}
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:e[+-]?\d+)?)|(?P<str>\"(?:[^\"\\]|\\.)*\"|'[^']*')|"
    r"(?P<ident>[a-zA-Z_:][\w:]*)|(?P<dur>\[\s*\d+[smhdw]\s*\])|(?P<op>=~|!~|!=|==|[-+*/(){}\[\],=]))"
)

#: how far back an instant selector looks for a sample (Prometheus' default 5m)
LOOKBACK = 300.0


class QueryError(ValueError):
    """Unparseable query (the HTTP API answers 400 bad_data)."""


@dataclass
class _Tok:
    kind: str
    text: str


def _lex(text: str) -> list[_Tok]:
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise QueryError(f"unexpected character at position {pos}: {text[pos : pos + 10]!r}")
        pos = m.end()
        kind = m.lastgroup or ""
        out.append(_Tok(kind, m.group(kind).strip()))
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = _lex(text)
        self.i = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, text: str | None = None) -> _Tok:
        tok = self.peek()
        if tok is None or (text is not None and tok.text != text):
            raise QueryError(f"expected {text!r}, got {tok.text if tok else 'end of query'!r}")
        self.i += 1
        return tok

    def at(self, *texts: str) -> bool:
        """The next token is one of ``texts``."""
        tok = self.peek()
        return tok is not None and tok.text in texts

    def before(self, text: str) -> bool:
        """A token remains and it is not ``text`` (the end of a bracketed list)."""
        tok = self.peek()
        return tok is not None and tok.text != text

    def at_kind(self, kind: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind

    def parse(self) -> tuple:
        node = self.expr()
        tok = self.peek()
        if tok is not None:
            raise QueryError(f"unexpected {tok.text!r}")
        return node

    def expr(self) -> tuple:
        node = self.term()
        while self.at("+", "-"):
            op = self.take().text
            node = ("bin", op, node, self.term())
        return node

    def term(self) -> tuple:
        node = self.atom()
        while self.at("*", "/"):
            op = self.take().text
            node = ("bin", op, node, self.atom())
        return node

    def _grouping(self) -> tuple[str, list[str]] | None:
        tok = self.peek()
        if tok is None or tok.text not in ("by", "without"):
            return None
        self.take()
        self.take("(")
        labels = []
        while self.before(")"):
            labels.append(self.take().text)
            if self.at(","):
                self.take(",")
        self.take(")")
        return tok.text, labels

    def atom(self) -> tuple:
        tok = self.peek()
        if tok is None:
            raise QueryError("unexpected end of query")
        if tok.kind == "num":
            self.take()
            return ("num", float(tok.text))
        if tok.text == "(":
            self.take("(")
            node = self.expr()
            self.take(")")
            return node
        if tok.kind == "ident" and tok.text in AGGS:
            self.take()
            grouping = self._grouping()
            self.take("(")
            inner = self.expr()
            self.take(")")
            grouping = grouping or self._grouping()
            return ("agg", tok.text, grouping, inner)
        if tok.kind == "ident" and tok.text in RANGE_FUNCS:
            self.take()
            self.take("(")
            inner = self.selector()
            self.take(")")
            if inner[3] is None:
                raise QueryError(f"{tok.text}() expects a range vector")
            return ("func", tok.text, inner)
        if tok.kind == "ident" or tok.text == "{":
            node = self.selector()
            if node[3] is not None:
                raise QueryError("a range vector must be wrapped in a function")
            return node
        raise QueryError(f"unexpected {tok.text!r}")

    def selector(self) -> tuple:
        name = None
        if self.at_kind("ident"):
            name = self.take().text
        matchers: list[tuple[str, str, str]] = []
        if self.at("{"):
            self.take("{")
            while self.before("}"):
                label = self.take().text
                op = self.take().text
                if op not in ("=", "!=", "=~", "!~"):
                    raise QueryError(f"bad matcher operator {op!r}")
                value = self.take().text
                matchers.append((label, op, value[1:-1]))
                if self.at(","):
                    self.take(",")
            self.take("}")
        if name is None and not matchers:
            raise QueryError("vector selector must contain a metric name or a label matcher")
        window = None
        if self.at_kind("dur"):
            window = parse_age(self.take().text.strip("[] "))
        return ("sel", name, matchers, window)


def parse(text: str) -> tuple:
    return _Parser(text).parse()


def selectors(node: tuple) -> list[tuple[str | None, list[tuple[str, str, str]]]]:
    """The (metric name, matchers) of every vector selector of a parsed expression, in order."""
    if not node:
        return []
    if node[0] == "sel":
        return [(node[1], node[2])]
    return [x for part in node[1:] if isinstance(part, tuple) for x in selectors(part)]


def label_match(labels: dict[str, str], matchers: list[tuple[str, str, str]]) -> bool:
    for label, op, value in matchers:
        have = labels.get(label, "")
        if (op == "=" and have != value) or (op == "!=" and have == value):
            return False
        if (op == "=~" and not re.fullmatch(value, have)) or (
            op == "!~" and re.fullmatch(value, have)
        ):
            return False
    return True


def evaluate(node: tuple, at: float, lookup: Lookup) -> list[Sample] | float:
    """Evaluate at simulated second ``at``. ``lookup(name, matchers)`` returns series objects
    with ``name``, ``labels`` and ``points`` (sorted ``(t, value)``)."""
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "sel":
        out = []
        for s in lookup(node[1], node[2]):
            pts = [p for p in s.points_until(at) if p[0] >= at - LOOKBACK]
            if pts:
                out.append(({"__name__": s.name, **s.labels}, pts[-1][1]))
        return out
    if kind == "func":
        _, fn, (_, name, matchers, window) = node
        out = []
        for s in lookup(name, matchers):
            pts = [p for p in s.points_until(at) if p[0] >= at - window]
            value = _range(fn, pts, window)
            if value is not None:
                out.append((dict(s.labels), value))
        return out
    if kind == "agg":
        _, op, grouping, inner = node
        vec = evaluate(inner, at, lookup)
        if isinstance(vec, float):
            raise QueryError(f"{op}() expects an instant vector")
        groups: dict[tuple, list[Sample]] = {}
        for labels, value in vec:
            labels = {k: v for k, v in labels.items() if k != "__name__"}
            if grouping is None:
                key_labels: dict[str, str] = {}
            elif grouping[0] == "by":
                key_labels = {k: labels[k] for k in grouping[1] if k in labels}
            else:
                key_labels = {k: v for k, v in labels.items() if k not in grouping[1]}
            groups.setdefault(tuple(sorted(key_labels.items())), []).append((key_labels, value))
        res = []
        for key, items in sorted(groups.items()):
            vals = [v for _, v in items]
            agg = {
                "sum": sum(vals),
                "avg": sum(vals) / len(vals),
                "min": min(vals),
                "max": max(vals),
                "count": float(len(vals)),
            }[op]
            res.append((dict(key), agg))
        return res
    if kind == "bin":
        _, op, left, right = node
        a, b = evaluate(left, at, lookup), evaluate(right, at, lookup)
        return _binary(op, a, b)
    raise QueryError(f"cannot evaluate {kind}")


def _apply(op: str, x: float, y: float) -> float:
    if op == "/":
        return x / y if y else (float("nan") if x == 0 else float("inf"))
    return {"+": x + y, "-": x - y, "*": x * y}[op]


def _binary(op: str, a: Any, b: Any) -> list[Sample] | float:
    if isinstance(a, float) and isinstance(b, float):
        return _apply(op, a, b)
    if isinstance(a, float):
        return [({k: v for k, v in lb.items() if k != "__name__"}, _apply(op, a, v)) for lb, v in b]
    if isinstance(b, float):
        return [({k: v for k, v in lb.items() if k != "__name__"}, _apply(op, v, b)) for lb, v in a]
    right = {tuple(sorted((k, v) for k, v in lb.items() if k != "__name__")): v for lb, v in b}
    out: list[Sample] = []
    for lb, v in a:
        key = tuple(sorted((k, x) for k, x in lb.items() if k != "__name__"))
        if key in right:
            out.append((dict(key), _apply(op, v, right[key])))
    return out


def _range(fn: str, pts: list[tuple[float, float]], window: float) -> float | None:
    if not pts:
        return None
    vals = [v for _, v in pts]
    if fn in ("rate", "increase", "irate", "delta"):
        if len(pts) < 2:
            return None
        if fn == "irate":
            (t0, v0), (t1, v1) = pts[-2], pts[-1]
            return (v1 - v0) / (t1 - t0) if t1 > t0 else None
        inc = (
            vals[-1] - vals[0]
            if fn == "delta"
            else sum(max(0.0, b - a) if b >= a else b for a, b in itertools.pairwise(vals))
        )
        span = pts[-1][0] - pts[0][0]
        if fn == "rate":
            return inc / span if span > 0 else None
        return inc
    return {
        "avg_over_time": sum(vals) / len(vals),
        "min_over_time": min(vals),
        "max_over_time": max(vals),
        "sum_over_time": sum(vals),
        "count_over_time": float(len(vals)),
        "last_over_time": vals[-1],
    }[fn]
