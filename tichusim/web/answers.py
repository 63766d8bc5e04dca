"""A request's answer: its JSON checked and bounded, the library called as the commands call
it (``gt-odds``, ``tichu-odds``, ``pass-advice``, ``advise``), the answer in the commands'
``--json`` shape, and the command line that gives the same answer.

``prepare`` does every check a request can fail (unknown fields, types, the hand, the
strategies, the table, the bounds) before anything is played, with the library's own one-line
messages (``games.errors.guard``); what it returns runs on a worker (``jobs.Jobs``). Nothing
here reads or writes a file: a strategy is a name or a name with changes, never a file or a
Python agent (both would reach the file system), and the answers are kept in memory only.
"""

from __future__ import annotations

import inspect
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..analysis import advise as advise_mod
from ..analysis import gtodds, passadvice, tichuodds
from ..games import DEFAULT_GAME, TEAM_GAMES, game, game_type
from ..games.agents import from_text
from ..games.errors import BadInput, guard
from ..games.position import Position
from ..games.strategy_text import parse_strategy_count
from ..strategies.book import split_strategies

__all__ = ["KINDS", "Ask", "Limits", "defaults", "prepare"]

KINDS = ("gt-odds", "tichu-odds", "pass-advice", "advise")
ODDS_DEALS = 2000  # the odds' deals when a request names none (the commands': 100,000)
Progress = Callable[[int, int, str | None], None]  # done, total, a note (the leader, P)


@dataclass(frozen=True)
class Limits:
    """The most a request may ask for: deals of the odds, of pass-advice's best candidates,
    advise's deals of the unseen cards and its candidate plays."""

    deals: int = 50_000
    pass_deals: int = 20_000
    samples: int = 20_000
    candidates: int = 60


@dataclass(frozen=True)
class Ask:
    """A checked request: ``run(progress)`` plays it and returns the answer's JSON;
    ``total`` is what its progress counts to (deals or rounds; 0: no progress), ``command``
    the command line that gives the same answer."""

    kind: str
    run: Callable[[Progress], dict]
    command: str
    total: int


def _default(fn, name: str):
    """The library's default for ``fn``'s argument ``name``: the page shows what the
    library plays, whatever it is."""
    return inspect.signature(fn).parameters[name].default


def defaults() -> dict:
    """The controls' defaults, read from the library: deals, players, rollout, samples."""
    return {
        "variant": DEFAULT_GAME,
        "variants": list(TEAM_GAMES),
        "gt_odds": {
            "deals": ODDS_DEALS,
            "seat_strategy": _default(gtodds.gt_odds, "seat_strategy"),
            "others": _default(gtodds.gt_odds, "others"),
        },
        "tichu_odds": {
            "deals": ODDS_DEALS,
            "seat_strategy": _default(tichuodds.tichu_odds, "seat_strategy"),
            "others": _default(tichuodds.tichu_odds, "others"),
        },
        "pass_advice": {
            "deals": _default(passadvice.pass_advice, "deals"),
            "seat_strategy": _default(passadvice.pass_advice, "strategy"),
            "others": _default(passadvice.pass_advice, "others"),
        },
        "advise": {
            "samples": _default(advise_mod.advise, "samples"),
            "candidates": _default(advise_mod.advise, "candidates"),
            "rollout": _default(advise_mod.advise, "rollout"),
        },
    }


# ---- the fields of a request ------------------------------------------------------------


class _Fields:
    """A request's JSON object, read field by field; ``done`` refuses what was not read."""

    def __init__(self, kind: str, body: Any):
        if not isinstance(body, dict):
            raise BadInput(f"{kind}: the request is a JSON object, not {type(body).__name__}")
        self.kind = kind
        self.body = body
        self.read: set[str] = set()

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
        self.read.add(name)
        value = self.body.get(name)
        if value is None:
            return default
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise BadInput(f"{name}: not {value!r}")
        if not isinstance(value, kind):
            raise BadInput(f"{name}: not {value!r}")
        return value

    def text(self, name: str, default: str | None = None) -> str | None:
        value = self.get(name, str, default)
        return None if value is None else value.strip() or default

    def whole(self, name: str, low: int, high: int, default: int | None, what: str) -> int:
        """A whole number in ``low..high``; absent: ``default``, at most ``high``."""
        value = self.get(name, int, None if default is None else min(default, high))
        if value is None:
            raise BadInput(f"{name}: missing")
        if value < low:
            raise BadInput(f"{name}: at least {low:,}, not {value:,}")
        if value > high:
            raise BadInput(
                f"{name}: at most {high:,} {what} a request on this server, not {value:,} "
                "(the command line has no such bound)"
            )
        return value

    def seed(self) -> int:
        """``seed``, 0 when absent; the odds commands' check and message."""
        value = self.get("seed", int, 0)
        guard(gtodds.check_run, 1, None, value)
        return value

    def done(self) -> None:
        unknown = sorted(set(self.body) - self.read)
        if unknown:
            raise BadInput(
                f"{self.kind}: unknown field {unknown[0]!r} (known: {', '.join(sorted(self.read))})"
            )


def _strategies(text: str, count: tuple[int, ...], what: str):
    """``text`` as ``count`` scripted strategies (``parse_strategy_count``): names and names
    with changes; a file or a Python agent is refused, as it would read a file or run code."""
    for item in split_strategies(text):
        if item.strip().lower().endswith(".toml") or from_text(item) is not None:
            raise BadInput(
                f"{what}: {item.strip()!r}: the server plays named strategies and their changes "
                "only (expert, heuristic:pass=lowest, ...), not files or Python agents; the "
                "command line takes those"
            )
    return guard(parse_strategy_count, text, count, what)


def _options(f: _Fields) -> dict | None:
    """``options``: a table's rules options, ``{key: value}`` (the commands' ``--option``)."""
    options = f.get("options", dict)
    if not options:
        return None
    for key, value in options.items():
        if not isinstance(value, (bool, int, float, str)):
            raise BadInput(f"options: {key}: not {value!r}")
    return dict(options)


def _option_flags(options: dict | None) -> list[str]:
    flags: list[str] = []
    for key, value in (options or {}).items():
        text = str(value).lower() if isinstance(value, bool) else str(value)
        flags += ["--option", f"{key}={text}"]
    return flags


def _command(name: str, *args: Any) -> str:
    """The command line, each argument quoted for a POSIX shell."""
    return " ".join(["tichusim", name, *(shlex.quote(str(a)) for a in args)])


def _players(f: _Fields, fn, me_name: str, variant: str) -> tuple[Any, Any, list[str], dict]:
    """``seat_strategy`` and ``others`` (absent: the library's defaults), checked, with their
    command-line flags and the library's keyword arguments. The flags name the players even
    when they are the defaults, so the command gives the same answer if the defaults move."""
    players = game_type(variant).players
    me_text = f.text("seat_strategy")
    others_text = f.text("others")
    kwargs: dict = {}
    if me_text is not None:
        kwargs[me_name] = _strategies(me_text, (1,), "seat_strategy")
    if others_text is not None:
        kwargs["others"] = _strategies(others_text, (1, players - 1), "others")
    me = me_text or _default(fn, me_name)
    others = others_text or _default(fn, "others")
    return me, others, ["--seat-strategy", me, "--others", others], kwargs


def _note(estimate) -> str | None:
    if estimate is None:
        return None
    return f"P(out first | call) {estimate.pct()}"


# ---- the answers ------------------------------------------------------------------------


def _odds_table(f: _Fields, limits: Limits) -> tuple[str, dict | None, int, int]:
    """An odds request's table (a team game), its rules Options, its deals and its seed."""
    variant = f.text("variant", DEFAULT_GAME) or DEFAULT_GAME
    if variant not in TEAM_GAMES:
        raise BadInput(f"variant: a team game ({', '.join(TEAM_GAMES)}), not {variant!r}")
    options = _options(f)
    deals = f.whole("deals", 1, limits.deals, ODDS_DEALS, "deals")
    seed = f.seed()
    return variant, options, deals, seed


def _gt_odds(f: _Fields, limits: Limits, table: Callable[[str], dict | None]) -> Ask:
    hand = f.text("hand")
    if hand is None:
        raise BadInput('hand: missing (the first 8 cards, e.g. "Dr Ph A A K 9 5 3")')
    variant, options, deals, seed = _odds_table(f, limits)
    _, _, flags, kwargs = _players(f, gtodds.gt_odds, "seat_strategy", variant)
    f.done()
    guard(game, variant, None, options)
    guard(gtodds.check_hand, hand, variant, options)

    def run(progress: Progress) -> dict:
        answer = guard(
            gtodds.gt_odds,
            hand,
            deals=deals,
            seed=seed,
            variant=variant,
            options=options,
            progress=lambda done, total, p: progress(done, total, _note(p)),
            **kwargs,
        )
        out = answer.to_dict()
        # the hand class's row of gt-table (the 4-player game's, the default players')
        out["gt_table"] = table(hand) if variant == DEFAULT_GAME and not options else None
        return out

    args = ["--hand", hand, "--rounds", deals, "--seed", seed, *flags]
    if variant != DEFAULT_GAME:
        args += ["--variant", variant]
    return Ask("gt-odds", run, _command("gt-odds", *args, *_option_flags(options)), deals)


def _tichu_odds(f: _Fields, limits: Limits) -> Ask:
    hand = f.text("hand")
    if hand is None:
        raise BadInput("hand: missing (the 14 cards held after the passing)")
    received = f.text("received")
    played = f.get("played", int)
    if played is not None and not 0 <= played <= 56:
        raise BadInput(f"played: a number of cards 0..56, not {played}")
    variant, options, deals, seed = _odds_table(f, limits)
    _, _, flags, kwargs = _players(f, tichuodds.tichu_odds, "seat_strategy", variant)
    f.done()
    guard(game, variant, None, options)
    guard(tichuodds.check_hand, hand, received, variant, options)

    def run(progress: Progress) -> dict:
        answer = guard(
            tichuodds.tichu_odds,
            hand,
            deals=deals,
            seed=seed,
            received=received,
            played=played,
            variant=variant,
            options=options,
            progress=lambda done, total, p: progress(done, total, _note(p)),
            **kwargs,
        )
        return answer.to_dict()

    args: list[Any] = ["--hand", hand]
    if received is not None:
        args += ["--received", received]
    if played is not None:
        args += ["--played", played]
    args += ["--rounds", deals, "--seed", seed, *flags]
    if variant != DEFAULT_GAME:
        args += ["--variant", variant]
    return Ask("tichu-odds", run, _command("tichu-odds", *args, *_option_flags(options)), deals)


def _pass_advice(f: _Fields, limits: Limits) -> Ask:
    hand = f.text("hand")
    if hand is None:
        raise BadInput("hand: missing (the 14 cards dealt, each with its suit)")
    candidates = f.get("candidates", list, [])
    if not all(isinstance(c, str) for c in candidates):
        raise BadInput('candidates: passes as text, "RIGHT,PARTNER,LEFT"')
    if len(candidates) > limits.candidates:
        raise BadInput(
            f"candidates: at most {limits.candidates} passes a request on this server, "
            f"not {len(candidates)}"
        )
    only_given = f.get("only_given", bool, False)
    deals = f.whole(
        "deals", 1, limits.pass_deals, _default(passadvice.pass_advice, "deals"), "deals"
    )
    seed = f.seed()
    _, _, flags, kwargs = _players(f, passadvice.pass_advice, "strategy", DEFAULT_GAME)
    f.done()
    guard(passadvice.check_candidates, hand, candidates)
    if only_given and not candidates:
        raise BadInput("only_given: give at least one candidate")

    def run(progress: Progress) -> dict:
        answer = guard(
            passadvice.pass_advice,
            hand,
            deals=deals,
            seed=seed,
            candidates=candidates,
            generated=not only_given,
            progress=progress,
            **kwargs,
        )
        return answer.to_dict()

    args: list[Any] = ["--hand", hand]
    for c in candidates:
        args += ["--candidate", c]
    if only_given:
        args.append("--only-given")
    args += ["--rounds", deals, "--seed", seed, *flags]
    return Ask("pass-advice", run, _command("pass-advice", *args), 0)


# the position's keys as the command's flags (the rest go in a position file)
_FLAGS = {
    "hand": "--hand",
    "seat": "--seat",
    "trick": "--trick",
    "tichu": "--tichu",
    "grand_tichu": "--grand-tichu",
    "wish": "--wish",
    "out": "--out",
}
_REPEATED = {"played": "--played", "taken": "--taken", "gave": "--gave", "received": "--received"}


def _advise(f: _Fields, limits: Limits) -> Ask:
    data = f.get("position", dict)
    if data is None:
        raise BadInput("position: missing (hand, seat, trick, played, ... as advise takes them)")
    samples = f.whole("samples", 2, limits.samples, _default(advise_mod.advise, "samples"), "deals")
    candidates = f.whole(
        "candidates", 1, limits.candidates, _default(advise_mod.advise, "candidates"), "plays"
    )
    rollout = f.text("rollout")
    seed = f.seed()
    f.done()
    kwargs: dict = {}
    if rollout is not None:
        _strategies(rollout, (1,), "rollout")
        kwargs["rollout"] = rollout
    position = guard(Position.parse, data)

    def run(progress: Progress) -> dict:
        answer = guard(
            advise_mod.advise, position, samples, candidates=candidates, seed=seed, **kwargs
        )
        return answer.to_dict()

    args: list[Any] = []
    for key, value in data.items():
        if value in (None, "", []):
            continue
        if key in _FLAGS:
            text = ",".join(map(str, value)) if isinstance(value, list) else value
            args += [_FLAGS[key], text]
        elif key in _REPEATED:
            items = value.items() if isinstance(value, dict) else None
            for item in [f"{k}={v}" for k, v in items] if items else value:
                args += [_REPEATED[key], item]
    args += ["--samples", samples, "--candidates", candidates, "--seed", seed]
    args += ["--rollout", rollout or _default(advise_mod.advise, "rollout")]  # named, always
    command = _command("advise", *args)
    # variant (but the default), first_drawer, minister, ...: a position file's keys only
    extra = sorted(
        k
        for k, v in data.items()
        if k not in _FLAGS and k not in _REPEATED and not (k == "variant" and v == DEFAULT_GAME)
    )
    if extra:
        command += "  # with a position file for: " + ", ".join(extra)
    return Ask("advise", run, command, 0)


def prepare(
    kind: str, body: Any, limits: Limits, table: Callable[[str], dict | None] | None = None
) -> Ask:
    """The request ``body`` (JSON) for the answer ``kind``, checked (``BadInput``: one line);
    ``table(hand)``: the hand class's row of gt-table for gt-odds (or ``None``)."""
    f = _Fields(kind, body)
    if kind == "gt-odds":
        return _gt_odds(f, limits, table or (lambda hand: None))
    if kind == "tichu-odds":
        return _tichu_odds(f, limits)
    if kind == "pass-advice":
        return _pass_advice(f, limits)
    if kind == "advise":
        return _advise(f, limits)
    raise BadInput(f"no answer {kind!r} (answers: {', '.join(KINDS)})")
