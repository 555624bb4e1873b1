"""Every runnable example of the README and docs/ runs (issue 29 item 4).

The convention (also in CONTRIBUTING.md, "Runnable examples", and docs/install.md): a fenced code block
is run by this test when the line just before its opening fence is

    <!-- oasis:runnable -->

optionally with ``exit=N`` (the exit status the block ends with, default 0) and
``timeout=S`` (seconds, default 120), e.g. ``<!-- oasis:runnable exit=1 timeout=60 -->``.
The marker is an HTML comment, so it never shows in the rendered page.

- ``bash`` (or ``sh``, ``shell``) blocks run with ``bash -eo pipefail`` in a fresh
  temporary directory that looks like the root of a clone (a link to each of the
  repository's top-level files and folders, so ``examples/agents/…`` resolves as a reader
  at the root of a clone sees it; anything the block writes stays in the temporary
  directory), with this repository's virtualenv first on ``PATH`` (``oasis``, ``python``);
  ``$OASIS_REPO`` is the repository root.
- ``python`` blocks run as a file with the virtualenv's Python, in a fresh temporary
  directory.

Mark only examples that are valid as written and cheap (seconds: the built-in example
profile, a small ``--filter``); an example that needs a network, a model key or minutes is
left unmarked. Other helpers mark their examples the same way; this one test runs them all.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^\s*<!--\s*oasis:runnable(?P<options>(?:\s+\w+=\S+)*)\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+|~~~+)\s*(?P<lang>[\w+-]*)")
SHELLS = {"bash", "sh", "shell"}
DEFAULT_TIMEOUT = 120
#: what a clone's root holds that a block must never reach or write through
NOT_LINKED = frozenset({".git", ".venv", "oasis-runs", "site"})


@dataclass(frozen=True)
class Example:
    file: str
    line: int
    lang: str
    code: str
    exit: int = 0
    timeout: int = DEFAULT_TIMEOUT

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def examples_in(text: str, file: str) -> list[Example]:
    """The marked fenced blocks of one Markdown text (the marker on the line before the
    opening fence); a marker not followed by a fence is an error, never silently ignored."""
    lines = text.splitlines()
    found: list[Example] = []
    for i, line in enumerate(lines):
        marker = MARKER.match(line)
        if marker is None:
            continue
        options = dict(o.split("=", 1) for o in marker["options"].split())
        unknown = set(options) - {"exit", "timeout"}
        opening = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if unknown or opening is None:
            raise ValueError(
                f"{file}:{i + 1}: an oasis:runnable marker must be followed by a fenced code "
                f"block and take only exit= and timeout= ({sorted(unknown) or 'no fence'})"
            )
        body: list[str] = []
        for j in range(i + 2, len(lines)):
            if lines[j].strip().startswith(opening["fence"]):
                break
            body.append(lines[j].removeprefix(opening["indent"]))
        found.append(
            Example(
                file=file,
                line=i + 2,
                lang=opening["lang"].lower(),
                code="\n".join(body) + "\n",
                exit=int(options.get("exit", 0)),
                timeout=int(options.get("timeout", DEFAULT_TIMEOUT)),
            )
        )
    return found


def collect() -> list[Example]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    out: list[Example] = []
    for page in pages:
        out += examples_in(page.read_text(encoding="utf-8"), page.relative_to(ROOT).as_posix())
    return out


EXAMPLES = collect()


def run_example(example: Example, where: Path) -> subprocess.CompletedProcess[str]:
    venv_bin = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{venv_bin}{os.pathsep}{os.environ.get('PATH', '')}",
        "OASIS_REPO": str(ROOT),
    }
    if example.lang in SHELLS:
        for entry in sorted(ROOT.iterdir()):
            link = where / entry.name
            if entry.name not in NOT_LINKED and not link.is_symlink():
                link.symlink_to(entry)
        command = ["bash", "-eo", "pipefail", "-c", example.code]
    elif example.lang == "python":
        script = where / "example.py"
        script.write_text(example.code, encoding="utf-8")
        command = [sys.executable, str(script)]
    else:
        raise ValueError(f"{example.id}: a runnable block is bash or python, not {example.lang!r}")
    return subprocess.run(
        command,
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=example.timeout,
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_the_example_runs_as_documented(example: Example, tmp_path: Path) -> None:
    done = run_example(example, tmp_path)
    assert done.returncode == example.exit, (
        f"{example.id} exited {done.returncode}, the page says {example.exit}:\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )


def test_the_docs_mark_runnable_examples() -> None:
    assert len(EXAMPLES) >= 5, "the README and docs/ mark their cheap examples runnable"
    assert {"python"} <= {e.lang for e in EXAMPLES}


def test_the_collector_reads_the_marker_and_its_options(tmp_path: Path) -> None:
    page = (
        "text\n<!-- oasis:runnable exit=1 timeout=5 -->\n```bash\nexit 1\n```\n"
        "```bash\nnot marked\n```\n"
    )
    (example,) = examples_in(page, "page.md")
    assert (example.lang, example.code, example.exit, example.timeout) == ("bash", "exit 1\n", 1, 5)
    assert run_example(example, tmp_path).returncode == 1
    failing = examples_in("<!-- oasis:runnable -->\n```bash\nfalse\ntrue\n```\n", "p.md")[0]
    assert run_example(failing, tmp_path).returncode != 0  # bash -e: a failing step fails it
    with pytest.raises(ValueError, match="must be followed by a fenced code block"):
        examples_in("<!-- oasis:runnable -->\nno fence\n", "bad.md")
