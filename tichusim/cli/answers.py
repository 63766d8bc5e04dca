"""The answers about a hand or a position: ``legal`` (its legal plays), ``gt-odds`` and
``tichu-odds`` (should it call?), ``pass-advice`` (which pass), ``gt-table`` (Grand Tichu by
hand class) and ``advise`` (which play).

The options of the four answers the server gives too are their requests' fields
(``analysis.questions``), written once for both.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..analysis import questions
from ..analysis.questions import ADVISE, GT_ODDS, PASS_ADVICE, TICHU_ODDS
from ..games import DEFAULT_GAME, game, game_type
from ..progress import Progress
from .group import UserError, guard, main
from .options import (
    field_option,
    json_option,
    question_options,
    quiet_option,
    rules_options,
    seed_option,
    strategy_count,
)


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
    from .. import cards, legal_plays

    plays, can_pass = guard(
        legal_plays, hand, top, wish=wish, phoenix_on=phoenix_on, phoenix_led_half=phoenix_led_half
    )
    for p in plays:
        click.echo(f"{cards.format(p):<40} {p.combo.kind} {p.combo.rank:g}")
    click.echo(f"{len(plays)} plays; pass {'allowed' if can_pass else 'not allowed'}")


def _echo(result, as_json: bool, played: str) -> None:
    """An answer: one JSON object (``--json``), or its text and a line saying what was played
    and how fast."""
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        click.echo(str(result))
        click.echo(played)


# ---- should this hand call? -----------------------------------------------------------------


def _players_and_table(
    seat_strategy: str, others: str, variant: str, pairs: tuple[str, ...]
) -> tuple[object, object, dict | None]:
    """``--seat-strategy``, ``--others`` and ``--option`` of the odds commands, checked."""
    players = game_type(variant).players
    rest = strategy_count(others, (1, players - 1), "--others")
    me = strategy_count(seat_strategy, (1,), "--seat-strategy")
    options = rules_options(pairs)
    guard(game, variant, None, options)
    return me, rest, options


def _answer_odds(ask, check, as_json: bool, quiet: bool, **asked) -> None:
    """An odds command's answer: its players and table checked, then ``check(options)``
    (the hand, before the progress bar appears), then ``ask(**asked)`` (the library function;
    the command's parameters are its keywords) played behind a progress bar, and its answer
    printed (``--json``: one object)."""
    me, rest, options = _players_and_table(
        asked.pop("seat_strategy"), asked.pop("others"), asked["variant"], asked.pop("options")
    )
    guard(check, options)
    deals = asked["deals"]
    # the bar appears when play starts (``progress(0, ...)``), after any compile and its notice
    with Progress(deals, "deal", enabled=not (quiet or as_json), at_first_update=True) as bar:

        def progress(done, total, p):
            bar.to(
                done,
                None if p is None else f"P(success) {p.value:.3f} +/- {(p.high - p.low) / 2:.3f}",
            )

        result = guard(
            ask, progress=progress, seat_strategy=me, others=rest, options=options, **asked
        )
    _echo(
        result,
        as_json,
        f"{result.deals:,} deals ({2 * result.deals:,} rounds) in {result.seconds:.2f} s",
    )


@main.command("gt-odds")
@question_options(GT_ODDS)
@json_option()
@quiet_option()
def gt_odds_cmd(model, as_json, quiet, **asked):
    """Should these 8 cards call Grand Tichu? Each deal is played with and without the call."""
    hand, variant = asked["hand"], asked["variant"]
    if model is not None:
        if variant != DEFAULT_GAME or asked["options"]:
            raise UserError("--model answers for the 4-player game without options only")
        from ..analysis.handclass import GTModel

        fitted = guard(GTModel.load, model)
        answer = guard(fitted.predict, hand)
        click.echo(json.dumps(answer) if as_json else fitted.describe(answer))
        return
    from ..analysis.gtodds import check_hand, gt_odds

    _answer_odds(
        gt_odds, lambda options: check_hand(hand, variant, options), as_json, quiet, **asked
    )


@main.command("tichu-odds")
@question_options(TICHU_ODDS)
@json_option()
@quiet_option()
def tichu_odds_cmd(as_json, quiet, **asked):
    """Should this hand call Tichu after the passing? Each deal is played with and without
    the call (RULES.md §2.3)."""
    from ..analysis.tichuodds import check_hand, tichu_odds

    hand, received, variant = asked["hand"], asked["received"], asked["variant"]
    _answer_odds(
        tichu_odds,
        lambda options: check_hand(hand, received, variant, options),
        as_json,
        quiet,
        **asked,
    )


# ---- which pass? -----------------------------------------------------------------------------


@main.command("pass-advice")
@question_options(PASS_ADVICE)
@json_option()
@quiet_option()
def pass_advice_cmd(
    hand, candidates, only_given, deals, seed, seat_strategy, others, as_json, quiet
):
    """Which three cards should this hand pass? Candidate passes ranked by paired simulation
    (RULES.md §2.4)."""
    from ..analysis.passadvice import check_candidates, pass_advice

    me, rest, _ = _players_and_table(seat_strategy, others, DEFAULT_GAME, ())
    guard(check_candidates, hand, candidates)  # before the progress bar appears
    if only_given and not candidates:
        raise UserError("--only-given: give at least one --candidate")
    bars: list[Progress] = []  # the bar appears when play starts: the plan's rounds known

    def progress(done, total, leader):
        if not bars:
            bars.append(Progress(total, " rounds", enabled=not (quiet or as_json)))
        bars[0].to(done, leader)

    try:
        result = guard(
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
    _echo(result, as_json, f"{result.rounds:,} rounds in {result.seconds:.2f} s")


# ---- Grand Tichu by hand class -----------------------------------------------------------------


@main.command("gt-table")
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
@seed_option
@field_option(questions.seat_strategy("the calling seat's strategy"))
@field_option(questions.others("one strategy for the other seats, or three"))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="write table.md, by_class.csv, by_score.csv, gt_odds.png, model.json here",
)
@quiet_option()
def gt_table_cmd(run_dir, deals, seed, seat_strategy, others, out, quiet):
    """Grand Tichu success and value of calling by hand class, with a plot and a model."""
    from ..analysis import gttable

    if run_dir is not None:
        from ..runs.read import load

        data = guard(
            load,
            run_dir,
            seats_columns=["round", "seat", "hand8", "grand_tichu", "finish", "points"],
        )
        calls = guard(gttable.from_run, data.seats)
        if len(calls) == 0:
            raise UserError(f"{run_dir}: no Grand Tichu was called in this run")
        table = gttable.build(calls, source="run", info={"run": str(run_dir)}, fit=False)
        command = f"tichusim gt-table --run {run_dir}"
    else:
        me = strategy_count(seat_strategy, (1,), "--seat-strategy")
        rest = strategy_count(others, (1, 3), "--others")
        with Progress(deals, "deal", enabled=not quiet, at_first_update=True) as bar:
            table = guard(
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


# ---- which play? -----------------------------------------------------------------------------


@main.command("advise")
@question_options(ADVISE)
@json_option("one JSON object")
def advise_cmd(position_file, samples, candidates, rollout, seed, as_json, **flags):
    """Rank every legal play of a seat in a position in a team game by simulation.

    The position comes from POSITION_FILE (TOML: hand, seat, played, trick, tichu,
    grand_tichu, wish, out, taken, gave, received; variant, first_drawer, minister, king;
    docs/analyses.md) and/or the flags, which override the file's keys.
    """
    import tomllib

    from ..analysis.advise import advise
    from ..games.position import Position

    data: dict = {}
    if position_file is not None:
        try:
            data = tomllib.loads(position_file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UserError(f"cannot read {position_file}: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{position_file}: not TOML: {exc}") from None
    # a repeated option's values as a list (none given: not given)
    given = {k: list(v) if isinstance(v, tuple) else v for k, v in flags.items()}
    data.update({k: v for k, v in given.items() if v not in (None, [])})
    position = guard(Position.parse, data)
    result = guard(advise, position, samples, candidates=candidates, rollout=rollout, seed=seed)
    played = f"({result.samples:,} deals x {len(result.ranked)} plays in {result.seconds:.2f} s)"
    _echo(result, as_json, played)
