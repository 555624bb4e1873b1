"""The JSONPath templates of ``kubectl -o jsonpath=...`` (the commonly used subset).

Template text with ``{...}`` actions: paths (``.a.b``, ``['k']``, ``[0]``, ``[-1]``,
``[*]``, ``[0:2]``, ``.*``, ``..name``, filters ``[?(@.type=="Ready")]`` with
``== != < > <= >=`` or bare ``[?(@.x)]``), string literals (``{"\\n"}``) and
``{range <path>}...{end}``. Several results are joined with a space; maps and
lists print as JSON, like kubectl.
"""

from __future__ import annotations

import json
import re
from typing import Any


class JsonPathError(ValueError):
    pass


_MISSING = object()


def _closing(text: str, i: int, pair: str, escapes: bool = False) -> int | None:
    """The index just past the bracket that closes ``text[i]`` (quoted brackets do not
    count; ``escapes``: a backslash escapes inside quotes), or None when it never closes."""
    depth, j, quote = 1, i + 1, None
    while j < len(text) and depth:
        c = text[j]
        if quote:
            if escapes and c == "\\":
                j += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == pair[0]:
            depth += 1
        elif c == pair[1]:
            depth -= 1
        j += 1
    return None if depth else j


def _split_actions(template: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    i = 0
    text: list[str] = []
    while i < len(template):
        ch = template[i]
        if ch == "{":
            j = _closing(template, i, "{}", escapes=True)
            if j is None:
                raise JsonPathError("unclosed action")
            if text:
                out.append(("text", "".join(text)))
                text = []
            out.append(("action", template[i + 1 : j - 1].strip()))
            i = j
            continue
        text.append(ch)
        i += 1
    if text:
        out.append(("text", "".join(text)))
    return out


def _unescape(s: str) -> str:
    try:
        return json.loads('"' + s.replace('"', '\\"') + '"') if "\\" in s else s
    except json.JSONDecodeError:
        return s


def _segments(expr: str) -> list[tuple[str, Any]]:
    """Parse a path into (op, arg) segments: field, recurse, wildcard, index, slice, filter."""
    segs: list[tuple[str, Any]] = []
    i = 0
    if expr.startswith(("$", "@")):
        i = 1
    while i < len(expr):
        ch = expr[i]
        if expr.startswith("..", i):
            i += 2
            name, i = _read_name(expr, i)
            segs.append(("recurse", name))
        elif ch == ".":
            i += 1
            if i < len(expr) and expr[i] == "*":
                segs.append(("wild", None))
                i += 1
                continue
            name, i = _read_name(expr, i)
            if name:
                segs.append(("field", name))
        elif ch == "[":
            j = _closing(expr, i, "[]")
            if j is None:
                raise JsonPathError(f"unterminated array notation in {expr!r}")
            inner = expr[i + 1 : j - 1].strip()
            i = j
            if inner == "*":
                segs.append(("wild", None))
            elif inner.startswith("?"):
                segs.append(("filter", inner[1:].strip().removeprefix("(").removesuffix(")")))
            elif inner[:1] in "\"'":
                for part in re.findall(r"'([^']*)'|\"([^\"]*)\"", inner):
                    segs.append(("field", part[0] or part[1]))
            elif ":" in inner:
                a, _, b = inner.partition(":")
                segs.append(
                    (
                        "slice",
                        (
                            int(a) if a.strip() else None,
                            int(b.split(":")[0]) if b.strip() else None,
                        ),
                    )
                )
            else:
                try:
                    segs.append(("index", int(inner)))
                except ValueError:
                    raise JsonPathError(f"invalid array index {inner!r}") from None
        elif ch.isspace():
            i += 1
        else:
            name, i = _read_name(expr, i)
            if not name:
                raise JsonPathError(f"unrecognized character in action: {expr[i : i + 1]!r}")
            segs.append(("field", name))
    return segs


def _read_name(expr: str, i: int) -> tuple[str, int]:
    name = []
    while i < len(expr):
        c = expr[i]
        if c == "\\" and i + 1 < len(expr):
            name.append(expr[i + 1])
            i += 2
            continue
        if c in ".[" or c.isspace():
            break
        name.append(c)
        i += 1
    return "".join(name), i


def _apply(nodes: list[Any], seg: tuple[str, Any]) -> list[Any]:
    op, arg = seg
    out: list[Any] = []
    for n in nodes:
        if op == "field":
            if isinstance(n, dict) and arg in n:
                out.append(n[arg])
        elif op == "wild":
            if isinstance(n, dict):
                out.extend(n.values())
            elif isinstance(n, list):
                out.extend(n)
        elif op == "index":
            if isinstance(n, list):
                if -len(n) <= arg < len(n):
                    out.append(n[arg])
                else:
                    raise JsonPathError(f"array index out of bounds: index {arg}, length {len(n)}")
        elif op == "slice":
            if isinstance(n, list):
                out.extend(n[arg[0] : arg[1]])
        elif op == "recurse":
            out.extend(_recurse(n, arg))
        elif op == "filter" and isinstance(n, list):
            out.extend(x for x in n if _test(x, arg))
    return out


def _recurse(node: Any, name: str) -> list[Any]:
    out = []
    if isinstance(node, dict):
        if name in node:
            out.append(node[name])
        for v in node.values():
            out.extend(_recurse(v, name))
    elif isinstance(node, list):
        for v in node:
            out.extend(_recurse(v, name))
    return out


_CMP = re.compile(r"^(?P<path>@[^=!<>]*?)\s*(?P<op>==|!=|<=|>=|<|>)\s*(?P<val>.+)$")


def _test(item: Any, cond: str) -> bool:
    for part in re.split(r"\s*&&\s*", cond):
        m = _CMP.match(part.strip())
        if not m:
            vals = resolve(part.strip(), item)
            if not vals or vals[0] in (None, False, ""):
                return False
            continue
        vals = resolve(m.group("path"), item)
        raw = m.group("val").strip()
        if raw[:1] in "\"'":
            want: Any = raw[1:-1]
        else:
            try:
                want = json.loads(raw)
            except json.JSONDecodeError:
                want = raw
        got: Any = vals[0] if vals else _MISSING
        if got is _MISSING:
            return False
        op = m.group("op")
        try:
            if isinstance(want, (int, float)) and not isinstance(got, bool):
                got = float(got)
            ok = {"==": got == want, "!=": got != want}.get(op)
            if ok is None:
                ok = {"<": got < want, ">": got > want, "<=": got <= want, ">=": got >= want}[op]
        except (TypeError, ValueError):
            return False
        if not ok:
            return False
    return True


def resolve(expr: str, node: Any) -> list[Any]:
    nodes = [node]
    for seg in _segments(expr.strip()):
        nodes = _apply(nodes, seg)
    return nodes


def _fmt(value: Any) -> str:
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def evaluate_template(template: str, doc: Any) -> str:
    parts = _split_actions(template)
    out, _ = _run(parts, 0, doc, doc)
    return out


def _run(parts: list[tuple[str, str]], i: int, root: Any, cur: Any) -> tuple[str, int]:
    buf: list[str] = []
    while i < len(parts):
        kind, body = parts[i]
        if kind == "text":
            buf.append(body)
            i += 1
            continue
        if body == "end":
            return "".join(buf), i
        if body.startswith("range ") or body == "range":
            expr = body[5:].strip()
            items = _eval(expr, root, cur)
            depth, j = 1, i + 1
            while j < len(parts):
                if parts[j][0] == "action" and (
                    parts[j][1].startswith("range ") or parts[j][1] == "range"
                ):
                    depth += 1
                elif parts[j] == ("action", "end"):
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if j >= len(parts):
                raise JsonPathError("range without end")
            for item in items:
                text, _ = _run(parts[i + 1 : j], 0, root, item)
                buf.append(text)
            i = j + 1
            continue
        if body[:1] in "\"'" and body[-1:] == body[:1]:
            buf.append(_unescape(body[1:-1]))
            i += 1
            continue
        values = _eval(body, root, cur)
        buf.append(" ".join(_fmt(v) for v in values))
        i += 1
    return "".join(buf), i


def _eval(expr: str, root: Any, cur: Any) -> list[Any]:
    expr = expr.strip()
    if expr.startswith("$"):
        return resolve(expr, root)
    return resolve(expr, cur)
