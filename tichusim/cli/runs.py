"""Playing rounds and batch runs, and reading them back: ``show`` (one round move by move),
``simulate`` (rounds in this process, a summary), ``run`` (a batch run into a run directory,
resumable), ``report`` and ``verify`` (a run directory's report and its check)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from ..games import game
from .group import PlayError, UserError, guard, main
from .options import (
    check_option,
    check_players,
    dask_option,
    quiet_option,
    resume_option,
    rules_options,
    seated,
    seed_option,
    strategies_option,
    strategy_specs,
    table_options,
)

TABLE_FILES = {"rounds.parquet", "seats.parquet"}  # what `simulate --out` writes (and may replace)


@main.command()
@seed_option
@click.option("--round", "round_", default=0, show_default=True, type=click.IntRange(0))
@click.option(
    "--game",
    "game_no",
    type=click.IntRange(0),
    default=None,
    help="grand-seigneur: show round --round of this game (its earlier rounds are "
    "played for the ranks); without it, the first round of game --round",
)
@strategies_option
@table_options
@click.option(
    "--log",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="also write the round as a game log: BSW's format for a .tch name (nanjing), else "
    "tichusim's JSON game record (docs/records.md), which review and import read",
)
def show(seed, round_, game_no, strategies, variant, players, option_pairs, log):
    """Print one round move by move (a transcript)."""
    from ..games.base import GAME_OPTIONS

    check_players(variant, players)
    given = rules_options(option_pairs) or {}
    played = guard(game, variant, players, given)
    chosen = guard(strategy_specs, strategies, played.strategy_book)
    seated(played, chosen)  # bad input is refused before any compile
    # chained rounds (a round of a game, §5): without --game, --round I is the first round of
    # game I, as `simulate` plays them; other games' rounds replay alone
    if not played.chained_rounds:
        if game_no is not None:
            raise UserError(
                "--game applies to grand-seigneur only (a team game's rounds "
                "replay alone with --round)"
            )
        games_only = [k for k in given if k in GAME_OPTIONS]
        if games_only:
            raise UserError(
                f"--option {games_only[0]}: shapes whole games, and show plays one "
                "independent round"
            )
    if log is not None and not played.team_game:
        raise UserError(f"--log: records are kept for the team games, not {variant}")
    text = guard(played.transcript, seed, round_, game=game_no, strategies=chosen)
    click.echo(text, nl=False)
    if log is not None:
        from ..logs import played_round, write_game

        record = guard(
            played_round, seed, round_, strategies=chosen, variant=variant, options=given
        )
        try:
            guard(write_game, record, log)
        except OSError as exc:
            raise UserError(f"--log: cannot write {log}: {exc.strerror or exc}") from None


@main.command()
@click.option("--rounds", default=100_000, show_default=True, type=click.IntRange(1))
@seed_option
@strategies_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="write rounds.parquet and seats.parquet into this directory",
)
@check_option
@table_options
def simulate(rounds, seed, strategies, out, check, variant, players, option_pairs):
    """Play independent rounds and print a summary with 95% confidence intervals."""
    from ..analysis.summary import summary
    from ..games import SimulationError
    from ..games.arrow import tables as table_of
    from ..runs import parquet

    check_players(variant, players)
    if out is not None and out.exists():
        if not out.is_dir():
            raise UserError(f"output path {out} is not a directory")
        foreign = sorted(p.name for p in out.iterdir() if p.name not in TABLE_FILES)
        if foreign:
            raise UserError(f"output directory {out} holds other files ({foreign[0]}, ...)")
    try:
        played = guard(game, variant, players, rules_options(option_pairs))
        chosen = guard(strategy_specs, strategies, played.strategy_book)
        seated(played, chosen)  # bad input is refused before any compile
        # before the clock: the rate counts play only, not a compile
        guard(played.records, 1, seed=seed, check=check, strategies=chosen)
        t0 = time.perf_counter()
        rec = guard(played.records, rounds, seed=seed, check=check, strategies=chosen)
    except SimulationError as exc:
        raise UserError(str(exc)) from None
    tables = table_of(rec)
    elapsed = time.perf_counter() - t0
    click.echo(summary(played, *(t.to_pandas() for t in tables)))
    click.echo(f"{rounds} rounds in {elapsed:.2f} s ({rounds / elapsed:,.0f} rounds/s)")
    if out is not None:
        try:
            parquet.write(tables, out)
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
        click.echo(f"tables written to {out}/")


@main.command()
@click.argument("config", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--rounds", type=click.IntRange(1), help="play this many independent rounds")
@click.option("--games", type=click.IntRange(1), help="play this many games to the target")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="override the config's seed")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="run directory (default: the config's out)",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    help="local workers: threads, or processes when Python agents play (default: "
    "one per core; 1 = this process, numba threads on every core)",
)
@dask_option
@resume_option("run")
@click.option(
    "--accept-changed-agents",
    is_flag=True,
    help="continue a run although a Python agent's source file changed since the run "
    "started (refused otherwise: the finished shards were played by the old "
    "source); the manifest records the new sha256 and keeps the old one",
)
@quiet_option("no compile notice, no progress bar and no summary")
def run(
    config,
    rounds,
    games,
    seed,
    out,
    workers,
    dask_address,
    resume_dir,
    accept_changed_agents,
    quiet,
):
    """Play the batch run described by CONFIG (TOML) into a run directory of Parquet shards.

    Data depend only on the config: any --workers, local or Dask, and a resumed run give the
    same bytes. Stop it any way and finish it with --resume DIR. The manifest holds the sha256
    of each Python agent's source file; a run continues only with the same sources (or with
    --accept-changed-agents).
    """
    from ..games import SimulationError
    from ..games.agents import AgentError
    from ..runs.config import ConfigError, load_config
    from ..runs.manifest import RunDirError
    from ..runs.runner import RunError, RunInterrupted, resume, run

    def note(message):
        if not quiet:
            click.echo(f"tichusim: {message}", err=True)

    _check_run_arguments(config, rounds, games, seed, out, resume_dir)
    target = resume_dir
    try:
        if resume_dir is not None:
            summary = resume(
                resume_dir,
                workers=workers,
                dask=dask_address,
                progress=not quiet,
                log=note,
                accept_changed_agents=accept_changed_agents,
            )
        else:
            cfg = load_config(config).with_overrides(rounds=rounds, games=games, seed=seed)
            target = Path(out or cfg.out or ".")
            summary = run(
                cfg,
                out=out,
                workers=workers,
                dask=dask_address,
                progress=not quiet,
                log=note,
                accept_changed_agents=accept_changed_agents,
            )
    except (ConfigError, RunDirError, RunError, SimulationError) as exc:
        raise UserError(str(exc)) from None
    except AgentError as exc:  # an agent failed during play: exit 1, the run resumable
        raise PlayError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write {exc.filename or target}: {exc.strerror or exc}") from None
    except RunInterrupted as exc:
        click.echo(f"\ntichusim: {exc}; resume with: tichusim run --resume {exc.run_dir}", err=True)
        sys.exit(130)
    except KeyboardInterrupt:  # before any shard ran
        click.echo("\ntichusim: interrupted", err=True)
        sys.exit(130)
    if not quiet:
        _echo_run(summary)


def _check_run_arguments(config, rounds, games, seed, out, resume_dir) -> None:
    """``UserError`` for arguments ``run`` refuses: a resumed run takes no settings, a new one
    needs its CONFIG, and --rounds and --games are one or the other."""
    if resume_dir is not None:
        given = [
            n
            for n, v in [
                ("CONFIG", config),
                ("--rounds", rounds),
                ("--games", games),
                ("--seed", seed),
                ("--out", out),
            ]
            if v is not None
        ]
        if given:
            raise UserError(f"--resume: a run resumes as configured; drop {', '.join(given)}")
    elif config is None:
        raise UserError("config: give a CONFIG file (see configs/) or --resume DIR")
    if rounds is not None and games is not None:
        raise UserError("--rounds and --games: give one (it sets the mode)")


def _echo_run(summary) -> None:
    """The line a finished run prints: what it played, where, and how fast."""
    what = f"{summary.count:,} {summary.mode}"
    if summary.mode == "games":
        what += f" ({summary.rounds:,} rounds)"
    rate = summary.rounds_played / summary.seconds
    click.echo(
        f"{what} in {summary.run_dir}/ ({summary.played} shards played in "
        f"{summary.seconds:.1f} s, {rate:,.0f} rounds/s, {summary.backend})"
    )


@main.command("report")
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
def report_cmd(run_dir):
    """Write report.md and report/*.png (scores, call success, finishing positions) into
    RUN_DIR (a `tichusim run` directory or a `simulate --out` folder)."""
    from ..analysis.report import report

    try:
        path = guard(report, run_dir)
    except OSError as exc:
        raise UserError(f"cannot write the report into {run_dir}: {exc.strerror or exc}") from None
    click.echo(f"report written: {path} (figures in {path.parent / 'report'}/)")


@main.command("verify")
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
def verify_cmd(run_dir):
    """Check every finished shard of RUN_DIR against the manifest (size, sha256, rows).

    One line per damaged or missing file on stderr and exit status 1; exit 0 when clean."""
    from ..runs.verify import verify

    result = guard(verify, run_dir)
    for note in result.notes:
        click.echo(f"tichusim: note: {note}", err=True)
    for problem in result.problems:
        click.echo(f"tichusim: damaged: {problem}", err=True)
    click.echo(
        f"{run_dir}: {result.intact} of {result.done} finished shards intact "
        f"({result.shards} in the run, {result.state})"
    )
    if not result.ok:
        sys.exit(1)
