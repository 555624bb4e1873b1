"""The local run viewer (issue 19 item 2): a Starlette app over a directory of runs.

Pages: the runs list (from the SQLite index, :mod:`oasis_eval.history.index`), a run's page
(its summary and its own ``report.html``, served as written), and a side-by-side diff of two
runs (:mod:`oasis_eval.history.diff`). Server-rendered HTML, inline CSS, no script and no
external asset, like the report (05 §2).

Paths arrive as query parameters relative to the root. A path is served only when it names a
run the index holds, found by walking the root (no symbolic link, no ``..``), and a run's file
only when it is one of the files a run directory holds by name, a regular file (never a
link): nothing outside the root, and no arbitrary file inside it, is ever read. The index is a
cache an agent may have written: every run listed or served is read again from its directory
and checked against its manifest (:mod:`oasis_eval.history.checked`); a tampered run is listed
as tampered and its files are not served, a run without a manifest is marked unverifiable. When bound to loopback, requests must name a
loopback host (a web page elsewhere cannot reach the viewer through DNS rebinding).
"""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path
from typing import Any

import jinja2
import markupsafe
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from ..control_chars import visible_controls
from ..diagnostics import UnusableInput
from ..engine.manifest import RunKey, load_run_key
from ..engine.rundir import VERDICT_JSON, VERDICT_YAML, stored_file
from ..files import read_maybe_gzip
from ..history.checked import TAMPERED, RunChecks, inside, regular_file
from ..history.diff import ChangeKind, diff_runs
from ..history.index import IndexedRun, RunIndex
from ..history.runs import load_record

PAGE_SIZE = 100
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
#: the files of a run directory the viewer serves, with their media types
RUN_FILES = {
    "report.html": "text/html; charset=utf-8",
    "report.md": "text/plain; charset=utf-8",
    VERDICT_YAML: "text/plain; charset=utf-8",
    VERDICT_JSON: "application/json",
    "junit.xml": "text/xml; charset=utf-8",
}
#: a served report runs nothing and loads nothing: it is agent-influenced text, escaped
REPORT_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"
_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-src 'self'"


def _finalize(value: object) -> object:
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return visible_controls(value)
    return value


def _templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("oasis_eval.viewer", "templates"),
        autoescape=True,
        finalize=_finalize,
    )
    env.filters["score"] = lambda v: "-" if v is None else f"{v:.2f}"
    env.filters["delta"] = lambda v: "" if v is None else f"{v:+.2f}"
    return Jinja2Templates(env=env)


class Viewer:
    """The pages over one root; ``index`` is refreshed before each page that lists or looks up."""

    def __init__(self, index: RunIndex, key: RunKey | None = None) -> None:
        self.index = index
        self.checks = RunChecks(index.root, key)
        self.templates = _templates()

    def _refresh(self) -> None:
        """Bring the index up to date; a file damaged meanwhile is rebuilt (it is a cache)."""
        try:
            self.index.refresh()
        except sqlite3.DatabaseError:
            self.index.db_path.unlink(missing_ok=True)
            self.index._open()
            self.index.refresh()

    def _fresh(self, row: IndexedRun) -> IndexedRun | None:
        """``row`` as its run directory says now (see :mod:`oasis_eval.history.checked`); a
        run that cannot be read is listed with the reason, never a failed page."""
        try:
            return self.checks.fresh(row)
        except Exception as exc:  # noqa: BLE001 - one damaged run never takes the page down
            return IndexedRun(path=row.path, error=f"cannot be read: {type(exc).__name__}")

    def _page(self, request: Request, name: str, status: int = 200, **context: Any) -> Response:
        context.setdefault("root", str(self.index.root))
        response = self.templates.TemplateResponse(request, name, context, status_code=status)
        response.headers["Content-Security-Policy"] = _PAGE_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    def _not_found(self, request: Request, what: str) -> Response:
        return self._page(request, "error.html", status=404, message=what)

    def _run(self, rel: str | None) -> IndexedRun | None:
        """The indexed run at ``rel`` (the index refreshed when it does not hold it yet), None
        for anything else, or when the directory no longer resolves inside the root."""
        if inside(self.index.root, rel) is None:
            return None
        assert rel is not None
        run = self.index.get(rel)
        if run is None:
            self._refresh()
            run = self.index.get(rel)
        return None if run is None or run.path != rel else self._fresh(run)

    def runs(self, request: Request) -> Response:
        query = request.query_params.get("q", "").strip()
        page = _int(request.query_params.get("page"), 1)
        self._refresh()
        total = self.index.count(query)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        page = min(max(page, 1), pages)
        rows = self.index.runs(query, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
        runs = [run for run in map(self._fresh, rows) if run is not None]
        return self._page(
            request, "runs.html", runs=runs, query=query, page=page, pages=pages, total=total
        )

    def run(self, request: Request) -> Response:
        rel = request.query_params.get("path")
        run = self._run(rel)
        if run is None:
            return self._not_found(request, f"no run {rel!r} under this directory")
        files = [name for name in RUN_FILES if self._file(run, name) is not None]
        return self._page(request, "run.html", run=run, files=files)

    def _file(self, run: IndexedRun, name: str) -> Path | None:
        """The run's file ``name`` when it is served: one of :data:`RUN_FILES`, a regular
        file, of a run that is not tampered."""
        if name not in RUN_FILES or run.safety == TAMPERED:
            return None
        path = stored_file(self.index.root / run.path, name)
        return path if path is not None and regular_file(path) else None

    def run_file(self, request: Request) -> Response:
        rel, name = request.query_params.get("path"), request.query_params.get("name", "")
        run = self._run(rel)
        path = self._file(run, name) if run is not None else None
        if run is None or path is None:
            why = (
                f": the run was tampered with ({run.integrity_note})"
                if run and run.integrity_note
                else ""
            )
            return self._not_found(request, f"no file {name!r} in run {rel!r}{why}")
        try:
            body = read_maybe_gzip(path)
        except (OSError, ValueError) as exc:
            return self._not_found(request, f"{name} of run {rel!r} cannot be read: {exc}")
        headers = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": REPORT_POLICY}
        return Response(body, media_type=RUN_FILES[name], headers=headers)

    def diff(self, request: Request) -> Response:
        rel_a, rel_b = request.query_params.get("a"), request.query_params.get("b")
        if not rel_a or not rel_b:
            message = "choose two runs to compare: one as A (baseline), one as B (candidate)"
            return self._page(request, "error.html", status=400, message=message)
        a, b = self._run(rel_a), self._run(rel_b)
        if a is None or b is None:
            return self._not_found(request, f"no run {(rel_b if a else rel_a)!r} to compare")
        for run in (a, b):
            if run.safety == TAMPERED:
                message = f"run {run.path!r} was tampered with: {run.integrity_note}"
                return self._page(request, "error.html", status=422, message=message)
        try:
            before = load_record(self.index.root / a.path)
            after = load_record(self.index.root / b.path)
        except (UnusableInput, OSError) as exc:
            return self._page(request, "error.html", status=422, message=str(exc))
        result = diff_runs(before, after, a.path, b.path)
        return self._page(
            request, "diff.html", diff=result, a=a, b=b, kinds=ChangeKind, Kind=ChangeKind
        )


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def create_app(root: Path, index_path: Path | None = None, loopback_only: bool = True) -> Starlette:
    """The viewer over the runs under ``root`` (index at ``index_path`` or its default)."""
    viewer = Viewer(RunIndex(root, index_path), load_run_key())
    middleware = []
    if loopback_only:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_HOSTS))
    routes = [
        Route("/", viewer.runs),
        Route("/run", viewer.run),
        Route("/run/file", viewer.run_file),
        Route("/diff", viewer.diff),
    ]
    app = Starlette(routes=routes, middleware=middleware)
    app.state.viewer = viewer
    return app
