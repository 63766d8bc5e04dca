"""The players: ``strategies`` (every named strategy, policy and parameter), ``compare``
(strategies in duplicate matches and leagues) and ``learn`` (a learned player's network)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..analysis import questions
from ..games import DEFAULT_GAME, GAMES, game, game_type
from ..progress import Progress
from ..strategies import ANSWER_STRATEGY
from .group import PlayError, UserError, guard, main
from .options import (
    VARIANTS,
    check_option,
    field_option,
    quiet_option,
    rules_options,
    seed_option,
)


@main.command("strategies")
@click.option(
    "--variant",
    default=None,
    type=VARIANTS,
    help="only the strategies of this game (grand-seigneur has its own)",
)
def strategies_cmd(variant):
    """List the named strategies, every policy of each decision, and every parameter: Tichu's
    (every team game) and Grand Seigneur's."""
    from ..strategies.book import policy_of

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


@main.command()
@click.argument("strategies", nargs=-1, required=True)
@click.option(
    "--deals",
    default=20_000,
    show_default=True,
    type=click.IntRange(1),
    help="deals per match (each played twice, teams swapped)",
)
@seed_option
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
    type=VARIANTS,
    help="the table: the two games with two teams to swap (tientsin: 3 seats each)",
)
@field_option(questions.OPTIONS)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="processes playing the deals (split by index, merged in order: the same figures "
    "for any number)",
)
@click.option(
    "--skip-failed",
    is_flag=True,
    help="a deal a player fails at (a Python agent raising, or answering outside the legal "
    "choices) is left out and the match plays on; the report lists them",
)
@check_option
@quiet_option()
def compare(strategies, deals, seed, out, variant, options, workers, skip_failed, check, quiet):
    """Duplicate matches between STRATEGIES (two: a match; more: a round-robin league).

    Each STRATEGY is a name, base:key=value,... (e.g. heuristic:pass=lowest) or
    base[key=value,...] as the tables print it, a .toml file, search:key=value,..., or a
    strategy written in Python: agent:package.module:Class or agent:path/file.py:Class, with
    its parameters as agent:path/file.py:Class:key=value,... (docs/agents.md). A match
    shows its running margin; Ctrl-C prints the figures of the deals played so far, marked
    partial, and exits with status 130. A player failing at a deal stops the match there:
    the figures of the deals before it are printed, marked partial, with the failing deal
    named (exit status 1); --skip-failed plays on without it.
    """
    from ..analysis.duplicate import Failed, Interrupted, duplicate, league, markdown_report
    from ..games.agents import agent_name
    from ..games.strategy_text import parse_strategy

    if not game_type(variant).duplicate_seatings:
        swap = ", ".join(n for n in GAMES if game_type(n).duplicate_seatings)
        raise UserError(
            f"--variant {variant}: compare exchanges the strategies' seats, and "
            f"{game_type(variant).no_swap}; choose one of {swap}"
        )
    table = rules_options(options)
    guard(game, variant, None, table)
    found = [guard(parse_strategy, s) for s in strategies]
    if len(found) < 2:
        raise UserError("compare: give at least two strategies")
    names = [guard(agent_name, s) if isinstance(s, dict) else s.name for s in found]
    if len(set(names)) != len(names):
        raise UserError(
            f"compare: strategies need different names ({', '.join(names)}); "
            "add name=... to tell them apart"
        )
    command = _compare_command(strategies, deals, seed, variant, options, check, out)
    if skip_failed:
        command += " --skip-failed"
    common = {
        "seed": seed,
        "check": check,
        "variant": variant,
        "options": table,
        "skip_failed": skip_failed,
    }
    try:
        if len(found) == 2:
            margin = f"{names[0]} - {names[1]}"
            with Progress(deals, "deal", enabled=not quiet, at_first_update=True) as bar:
                result = guard(
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
                result = guard(
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
    except Failed as stop:
        _partial(stop, command, markdown_report)
        played = stop.result.deals if stop.result is not None else 0
        raise PlayError(
            f"{stop}; the {played:,} deals before it are kept above (partial; --out not "
            "written); --skip-failed plays on without a failing deal"
        ) from None
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


def _partial(stop, command: str, markdown_report) -> None:
    """A match that stopped early: a league's finished matches, then the deals played so far
    of the match under way, marked partial (nothing is written to ``--out``)."""
    for match in stop.matches:  # a league's finished matches
        click.echo(markdown_report(match, command))
    if stop.result is not None:
        click.echo(markdown_report(stop.result, command), nl=False)


def _interrupted(stop, command: str, markdown_report) -> None:
    """Ctrl-C in ``compare``: ``_partial``, then exit status 130 as a shell gives."""
    _partial(stop, command, markdown_report)
    played = stop.result.deals if stop.result is not None else 0
    click.echo(
        f"tichusim: interrupted: partial figures ({played:,} deals of the match under way"
        f"{f', {len(stop.matches)} match(es) finished' if stop.matches else ''}); "
        "--out not written",
        err=True,
    )
    sys.exit(130)


@main.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@quiet_option()
def learn(config, quiet):
    """Learn a player as CONFIG (TOML) says: generate the labelled decisions, train the value
    network on them, write its weights file; with [selfplay], then let that network play and
    label rounds of its own and train a new one on both data sets (docs/learn.md). With
    decision = "pass" (configs/learn-pass.toml), the learned passing's network instead: each
    candidate pass of a hand played out on paired deals, then trained on those labels.

    Run it again after a stop: finished data shards are kept and the training goes on from its
    last checkpoint. Needs the learn extra (pip install -e '.[learn]')."""
    from ..learn.config import ConfigError, load_learn_config

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
            from ..learn.passtrain import learn_pass

            run_learning: Any = learn_pass
        else:
            from ..learn.train import learn

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
        from ..analysis.duplicate import duplicate  # the league's matches (learn.league)

        trained = guard(run_learning, cfg, progress=not quiet, log=note, play=duplicate)
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
