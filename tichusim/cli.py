"""The ``tichusim`` command: thin click commands over the library functions."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from . import __version__

TABLE_FILES = {"rounds.parquet", "seats.parquet"}  # what `simulate --out` writes (and may replace)
STRATEGY_HELP = "one strategy for every seat, or four separated by commas (seat 0..3)"


class UserError(click.ClickException):
    exit_code = 2

    def show(self, file=None):  # one line, no traceback
        click.echo(f"tichusim: error: {self.format_message()}", err=True)


def _strategies(text: str):
    parts = [p.strip() for p in text.split(",")]
    return parts[0] if len(parts) == 1 else parts


def _guard(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        raise UserError(str(exc)) from None


@click.group()
@click.version_option(__version__, prog_name="tichusim")
def main():
    """Monte Carlo simulation of Tichu (RULES.md in the project's shared specification)."""


@main.command()
def warmup():
    """Compile and cache every kernel once (run after installing)."""
    t0 = time.perf_counter()
    from . import legal_plays, simulate, simulate_games
    from .transcript import play_with_log

    legal_plays("Ma 2j 3s 4p 5t Ph Dr Dog 7j 7s 7p 7t")
    for name in ("random", "lowest", "heuristic"):
        simulate(8, strategies=name, check=True)
        simulate(8, strategies=name)
    simulate_games(2, strategies="lowest", target=200)
    play_with_log(0, 0)
    click.echo(f"kernels compiled and cached in {time.perf_counter() - t0:.1f} s")


@main.command()
@click.argument("hand")
@click.option("--top", default=None, help="the trick's top combination (omit when leading)")
@click.option("--wish", default=None, help="the open wished rank (2..A)")
@click.option("--phoenix-on", default=None, help="rank under a lone Phoenix top (omit: led)")
def legal(hand, top, wish, phoenix_on):
    """List the legal plays of HAND (card notation) on TOP."""
    from . import cards, legal_plays
    from .rules import classify

    plays, can_pass = _guard(legal_plays, hand, top, wish=wish, phoenix_on=phoenix_on)
    for p in plays:
        c = classify(p)
        click.echo(f"{cards.format(p):<40} {c.kind} {c.rank:g}")
    click.echo(f"{len(plays)} plays; pass {'allowed' if can_pass else 'not allowed'}")


@main.command()
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@click.option("--round", "round_", default=0, show_default=True, type=click.IntRange(0))
@click.option("--strategies", default="random", show_default=True, help=STRATEGY_HELP)
def show(seed, round_, strategies):
    """Print one round move by move (a transcript)."""
    from .transcript import transcript

    click.echo(_guard(transcript, seed, round_, strategies=_strategies(strategies)), nl=False)


@main.command()
@click.option("--rounds", default=100_000, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@click.option("--strategies", default="random", show_default=True, help=STRATEGY_HELP)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="write rounds.parquet and seats.parquet into this directory")  # fmt: skip
@click.option("--check/--no-check", default=False, help="verify RULES.md §7 after every action")
def simulate(rounds, seed, strategies, out, check):
    """Play independent rounds and print a summary with 95% confidence intervals."""
    from .simulate import SimulationError
    from .simulate import simulate as run
    from .summary import summarize

    if out is not None and out.exists():
        if not out.is_dir():
            raise UserError(f"output path {out} is not a directory")
        foreign = sorted(p.name for p in out.iterdir() if p.name not in TABLE_FILES)
        if foreign:
            raise UserError(f"output directory {out} holds other files ({foreign[0]}, ...)")
    t0 = time.perf_counter()
    try:
        r, s = _guard(run, rounds, seed=seed, strategies=_strategies(strategies), check=check)
    except SimulationError as exc:
        raise UserError(str(exc)) from None
    elapsed = time.perf_counter() - t0
    click.echo(summarize(r, s))
    click.echo(f"{rounds} rounds in {elapsed:.2f} s ({rounds / elapsed:,.0f} rounds/s)")
    if out is not None:
        from .io import write_tables

        try:
            write_tables(r, s, out)
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
        click.echo(f"tables written to {out}/")


class _OneLineErrors(click.Command):
    """Bad options are one line with exit status 2, like every other error of the command."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None


@main.command(cls=_OneLineErrors)
@click.argument("config", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--rounds", type=click.IntRange(1), help="play this many independent rounds")
@click.option("--games", type=click.IntRange(1), help="play this many games to the target")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), help="override the config's seed")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="run directory (default: the config's out)")  # fmt: skip
@click.option("--workers", type=click.IntRange(1),
              help="local worker processes (default: one per core; 1 = this process, "
                   "numba threads on every core)")
@click.option("--dask", "dask_address", metavar="ADDRESS|local",
              help="send shards to a Dask scheduler (tcp://host:port) or a new LocalCluster")
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, path_type=Path),
              help="finish the stopped run in this directory")  # fmt: skip
@click.option("--quiet", is_flag=True, help="no progress bar and no summary")
def run(config, rounds, games, seed, out, workers, dask_address, resume_dir, quiet):
    """Play the batch run described by CONFIG (TOML) into a run directory of Parquet shards.

    Data depend only on the config: any --workers, local or Dask, and a resumed run give the
    same bytes. Stop it any way and finish it with --resume DIR.
    """
    from .config import ConfigError, load_config
    from .manifest import RunDirError
    from .runner import RunError, RunInterrupted, resume, run
    from .simulate import SimulationError

    def note(message):
        if not quiet:
            click.echo(f"tichusim: {message}", err=True)

    if resume_dir is not None:
        given = [n for n, v in [("CONFIG", config), ("--rounds", rounds), ("--games", games),
                                ("--seed", seed), ("--out", out)] if v is not None]  # fmt: skip
        if given:
            raise UserError(f"--resume: a run resumes as configured; drop {', '.join(given)}")
    elif config is None:
        raise UserError("config: give a CONFIG file (see configs/) or --resume DIR")
    if rounds is not None and games is not None:
        raise UserError("--rounds and --games: give one (it sets the mode)")
    target = resume_dir
    try:
        if resume_dir is not None:
            summary = resume(resume_dir, workers=workers, dask=dask_address, progress=not quiet,
                             log=note)  # fmt: skip
        else:
            cfg = load_config(config).with_overrides(rounds=rounds, games=games, seed=seed)
            target = Path(out or cfg.out or ".")
            summary = run(cfg, out=out, workers=workers, dask=dask_address, progress=not quiet,
                          log=note)  # fmt: skip
    except (ConfigError, RunDirError, RunError, SimulationError) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write {exc.filename or target}: {exc.strerror or exc}") from None
    except RunInterrupted as exc:
        click.echo(f"\ntichusim: {exc}; resume with: tichusim run --resume {exc.run_dir}",
                   err=True)  # fmt: skip
        sys.exit(130)
    if not quiet:
        what = f"{summary.count:,} {summary.mode}"
        if summary.mode == "games":
            what += f" ({summary.rounds:,} rounds)"
        rate = summary.rounds_played / summary.seconds
        click.echo(f"{what} in {summary.run_dir}/ ({summary.played} shards played in "
                   f"{summary.seconds:.1f} s, {rate:,.0f} rounds/s, {summary.backend})")  # fmt: skip


@main.command("strategies")
def strategies_cmd():
    """List the named strategies, every policy of each decision, and every parameter."""
    from .strategies import DECISIONS, PARAMS, POLICIES, STRATEGIES

    click.echo("Named strategies (use one name, or a table with base = NAME to change parts):")
    for s in STRATEGIES.values():
        parts = ", ".join(f"{d}={s.policy(d)}" for d in DECISIONS)
        click.echo(f"  {s.name:<10} {s.description}\n  {'':<10} ({parts})")
    for decision in DECISIONS:
        click.echo(f"\nPolicies for {decision}:")
        for name, (_, doc) in POLICIES[decision].items():
            click.echo(f"  {name:<16} {doc}")
    click.echo("\nParameters (name, default, range: meaning):")
    for name, p in PARAMS.items():
        click.echo(f"  {name:<18} {p.default:<6g} [{p.low:g}, {p.high:g}]  ({p.decision}) {p.doc}")


@main.command("strategies")
def strategies_cmd():
    """List the named strategies, every policy of each decision, and every parameter."""
    from .strategies import DECISIONS, PARAMS, POLICIES, STRATEGIES

    click.echo("Named strategies (use one name, or a table with base = NAME to change parts):")
    for s in STRATEGIES.values():
        parts = ", ".join(f"{d}={s.policy(d)}" for d in DECISIONS)
        click.echo(f"  {s.name:<10} {s.description}\n  {'':<10} ({parts})")
    for decision in DECISIONS:
        click.echo(f"\nPolicies for {decision}:")
        for name, (_, doc) in POLICIES[decision].items():
            click.echo(f"  {name:<16} {doc}")
    click.echo("\nParameters (name, default, range: meaning):")
    for name, p in PARAMS.items():
        click.echo(f"  {name:<18} {p.default:<6g} [{p.low:g}, {p.high:g}]  ({p.decision}) {p.doc}")


if __name__ == "__main__":
    sys.exit(main())
