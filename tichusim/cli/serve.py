"""``tichusim serve``: the answers in a browser (``tichusim.web``)."""

from __future__ import annotations

import click

from .group import UserError, main
from .options import quiet_option


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="the address to listen on")
@click.option("--port", default=8047, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--workers",
    default=2,
    show_default=True,
    type=click.IntRange(1, 8),
    help="answers played at once (each plays on the kernels' threads)",
)
@click.option(
    "--queue",
    default=32,
    show_default=True,
    type=click.IntRange(0, 1000),
    help="answers that may wait for a worker; past that a request is refused (503)",
)
@click.option(
    "--max-deals",
    default=50_000,
    show_default=True,
    type=click.IntRange(1),
    help="the most deals of one odds request (pass-advice: 20,000 at most)",
)
@click.option(
    "--table-deals",
    default=100_000,
    show_default=True,
    type=click.IntRange(0),
    help="deals of the gt-table made at start-up, which compiles the kernels too (0: none)",
)
@click.option(
    "--tables",
    default=16,
    show_default=True,
    type=click.IntRange(1, 1000),
    help="the Play tab's tables open at once; past that a new one is refused (503)",
)
@click.option(
    "--table-idle",
    default=1800,
    show_default=True,
    type=click.IntRange(1),
    help="seconds a Play table may stay unused before it is closed",
)
@quiet_option("no compile notice")
def serve_cmd(host, port, workers, queue, max_deals, table_deals, tables, table_idle, quiet):
    """A local page where a player picks cards and reads the odds, or takes a seat against
    the bots (the Play tab), and its JSON API (docs/serve.md; the web extra: pip install -e
    '.[web]'). Ctrl-C stops it."""
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UserError(
            f"serve needs {' and '.join(missing)}, the web extra: pip install -e '.[web]'"
        )
    if 0 < table_deals < 1000:
        raise UserError(f"--table-deals: 0 or at least 1,000, not {table_deals:,}")
    from ..web import serve
    from ..web.answers import Limits

    limits = Limits(deals=max_deals, pass_deals=min(max_deals, Limits.pass_deals))

    def ready(url: str) -> None:
        click.echo(f"tichusim serve: {url}  (Ctrl-C stops it)", err=True)

    try:
        serve(
            host,
            port,
            workers=workers,
            queue=queue,
            limits=limits,
            table_deals=table_deals,
            tables=tables,
            idle=float(table_idle),
            on_ready=ready,
        )
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    click.echo("tichusim serve: stopped", err=True)
