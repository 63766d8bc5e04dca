"""The server's routes (Starlette): the page, its files, and the JSON API it uses.

* ``GET /``: the page; ``GET /static/...``: its script and style (package data);
* ``GET /api/info``: the tables, the strategies, the controls' defaults (read from the
  library), the bounds of a request, whether the kernels are compiled and the gt-table ready;
* ``POST /api/gt-odds``, ``/api/tichu-odds``, ``/api/pass-advice``, ``/api/advise``: a
  request checked at once (400 and the command line's one-line message for bad input, 503
  when the queue is full), then queued: ``202`` and the job; with ``?wait=1`` the answer
  itself once it is there (``200``, or ``400`` with the message);
* ``GET /api/jobs/{id}``: a job's state, progress and, once done, its answer (the commands'
  ``--json`` object) and the command line that gives it.

A request's body is bounded (``MAX_BODY``); nothing of it reaches the file system.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from importlib import resources

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..games.errors import BadInput, one_line
from .answers import KINDS, Limits, defaults, prepare
from .jobs import Busy, Jobs
from .table import Table

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 64 * 1024  # bytes of a request's JSON


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": one_line(message)}, status_code=status)


async def _body(request: Request) -> object:
    size = int(request.headers.get("content-length") or 0)
    if size > MAX_BODY:
        raise BadInput(f"the request is {size:,} bytes, more than {MAX_BODY:,}")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BadInput(f"the request is more than {MAX_BODY:,} bytes")
    try:
        return json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadInput(f"the request is not JSON: {exc}") from None


def create_app(
    *,
    workers: int = 2,
    queue: int = 32,
    limits: Limits | None = None,
    table_deals: int = 100_000,
    hosts: list[str] | None = None,
) -> Starlette:
    """The server's app: ``workers`` threads answer, ``queue`` requests may wait, each
    bounded by ``limits``; at start-up a gt-table of ``table_deals`` deals (the default
    players') is made on a thread of its own, which compiles the Grand Tichu kernels too
    (0: none). ``hosts``: the only names a request may address the server by (its Host
    header: a page elsewhere that rebinds its own name to 127.0.0.1 is refused); ``None``:
    any."""
    limits = limits or Limits()
    jobs = Jobs(workers, queue)
    table = Table(table_deals)
    page = resources.files(__package__).joinpath("static")

    @asynccontextmanager
    async def lifespan(app):
        table.start()
        try:
            yield
        finally:
            jobs.close()
            table.stop()

    async def index(request: Request) -> Response:
        return HTMLResponse(page.joinpath("index.html").read_text(encoding="utf-8"))

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "defaults": defaults(),
                "limits": {
                    "deals": limits.deals,
                    "pass_deals": limits.pass_deals,
                    "samples": limits.samples,
                    "candidates": limits.candidates,
                },
                "strategies": _strategy_names(),
                "compiled": {kind: jobs.warm(kind) for kind in KINDS},
                "gt_table": table.status(),
                "workers": jobs.workers,
                "queue": jobs.queue,
                "busy": jobs.busy,
            }
        )

    async def answer(request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in KINDS:
            return _error(f"no answer {kind!r} (answers: {', '.join(KINDS)})", 404)
        try:
            ask = prepare(kind, await _body(request), limits, table.row)
        except BadInput as exc:
            return _error(str(exc), 400)
        try:
            job = jobs.submit(kind, ask.run, ask.command, ask.total)
        except Busy as exc:
            return _error(str(exc), 503)
        if request.query_params.get("wait") not in (None, "", "0", "false"):
            assert job.future is not None
            await asyncio.wrap_future(job.future)
            status = 200 if job.state == "done" else 400
            return JSONResponse(job.to_dict(), status_code=status)
        return JSONResponse(job.to_dict(), status_code=202)

    async def job_state(request: Request) -> Response:
        job = jobs.get(request.path_params["id"])
        if job is None:
            return _error(
                f"no job {request.path_params['id']!r} (finished jobs are kept a while)", 404
            )
        return JSONResponse(job.to_dict())

    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/jobs/{id}", job_state),
        Route("/api/{kind}", answer, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(page)), name="static"),
    ]
    middleware = [] if hosts is None else [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.jobs = jobs
    app.state.table = table
    return app


def _strategy_names() -> list[dict]:
    """The team games' named strategies and what each is (``tichusim strategies``)."""
    from ..strategies.tichu import BOOK

    return [{"name": s.name, "description": s.description} for s in BOOK.strategies.values()]
