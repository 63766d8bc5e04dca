"""``tichusim serve``: the answers in a browser (the ``web`` extra: Starlette and uvicorn).

A local page where a player picks cards and reads the odds: 8 cards -> Grand Tichu odds with
the hand class's row of gt-table, 14 cards -> Tichu odds and the ranked passes, a position ->
the ranked plays; a seat at a table against the bots (the Play tab), with a hint on demand;
and the JSON API the page uses (docs/serve.md). ``app.create_app`` builds the app, ``serve``
runs it; ``answers`` checks a request and calls the library as the commands do, ``jobs`` is
the bounded worker pool, ``table`` the gt-table kept in memory, ``play`` the Play tab's
tables.
"""

from __future__ import annotations

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8047,
    *,
    workers: int = 2,
    queue: int = 32,
    limits=None,
    table_deals: int = 100_000,
    tables: int = 16,
    idle: float = 1800.0,
    on_ready=None,
) -> None:
    """Serve the page on ``host:port`` (port 0: a free one) until Ctrl-C, the rest as
    ``app.create_app``; ``on_ready(url)`` once it listens. ``OSError`` when it cannot
    listen there."""
    import socket

    import uvicorn

    from .app import create_app

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    try:  # Ctrl-C at any point from here stops it cleanly
        # on loopback, only the loopback names (a page elsewhere cannot rebind its name to it)
        loopback = host in ("127.0.0.1", "localhost", "::1")
        hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if loopback else None
        app = create_app(
            workers=workers,
            queue=queue,
            limits=limits,
            table_deals=table_deals,
            hosts=hosts,
            tables=tables,
            idle=idle,
        )
        config = uvicorn.Config(
            app, log_level="warning", timeout_graceful_shutdown=2, lifespan="on"
        )
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        if on_ready is not None:
            on_ready(f"http://{shown}:{sock.getsockname()[1]}/")
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # before uvicorn's handler, or raised again by it once stopped
        pass
    finally:
        sock.close()
