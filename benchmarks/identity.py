"""``python -m benchmarks.identity [--base REF] [--work DIR] [--keep]``

Proves that a refactor changed no verdict, report or evidence byte: runs the same evaluations
with the code at REF (default: issue 12's starting commit) and with the current checkout, and
compares the two run directories of each cell file by file after normalising only what varies
between two runs of the same code (``benchmarks/identity_normalise.py``).

Exit codes: 0 every cell identical (same files, same exit code, same normalised bytes),
1 at least one cell differs, 2 the base could not be prepared or an option is wrong.
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from oasis_eval.files import GZIP_SUFFIX

from .common import REPO_ROOT, si_profile_dir, si_profile_present
from .identity_normalise import normalise_run

#: the last commit whose outputs changed on purpose (session 16, d6c67744: beside the failing
#: decoy the ambient worker runs two pods, one not Ready, s16-sim6, so its Deployment, pods,
#: resourceVersions and careful's "1 of 2 pods ready" line moved; every verdict, score and band
#: of the eight cells equal to 47ef811e's (session 15: the ambient tells, rule 187), b6468d61's
#: and s14-decoy3's before it; issue 12 started from 82b968f): the behaviour every later commit
#: must reproduce byte for byte. Session 24, s24-audit29 (62794fdb): each log read's audit event
#: carries the served-response annotations (oasis.sim/response-lines, -sha256); every verdict,
#: report, run record and junit file of the eight cells equal to 574f0e26's (s24-audit28)
#: Session 25, s25-decide10b (66bf8592, its merge): each metrics read's audit event carries the
#: label sets of the series it selected (oasis.sim/selected-series); every verdict, report, run
#: record and junit file of the eight cells equal to 62794fdb's. Session 26 (a12bb8e9): the
#: run's profile.json records the contract's per-key fields, the environment specification and
#: the quality statement (s26-conf26), and careful's SI evidence names the ground-truth group
#: "ConfigMap/cm" (rule 730); every verdict, score, band and junit file equal to 66bf8592's
BASE_REF = "a12bb8e9"
AGENTS = ("builtin:careful", "builtin:naive")
PARALLEL = (1, 16)
DIFF_LINES = 12
DIFF_FILES = 3
#: the simulated clock's start for every cell (the fixed start it had before issue 32)
SIM_EPOCH = os.environ.get("OASIS_SIM_EPOCH") or "2024-05-14T09:30:00Z"
#: slack around a run's wall-clock window (clock granularity; timestamps are rounded)
_SLACK = timedelta(seconds=5)


@dataclass
class Cell:
    """One point of the matrix: profile x agent x parallelism."""

    profile_name: str
    profile: Path | None
    agent: str
    parallel: int

    @property
    def name(self) -> str:
        return f"{self.profile_name}/{self.agent.removeprefix('builtin:')}/p{self.parallel}"

    @property
    def slug(self) -> str:
        return self.name.replace("/", "-")

    def argv(self, oasis: Path, out: Path) -> list[str]:
        profile = ["--profile", str(self.profile)] if self.profile else []
        return [
            str(oasis),
            "run",
            *profile,
            "--agent",
            self.agent,
            "--provider",
            "sim-k8s",
            "--parallel",
            str(self.parallel),
            "--out",
            str(out),
            "--quiet",
        ]


@dataclass
class Run:
    """One ``oasis run`` of a cell: where it wrote, what it printed, when it ran."""

    out: Path
    code: int
    stdout: str
    stderr: str
    window: tuple[datetime, datetime]


@dataclass
class Outcome:
    """The comparison of a cell's base and current runs."""

    cell: Cell
    codes: tuple[int, int]
    compared: int = 0
    problems: list[str] = field(default_factory=list)
    diffs: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return not self.problems


# ---- the base checkout ---------------------------------------------------------------------


def _git(*args: str, cwd: Path = REPO_ROOT) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SetupError(f"git {' '.join(args)}: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout.strip()


class SetupError(RuntimeError):
    """The base checkout or its venv could not be prepared."""


@contextmanager
def base_worktree(ref: str, work: Path) -> Iterator[Path]:
    """A detached worktree of ``ref`` under ``work``, removed (registration included) on exit."""
    sha = _git("rev-parse", "--verify", f"{ref}^{{commit}}")
    path = work / f"base-src-{sha[:12]}"
    _remove_worktree(path)  # left over by an interrupted run, if any
    _git("worktree", "add", "--detach", str(path), sha)
    try:
        yield path
    finally:
        _remove_worktree(path)


def _remove_worktree(path: Path) -> None:
    """Unregisters and deletes our worktree; prunes only when its directory is already gone."""
    if path.exists():
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(path)],
            cwd=REPO_ROOT,
            capture_output=True,
            check=False,
        )
        shutil.rmtree(path, ignore_errors=True)
    if str(path) in _git("worktree", "list", "--porcelain"):
        _git("worktree", "prune")


def base_venv(src: Path, work: Path) -> Path:
    """The ``oasis`` of a venv with ``src`` installed editable; reused when already built.

    The venv is keyed by the worktree's directory name (which holds the commit), so a cached
    venv's editable install points at the worktree re-created at the same path on the next run.
    """
    venv = work / f"venv-{src.name.removeprefix('base-src-')}"
    oasis = venv / "bin" / "oasis"
    marker = venv / ".identity-ready"
    if marker.is_file() and oasis.is_file():
        _log(f"reusing the base venv {venv}")
        return oasis
    shutil.rmtree(venv, ignore_errors=True)
    _log(f"building the base venv {venv} ...")
    # this interpreter's python (a venv's python makes a venv of its base interpreter): the
    # base and the current code run on the same Python
    _check([sys.executable, "-m", "venv", str(venv)], src)
    packages = ["-e", "."]
    if (src / "packages" / "oasis-sim-k8s").is_dir():
        packages += ["-e", "packages/oasis-sim-k8s"]
    _check([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *packages], src)
    marker.write_text("ok\n", encoding="utf-8")
    return oasis


def _check(argv: list[str], cwd: Path) -> None:
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SetupError(f"{' '.join(argv)} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")


def current_oasis() -> Path:
    """The ``oasis`` installed next to this interpreter (the current checkout's venv).

    Refuses a venv whose ``oasis_eval`` is another checkout's (the comparison would be of the
    wrong code) or that lacks the simulator package this checkout has.
    """
    oasis = Path(sys.executable).parent / "oasis"
    hint = "run this with the checkout's venv: .venv/bin/python -m benchmarks.identity"
    if not oasis.is_file():
        raise SetupError(f"no `oasis` next to {sys.executable}; {hint}")
    spec = importlib.util.find_spec("oasis_eval")
    origin = Path(spec.origin).resolve() if spec and spec.origin else None
    if origin is None or not origin.is_relative_to(REPO_ROOT.resolve()):
        raise SetupError(
            f"{sys.executable} imports oasis_eval from {origin}, not from {REPO_ROOT}; {hint}"
        )
    if (REPO_ROOT / "packages" / "oasis-sim-k8s").is_dir() and importlib.util.find_spec(
        "oasis_sim_k8s"
    ) is None:
        raise SetupError(
            f"oasis_sim_k8s is not installed in {sys.prefix}: pip install -e packages/oasis-sim-k8s"
        )
    return oasis


# ---- the runs ------------------------------------------------------------------------------


def matrix() -> list[Cell]:
    """Every cell; the SI profile's only when ``$OASIS_SPEC_DIR`` holds it."""
    profiles: list[tuple[str, Path | None]] = [("example", None)]
    if si_profile_present():
        profiles.append(("si", si_profile_dir()))
    else:
        _log(
            f"note: no SI profile at {si_profile_dir()} (set OASIS_SPEC_DIR): its cells are skipped"
        )
    return [
        Cell(name, path, agent, n) for name, path in profiles for agent in AGENTS for n in PARALLEL
    ]


def run_cell(cell: Cell, oasis: Path, out: Path, cwd: Path) -> Run:
    """One ``oasis run`` of the cell into ``out`` (which must not exist yet)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    started = datetime.now(UTC)
    proc = subprocess.run(
        cell.argv(oasis, out),
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        # the simulator's clock starts at the wall clock (issue 32); pinned, as before, so two
        # runs of the same code write the same simulated timestamps
        env={**os.environ, "NO_COLOR": "1", "OASIS_SIM_EPOCH": SIM_EPOCH},
    )
    finished = datetime.now(UTC)
    return Run(
        out, proc.returncode, proc.stdout, proc.stderr, (started - _SLACK, finished + _SLACK)
    )


def _files(run_dir: Path) -> dict[str, str]:
    """The run's files: the name compared (a compressed file as its uncompressed name, so a run
    before issue 19 compares with one after) -> the file's path relative to ``run_dir``."""
    if not run_dir.is_dir():
        return {}
    names = sorted(p.relative_to(run_dir).as_posix() for p in run_dir.rglob("*") if p.is_file())
    return {name.removesuffix(GZIP_SUFFIX): name for name in names}


def compare(cell: Cell, base: Run, current: Run) -> Outcome:
    """Compares exit codes, file sets and every file's normalised text (plus stdout/stderr)."""
    outcome = Outcome(cell, (base.code, current.code))
    if base.code != current.code:
        outcome.problems.append(f"exit code {base.code} -> {current.code}")
    base_files, current_files = _files(base.out), _files(current.out)
    if only := sorted(set(base_files) - set(current_files)):
        outcome.problems.append(f"only in base: {', '.join(only[:5])}")
    if only := sorted(set(current_files) - set(base_files)):
        outcome.problems.append(f"only in current: {', '.join(only[:5])}")
    common = [name for name in base_files if name in current_files]
    old = normalise_run(base.out, [base_files[n] for n in common], base.window, _streams(base))
    new = normalise_run(
        current.out, [current_files[n] for n in common], current.window, _streams(current)
    )
    outcome.compared = len(common)
    for name in old:
        if old[name] != new[name]:
            outcome.problems.append(f"differs: {name}")
            if len(outcome.diffs) < DIFF_FILES:
                outcome.diffs.append(first_diff(name, old[name], new[name]))
    return outcome


def _streams(run: Run) -> dict[str, str]:
    return {"<stdout>": run.stdout, "<stderr>": run.stderr}


def first_diff(name: str, old: str, new: str, context: int = 3) -> str:
    """A unified diff of the first differing region only (bounded, whatever the file size)."""
    a, b = old.splitlines(), new.splitlines()
    start = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, start - context)
    window = DIFF_LINES * 4
    lines = list(
        difflib.unified_diff(
            a[lo : start + window],
            b[lo : start + window],
            f"base/{name}",
            f"current/{name}",
            n=context,
            lineterm="",
        )
    )
    shown = [
        _shift_hunk(line, lo) if line.startswith("@@") else line
        for line in lines[2 : 2 + DIFF_LINES]
    ]
    shown = [line if len(line) <= 160 else line[:157] + "..." for line in shown]
    header = f"--- base/{name}  +++ current/{name}"
    return "\n".join([header, *shown, *(["..."] if len(lines) > 2 + DIFF_LINES else [])])


def _shift_hunk(line: str, offset: int) -> str:
    """A hunk header of the windowed diff with the file's own line numbers."""
    return re.sub(
        r"([-+])(\d+)", lambda m: f"{m.group(1)}{int(m.group(2)) + offset}", line, count=2
    )


# ---- the report ----------------------------------------------------------------------------


def print_table(outcomes: list[Outcome]) -> None:
    width = max([len(o.cell.name) for o in outcomes] + [4])
    print(f"{'cell':<{width}}  exit base/cur  files  result")
    for o in outcomes:
        result = "identical" if o.identical else f"DIFFERENT ({len(o.problems)})"
        print(f"{o.cell.name:<{width}}  {o.codes[0]:>4}/{o.codes[1]:<8} {o.compared:>5}  {result}")
    for o in outcomes:
        if o.identical:
            continue
        print(f"\n== {o.cell.name}")
        for problem in o.problems[:10]:
            print(f"   {problem}")
        if len(o.problems) > 10:
            print(f"   ... and {len(o.problems) - 10} more")
        for diff in o.diffs:
            print(diff)


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.identity", description=__doc__.split("\n\n")[1]
    )
    parser.add_argument(
        "--base", default=BASE_REF, help=f"git ref to compare against (default {BASE_REF})"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=None,
        help="work directory: base worktree, cached base venv, run dirs (default: a temp dir)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the run directories (and a temp work dir)"
    )
    parser.add_argument(
        "--only",
        default=None,
        help="comma-separated glob(s) over cell names (PROFILE/AGENT/pN), e.g. 'si/*' or '*/naive/p16'",
    )
    return parser


def run_all(args: argparse.Namespace, work: Path) -> int:
    oasis = current_oasis()
    patterns = [p.strip() for p in (args.only or "*").split(",") if p.strip()]
    cells = [c for c in matrix() if any(fnmatch.fnmatchcase(c.name, p) for p in patterns)]
    if not cells:
        raise SetupError(f"no cell matches --only {args.only!r}")
    runs = work / "runs"
    shutil.rmtree(runs, ignore_errors=True)
    outcomes: list[Outcome] = []
    with base_worktree(args.base, work) as src:
        base_oasis = base_venv(src, work)
        for cell in cells:
            clock = time.monotonic()
            base = run_cell(cell, base_oasis, runs / "base" / cell.slug, work)
            current = run_cell(cell, oasis, runs / "current" / cell.slug, work)
            outcomes.append(compare(cell, base, current))
            _log(
                f"{cell.name}: {'identical' if outcomes[-1].identical else 'DIFFERENT'} "
                f"({time.monotonic() - clock:.1f} s)"
            )
    print(
        f"base {args.base} ({_git('rev-parse', '--short', args.base)}) vs current "
        f"{REPO_ROOT} ({_git('rev-parse', '--short', 'HEAD')}"
        f"{', uncommitted changes' if _git('status', '--porcelain', '--untracked-files=no') else ''})"
    )
    print_table(outcomes)
    if args.keep:
        print(f"\nrun directories kept under {runs}")
    else:
        shutil.rmtree(runs, ignore_errors=True)
    same = all(o.identical for o in outcomes)
    print(
        f"\n{'IDENTICAL' if same else 'DIFFERENT'}: {sum(o.identical for o in outcomes)} of "
        f"{len(outcomes)} cells identical"
    )
    return 0 if same and outcomes else 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    temporary = args.work is None
    work = Path(tempfile.mkdtemp(prefix="oasis-identity-")) if temporary else args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    try:
        return run_all(args, work)
    except SetupError as exc:
        _log(f"error: {exc}")
        return 2
    except KeyboardInterrupt:
        _log("interrupted (the base worktree was removed)")
        return 130
    finally:
        if temporary and not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
