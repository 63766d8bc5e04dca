"""Played games in: ``import`` (Brettspielwelt logs and tichusim game records replayed into the
simulator's tables, as a batch run; ``tichusim.runs.imports``)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..games.registry import TEAM_GAMES
from .group import UserError, main
from .options import dask_option, quiet_option, resume_option, rules_options


@main.command("import")
@click.argument("games", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="the import's directory (rounds, seats, moves and problems as Parquet)",
)
@click.option(
    "--variant",
    default="nanjing",
    show_default=True,
    type=click.Choice(list(TEAM_GAMES)),
    help="the table the games were played at (a Brettspielwelt log: nanjing)",
)
@click.option(
    "--option",
    "option_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="a rules option the games were played with, repeatable",
)
@click.option(
    "--shard-size",
    type=click.IntRange(1),
    default=100,
    show_default=True,
    help="files a shard (a Brettspielwelt log holds about 10 rounds)",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    help="local worker processes (default: one per core; 1 = this process)",
)
@dask_option
@resume_option("import")
@quiet_option("no compile notice, no progress bar and no summary")
def import_cmd(
    games, out, variant, option_pairs, shard_size, workers, dask_address, resume_dir, quiet
):
    """Read played games (GAMES: Brettspielwelt .tch logs, tichusim JSON game records,
    directories of them, globs) into the simulator's tables, every round replayed by the
    engine.

    A round that cannot be read, or that the engine refuses, is named on stderr (file:line:
    why), kept in the problems table and left out; the others are read. Exit status 2 when
    nothing could be read. Sharded and resumable as a batch run: stop it any way and finish
    it with --resume DIR; any --workers give the same bytes.
    """
    from ..runs.imports import NothingRead, import_games, resume
    from ..runs.manifest import RunDirError
    from ..runs.runner import RunError, RunInterrupted

    def note(message):
        if not quiet:
            click.echo(f"tichusim: {message}", err=True)

    if resume_dir is not None:
        given = [n for n, v in [("GAMES", games), ("--out", out)] if v]
        if given:
            raise UserError(f"--resume: an import resumes as it began; drop {', '.join(given)}")
    elif not games or out is None:
        raise UserError("import: give GAMES and --out DIR (or --resume DIR)")
    target = resume_dir or out
    try:
        if resume_dir is not None:
            summary = resume(
                resume_dir, workers=workers, dask=dask_address, progress=not quiet, log=note
            )
        else:
            summary = import_games(
                games,
                out,
                variant=variant,
                options=rules_options(option_pairs),
                shard_size=shard_size,
                workers=workers,
                dask=dask_address,
                progress=not quiet,
                log=note,
            )
    except NothingRead as exc:
        if len(exc.problems) > 1:
            _echo_problems(exc.problems)
        raise UserError(str(exc)) from None
    except (RunDirError, RunError, ValueError) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write {exc.filename or target}: {exc.strerror or exc}") from None
    except RunInterrupted as exc:
        click.echo(
            f"\ntichusim: {exc}; resume with: tichusim import --resume {exc.run_dir}", err=True
        )
        sys.exit(130)
    except KeyboardInterrupt:  # before any shard ran
        click.echo("\ntichusim: interrupted", err=True)
        sys.exit(130)
    _echo_problems(summary.problems)
    if summary.problems:
        click.echo(
            f"tichusim: {len(summary.problems):,} problem(s), the rounds left out "
            f"(the table {summary.out}/problems)",
            err=True,
        )
    if not quiet:
        rate = summary.rounds_played / summary.seconds if summary.seconds else 0.0
        click.echo(
            f"{summary.rounds:,} rounds of {summary.files:,} files in {summary.out}/ "
            f"({summary.played} shards played in {summary.seconds:.1f} s, {rate:,.0f} rounds/s, "
            f"{summary.backend})"
        )


def _echo_problems(problems) -> None:
    """One line per problem on stderr: ``file:line: why``."""
    for problem in problems:
        click.echo(f"tichusim: skipped: {problem}", err=True)
