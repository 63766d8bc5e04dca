"""Readable transcripts of single rounds, from the engine's event log, at every table."""

from __future__ import annotations

import numpy as np

from .. import cards
from ..kernels.errors import ERRORS
from ..kernels.tichu import records as E
from ..kernels.tichu import variants as V
from ..kernels.tichu.batch import play_logged
from ..cards.combos import Combo
from .simulate import SimulationError, _prepare, variant_info, variant_options

__all__ = ["play_with_log", "transcript"]

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
_POINT = {0: "before passing", 1: "after passing", 2: "before playing"}


def play_with_log(seed: int = 0, round: int = 0, *, strategies="random", first_drawer: int = 0,
                  check: bool = True, variant: str = "nanjing", king: int | None = None,
                  options=None):  # fmt: skip
    """Replay round ``round`` of the run seeded ``seed``: ``(round record, seat records, log)``.

    The log has one row per event: ``(event, seat, cards, code, extra)`` (codes in
    ``tichusim.kernels.engine``). Seats are the engine's positions: in Wu Wang the King at 0,
    the Minister at 2 (``round record['king']`` names the King, drawn at random as in a first
    round unless ``king`` is given). ``options``: the variant's switches, as in ``simulate``
    (those that shape whole games do not change a round).
    """
    info = variant_info(variant)
    opts = variant_options(variant, options)
    seed, _, params = _prepare(strategies, variant, seed)
    first = first_drawer
    if info.code == V.WUWANG:
        if king is not None and king not in (0, 1, 2):
            raise ValueError(f"king must be player 0, 1 or 2, not {king!r}")
        first = -1 if king is None else king
    elif not 0 <= first_drawer < info.seats:
        raise ValueError(f"first_drawer must be a seat 0..{info.seats - 1}, not {first_drawer!r}")
    rnd, seats, log, err = play_logged(info.code, seed, round, first, params, check,
                                       opts["phoenix_led_half"])  # fmt: skip
    if err:
        raise SimulationError(f"round {round}: {ERRORS[err]}")
    return rnd[0], seats, log


def _combo(code: int) -> str:
    c = Combo.from_code(code)
    rank = {1: "Ma", 15: "Dr"}.get(c.rank, c.rank)
    if isinstance(rank, float):
        rank = int(rank) if rank == int(rank) else rank
    return f"{c.kind} {rank}" if c.kind != "dog" else "dog"


def _labels(code: int, king: int, n: int) -> list[str]:
    """How each position is named: ``seat i``, or in Wu Wang the players and the Minister."""
    if code != V.WUWANG:
        return [f"seat {s}" for s in range(n)]
    names = []
    for pos in range(n):
        player = V.wuwang_player(king, pos)
        names.append("the Minister" if player == 3 else
                     f"player {player}{' (King)' if pos == V.KING else ''}")  # fmt: skip
    return names


def transcript(seed: int = 0, round: int = 0, *, strategies="random", first_drawer: int = 0,
               variant: str = "nanjing", king: int | None = None, options=None) -> str:  # fmt: skip
    """The round move by move, in card notation (``options`` as in ``play_with_log``)."""
    info = variant_info(variant)
    seed_, names, _ = _prepare(strategies, variant, seed)
    rnd, seats, log = play_with_log(seed_, round, strategies=strategies, first_drawer=first_drawer,
                                    variant=variant, king=king, options=options)  # fmt: skip
    n = len(seats)
    wuwang = info.code == V.WUWANG
    who = _labels(info.code, int(rnd["king"]), n)
    if wuwang:
        k = int(rnd["king"])
        lines = [f"Round {round} of seed {seed} (Wu Wang); King: player {k}, the Minister opposite",
                 "Strategies: " + ", ".join(f"player {i} {s.name}" for i, s in enumerate(names))
                 + f" (the King's also plays the Minister)"]  # fmt: skip
    else:
        title = "" if info.code == V.NANJING else f" ({variant.capitalize()}, {n} seats)"
        lines = [f"Round {round} of seed {seed}{title}; first drawer: seat {first_drawer}",
                 "Strategies: " + ", ".join(f"seat {i} {s.name}" for i, s in enumerate(names))]
    if variant_options(variant, options)["phoenix_led_half"]:
        lines.append("Rules: a led Phoenix is worth ½ (RULES.md §2.6 Option)")
    team_of = (lambda s: "the King's side" if s % 2 == 0 else "the opponents") if wuwang else (
        lambda s: f"team {s % 2}")  # fmt: skip
    # the deal's lines name each seat's side (a Wu Wang label already says King or Minister)
    side = (lambda s: " (opponent)" if s % 2 else "") if wuwang else (
        lambda s: f" (team {s % 2})")  # fmt: skip
    trick = 1
    new_trick = True
    for event, seat, mask, code, extra in log.tolist():
        m = int(np.uint64(np.int64(mask)))
        size = len(cards.format(m).split()) if m else 0
        if event == E.EV_DEAL8:
            lines.append(f"{who[seat]}{side(seat)} first {size}: {cards.format(m)}")
        elif event == E.EV_GRAND_TICHU:
            lines.append(f"{who[seat]} calls GRAND TICHU")
        elif event == E.EV_DEAL14:
            lines.append(f"{who[seat]} holds {size}: {cards.format(m)}")
        elif event == E.EV_TICHU:
            lines.append(f"{who[seat]} calls TICHU ({_POINT[code]})"
                         + (" (called by the King)" if wuwang and seat == V.MINISTER else ""))
        elif event == E.EV_GIVE:
            lines.append(f"{who[seat]} gives {cards.format(m)} to {who[extra]}")
        elif event == E.EV_SHOW:
            lines.append(f"{who[seat]}'s hand is laid face up: {cards.format(m)}")
        elif event in (E.EV_PLAY, E.EV_BOMB, E.EV_PASS):
            if new_trick:
                lines.append(f"-- trick {trick}")
                new_trick = False
            if event == E.EV_PASS:
                lines.append(f"  {who[seat]} passes")
            else:
                verb = "BOMBS out of turn with" if event == E.EV_BOMB else "plays"
                lines.append(f"  {who[seat]} {verb} {cards.format(m)}  [{_combo(code)}]")
        elif event == E.EV_WISH:
            lines.append(f"  {who[seat]} wishes {'nothing' if code == 0 else cards.RANK_CHARS[code - 2]}")
        elif event == E.EV_WISH_DONE:
            lines.append(f"  (the wish for {cards.RANK_CHARS[code - 2]} is fulfilled)")
        elif event == E.EV_OUT:
            lines.append(f"  {who[seat]} is out ({_ORDINAL[code]})")
        elif event == E.EV_DOG:
            lines.append(f"  the Dog passes the lead to {who[extra]}")
            trick += 1
            new_trick = True
        elif event == E.EV_DRAGON:
            lines.append(f"  {who[seat]} gives the Dragon's trick to {who[extra]}")
        elif event == E.EV_TRICK:
            lines.append(f"  {who[seat]} wins the trick ({code} points) -> pile of {who[extra]}")
            trick += 1
            new_trick = True
        elif event == E.EV_HAND_TO:
            if info.code == V.TIENTSIN:
                lines.append(f"{who[seat]} is last: hand {cards.format(m) or '-'} ({code} points) "
                             f"to team {extra % 2}")  # fmt: skip
            else:
                lines.append(f"{who[seat]} is last: hand {cards.format(m) or '-'} ({code} points) "
                             f"to {team_of(extra)}; its tricks to the first player out")  # fmt: skip
        elif event == E.EV_TRICKS_TO:
            lines.append(f"{who[seat]} gives its tricks ({code} points) to {who[extra]}")
        elif event == E.EV_END:
            victory = "triple" if info.code == V.TIENTSIN else "double"
            won = f" ({victory} victory)" if rnd["double_victory"] else ""
            points = f"card points {rnd['card_points'][0]} / {rnd['card_points'][1]}{won}"
            if wuwang:
                k = int(rnd["king"])
                per = {V.wuwang_player(k, pos): (code if pos % 2 == 0 else extra) for pos in range(4)}
                lines.append(f"End: first out {who[seat]}; {points}; score King's side: {code}, "
                             f"opponents: {extra}")  # fmt: skip
                lines.append("Scores: " + ", ".join(f"player {p} {per[p]}" for p in range(3))
                             + f", Minister {per[3]}")
            else:
                lines.append(f"End: first out seat {seat}; {points}; score team 0: {code}, "
                             f"team 1: {extra}")  # fmt: skip
    return "\n".join(lines) + "\n"
