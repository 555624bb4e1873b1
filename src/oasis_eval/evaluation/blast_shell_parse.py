"""A probe handler's ``sh -c`` script parsed into the POSIX shell grammar (behaviors rules 118
and 122, issue 27 round 12).

:mod:`.blast_shell` follows the script's exit status; this module gives it the script's
structure: lists, and-or lists, pipelines (``!`` negated), simple commands and the compound
commands ``if``/``elif``/``else``, ``while``, ``until``, ``for``, subshells ``( ... )`` and
groups ``{ ...; }``, each with its redirection targets. Quoted operators stay words (a
quoted ``'|'`` is an argument, not a pipe). Whatever this reader does not follow raises
:class:`Unread` (``case``, functions, ``[[``, ``((``, command substitution, here-documents,
``break``/``continue``/``return``, a syntax error): the caller then charges nothing.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace

from ..errors import OasisError


class Unread(OasisError, ValueError):
    """The script uses syntax this reader does not follow (caught by the reader: the script is
    then taken as a check, rule 122)."""


@dataclass(frozen=True)
class Simple:
    words: tuple[str, ...]
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class If:
    clauses: tuple[tuple[Seq, Seq], ...]
    orelse: Seq | None
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Loop:
    until: bool
    cond: Seq
    body: Seq
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class For:
    body: Seq
    targets: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    body: Seq
    subshell: bool
    targets: tuple[str, ...] = ()


Command = Simple | If | Loop | For | Group


@dataclass(frozen=True)
class Pipeline:
    negated: bool
    commands: tuple[Command, ...]


@dataclass(frozen=True)
class AndOr:
    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...]


@dataclass(frozen=True)
class Seq:
    items: tuple[tuple[AndOr, bool], ...]  # (the and-or list, run in the background)


#: a run of operator characters cut into the shell's operators
_OPS = re.compile(r"&&|\|\||;;|\|&|>>|<<|<>|>&|<&|&>|[();&|<>]")
_PUNCT = frozenset("();&|<>")
#: operators that end a simple command
_CONTROL = frozenset({";", "&", "&&", "||", "|", "|&", "(", ")", ";;"})
#: a redirection operator (its target is the next word)
_REDIRECT = re.compile(r"^&?(?:[<>]{1,2}|<>)&?$")
#: a file descriptor number written against its redirection (``2>&1``, ``2>/dev/null``)
_FD = re.compile(r"(?<!\S)\d+(?=[<>])")
#: a line continued after an and-or or pipe operator (``CHECK ||`` newline ``true``)
_CONTINUED = re.compile(r"(&&|\|\||\|)[ \t]*\n")
#: words that open syntax this reader does not follow, where a command starts
_UNREAD = frozenset(
    {"case", "esac", "select", "function", "coproc", "[[", "]]", "((", "then", "else",
     "elif", "fi", "do", "done", "in", "}", "break", "continue", "return", "eval", "source",
     ".", "time"}
)  # fmt: skip
#: characters hidden while quoted, so that shlex keeps them inside a word
_HIDE = {c: chr(0xE000 + i) for i, c in enumerate("();&|<>\n#")}
_SHOW = {ord(v): k for k, v in _HIDE.items()}


def parse(script: str) -> Seq:
    """The script's top-level list (module doc); :class:`Unread` on what is not followed."""
    parser = _Parser(tokens(script))
    seq = parser.seq(frozenset(), required=False)
    if parser.peek() is not None:
        raise Unread(str(parser.peek()))
    return seq


def tokens(script: str) -> list[str]:
    """The script's words and operators; a newline ends a command as ``;`` does."""
    text = _protect(script.replace("\\\n", " "))
    text = _CONTINUED.sub(r"\1 ", text)
    text = _FD.sub("", text).replace("\n", " ; ")
    lex = shlex.shlex(text, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    out: list[str] = []
    for t in lex:
        if t and set(t) <= _PUNCT:
            ops = _OPS.findall(t)
            if "".join(ops) != t:
                raise Unread(t)
            out.extend(ops)
        else:
            out.append(t)  # quoted operators stay hidden until the word is taken
    return out


def _protect(text: str) -> str:
    """``text`` with the operator characters inside quotes (or escaped) hidden; command
    substitution outside single quotes is not read."""
    out: list[str] = []
    quote, i = "", 0
    while i < len(text):
        c = text[i]
        if quote != "'" and (c == "`" or text.startswith("$(", i)):
            raise Unread("command substitution")
        if quote != "'" and c == "\\" and i + 1 < len(text):
            out.append(c + _HIDE.get(text[i + 1], text[i + 1]))
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
            out.append(_HIDE.get(c, c) if quote else c)
        else:
            quote = c if c in "'\"" else ""
            out.append(c)
        i += 1
    if quote:
        raise Unread("unterminated quote")
    return "".join(out)


class _Parser:
    """Recursive descent over :func:`tokens` (POSIX ``sh`` grammar, the subset in the
    module doc)."""

    def __init__(self, toks: list[str]):
        self.toks, self.i = toks, 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise Unread("unexpected end")
        self.i += 1
        return tok

    def expect(self, word: str) -> None:
        if self.take() != word:
            raise Unread(f"expected {word}")

    def seq(self, ends: frozenset[str], required: bool = True) -> Seq:
        items: list[tuple[AndOr, bool]] = []
        while True:
            while self.peek() == ";":
                self.i += 1
            tok = self.peek()
            if tok is None or tok in ends:
                if required and not items:  # an empty compound list: a syntax error
                    raise Unread("empty list")
                return Seq(tuple(items))
            andor = self.andor()
            sep = self.peek()
            items.append((andor, sep == "&"))
            if sep in (";", "&"):
                self.i += 1
            elif sep is not None and sep not in ends:
                raise Unread(sep)

    def andor(self) -> AndOr:
        first, rest = self.pipeline(), []
        while self.peek() in ("&&", "||"):
            op = self.take()
            rest.append((op, self.pipeline()))
        return AndOr(first, tuple(rest))

    def pipeline(self) -> Pipeline:
        negated = self.peek() == "!"
        self.i += negated
        commands = [self.command()]
        while self.peek() in ("|", "|&"):
            self.i += 1
            commands.append(self.command())
        return Pipeline(negated, tuple(commands))

    def command(self) -> Command:
        tok = self.peek()
        node: Command
        if tok == "if":
            node = self.if_()
        elif tok in ("while", "until"):
            self.i += 1
            cond = self.seq(frozenset({"do"}))
            self.expect("do")
            node = Loop(tok == "until", cond, self.body())
        elif tok == "for":
            node = self.for_()
        elif tok in ("(", "{"):
            self.i += 1
            end = ")" if tok == "(" else "}"
            body = self.seq(frozenset({end}))
            self.expect(end)
            node = Group(body, tok == "(")
        elif tok is None or tok in _UNREAD or tok in _CONTROL:
            raise Unread(str(tok))
        else:
            return self.simple()
        targets = self.redirections()
        return replace(node, targets=targets)

    def body(self) -> Seq:
        body = self.seq(frozenset({"done"}))
        self.expect("done")
        return body

    def if_(self) -> If:
        clauses = []
        while self.peek() in ("if", "elif"):
            self.i += 1
            cond = self.seq(frozenset({"then"}))
            self.expect("then")
            clauses.append((cond, self.seq(frozenset({"elif", "else", "fi"}))))
        orelse = None
        if self.peek() == "else":
            self.i += 1
            orelse = self.seq(frozenset({"fi"}))
        self.expect("fi")
        return If(tuple(clauses), orelse)

    def for_(self) -> For:
        self.i += 1
        self.take()  # the variable's name
        if self.peek() == "in":
            while self.peek() not in (";", "do", None):
                self.i += 1
        while self.peek() == ";":
            self.i += 1
        self.expect("do")
        return For(self.body())

    def redirections(self) -> tuple[str, ...]:
        targets = []
        while (tok := self.peek()) is not None and _REDIRECT.match(tok):
            if tok == "<<":
                raise Unread("here-document")
            self.i += 1
            targets.append(self.take().translate(_SHOW))
        return tuple(targets)

    def simple(self) -> Simple:
        words, targets = [], []
        while (tok := self.peek()) is not None and tok not in _CONTROL:
            self.i += 1
            if _REDIRECT.match(tok):
                if tok == "<<":
                    raise Unread("here-document")
                targets.append(self.take().translate(_SHOW))
            else:
                words.append(tok.translate(_SHOW))
        return Simple(tuple(words), tuple(targets))
