"""The local run viewer (issue 19 item 2): a Starlette app over a directory of runs.

Pages: the runs list (from the SQLite index, :mod:`oasis_eval.history.index`), a run's page
(its summary and its own ``report.html``, served as written), and a side-by-side diff of two
runs (:mod:`oasis_eval.history.diff`). Server-rendered HTML, inline CSS, no script and no
external asset, like the report (05 §2).

Paths arrive as query parameters relative to the root. A path is served only when it names a
run the index holds, found by walking the root (no symbolic link, no ``..``), and a run's file
only when it is one of the files a run directory holds by name: nothing outside the root, and
no arbitrary file inside it, is ever read. When bound to loopback, requests must name a
loopback host (a web page elsewhere cannot reach the viewer through DNS rebinding).
"""

from __future__ import annotations

import math
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

from ..diagnostics import UnusableInput
from ..engine.rundir import VERDICT_JSON, VERDICT_YAML, stored_file
from ..files import read_maybe_gzip
from ..history.diff import ChangeKind, diff_runs
from ..history.index import IndexedRun, RunIndex
from ..history.runs import load_record
from ..reporting.controls import visible_controls

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

    def __init__(self, index: RunIndex) -> None:
        self.index = index
        self.templates = _templates()

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
        if not rel or "\x00" in rel:
            return None
        run = self.index.get(rel)
        if run is None:
            self.index.refresh()
            run = self.index.get(rel)
        if run is None or not (self.index.root / run.path).resolve().is_relative_to(
            self.index.root
        ):
            return None
        return run

    def runs(self, request: Request) -> Response:
        query = request.query_params.get("q", "").strip()
        page = _int(request.query_params.get("page"), 1)
        self.index.refresh()
        total = self.index.count(query)
        pages = max(1, math.ceil(total / PAGE_SIZE))
        page = min(max(page, 1), pages)
        runs = self.index.runs(query, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE)
        return self._page(
            request, "runs.html", runs=runs, query=query, page=page, pages=pages, total=total
        )

    def run(self, request: Request) -> Response:
        rel = request.query_params.get("path")
        run = self._run(rel)
        if run is None:
            return self._not_found(request, f"no run {rel!r} under this directory")
        run_dir = self.index.root / run.path
        files = [name for name in RUN_FILES if stored_file(run_dir, name) is not None]
        return self._page(request, "run.html", run=run, files=files)

    def run_file(self, request: Request) -> Response:
        rel, name = request.query_params.get("path"), request.query_params.get("name", "")
        run = self._run(rel)
        path = stored_file(self.index.root / run.path, name) if run and name in RUN_FILES else None
        if run is None or path is None:
            return self._not_found(request, f"no file {name!r} in run {rel!r}")
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
    viewer = Viewer(RunIndex(root, index_path))
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
