"""The options several commands share, each one decorator (click's idiom), and what reads
them: a table's rules options, its players, the strategies of its seats.

An answer's options are not written here but derived from its request's declaration
(``analysis.questions``), which the server reads too: ``question_options(GT_ODDS)`` is every option
of ``gt-odds`` that the request has, in its order.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..analysis import questions
from ..analysis.questions import Field, Question
from ..games import DEFAULT_GAME, GAMES, game, game_type
from ..kernels.seigneur import rules as gs_rules
from ..kernels.tichu import rules as team_rules
from .group import UserError, guard

STRATEGY_HELP = (
    "one strategy for every seat, or four separated by commas (seat 0..3); each a name, "
    "base:key=value,... or base[key=value,...], a .toml file, search:key=value,..., or "
    "agent:package.module:Class / agent:path/file.py:Class (a tichusim.Agent subclass; "
    "docs/strategies.md#strategy-arguments)"
)
VARIANT_HELP = (
    "the table: nanjing (4 players), tientsin (6: give 6 strategies or one), "
    "wuwang (3 players and the Minister: give 3 or one), grand-seigneur (5-12 "
    "players: --players)"
)
VARIANTS = click.Choice(list(GAMES))
PLAYERS_HELP = "grand-seigneur: the number of players, 5..12 (RULES.md §5)"
# the options named from the rules records (numpy alone: the help loads no game)
OPTION_HELP = (
    "a rules option of the variant, KEY=VALUE, repeatable (nanjing, tientsin, "
    f"wuwang: {', '.join(team_rules.EVERY_TABLE)}; wuwang games: "
    f"{', '.join(team_rules.WUWANG_GAMES)}, game_rounds; grand-seigneur: decks, russian_deck, "
    f"{', '.join(gs_rules.OPTIONS)}, game_rounds)"
)


# ---- an answer's request, as options ------------------------------------------------------


def _click_type(field: Field):
    if field.kind in ("whole", "seed"):
        low, high = field.low, field.high
        assert not isinstance(low, float) and not isinstance(high, float), field.name
        return int if low is None and high is None else click.IntRange(low, high)
    if field.kind == "number":
        return click.FloatRange(field.low, field.high, min_open=True, max_open=True)
    if field.kind == "choice":
        return click.Choice(field.choices)
    if field.kind == "path":
        return click.Path(dir_okay=False, path_type=Path)
    return None


def field_option(field: Field):
    """The click option of ``field`` (a position: its file argument and one option for each
    of its keys); the command's parameter is the field's name."""
    if field.kind == "position":
        return _stacked(
            [
                click.argument(
                    "position_file",
                    required=False,
                    type=click.Path(dir_okay=False, path_type=Path),
                ),
                *map(field_option, field.parts),
            ]
        )
    kwargs: dict = {"help": field.help}
    kind = _click_type(field)
    if kind is not None:
        kwargs["type"] = kind
    if field.kind == "flag":
        kwargs["is_flag"] = True
    elif field.kind in ("texts", "options"):
        kwargs["multiple"] = True
    elif field.default is not None:
        kwargs.update(default=field.default, show_default=True)
    if field.metavar is not None:
        kwargs["metavar"] = field.metavar
    if field.missing is not None:
        kwargs["required"] = True
    return click.option(*field.flags, field.name, **kwargs)


def _stacked(decorators):
    """One decorator applying ``decorators`` so that the first is the first in the help."""

    def decorate(fn):
        for option in reversed(decorators):
            fn = option(fn)
        return fn

    return decorate


def question_options(asked: Question):
    """The options of ``asked``'s fields, in its order."""
    return _stacked([field_option(field) for field in asked.fields])


# ---- options several commands share ------------------------------------------------------


def _quiet(context, parameter, quiet: bool) -> bool:
    """``--quiet``: no compile notice either (``tichusim.compile_notices``)."""
    if quiet:  # the group's ``invoke`` restores the switch after the command
        from .._compile.notice import compile_notices

        compile_notices(False)
    return quiet


def quiet_option(help: str = "no compile notice, no progress bar"):
    return click.option("--quiet", is_flag=True, callback=_quiet, help=help)


def json_option(help: str = "print one JSON object"):
    return click.option("--json", "as_json", is_flag=True, help=help)


def resume_option(what: str):
    """``--resume DIR``: finish the stopped ``what`` (a run, an import) in that directory."""
    return click.option(
        "--resume",
        "resume_dir",
        type=click.Path(file_okay=False, path_type=Path),
        help=f"finish the stopped {what} in this directory",
    )


# the batch runs' cluster (run, import)
dask_option = click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS|local",
    help="send shards to a Dask scheduler (tcp://host:port) or a new LocalCluster",
)
seed_option = field_option(questions.SEED)
check_option = click.option(
    "--check/--no-check", default=False, help="verify RULES.md §7 after every action"
)
strategies_option = click.option(
    "--strategies", default="random", show_default=True, help=STRATEGY_HELP
)
# any game's table: its variant, players and rules options (show, simulate)
table_options = _stacked(
    [
        click.option(
            "--variant", default=DEFAULT_GAME, show_default=True, type=VARIANTS, help=VARIANT_HELP
        ),
        click.option("--players", type=click.IntRange(5, 12), default=None, help=PLAYERS_HELP),
        click.option(
            "--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP
        ),
    ]
)


# ---- reading them -------------------------------------------------------------------------


def check_players(variant: str, players: int | None) -> None:
    """``--players``: given for grand-seigneur, and for it only."""
    if game_type(variant).takes_players and players is None:
        raise UserError(f"--variant {variant} needs --players (5..12)")
    if not game_type(variant).takes_players and players is not None:
        raise UserError(f"--players applies to grand-seigneur only ({variant} has a fixed table)")


def rules_options(pairs: tuple[str, ...]) -> dict | None:
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


def strategy_specs(text: str, book=None):
    """``--strategies`` text in a game whose strategies are ``book`` (default: the team
    games'): one, or one per player separated by commas."""
    from ..games.strategy_text import strategy_specs as specs  # loads kernels: not at startup

    return specs(text, game(DEFAULT_GAME).strategy_book if book is None else book)


def seated(table, chosen) -> None:
    """Refuse bad strategies (names, tables, agents that cannot be imported) before any
    compile."""
    from ..games.steps import seated as check_seated

    guard(check_seated, table, chosen)


def strategy_count(text: str, count: tuple[int, ...], what: str):
    """``--seat-strategy`` / ``--others``: ``count`` strategies (``games.strategy_text`` form)."""
    from ..games.strategy_text import parse_strategy_count

    return guard(parse_strategy_count, text, count, what)
