"""Whether a probe's shell script succeeds whatever it checks (behaviors rule 118, issue 27
round 12).

Rule 114 read a ``sh -c`` script as a check only when it did not join commands, so
``wget ... || true`` (round 12's ``joined_probe``) was a check: any ``||``, ``;`` or
redirection made the script "not read". A probe handler guards only if its exit status can
be non-zero when the container is unhealthy (core §3.5.4: the state a change leaves, read from
its body). The script is parsed into shell words (:mod:`shlex`) and its lists, and-or lists
and pipelines are followed as POSIX ``sh`` runs them, each path's outcome kept: ``ok``,
``fail``, or an ``exit`` with 0 or non-zero. A simple command succeeds always (``true``,
``:``, ``exit 0``, one that only prints or reads paths every container has: ``checks``),
fails always (``false``, ``exit 1``) or may do either (a real check). The script checks
nothing when no path ends in a failure:

- ``CHECK || true``, ``CHECK || :``, ``CHECK; exit 0``, ``CHECK; true``, ``CHECK &``, a
  pipeline ending in a command that always succeeds (``CHECK | true``, no ``pipefail``):
  always succeed;
- ``CHECK && true``, ``CHECK || false``, ``true && CHECK``, ``set -e; CHECK; true``: may fail.

Compound commands (``if``, ``for``, ``while``, ``case``, subshells, groups, command
substitution) are not read: such a script is taken as a check (nothing is charged).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

OK, FAIL, EXIT0, EXITN = "ok", "fail", "exit0", "exitn"
Outcomes = frozenset[str]
_EXITS = frozenset({EXIT0, EXITN})
_SEPARATORS = frozenset({";", "&"})
_ANDOR = frozenset({"&&", "||"})
_PIPES = frozenset({"|", "|&"})
#: words that open a compound command where a command starts: not read
_COMPOUND = frozenset(
    {"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case",
     "esac", "select", "function", "{", "}", "[[", "]]", "(", ")", "coproc", "eval", "source",
     "."}
)  # fmt: skip
#: a redirection operator (its target is the next word): ``>``, ``>>``, ``<``, ``>&``, ``&>``
_REDIRECT = re.compile(r"^&?(?:[<>]{1,2}|<>)&?$")
#: a file descriptor number written against its redirection (``2>&1``, ``2>/dev/null``)
_FD = re.compile(r"(?<!\S)\d+(?=[<>])")
#: a line continued after an and-or or pipe operator (``CHECK ||`` newline ``true``)
_CONTINUED = re.compile(r"(&&|\|\||\|)[ \t]*\n")


class Unread(ValueError):
    """The script uses syntax this reader does not follow."""


def script_succeeds(
    script: str, checks: Callable[[list[str]], bool], errexit: bool = False, pipefail: bool = False
) -> bool:
    """``script`` (a ``sh -c`` argument) exits 0 on every path (module doc); ``checks(words)``
    says a simple command succeeds whatever the container's state; unread syntax: False."""
    try:
        return _Run(checks, errexit, pipefail).script(_tokens(script)) <= {OK, EXIT0}
    except (Unread, ValueError):
        return False


def _tokens(script: str) -> list[str]:
    text = _CONTINUED.sub(r"\1 ", script.replace("\\\n", " "))
    text = _FD.sub("", text).replace("\n", "\n ; ")
    lex = shlex.shlex(text, posix=True, punctuation_chars=True)
    lex.whitespace_split = True
    return list(lex)


def _split(tokens: list[str], ops: frozenset[str]) -> list[tuple[str, list[str]]]:
    """``tokens`` cut at ``ops``: (the operator before each part, "" first; the part)."""
    out: list[tuple[str, list[str]]] = [("", [])]
    for t in tokens:
        if t in ops:
            out.append((t, []))
        else:
            out[-1][1].append(t)
    return out


class _Run:
    """One reading of a script: its shell options, and how a simple command is judged."""

    def __init__(self, checks: Callable[[list[str]], bool], errexit: bool, pipefail: bool):
        self.checks, self.errexit, self.pipefail = checks, errexit, pipefail

    def script(self, tokens: list[str]) -> Outcomes:
        status: Outcomes = frozenset({OK})  # ``$?`` is 0 when a script starts
        parts = _split(tokens, _SEPARATORS)
        for i, (_, part) in enumerate(parts):
            going = status - _EXITS
            if not part or not going:
                continue
            background = i + 1 < len(parts) and parts[i + 1][0] == "&"
            done = self._andor(part, going)
            # a list run in the background returns 0 at once; its exit ends only its subshell
            status = (status & _EXITS) | (frozenset({OK}) if background else done)
            self._options(part)
        return status

    def _options(self, part: list[str]) -> None:
        """``set -e``, ``set -o pipefail`` (and their ``+`` forms) for what follows."""
        if part[:1] == ["set"]:
            self.errexit, self.pipefail = _flags(part[1:], self.errexit, self.pipefail)

    def _andor(self, part: list[str], last: Outcomes) -> Outcomes:
        pieces = _split(part, _ANDOR)
        status = frozenset[str]()
        for i, (op, pipeline) in enumerate(pieces):
            final = i == len(pieces) - 1
            if i == 0:
                status = self._pipeline(pipeline, last, final)
                continue
            runs = OK if op == "&&" else FAIL
            kept = (status & _EXITS) | (status & {FAIL if op == "&&" else OK})
            more = self._pipeline(pipeline, frozenset({runs}), final) if runs in status else kept
            status = kept | more
        return status

    def _pipeline(self, words: list[str], last: Outcomes, final: bool) -> Outcomes:
        negated = bool(words) and words[0] == "!"
        stages = [p for _, p in _split(words[1:] if negated else words, _PIPES)]
        if not all(stages):  # ``CHECK ||`` with nothing after: a syntax error, not read
            raise Unread("empty command")
        if len(stages) == 1:
            out = self._command(stages[0], last)
        else:  # each stage runs in a subshell: its exit is its status
            each = [_settled(self._command(s, last)) for s in stages]
            out = each[-1]
            if self.pipefail:
                ok = all(OK in e for e in each)
                out = frozenset({OK} if ok else set()) | (
                    frozenset({FAIL}) if any(FAIL in e for e in each) else frozenset()
                )
        if negated:
            out = (
                (out & _EXITS)
                | frozenset({FAIL} if OK in out else set())
                | frozenset({OK} if FAIL in out else set())
            )
        elif final and self.errexit and FAIL in out:  # ``set -e``: the failure ends the script
            out = (out - {FAIL}) | {EXITN}
        return out

    def _command(self, words: list[str], last: Outcomes) -> Outcomes:
        """One simple command's outcomes; ``last``: ``$?`` before it."""
        out: list[str] = []
        for i, w in enumerate(words):
            if _REDIRECT.match(w):
                continue
            if i and _REDIRECT.match(words[i - 1]):
                continue  # a redirection's target
            if w and set(w) <= set("&|;<>()"):  # a subshell, ``$(``, an unknown operator
                raise Unread(w)
            out.append(w)
        while out and (re.match(r"^[A-Za-z_]\w*=", out[0]) or out[0] in ("exec", "command")):
            out = out[1:]
        if not out:
            return frozenset({OK})
        head = out[0].rsplit("/", 1)[-1]
        if head in _COMPOUND or out[0] in _COMPOUND:
            raise Unread(head)
        if head in ("true", ":"):
            return frozenset({OK})
        if head == "false":
            return frozenset({FAIL})
        if head == "exit":
            code = out[1] if len(out) > 1 else None
            if code is None:
                return frozenset({EXIT0 if s == OK else EXITN for s in last})
            return frozenset({EXIT0} if code == "0" else {EXITN} if code.isdigit() else _EXITS)
        if head == "set":
            return frozenset({OK})
        return frozenset({OK}) if self.checks(out) else frozenset({OK, FAIL})


def _settled(outcomes: Outcomes) -> Outcomes:
    """A subshell's outcomes: its exit is its status."""
    return frozenset({OK if s in (OK, EXIT0) else FAIL for s in outcomes})


def _flags(words: list[str], errexit: bool, pipefail: bool) -> tuple[bool, bool]:
    """The ``errexit`` and ``pipefail`` options after the option words of ``set`` or ``sh``
    (``-e``, ``-euo pipefail``, ``+e``, ``-o errexit``)."""
    for i, w in enumerate(words):
        if w[:1] not in ("-", "+") or w in ("-", "--"):
            continue
        on, flags = w[0] == "-", w[1:]
        errexit = on if "e" in flags else errexit
        name = words[i + 1] if "o" in flags and i + 1 < len(words) else ""
        errexit = on if name == "errexit" else errexit
        pipefail = on if name == "pipefail" else pipefail
    return errexit, pipefail


def shell_script(words: list[str], shells: tuple[str, ...]) -> tuple[str, bool, bool] | None:
    """A ``sh -c SCRIPT`` command (``bash -ec``, ``sh -o pipefail -c``): the script and its
    ``errexit`` and ``pipefail`` options; None for any other command."""
    if not words or words[0].rsplit("/", 1)[-1] not in shells:
        return None
    for i, w in enumerate(words[1:], 1):
        if w.startswith("-") and "c" in w[1:] and not w.startswith("--"):
            if i + 1 >= len(words):
                return None
            errexit, pipefail = _flags(words[1 : i + 1], False, False)
            return words[i + 1], errexit, pipefail
    return None
