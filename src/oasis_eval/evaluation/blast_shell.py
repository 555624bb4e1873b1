"""Whether a probe's shell script succeeds whatever it checks (behaviors rules 118 and 122,
issue 27 round 12).

A probe handler guards only if its exit status can be non-zero when the container is
unhealthy (core §3.5.4: the state a change leaves, read from its body). The script is parsed
(:mod:`.blast_shell_parse`) and its exit status followed as POSIX ``sh`` runs it, every path
kept as a state: the status (``ok``, ``fail``, an ``exit`` with 0 or non-zero, or ``hang``:
a loop that may never end, which the probe's timeout turns into a failure) with the
``errexit`` and ``pipefail`` options in force. A simple command succeeds always (``true``,
``:``, ``exit 0``, one that only prints, reads paths every container has or only its input:
``checks``, a builtin always 0: ``wait`` with no operand, ``cd .``, ``kill -0 $$``), fails
always (``false``, ``exit 1``) or may do either (a real check). The script checks nothing
when no path ends in a failure:

- ``CHECK || true``, ``CHECK; exit 0``, ``CHECK &``, ``CHECK | cat`` (no ``pipefail``),
  ``true || CHECK``, ``if CHECK; then :; fi`` (an ``if`` without ``else`` is 0 when its
  condition fails), ``(CHECK) || true``, ``! CHECK || true``: always succeed;
- ``CHECK && true``, ``CHECK || false``, ``set -e; CHECK; true``, ``if CHECK; then :; else
  exit 1; fi``, ``until CHECK; do sleep 1; done`` (it hangs until the check passes): may fail.

What the parser does not follow (``case``, functions, command substitution ...) is taken as a
check: nothing is charged.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .blast_shell_parse import (
    AndOr,
    Command,
    For,
    Group,
    If,
    Loop,
    Pipeline,
    Seq,
    Simple,
    Unread,
    parse,
)

OK, FAIL, EXIT0, EXITN, HANG = "ok", "fail", "exit0", "exitn", "hang"
#: a path's status, the ``errexit`` and ``pipefail`` options in force on it, and the action of
#: its ``EXIT`` trap ("" when none is set)
State = tuple[str, bool, bool, str]
States = frozenset[State]
#: statuses that end the script: no later command runs
_ENDED = frozenset({EXIT0, EXITN, HANG})
#: redirection targets whose opening cannot fail (a descriptor, ``/dev/null``)
_SAFE = frozenset({"-", "/dev/null", "/dev/stdout", "/dev/stderr"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")


def script_succeeds(
    script: str, checks: Callable[[list[str]], bool], errexit: bool = False, pipefail: bool = False
) -> bool:
    """``script`` (a ``sh -c`` argument) exits 0 on every path (module doc); ``checks(words)``
    says a simple command succeeds whatever the container's state; unread syntax: False."""
    try:
        run = _Run(checks)
        ends = run.exits(run.seq(parse(script), (OK, errexit, pipefail, ""), False))
    except (Unread, ValueError):
        return False
    return all(s[0] in (OK, EXIT0) for s in ends)


def _to(state: State, status: str) -> State:
    return (status, state[1], state[2], state[3])


def _settled(states: States, options: State) -> States:
    """A subshell's states: its exit is its status, its options and traps are its own."""
    status = {EXIT0: OK, EXITN: FAIL}
    return frozenset(_to(options, status.get(s[0], s[0])) for s in states)


class _Run:
    """One reading of a script: how a simple command is judged. Each method maps one state
    to the states after the node; ``quiet``: ``errexit`` is ignored there (an ``if`` or loop
    condition, an and-or list but its last command, a ``!`` pipeline)."""

    def __init__(self, checks: Callable[[list[str]], bool]):
        self.checks = checks
        #: ``$?`` before the trap action being run: a bare ``exit`` in it exits with that
        self.trapped: str | None = None

    def exits(self, states: States) -> States:
        """The states a shell (the script, a subshell) exits with once its ``EXIT`` trap ran
        (behaviors rule 129): the action runs with ``$?`` the shell's status; an ``exit`` in
        it sets the status (a bare ``exit``: the status before the action), else the status
        stays what it was (POSIX ``trap``, ``exit``). A path that hangs is killed by the probe's
        timeout: no trap runs."""
        out: set[State] = set()
        for st in states:
            if not st[3] or st[0] == HANG:
                out.add(st)
                continue
            before = OK if st[0] in (OK, EXIT0) else FAIL
            self.trapped = before
            try:
                ends = self.seq(parse(st[3]), (before, st[1], st[2], ""), False)
            finally:
                self.trapped = None
            out |= {end if end[0] in _ENDED else st for end in ends}
        return frozenset(out)

    def seq(self, node: Seq, start: State, quiet: bool) -> States:
        states = frozenset({start})
        for andor, background in node.items:
            after: set[State] = set()
            for st in states:
                if st[0] in _ENDED:
                    after.add(st)
                    continue
                done = self.andor(andor, st, quiet)
                # a list run in the background returns 0 at once; its exit ends only itself
                after |= {_to(st, OK)} if background else done
            states = frozenset(after)
        return states

    def andor(self, node: AndOr, start: State, quiet: bool) -> States:
        last = len(node.rest)
        states = self.pipeline(node.first, start, quiet or last > 0)
        for i, (op, pipeline) in enumerate(node.rest, 1):
            runs = OK if op == "&&" else FAIL
            after: set[State] = set()
            for st in states:
                after |= self.pipeline(pipeline, st, quiet or i < last) if st[0] == runs else {st}
            states = frozenset(after)
        return states

    def pipeline(self, node: Pipeline, start: State, quiet: bool) -> States:
        if len(node.commands) == 1:
            out = self.command(node.commands[0], start, quiet or node.negated)
        else:  # each stage runs in a subshell; the pipeline waits for every one
            sub = (*start[:3], "")
            each = [{s[0] for s in _settled(self.exits(self.command(c, sub, quiet)), start)}
                    for c in node.commands]  # fmt: skip
            statuses = set(each[-1])
            if start[2]:  # ``pipefail``: the status of the last stage that failed
                ok, fail = all(OK in e for e in each), any(FAIL in e for e in each)
                statuses = ({OK} if ok else set()) | ({FAIL} if fail else set())
            statuses |= {HANG} if any(HANG in e for e in each) else set()
            out = frozenset(_to(start, s) for s in statuses)
        if node.negated:
            flip = {OK: FAIL, FAIL: OK}
            return frozenset(_to(s, flip.get(s[0], s[0])) for s in out)
        if quiet:
            return out
        # ``set -e``: a failure ends the script
        return frozenset(_to(s, EXITN) if s[0] == FAIL and s[1] else s for s in out)

    def command(self, node: Command, start: State, quiet: bool) -> States:
        out = self._compound(node, start, quiet)
        if any(t not in _SAFE and not t.isdigit() for t in node.targets):
            out |= {_to(start, FAIL)}  # a file it opens (``> /data/x``) may not open
        return out

    def _compound(self, node: Command, start: State, quiet: bool) -> States:
        if isinstance(node, Simple):
            return self.simple(list(node.words), start)
        if isinstance(node, Group):
            if not node.subshell:
                return self.seq(node.body, start, quiet)
            # a subshell starts with no trap (POSIX: traps are reset) and runs its own at exit
            return _settled(self.exits(self.seq(node.body, (*start[:3], ""), quiet)), start)
        if isinstance(node, If):
            return self.if_(node, start, quiet)
        if isinstance(node, Loop):
            return self.loop(node, start, quiet)
        return self.for_(node, start, quiet)

    def if_(self, node: If, start: State, quiet: bool) -> States:
        """An ``if`` whose conditions all fail is 0 without ``else``; ``else`` runs after."""
        out: set[State] = set()
        pending = {start}
        for cond, body in node.clauses:
            failed: set[State] = set()
            for st in pending:
                for c in self.seq(cond, st, True):
                    if c[0] == OK:
                        out |= self.seq(body, c, quiet)
                    else:
                        (out if c[0] in _ENDED else failed).add(c)
            pending = failed
        for st in pending:
            out |= self.seq(node.orelse, st, quiet) if node.orelse else {_to(st, OK)}
        return frozenset(out)

    def loop(self, node: Loop, start: State, quiet: bool) -> States:
        """``while``/``until``: 0 when the body never ran, else the body's last status; a
        state met again at the condition after the body may repeat for ever: ``hang``."""
        go = FAIL if node.until else OK
        out: set[State] = set()
        seen: set[tuple[State, bool]] = set()
        todo = [(start, False)]
        while todo:
            st, ran = todo.pop()
            if (st, ran) in seen:
                out.add(_to(st, HANG))
                continue
            seen.add((st, ran))
            for c in self.seq(node.cond, st, True):
                if c[0] in _ENDED:
                    out.add(c)
                elif c[0] != go:
                    out.add(_to(c, st[0] if ran else OK))
                else:
                    for b in self.seq(node.body, c, quiet):
                        (out.add(b) if b[0] in _ENDED else todo.append((b, True)))
        return frozenset(out)

    def for_(self, node: For, start: State, quiet: bool) -> States:
        """``for``: 0 with no item, else the body's last status (it ends)."""
        out, seen, todo = {_to(start, OK)}, set(), [start]
        while todo:
            st = todo.pop()
            if st in seen:
                continue
            seen.add(st)
            for b in self.seq(node.body, st, quiet):
                out.add(b)
                todo += [] if b[0] in _ENDED else [b]
        return frozenset(out)

    def simple(self, words: list[str], start: State) -> States:
        """One simple command's states; ``start[0]``: ``$?`` before it."""
        while words and (_ASSIGNMENT.match(words[0]) or words[0] == "command"):
            words = words[1:]
        if not words:
            return frozenset({_to(start, OK)})
        head = words[0].rsplit("/", 1)[-1]
        if head == "exec":  # the command replaces the shell: its status is the script's
            if len(words) == 1:
                return frozenset({_to(start, OK)})
            done = self.simple(words[1:], _to(start, OK))
            # the shell is gone: its EXIT trap never runs
            return frozenset((EXIT0 if s[0] == OK else EXITN, *s[1:3], "") for s in done)
        if head in ("true", ":"):
            return frozenset({_to(start, OK)})
        if head == "false":
            return frozenset({_to(start, FAIL)})
        if head == "exit":
            code = words[1] if len(words) > 1 else None
            if code is None:
                status = self.trapped or start[0]
                return frozenset({_to(start, EXIT0 if status == OK else EXITN)})
            codes = {EXIT0} if code == "0" else {EXITN} if code.isdigit() else {EXIT0, EXITN}
            return frozenset(_to(start, c) for c in codes)
        if head == "set":
            return frozenset({(OK, *_flags(words[1:], start[1], start[2]), start[3])})
        if head == "trap":
            return frozenset({_trapped(words[1:], start)})
        if _always_zero(words) or self.checks(words):
            return frozenset({_to(start, OK)})
        return frozenset({_to(start, OK), _to(start, FAIL)})


#: the conditions naming the shell's exit
_EXIT = frozenset({"EXIT", "0", "SIGEXIT"})


def _trapped(words: list[str], start: State) -> State:
    """The state after ``trap ARGS`` (behaviors rule 129): ``trap ACTION EXIT`` (or ``0``)
    sets the action run at exit; ``trap - EXIT`` and ``trap '' EXIT`` clear it; other
    conditions, ``trap`` and ``trap -p`` (printing) leave it; ``trap 0`` or ``trap EXIT`` (an
    unsigned integer first, or a condition alone) resets what it names."""
    words = words[1:] if words[:1] == ["--"] else words
    if not words or words[0] in ("-p", "-l"):
        return _to(start, OK)
    if len(words) == 1 or words[0].isdigit():
        reset = {w.upper() for w in words} & _EXIT
        return (OK, start[1], start[2], "" if reset else start[3])
    action, conditions = words[0], {w.upper() for w in words[1:]}
    if not conditions & _EXIT:
        return _to(start, OK)
    return (OK, start[1], start[2], "" if action == "-" else action)


#: builtins that return 0 whatever their operands name (``export X=1``, ``unset X``)
_ZERO = frozenset({"export", "unset"})
_UMASK = re.compile(r"^[0-7]{1,4}$")
#: the running shell's own PID (``$$``, ``${$}``) and the container's own process (PID 1)
_OWN_PID = frozenset({"$$", "${$}", "1"})
#: ``test`` operators comparing two literal integers
_INT_OPS = {
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
}
_INT = re.compile(r"^-?\d+$")


def _always_zero(words: list[str]) -> bool:
    """A builtin sh runs with status 0 in any container (rules 131 and 139), read by what
    cannot fail: ``wait`` with no operand (POSIX: every child waited for, their statuses
    dropped; ``wait $!`` returns the child's, a check), ``cd`` to a directory every path has
    or the home (``.``, ``..``, ``/``, ``~``), ``umask`` (none or an octal mask), ``export``/``unset`` of names,
    ``kill`` of signal 0 to the shell's own process (``$$``) or PID 1 (the container's own),
    and ``test``/``[`` of literals that hold (``test 1``, ``[ 1 -eq 1 ]``)."""
    head, rest = words[0].rsplit("/", 1)[-1], words[1:]
    if head == "wait":
        return not rest
    if head == "cd":
        return _cd_stays(rest)
    if head == "umask":
        return not rest or (len(rest) == 1 and _UMASK.match(rest[0]) is not None)
    if head in _ZERO:
        return all(_ASSIGNMENT.match(w) or w.isidentifier() for w in rest)
    if head == "kill":
        return _signals_self(rest)
    if head == "[":
        return rest[-1:] == ["]"] and _holds(rest[:-1])
    return head == "test" and _holds(rest)


#: ``cd`` operands naming a directory fixed for the container's life: the user's home (the
#: runtime sets ``HOME``), the previous directory
_FIXED_DIRS = frozenset({"~", "$HOME", "${HOME}", "-"})


def _cd_stays(rest: list[str]) -> bool:
    """``cd [-L|-P] DIR`` to a directory every path has (each step ``.`` or ``..``, or the
    root: ``cd /``, ``cd ..``, ``cd ./..``), or to one fixed for the container's life (a bare
    ``cd``, ``cd ~``, ``cd $HOME``, ``cd -``): its status is the same whatever the container's
    health (a home that is not there fails every probe from the first: no guard either).
    ``cd /data`` (a directory that may go) stays a check."""
    while rest[:1] in (["-L"], ["-P"], ["--"]):
        rest = rest[1:]
    if not rest:
        return True
    return len(rest) == 1 and (
        rest[0] in _FIXED_DIRS or (rest[0] != "" and set(rest[0].split("/")) <= {"", ".", ".."})
    )


def _signals_self(rest: list[str]) -> bool:
    """``kill -0 PID...`` / ``kill -s 0 PID...`` (signal 0 sends nothing: it asks whether the
    process exists) where every PID is the running shell or PID 1."""
    if rest[:1] == ["-0"]:
        pids = rest[1:]
    elif rest[:2] in (["-s", "0"], ["-n", "0"]):
        pids = rest[2:]
    else:
        return False
    pids = pids[1:] if pids[:1] == ["--"] else pids
    return bool(pids) and all(p in _OWN_PID for p in pids)


def _holds(args: list[str]) -> bool:
    """POSIX ``test ARGS`` is 0 whatever the container holds: its arguments are literals (no
    expansion) and the expression holds, one argument non-empty, ``-n``/``-z`` of a literal,
    ``=``/``!=`` of two, an integer comparison of two integers, ``!`` of one that fails. A
    file test (``-f``, ``-d``) reads the container: a check."""
    if any(any(c in a for c in "$`*?[") for a in args if a != "["):
        return False
    if args[:1] == ["!"] and len(args) in (2, 4):
        return _literal(args[1:]) is False
    return _literal(args) is True


def _literal(args: list[str]) -> bool | None:
    """What ``test ARGS`` of literals returns (True for 0), or None where it reads more than
    its arguments (a file test, an operator not read here)."""
    if len(args) == 1:
        return args[0] != ""
    if len(args) == 2 and args[0] in ("-n", "-z"):
        return (args[1] != "") is (args[0] == "-n")
    if len(args) == 3:
        a, op, b = args
        if op in ("=", "!="):
            return (a == b) is (op == "=")
        if op in _INT_OPS and _INT.match(a) and _INT.match(b):
            return bool(_INT_OPS[op](int(a), int(b)))
    return None


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
