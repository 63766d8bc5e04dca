"""Played games reviewed: ``review`` (every decision of a game weighed, docs/review.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..progress import Progress
from .group import UserError, guard, main
from .options import json_option, quiet_option, seed_option

EFFORTS = click.Choice(["quick", "normal", "deep"])


def _warn(line: str) -> None:
    click.echo(f"tichusim: warning: {line}", err=True)


@main.command()
@click.argument("game", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--player", default=None, help="review one player only: a seat (0..3) or a player's name"
)
@click.option(
    "--round", "round_", default=None, type=click.IntRange(1), help="review one round only (1..)"
)
@click.option(
    "--effort",
    default="normal",
    show_default=True,
    type=EFFORTS,
    help="how hard each decision is weighed: candidates and deals (docs/review.md)",
)
@click.option(
    "--worst",
    default=20,
    show_default=True,
    type=click.IntRange(0),
    help="the decisions shown in the text, the most points lost first",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="write the review table here as Parquet (one row per decision)",
)
@json_option("print the review as one JSON object")
@seed_option
@quiet_option()
def review(game, player, round_, effort, worst, out, as_json, seed, quiet):
    """Review a played game: every decision of every player (a Brettspielwelt .tch log or a
    tichusim game record, GAME) weighed from that player's view with the strong player
    (learned) in the rollouts, the points each lost against the best answer found, flagged
    (inaccuracy, mistake, blunder), each player's loss per decision and calls, and each
    deal's par beside its result. The worst decisions first."""
    from ..logs import read_game
    from ..review import review_game, settings_of
    from ..review.text import report
    from ..runs.files import write_atomic

    try:
        read = read_game(game)
    except OSError as exc:
        raise UserError(f"{game}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    for problem in read.problems:
        _warn(str(problem))
    record = read.game
    if not record.rounds:
        raise UserError(f"{game}: no round could be read")
    if round_ is not None and round_ > len(record.rounds):
        raise UserError(f"--round: {game} holds rounds 1..{len(record.rounds)}, not {round_}")
    settings = guard(settings_of, effort, seed=seed)
    rounds = None if round_ is None else [round_ - 1]
    bars: list[Progress] = []  # made at the first report, when the total is known

    def moved(done: int, total: int) -> None:
        if not bars:
            bars.append(Progress(total, "decision", enabled=not quiet))
        bars[0].to(done)

    try:
        result = guard(review_game, record, settings, player=player, rounds=rounds, progress=moved)
    finally:
        for bar in bars:
            bar.close()
    for line in result.skipped:
        _warn(line)
    if not result.rounds:
        raise UserError(f"{game}: no round could be played back")
    if out is not None:
        try:
            write_atomic(out, result.parquet())
        except OSError as exc:
            raise UserError(f"{out}: {exc.strerror or exc}") from None
    if as_json:
        sys.stdout.write(result.to_json())
    else:
        click.echo(report(result, worst))
