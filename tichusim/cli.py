"""The ``tichusim`` command: thin click commands over the library functions."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from . import __version__
from .games import DEFAULT_GAME, GAMES, TEAM_GAMES, game, game_type
from .games.errors import BadInput, guard, one_line
from .kernels.seigneur import rules as gs_rules
from .kernels.tichu import rules as team_rules
from .progress import Progress
from .strategies import ANSWER_STRATEGY

TABLE_FILES = {"rounds.parquet", "seats.parquet"}  # what `simulate --out` writes (and may replace)
STRATEGY_HELP = (
    "one strategy for every seat, or four separated by commas (seat 0..3); each a name, "
    "base:key=value,... or base[key=value,...], a .toml file, search:key=value,..., or "
    "agent:package.module:Class / agent:path/file.py:Class (a tichusim.Agent subclass; "
    "docs/strategies.md#strategy-arguments)"
)


class UserError(click.ClickException):
    exit_code = 2

    def show(self, file=None):  # one line, no traceback (a newline in a value is escaped)
        click.echo(f"tichusim: error: {one_line(self.format_message())}", err=True)


class PlayError(UserError):
    """A Python agent failed while playing (it raised, or answered outside the legal
    choices): the input was fine, the play was not, so exit status 1."""

    exit_code = 1


class _OneLineErrors(click.Command):
    """Bad options are one line with exit status 2, like every other error of the command."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None


class _Main(click.Group):
    """Every command's usage errors (and an unknown command) as one line, exit status 2."""

    command_class = _OneLineErrors

    def parse_args(self, ctx, args):
        if not args:  # bare `tichusim`: click's help, as usual
            return super().parse_args(ctx, args)
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            raise UserError(exc.format_message()) from None

    def invoke(self, ctx):
        """The command, with the compile notice's switch as it was restored after it, however
        it ends: a ``--quiet`` parsed before another option's error turns it off too."""
        from ._compile.notice import compile_notices, notices_on

        with compile_notices(notices_on()):
            return super().invoke(ctx)


def _strategies(text: str, book=None):
    """``--strategies`` text in a game whose strategies are ``book`` (default: the team
    games'): one, or one per player separated by commas."""
    from .games.strategy_text import strategy_specs  # loads the strategies' kernels: not at startup

    return strategy_specs(text, game(DEFAULT_GAME).strategy_book if book is None else book)


def _guard(fn, *args, **kwargs):
    """Bad input (``ValueError``, an agent that cannot be loaded) exits 2; an agent failing
    during play exits 1: one line each (``games.errors.guard``, which the server shares)."""
    try:
        return guard(fn, *args, **kwargs)
    except BadInput as exc:
        raise (PlayError if exc.exit_code == PlayError.exit_code else UserError)(str(exc)) from None


def _check_strategies(table, chosen) -> None:
    """Refuse bad strategies (names, tables, agents that cannot be imported) before any
    compile."""
    from .games.steps import seated

    _guard(seated, table, chosen)


def _quiet(context, parameter, quiet: bool) -> bool:
    """``--quiet``: no compile notice either (``tichusim.compile_notices``)."""
    if quiet:  # ``_Main.invoke`` restores the switch after the command
        from ._compile.notice import compile_notices

        compile_notices(False)
    return quiet


@click.group(cls=_Main)
@click.version_option(__version__, prog_name="tichusim")
def main():
    """Monte Carlo simulation of Tichu (the rules as implemented: RULES.md)."""
    from ._compile import frame_stack

    frame_stack.install()  # this process is ours alone: see docs/compile.md
    _renamed_policies_in_one_line()


# the warnings a command says in one line: (module, class)
ONE_LINE = (
    ("tichusim.strategies.book", "RenamedPolicyWarning"),
    ("tichusim.strategies.learned", "OtherTableWarning"),
)


def _renamed_policies_in_one_line() -> None:
    """A policy named by its old name (``RenamedPolicyWarning``) or a network played at
    another table than its own (``OtherTableWarning``) is said on stderr in one line, like the
    command's errors; other warnings show as Python shows them."""
    import warnings

    shown = warnings.showwarning
    if getattr(shown, "one_line", False):  # installed by an earlier command in this process
        return

    said: set[str] = set()  # once each: a strategy is resolved more than once a command

    def one_line(category) -> bool:
        # looked up only among the modules loaded: a warning's module is loaded by the time
        # it warns, and importing strategies.learned here would load numba and compile
        # kernels before every command, even one that plays nothing
        kinds = (getattr(sys.modules.get(module), name, None) for module, name in ONE_LINE)
        return any(kind is not None and issubclass(category, kind) for kind in kinds)

    def show(message, category, filename, lineno, file=None, line=None):
        if one_line(category):
            if str(message) not in said:
                said.add(str(message))
                click.echo(f"tichusim: warning: {message}", err=True)
        else:
            shown(message, category, filename, lineno, file, line)

    show.one_line = True  # type: ignore[attr-defined]
    warnings.showwarning = show


@main.command(cls=_OneLineErrors)
@click.option(
    "--jobs",
    type=click.IntRange(1),
    default=None,
    help="compile the engines (one per team game, and Grand Seigneur's) in this "
    "many processes at once [default: 2 on a machine with 2 cores or more]",
)
@click.option("--host", is_flag=True, help="compile for this CPU, not load the kernel pack's")
def warmup(jobs, host):
    """Compile and cache every kernel once (run after installing): one line per kernel
    family, with the seconds it took (a family already cached loads in a second or so)."""
    from .warmup import DEFAULT_JOBS
    from .warmup import warmup as compile_all

    jobs = jobs or DEFAULT_JOBS
    click.echo(f"tichusim: compiling every kernel family, {jobs} at a time", err=True)

    def report(name, what, seconds):
        click.echo(f"  {name:<9} {seconds:6.1f} s  {what}", err=True)

    seconds = compile_all(jobs, report, host)
    click.echo(f"kernels compiled and cached in {seconds:.1f} s")


@main.command()
@click.argument("hand")
@click.option("--top", default=None, help="the trick's top combination (omit when leading)")
@click.option("--wish", default=None, help="the open wished rank (2..A)")
@click.option("--phoenix-on", default=None, help="rank under a lone Phoenix top (omit: led)")
@click.option(
    "--phoenix-led-half",
    is_flag=True,
    help="a led Phoenix is worth 1/2, not 1 1/2 (RULES.md §2.6 Option)",
)
def legal(hand, top, wish, phoenix_on, phoenix_led_half):
    """List the legal plays of HAND (card notation) on TOP."""
    from . import cards, legal_plays

    plays, can_pass = _guard(
        legal_plays, hand, top, wish=wish, phoenix_on=phoenix_on, phoenix_led_half=phoenix_led_half
    )
    for p in plays:
        click.echo(f"{cards.format(p):<40} {p.combo.kind} {p.combo.rank:g}")
    click.echo(f"{len(plays)} plays; pass {'allowed' if can_pass else 'not allowed'}")


VARIANT_HELP = (
    "the table: nanjing (4 players), tientsin (6: give 6 strategies or one), "
    "wuwang (3 players and the Minister: give 3 or one), grand-seigneur (5-12 "
    "players: --players)"
)
_VARIANT = click.Choice(list(GAMES))
PLAYERS_HELP = "grand-seigneur: the number of players, 5..12 (RULES.md §5)"


def _players(variant: str, players: int | None) -> None:
    if game_type(variant).takes_players and players is None:
        raise UserError(f"--variant {variant} needs --players (5..12)")
    if not game_type(variant).takes_players and players is not None:
        raise UserError(f"--players applies to grand-seigneur only ({variant} has a fixed table)")


def _options(pairs: tuple[str, ...]) -> dict | None:
    """``--option key=value`` pairs as a table; values read as TOML (true, 12, ...)."""
    import tomllib

    options = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise UserError(f"--option {pair!r}: expected key=value (e.g. game_rounds=12)")
        try:
            options[key.strip()] = tomllib.loads(f"v = {value.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            options[key.strip()] = value.strip()
    return options or None


# the options named from the rules records (numpy alone: the help loads no game)
OPTION_HELP = (
    "a rules option of the variant, KEY=VALUE, repeatable (nanjing, tientsin, "
    f"wuwang: {', '.join(team_rules.EVERY_TABLE)}; wuwang games: "
    f"{', '.join(team_rules.WUWANG_GAMES)}, game_rounds; grand-seigneur: decks, russian_deck, "
    f"{', '.join(gs_rules.OPTIONS)}, game_rounds)"
)
# the team games' options (the odds commands, compare)
TEAM_OPTION_HELP = (
    "a rules option, KEY=VALUE, repeatable (e.g. " + f"{team_rules.EVERY_TABLE[0]}=true)"
)


@main.command()
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@click.option("--round", "round_", default=0, show_default=True, type=click.IntRange(0))
@click.option(
    "--game",
    "game_no",
    type=click.IntRange(0),
    default=None,
    help="grand-seigneur: show round --round of this game (its earlier rounds are "
    "played for the ranks); without it, the first round of game --round",
)
@click.option("--strategies", default="random", show_default=True, help=STRATEGY_HELP)
@click.option(
    "--variant", default=DEFAULT_GAME, show_default=True, type=_VARIANT, help=VARIANT_HELP
)
@click.option("--players", type=click.IntRange(5, 12), default=None, help=PLAYERS_HELP)
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP)
def show(seed, round_, game_no, strategies, variant, players, option_pairs):
    """Print one round move by move (a transcript)."""
    from .games.base import GAME_OPTIONS

    _players(variant, players)
    given = _options(option_pairs) or {}
    played = _guard(game, variant, players, given)
    chosen = _guard(_strategies, strategies, played.strategy_book)
    _check_strategies(played, chosen)  # bad input is refused before any compile
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
    text = _guard(played.transcript, seed, round_, game=game_no, strategies=chosen)
    click.echo(text, nl=False)


@main.command()
@click.option("--rounds", default=100_000, show_default=True, type=click.IntRange(1))
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@click.option("--strategies", default="random", show_default=True, help=STRATEGY_HELP)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="write rounds.parquet and seats.parquet into this directory",
)
@click.option("--check/--no-check", default=False, help="verify RULES.md §7 after every action")
@click.option(
    "--variant", default=DEFAULT_GAME, show_default=True, type=_VARIANT, help=VARIANT_HELP
)
@click.option("--players", type=click.IntRange(5, 12), default=None, help=PLAYERS_HELP)
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP)
def simulate(rounds, seed, strategies, out, check, variant, players, option_pairs):
    """Play independent rounds and print a summary with 95% confidence intervals."""
    from .analysis.summary import summary
    from .games import SimulationError
    from .games.arrow import tables as table_of
    from .runs import parquet

    _players(variant, players)
    if out is not None and out.exists():
        if not out.is_dir():
            raise UserError(f"output path {out} is not a directory")
        foreign = sorted(p.name for p in out.iterdir() if p.name not in TABLE_FILES)
        if foreign:
            raise UserError(f"output directory {out} holds other files ({foreign[0]}, ...)")
    try:
        played = _guard(game, variant, players, _options(option_pairs))
        chosen = _guard(_strategies, strategies, played.strategy_book)
        _check_strategies(played, chosen)  # bad input is refused before any compile
        # before the clock: the rate counts play only, not a compile
        _guard(played.records, 1, seed=seed, check=check, strategies=chosen)
        t0 = time.perf_counter()
        rec = _guard(played.records, rounds, seed=seed, check=check, strategies=chosen)
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


@main.command(cls=_OneLineErrors)
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
@click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS|local",
    help="send shards to a Dask scheduler (tcp://host:port) or a new LocalCluster",
)
@click.option(
    "--resume",
    "resume_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="finish the stopped run in this directory",
)
@click.option(
    "--accept-changed-agents",
    is_flag=True,
    help="continue a run although a Python agent's source file changed since the run "
    "started (refused otherwise: the finished shards were played by the old "
    "source); the manifest records the new sha256 and keeps the old one",
)
@click.option(
    "--quiet",
    is_flag=True,
    callback=_quiet,
    help="no compile notice, no progress bar and no summary",
)
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
    from .games import SimulationError
    from .games.agents import AgentError
    from .runs.config import ConfigError, load_config
    from .runs.manifest import RunDirError
    from .runs.runner import RunError, RunInterrupted, resume, run

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


@main.command("strategies")
@click.option(
    "--variant",
    default=None,
    type=_VARIANT,
    help="only the strategies of this game (grand-seigneur has its own)",
)
def strategies_cmd(variant):
    """List the named strategies, every policy of each decision, and every parameter: Tichu's
    (every team game) and Grand Seigneur's."""
    from .strategies.book import policy_of

    kinds = [game_type(name) for name in ([variant] if variant else GAMES)]
    families = {k.strategy_heading: k.strategy_book for k in kinds}  # one per family
    for i, (heading, book) in enumerate(families.items()):
        click.echo(("\n" if i else "") + f"== {heading}")
        click.echo(
            f"Named strategies (the default: {book.default}; use one name, or a table "
            "with base = NAME to change parts):"
        )
        if ANSWER_STRATEGY in book.strategies:
            click.echo(
                f"(the answers, gt-odds, tichu-odds, pass-advice, gt-table and advise's "
                f"rollouts, seat {ANSWER_STRATEGY} by default)"
            )
        for s in book.strategies.values():
            parts = ", ".join(f"{d}={policy_of(s, d)}" for d in book.decisions)
            click.echo(f"  {s.name:<10} {s.description}\n  {'':<10} ({parts})")
            if s.params:  # tuned values that differ from the defaults below
                tuned = ", ".join(f"{k}={v:g}" for k, v in s.params)
                click.echo(f"  {'':<10} (parameters: {tuned})")
        for decision in book.decisions:
            click.echo(f"\nPolicies for {decision}:")
            for name, (_, doc) in book.policies[decision].items():
                click.echo(f"  {name:<16} {doc}")
            for old, (new, _) in book.renamed.get(decision, {}).items():
                click.echo(f"  {old:<16} the old name of {new}, accepted until the next release")
        click.echo("\nParameters (name, default, range: meaning):")
        for name, p in book.params.items():
            click.echo(
                f"  {name:<18} {p.default:<6g} [{p.low:g}, {p.high:g}]  ({p.decision}) {p.doc}"
            )


# ---- answers: Grand Tichu odds, strategy comparisons, run reports --------------------------------


def _strategy_option(text: str, count: tuple[int, ...], what: str):
    """``--seat-strategy`` / ``--others``: ``count`` strategies (``games.strategy_text`` form)."""
    from .games.strategy_text import parse_strategy_count

    return _guard(parse_strategy_count, text, count, what)


SPEC_HELP = (
    "a name, base:key=value,... or base[key=value,...], a .toml file, search:key=value,..., "
    "or agent:module:Class / agent:file.py:Class (docs/strategies.md#strategy-arguments)"
)


_TEAM_GAME = click.Choice(TEAM_GAMES)
ODDS_OTHERS_HELP = (
    "one strategy for the other players, or one each in turn order from the "
    "next player (nanjing: right opponent, partner, left opponent)"
)


def _odds_options(
    strategies: tuple[str, str], variant: str, option_pairs
) -> tuple[object, object, dict | None]:
    """``--seat-strategy``, ``--others`` and ``--option`` of the odds commands, checked."""
    players = game_type(variant).players
    rest = _strategy_option(strategies[1], (1, players - 1), "--others")
    me = _strategy_option(strategies[0], (1,), "--seat-strategy")
    options = _options(option_pairs)
    _guard(game, variant, None, options)
    return me, rest, options


def _seat_and_others(seat_help: str, others_help: str = ODDS_OTHERS_HELP):
    """``--seat-strategy`` (the hand's, ``seat_help``) and ``--others``, both the default
    strategy unless given: the paired experiments' players."""

    def decorate(fn):
        fn = click.option("--others", default=ANSWER_STRATEGY, show_default=True, help=others_help)(
            fn
        )
        return click.option(
            "--seat-strategy",
            default=ANSWER_STRATEGY,
            show_default=True,
            help=f"{seat_help} ({SPEC_HELP})",
        )(fn)

    return decorate


def _odds_run(fn):
    """The odds commands' --rounds, --precision and --seed."""
    for option in reversed(
        (
            click.option(
                "--rounds",
                "deals",
                default=100_000,
                show_default=True,
                type=click.IntRange(1),
                help="most deals to play (each is played twice: with and without the call)",
            ),
            click.option(
                "--precision",
                type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
                default=None,
                help="stop once P(success) is known to +/- this (0.01 = 1 point)",
            ),
            click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1)),
        )
    ):
        fn = option(fn)
    return fn


def _odds_table(fn):
    """The odds commands' --variant, --option, --json and --quiet."""
    for option in reversed(
        (
            click.option(
                "--variant",
                default="nanjing",
                show_default=True,
                type=_TEAM_GAME,
                help="the game (wuwang: the hand is an opponent's, RULES.md §4)",
            ),
            click.option(
                "--option",
                "option_pairs",
                multiple=True,
                metavar="KEY=VALUE",
                help=TEAM_OPTION_HELP,
            ),
            click.option("--json", "as_json", is_flag=True, help="print one JSON object"),
            click.option(
                "--quiet", is_flag=True, callback=_quiet, help="no compile notice, no progress bar"
            ),
        )
    ):
        fn = option(fn)
    return fn


def _answer_odds(ask, deals: int, as_json: bool, quiet: bool, **kwargs) -> None:
    """Run an odds analysis (``ask(deals=..., progress=..., **kwargs)``) behind a progress
    bar, and print its answer (``--json``: one object)."""
    import json

    # the bar appears when play starts (``progress(0, ...)``), after any compile and its notice
    with Progress(deals, "deal", enabled=not (quiet or as_json), at_first_update=True) as bar:

        def progress(done, total, p):
            bar.to(
                done,
                None if p is None else f"P(success) {p.value:.3f} +/- {(p.high - p.low) / 2:.3f}",
            )

        result = _guard(ask, deals=deals, progress=progress, **kwargs)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(str(result))
        click.echo(
            f"{result.deals:,} deals ({2 * result.deals:,} rounds) in {result.seconds:.2f} s"
        )


@main.command("gt-odds", cls=_OneLineErrors)
@click.option(
    "--hand",
    required=True,
    help='the first 8 cards (tientsin: 6), e.g. "Dr Ph A A K 9 5 3" (a rank alone: any suit)',
)
@_odds_run
@_seat_and_others("the hand's strategy, its Grand Tichu policy replaced")
@click.option(
    "--model",
    "model_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="answer at once from a fitted model (gt-table's model.json)",
)
@_odds_table
def gt_odds_cmd(
    hand,
    deals,
    precision,
    seed,
    seat_strategy,
    others,
    model_path,
    variant,
    option_pairs,
    as_json,
    quiet,
):
    """Should these 8 cards call Grand Tichu? Each deal is played with and without the call."""
    import json

    if model_path is not None:
        if variant != DEFAULT_GAME or option_pairs:
            raise UserError("--model answers for the 4-player game without options only")
        from .analysis.handclass import GTModel

        model = _guard(GTModel.load, model_path)
        answer = _guard(model.predict, hand)
        click.echo(json.dumps(answer) if as_json else model.describe(answer))
        return
    from .analysis.gtodds import check_hand, gt_odds

    me, rest, options = _odds_options((seat_strategy, others), variant, option_pairs)
    _guard(check_hand, hand, variant, options)  # before the progress bar
    _answer_odds(
        gt_odds,
        deals,
        as_json,
        quiet,
        hand=hand,
        precision=precision,
        seed=seed,
        seat_strategy=me,
        others=rest,
        variant=variant,
        options=options,
    )


@main.command("tichu-odds", cls=_OneLineErrors)
@click.option(
    "--hand",
    required=True,
    help='the cards held after the passing: 14 (tientsin: 10 or 9), e.g. "Dr Ph Aj '
    'As K K Q J T 9 7 5 3 2" (a rank alone: any suit)',
)
@click.option(
    "--received",
    default=None,
    help="the hand's cards received in the passing, one from each seat passing to "
    "it in turn order from the next player (nanjing: right opponent, partner, left "
    "opponent); default: drawn among the hand",
)
@click.option(
    "--played",
    type=click.IntRange(0, 56),
    default=None,
    help="call before the seat's first own turn once this many cards are played "
    "at the table (default: right after the passing)",
)
@_odds_run
@_seat_and_others("the hand's strategy, its Tichu call set by the experiment")
@_odds_table
def tichu_odds_cmd(
    hand,
    received,
    played,
    deals,
    precision,
    seed,
    seat_strategy,
    others,
    variant,
    option_pairs,
    as_json,
    quiet,
):
    """Should this hand call Tichu after the passing? Each deal is played with and without
    the call (RULES.md §2.3)."""
    from .analysis.tichuodds import check_hand, tichu_odds

    me, rest, options = _odds_options((seat_strategy, others), variant, option_pairs)
    _guard(check_hand, hand, received, variant, options)  # before the progress bar appears
    _answer_odds(
        tichu_odds,
        deals,
        as_json,
        quiet,
        hand=hand,
        precision=precision,
        seed=seed,
        seat_strategy=me,
        others=rest,
        received=received,
        played=played,
        variant=variant,
        options=options,
    )


# ---- pass-advice: the best passes for a 14-card hand ----------------------------------------


@main.command("pass-advice", cls=_OneLineErrors)
@click.option(
    "--hand",
    required=True,
    help='the 14 cards dealt, before the passing, each with its suit, e.g. "Dog Ma 2j 3s 5p '
    '7t 8j 9s Jp Qt Kj Ks Ph Dr"',
)
@click.option(
    "--candidate",
    "candidates",
    multiple=True,
    metavar="RIGHT,PARTNER,LEFT",
    help="a pass to rank too: the cards to the right opponent (the next player), the "
    "partner and the left opponent; repeatable",
)
@click.option("--only-given", is_flag=True, help="rank only the --candidate passes")
@click.option(
    "--rounds",
    "--deals",
    "deals",
    default=4_000,  # passadvice.DEALS (the library is imported when the command runs)
    show_default=True,
    type=click.IntRange(1),
    help="fresh deals the finalists play, after screening the field on fewer deals "
    "(successive halving); their figures are on these deals only",
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@click.option(
    "--seat-strategy",
    "--strategy",
    "seat_strategy",
    default=ANSWER_STRATEGY,
    show_default=True,
    help=f"the hand's strategy, its passes set by the experiment ({SPEC_HELP})",
)
@click.option("--others", default=ANSWER_STRATEGY, show_default=True, help=ODDS_OTHERS_HELP)
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--quiet", is_flag=True, callback=_quiet, help="no compile notice, no progress bar")
def pass_advice_cmd(
    hand, candidates, only_given, deals, seed, seat_strategy, others, as_json, quiet
):
    """Which three cards should this hand pass? Candidate passes ranked by paired simulation
    (RULES.md §2.4)."""
    import json

    from .analysis.passadvice import check_candidates, pass_advice

    me, rest, _ = _odds_options((seat_strategy, others), DEFAULT_GAME, ())
    _guard(check_candidates, hand, candidates)  # before the progress bar appears
    if only_given and not candidates:
        raise UserError("--only-given: give at least one --candidate")
    bars: list[Progress] = []  # the bar appears when play starts: the plan's rounds known

    def progress(done, total, leader):
        if not bars:
            bars.append(Progress(total, " rounds", enabled=not (quiet or as_json)))
        bars[0].to(done, leader)

    try:
        result = _guard(
            pass_advice,
            hand,
            deals=deals,
            seed=seed,
            strategy=me,
            others=rest,
            candidates=candidates,
            generated=not only_given,
            progress=progress,
        )
    finally:
        for bar in bars:
            bar.close()
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(str(result))
        click.echo(f"{result.rounds:,} rounds in {result.seconds:.2f} s")


@main.command("gt-table", cls=_OneLineErrors)
@click.option(
    "--run",
    "run_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="analyse the Grand Tichu calls in this run's seats table (observational) "
    "instead of running the paired experiment",
)
@click.option(
    "--deals",
    default=200_000,
    show_default=True,
    type=click.IntRange(1000),
    help="deals of the paired experiment (each played with and without the call)",
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@_seat_and_others("the calling seat's strategy", "one strategy for the other seats, or three")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="write table.md, by_class.csv, by_score.csv, gt_odds.png, model.json here",
)
@click.option("--quiet", is_flag=True, callback=_quiet, help="no compile notice, no progress bar")
def gt_table_cmd(run_dir, deals, seed, seat_strategy, others, out, quiet):
    """Grand Tichu success and value of calling by hand class, with a plot and a model."""
    from .analysis import gttable

    if run_dir is not None:
        from .runs.read import load

        data = _guard(
            load,
            run_dir,
            seats_columns=["round", "seat", "hand8", "grand_tichu", "finish", "points"],
        )
        calls = _guard(gttable.from_run, data.seats)
        if len(calls) == 0:
            raise UserError(f"{run_dir}: no Grand Tichu was called in this run")
        table = gttable.build(calls, source="run", info={"run": str(run_dir)}, fit=False)
        command = f"tichusim gt-table --run {run_dir}"
    else:
        me = _strategy_option(seat_strategy, (1,), "--seat-strategy")
        rest = _strategy_option(others, (1, 3), "--others")
        with Progress(deals, "deal", enabled=not quiet, at_first_update=True) as bar:
            table = _guard(
                gttable.run_experiment,
                deals,
                seed=seed,
                seat_strategy=me,
                others=rest,
                progress=lambda done, total: bar.to(done),
            )
        command = (
            f"tichusim gt-table --deals {deals} --seed {seed} --seat-strategy "
            f"'{seat_strategy}' --others '{others}'"
        )
    if out is not None:
        command += f" --out {out}"
    text = gttable.markdown(table, command)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        paths = gttable.write(table, out, command)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(text, nl=False)
    click.echo(f"written: {', '.join(str(p) for p in paths)}")


@main.command("advise", cls=_OneLineErrors)
@click.argument("position_file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--hand", help='the seat\'s cards, e.g. "Dr Ph Aj As Kj 9j 9s"')
@click.option("--seat", type=int, help="the seat to advise, 0..3 (Tientsin 0..5; default 0)")
@click.option(
    "--played",
    multiple=True,
    metavar="SEAT=CARDS",
    help="cards a seat played in the tricks before this one (repeatable)",
)
@click.option(
    "--trick",
    metavar="'SEAT: CARDS; SEAT: pass; ...'",
    help="the trick in play, in order (none: the seat leads)",
)
@click.option("--tichu", metavar="SEATS", help="seats that called Tichu, e.g. 1,2")
@click.option("--grand-tichu", metavar="SEATS", help="seats that called Grand Tichu")
@click.option("--wish", metavar="RANK", help="the open wished rank (§2.11)")
@click.option("--out", "out_", metavar="SEATS", help="seats already out, in order")
@click.option(
    "--taken",
    multiple=True,
    metavar="SEAT=POINTS",
    help="card points in a seat's won tricks (repeatable)",
)
@click.option(
    "--gave",
    multiple=True,
    metavar="SEAT=CARD",
    help="the card the seat passed to SEAT (repeatable)",
)
@click.option(
    "--received",
    multiple=True,
    metavar="SEAT=CARD",
    help="the card the seat received from SEAT (repeatable)",
)
@click.option(
    "--samples",
    default=2000,
    show_default=True,
    type=click.IntRange(2),
    help="deals of the unseen cards, each played out once per play",
)
@click.option(
    "--candidates",
    default=40,
    show_default=True,
    type=click.IntRange(1),
    help="the most plays scored (pruned as the search strategy prunes)",
)
@click.option(
    "--rollout",
    default=ANSWER_STRATEGY,
    show_default=True,
    help="the scripted strategy playing every seat after the play",
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0))
@click.option("--json", "as_json", is_flag=True, help="one JSON object")
def advise_cmd(
    position_file,
    hand,
    seat,
    played,
    trick,
    tichu,
    grand_tichu,
    wish,
    out_,
    taken,
    gave,
    received,
    samples,
    candidates,
    rollout,
    seed,
    as_json,
):
    """Rank every legal play of a seat in a position in a team game by simulation.

    The position comes from POSITION_FILE (TOML: hand, seat, played, trick, tichu,
    grand_tichu, wish, out, taken, gave, received; variant, first_drawer, minister, king;
    docs/analyses.md) and/or the flags, which override the file's keys.
    """
    import json
    import tomllib

    from .analysis.advise import advise
    from .games.position import Position

    data: dict = {}
    if position_file is not None:
        try:
            data = tomllib.loads(position_file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UserError(f"cannot read {position_file}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{position_file}: not TOML: {exc}") from None
    flags = {
        "hand": hand,
        "seat": seat,
        "played": list(played) or None,
        "trick": trick,
        "tichu": tichu,
        "grand_tichu": grand_tichu,
        "wish": wish,
        "out": out_,
        "taken": list(taken) or None,
        "gave": list(gave) or None,
        "received": list(received) or None,
    }
    data.update({k: v for k, v in flags.items() if v is not None})
    position = _guard(Position.parse, data)
    result = _guard(advise, position, samples, candidates=candidates, rollout=rollout, seed=seed)
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(str(result))
        click.echo(
            f"({result.samples:,} deals x {len(result.ranked)} plays in {result.seconds:.2f} s)"
        )


@main.command(cls=_OneLineErrors)
@click.argument("strategies", nargs=-1, required=True)
@click.option(
    "--deals",
    default=20_000,
    show_default=True,
    type=click.IntRange(1),
    help="deals per match (each played twice, teams swapped)",
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0, 2**64 - 1))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="also write the result as Markdown to this file",
)
@click.option(
    "--variant",
    default=DEFAULT_GAME,
    show_default=True,
    type=_VARIANT,
    help="the table: the two games with two teams to swap (tientsin: 3 seats each)",
)
@click.option(
    "--option",
    "option_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help=TEAM_OPTION_HELP,
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="processes playing the deals (split by index, merged in order: the same figures "
    "for any number)",
)
@click.option("--check/--no-check", default=False, help="verify RULES.md §7 after every action")
@click.option("--quiet", is_flag=True, callback=_quiet, help="no compile notice, no progress bar")
def compare(strategies, deals, seed, out, variant, option_pairs, workers, check, quiet):
    """Duplicate matches between STRATEGIES (two: a match; more: a round-robin league).

    Each STRATEGY is a name, base:key=value,... (e.g. heuristic:pass=lowest) or
    base[key=value,...] as the tables print it, a .toml file, search:key=value,..., or a
    strategy written in Python: agent:package.module:Class or agent:path/file.py:Class, with
    its parameters as agent:path/file.py:Class:key=value,... (docs/agents.md). A match
    shows its running margin; Ctrl-C prints the figures of the deals played so far, marked
    partial, and exits with status 130.
    """
    from .analysis.duplicate import Interrupted, duplicate, league, markdown_report
    from .games.agents import agent_name
    from .games.strategy_text import parse_strategy

    if not game_type(variant).duplicate_seatings:
        swap = ", ".join(n for n in GAMES if game_type(n).duplicate_seatings)
        raise UserError(
            f"--variant {variant}: compare exchanges the strategies' seats, and "
            f"{game_type(variant).no_swap}; choose one of {swap}"
        )
    options = _options(option_pairs)
    _guard(game, variant, None, options)
    found = [_guard(parse_strategy, s) for s in strategies]
    if len(found) < 2:
        raise UserError("compare: give at least two strategies")
    names = [_guard(agent_name, s) if isinstance(s, dict) else s.name for s in found]
    if len(set(names)) != len(names):
        raise UserError(
            f"compare: strategies need different names ({', '.join(names)}); "
            "add name=... to tell them apart"
        )
    command = _compare_command(strategies, deals, seed, variant, option_pairs, check, out)
    common = {"seed": seed, "check": check, "variant": variant, "options": options}
    try:
        if len(found) == 2:
            margin = f"{names[0]} - {names[1]}"
            with Progress(deals, "deal", enabled=not quiet, at_first_update=True) as bar:
                result = _guard(
                    duplicate,
                    found[0],
                    found[1],
                    deals,
                    workers=workers,
                    progress=lambda done, total, e: bar.to(done, f"{margin} {e.pts()}"),
                    **common,
                )
        else:
            matches = len(found) * (len(found) - 1) // 2
            with Progress(matches, "match", enabled=not quiet, at_first_update=True) as bar:
                result = _guard(
                    league,
                    found,
                    deals,
                    workers=workers,
                    progress=lambda done, total: bar.to(done),
                    **common,
                )
    except Interrupted as stop:
        _interrupted(stop, command, markdown_report)
    except KeyboardInterrupt:  # before any deal was played (while compiling, say)
        _interrupted(Interrupted(None), command, markdown_report)
    text = markdown_report(result, command)
    click.echo(text, nl=False)
    click.echo(f"({result.seconds:.1f} s of play)")
    if out is not None:
        try:
            out.write_text(text)
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None


def _compare_command(strategies, deals, seed, variant, option_pairs, check, out) -> str:
    """The ``tichusim compare`` command that gives this report again (its ``Regenerate``
    line): strategies with a space, comma, semicolon or bracket quoted."""
    quoted = " ".join(f"'{s}'" if any(c in s for c in " ,;[]") else s for s in strategies)
    command = f"tichusim compare {quoted} --deals {deals} --seed {seed}"
    if variant != DEFAULT_GAME:
        command += f" --variant {variant}"
    for pair in option_pairs:
        command += f" --option {pair}"
    if check:
        command += " --check"
    if out is not None:
        command += f" --out {out}"
    return command


def _interrupted(stop, command: str, markdown_report) -> None:
    """Ctrl-C in ``compare``: the matches finished and the deals played so far, marked
    partial (nothing is written to ``--out``), then exit status 130 as a shell gives."""
    for match in stop.matches:  # a league's finished matches
        click.echo(markdown_report(match, command))
    if stop.result is not None:
        click.echo(markdown_report(stop.result, command), nl=False)
    played = stop.result.deals if stop.result is not None else 0
    click.echo(
        f"tichusim: interrupted: partial figures ({played:,} deals of the match under way"
        f"{f', {len(stop.matches)} match(es) finished' if stop.matches else ''}); "
        "--out not written",
        err=True,
    )
    sys.exit(130)


@main.command(cls=_OneLineErrors)
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, callback=_quiet, help="no compile notice, no progress bar")
def learn(config, quiet):
    """Learn a player as CONFIG (TOML) says: generate the labelled decisions, train the value
    network on them, write its weights file; with [selfplay], then let that network play and
    label rounds of its own and train a new one on both data sets (docs/learn.md). With
    decision = "pass" (configs/learn-pass.toml), the learned passing's network instead: each
    candidate pass of a hand played out on paired deals, then trained on those labels.

    Run it again after a stop: finished data shards are kept and the training goes on from its
    last checkpoint. Needs the learn extra (pip install -e '.[learn]')."""
    from .learn.config import ConfigError, load_learn_config

    try:
        cfg = load_learn_config(config)
        if cfg.decision == "pass":
            cfg.pass_settings()
        else:
            cfg.data_settings()  # checked by the data generator, before torch is looked for
            cfg.selfplay_settings()  # and the self-play round's, with the package's network
        cfg.check_league()  # the judge of a network copied to [output] weights
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    try:
        if cfg.decision == "pass":
            from .learn.passtrain import learn_pass

            run_learning: Any = learn_pass
        else:
            from .learn.train import learn

            run_learning = learn
    except ModuleNotFoundError as exc:
        if exc.name != "torch":
            raise
        raise UserError(
            "learn: torch is not installed; install the learn extra: pip install -e '.[learn]'"
        ) from None

    def note(message):
        if not quiet:
            click.echo(f"tichusim: {message}", err=True)

    try:
        from .analysis.duplicate import duplicate  # the league's matches (learn.league)

        trained = _guard(run_learning, cfg, progress=not quiet, log=note, play=duplicate)
    except OSError as exc:
        raise UserError(
            f"cannot write {exc.filename or cfg.out_dir}: {exc.strerror or exc}"
        ) from None
    except KeyboardInterrupt:
        click.echo(
            f"\ntichusim: interrupted; run `tichusim learn {config}` again to go on", err=True
        )
        sys.exit(130)
    last = trained.epochs[-1] if trained.epochs else {}
    if trained.verdict is not None:
        click.echo(
            f"league ({trained.files['league']}): the network "
            f"{trained.verdict.line()}"
            + ("" if trained.verdict.ships else f"; {cfg.output.weights} left as it was")
        )
    where = ", ".join(str(p) for k, p in trained.files.items() if k in ("weights", "copy"))
    if cfg.decision == "pass":
        click.echo(
            f"pass network written: {where} (held-out gain over expert's pass "
            f"{last.get('validation_gain', float('nan')):+.2f} points a round on the labels' "
            "deals)"
        )
        return
    scores = {k: last.get(k, float("nan")) for k in ("regret", "behaviour_regret", "top1")}
    click.echo(
        f"weights written: {where} ({trained.steps:,} steps, {trained.seconds:.0f} s; held-out "
        f"regret {scores['regret']:.2f} points a decision, the behaviour's "
        f"{scores['behaviour_regret']:.2f}; top-1 {scores['top1']:.3f})"
    )


@main.command("report", cls=_OneLineErrors)
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
def report_cmd(run_dir):
    """Write report.md and report/*.png (scores, call success, finishing positions) into
    RUN_DIR (a `tichusim run` directory or a `simulate --out` folder)."""
    from .analysis.report import report

    try:
        path = _guard(report, run_dir)
    except OSError as exc:
        raise UserError(f"cannot write the report into {run_dir}: {exc.strerror or exc}") from None
    click.echo(f"report written: {path} (figures in {path.parent / 'report'}/)")


@main.command("verify", cls=_OneLineErrors)
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
def verify_cmd(run_dir):
    """Check every finished shard of RUN_DIR against the manifest (size, sha256, rows).

    One line per damaged or missing file on stderr and exit status 1; exit 0 when clean."""
    from .runs.verify import verify

    result = _guard(verify, run_dir)
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


@main.command("serve", cls=_OneLineErrors)
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
@click.option("--quiet", is_flag=True, callback=_quiet, help="no compile notice")
def serve_cmd(host, port, workers, queue, max_deals, table_deals, quiet):
    """A local page where a player picks cards and reads the odds, and its JSON API
    (docs/serve.md; the web extra: pip install -e '.[web]'). Ctrl-C stops it."""
    import importlib.util

    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UserError(
            f"serve needs {' and '.join(missing)}, the web extra: pip install -e '.[web]'"
        )
    if 0 < table_deals < 1000:
        raise UserError(f"--table-deals: 0 or at least 1,000, not {table_deals:,}")
    from .web import serve
    from .web.answers import Limits

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
            on_ready=ready,
        )
    except OSError as exc:
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    click.echo("tichusim serve: stopped", err=True)


@main.command("doctor")
def doctor_cmd():
    """Versions, the kernel cache, and which of tichusim's numba compile changes are on here
    (each applies to tichusim's own kernels only: docs/compile.md)."""
    import importlib.metadata
    import platform

    from ._compile import frame_stack
    from ._compile import pack as kernel_pack
    from ._compile.cache import cache_dir
    from ._compile.guard import CHANGES, CHECKED, checked_versions, status

    rows = [
        ("tichusim", __version__),
        ("python", f"{platform.python_version()} ({sys.platform} {platform.machine()})"),
    ]
    for package, (version, checked) in checked_versions().items():
        rows.append(
            (
                package,
                version if checked else f"{version} (changes checked on {CHECKED[package]}.x only)",
            )
        )
    rows.append(("numpy", importlib.metadata.version("numpy")))
    folder = cache_dir()
    kernels = sum(1 for _ in folder.rglob("*.nbi")) if folder.is_dir() else 0
    rows.append(("kernel cache", f"{folder} ({kernels} kernels cached)"))
    rows.append(("kernel pack", kernel_pack.describe(kernel_pack.host_cpu())))
    for name, state in status().items():
        rows.append((f"change: {name}", f"{state} [{CHANGES[name].switch}] {CHANGES[name].what}"))
    frame = (
        "on"
        if frame_stack.installed()
        else "off: TICHUSIM_FRAME_STACK_CACHE=0 or not CPython 3.11-3.13 on Linux"
    )
    rows.append(
        (
            "change: frame-stack",
            f"{frame} [TICHUSIM_FRAME_STACK_CACHE] CPython's arena "
            "allocator keeps a freed frame-stack chunk (tichusim's own processes only)",
        )
    )
    for what, value in rows:
        click.echo(f"{what:<20} {value}")


if __name__ == "__main__":
    sys.exit(main())
