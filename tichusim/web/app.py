"""The server's routes (Starlette): the page, its files, and the JSON API it uses.

* ``GET /``: the page; ``GET /static/...``: its script and style (package data);
* ``GET /api/info``: the tables, the strategies, the controls' defaults (read from the
  library), the bounds of a request, whether the kernels are compiled and the gt-table ready;
* ``POST /api/gt-odds``, ``/api/tichu-odds``, ``/api/pass-advice``, ``/api/advise``: a
  request checked at once (400 and the command line's one-line message for bad input, 503
  when the queue is full), then queued: ``202`` and the job; with ``?wait=1`` the answer
  itself once it is there (``200``, or ``400`` with the message);
* ``GET /api/jobs/{id}``: a job's state, progress and, once done, its answer (the commands'
  ``--json`` object) and the command line that gives it;
* the Play tab's tables (``play``): ``POST /api/play`` opens one (or resumes one from its
  record), ``GET /api/play/{table}`` is its state, ``POST /api/play/{table}/act`` answers its
  decision, ``POST /api/play/{table}/hint`` ranks its options (a job, as the answers),
  ``GET /api/play/{table}/game?format=tch|json`` is the game as a log, ``POST
  /api/play/{table}/review`` reviews a finished round's decisions of the person (a job),
  ``DELETE`` closes the table. The engine's calls run on the server's threads, one request at
  a time per table;
* ``POST /api/review``: a played game's log (its text) and a round reviewed (``review``), a
  job as the answers, with the round's frames to step through.

A request's body is bounded (``MAX_BODY``); nothing of it reaches the file system.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..games.errors import BadInput, one_line
from . import play, review
from .answers import KINDS, Limits, defaults, prepare
from .jobs import Busy, Jobs
from .table import Table

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 1024 * 1024  # bytes of a request's JSON (a game's log for a review, at most)


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
    tables: int = 16,
    idle: float = 1800.0,
) -> Starlette:
    """The server's app: ``workers`` threads answer, ``queue`` requests may wait, each
    bounded by ``limits``; at start-up a gt-table of ``table_deals`` deals (the default
    players') is made on a thread of its own, which compiles the Grand Tichu kernels too
    (0: none). ``hosts``: the only names a request may address the server by (its Host
    header: a page elsewhere that rebinds its own name to 127.0.0.1 is refused); ``None``:
    any. ``tables``: the Play tab's tables open at once, each closed after ``idle`` seconds
    unused."""
    limits = limits or Limits()
    jobs = Jobs(workers, queue)
    table = Table(table_deals)
    seats = play.Tables(tables, idle)
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
                "play": seats.status() | {"variants": list(play.GAMES)},
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
            return await _job(request, ask)
        except Busy as exc:
            return _error(str(exc), 503)

    async def _job(request: Request, ask) -> Response:
        """``ask`` queued as a job: 202 and the job, or with ``?wait=1`` its answer."""
        job = jobs.submit(ask.kind, ask.run, ask.command, ask.total)
        if request.query_params.get("wait") not in (None, "", "0", "false"):
            assert job.future is not None
            await asyncio.wrap_future(job.future)
            return JSONResponse(job.to_dict(), status_code=200 if job.state == "done" else 400)
        return JSONResponse(job.to_dict(), status_code=202)

    async def review_log(request: Request) -> Response:
        async def work():
            ask = await run_in_threadpool(review.prepare, await _body(request))
            return await _job(request, ask)

        return await _guarded(work)

    async def job_state(request: Request) -> Response:
        job = jobs.get(request.path_params["id"])
        if job is None:
            return _error(
                f"no job {request.path_params['id']!r} (finished jobs are kept a while)", 404
            )
        return JSONResponse(job.to_dict())

    # ---- the Play tab ----------------------------------------------------------------

    def _seat(request: Request) -> play.Seat:
        seat = seats.get(request.path_params["table"])
        if seat is None:
            raise play.NoTable(
                f"no table {request.path_params['table']!r}: closed after "
                f"{seats.idle:g} s unused, or by a restart (the page reopens it from its record)"
            )
        return seat

    async def _locked(seat: play.Seat, fn, *args):
        """``fn(seat, *args)`` under the table's lock, on a thread (the engine plays)."""

        def run():
            with seat.lock:
                return fn(seat, *args)

        return await run_in_threadpool(run)

    async def _guarded(work) -> Response:
        """A play request's answer: its errors each one line with their status, a bug too
        (500), never a traceback; the server goes on."""
        try:
            return await work()
        except BadInput as exc:
            return _error(str(exc), 400)
        except play.NoTable as exc:
            return _error(str(exc), 404)
        except play.Stale as exc:
            return _error(str(exc), 409)
        except (play.Busy, Busy) as exc:
            return _error(str(exc), 503)
        except Exception as exc:  # a bug: one line, the server goes on
            return _error(play.failed(exc), 500)

    async def play_open(request: Request) -> Response:
        async def work():
            body = await _body(request)
            game = await run_in_threadpool(play.open_request, body)
            seat = seats.open(game)
            return JSONResponse(await _locked(seat, play.state), status_code=201)

        return await _guarded(work)

    async def play_state(request: Request) -> Response:
        async def work():
            if request.method == "DELETE":
                seats.close(_seat(request).id)
                return JSONResponse({"closed": request.path_params["table"]})
            return JSONResponse(await _locked(_seat(request), play.state))

        return await _guarded(work)

    async def play_act(request: Request) -> Response:
        async def work():
            seat = _seat(request)
            body = await _body(request)

            def act(seat, body):
                play.answer_request(seat, body)
                return play.state(seat)

            return JSONResponse(await _locked(seat, act, body))

        return await _guarded(work)

    async def play_hint(request: Request) -> Response:
        async def work():
            seat = _seat(request)
            body = await _body(request)
            if body not in ({}, None):
                raise BadInput("hint: the request takes no fields")
            return await _job(request, await _locked(seat, play.hint, limits))

        return await _guarded(work)

    async def play_review(request: Request) -> Response:
        async def work():
            seat = _seat(request)
            body = await _body(request)
            if not isinstance(body, dict) or set(body) - {"round", "effort"}:
                raise BadInput("review: the request takes round (from 1) and effort")

            def ask_of(seat):
                done = seat.game.record()
                return review.for_play(
                    done, body.get("round", len(done.rounds)), 0, body.get("effort", "normal")
                )

            return await _job(request, await _locked(seat, ask_of))

        return await _guarded(work)

    async def play_game(request: Request) -> Response:
        async def work():
            fmt = request.query_params.get("format", "tch")
            text, media, name = await _locked(_seat(request), play.game_log, fmt)
            return Response(
                text,
                media_type=media,
                headers={"Content-Disposition": f'attachment; filename="{name}"'},
            )

        return await _guarded(work)

    routes = [
        Route("/", index),
        Route("/api/play", play_open, methods=["POST"]),
        Route("/api/play/{table}", play_state, methods=["GET", "DELETE"]),
        Route("/api/play/{table}/act", play_act, methods=["POST"]),
        Route("/api/play/{table}/hint", play_hint, methods=["POST"]),
        Route("/api/play/{table}/game", play_game),
        Route("/api/play/{table}/review", play_review, methods=["POST"]),
        Route("/api/review", review_log, methods=["POST"]),
        Route("/api/info", info),
        Route("/api/jobs/{id}", job_state),
        Route("/api/{kind}", answer, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(page)), name="static"),
    ]
    middleware = [] if hosts is None else [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.jobs = jobs
    app.state.table = table
    app.state.tables = seats
    return app


def _strategy_names() -> list[dict]:
    """The team games' named strategies and what each is (``tichusim strategies``)."""
    from ..strategies.tichu import BOOK

    return [{"name": s.name, "description": s.description} for s in BOOK.strategies.values()]
