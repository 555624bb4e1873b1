"""What an agent typed into the kubectl tool: here-documents and ``cat <<EOF |`` become
stdin; any other shell syntax is refused, since the tool runs kubectl, not a shell."""

from __future__ import annotations

import re
import shlex

_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w-]*)\1")


_SHELL = {"|", "||", "&&", ";", ">", ">>", "<", "&", "2>", "2>&1"}


NO_SHELL = (
    "error: this tool runs kubectl itself, not a shell: pipes, redirections and command lists are not "
    "available (pass manifests in `stdin`; use -o jsonpath, -l or --field-selector to filter)"
)


def shell_input(command: str, stdin: str | None) -> tuple[str, str | None, str | None]:
    """The kubectl command line and its stdin from what an agent typed: a here-document
    (``apply -f - <<EOF ... EOF``) or ``cat <<EOF | kubectl ...`` / ``echo '...' | kubectl ...``
    become stdin; any other shell syntax is refused (third item: the error)."""
    text = command.strip()
    first, nl, rest = text.partition("\n")
    m = _HEREDOC.search(first)
    if m and nl:
        body: list[str] = []
        for line in rest.split("\n"):
            if line.strip() == m.group(2):
                break
            body.append(line)
        stdin = "\n".join(body) + "\n"
        text = (first[: m.start()] + first[m.end() :]).strip()
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        return text, stdin, None
    if not any(t in _SHELL for t in tokens):
        return text, stdin, None
    if tokens.count("|") == 1 and not any(t in _SHELL - {"|"} for t in tokens):
        left, right = tokens[: tokens.index("|")], tokens[tokens.index("|") + 1 :]
        if left and left[0] in ("cat", "echo", "printf") and right and right[0] in ("kubectl", "k"):
            if left[0] != "cat":
                stdin = " ".join(left[1:]).replace("\\n", "\n") + "\n"
            return " ".join(shlex.quote(t) for t in right), stdin, None
    return text, stdin, NO_SHELL
