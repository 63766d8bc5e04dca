"""Readable transcripts of single rounds, from the engine's event log."""

from __future__ import annotations

import numpy as np

from . import cards
from .kernels import engine as E
from .kernels.batch import play_logged
from .rules import Combo
from .simulate import SimulationError, _prepare

__all__ = ["play_with_log", "transcript"]

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_POINT = {0: "before passing", 1: "after passing", 2: "before playing"}


def play_with_log(seed: int = 0, round: int = 0, *, strategies="random", first_drawer: int = 0,
                  check: bool = True):  # fmt: skip
    """Replay round ``round`` of the run seeded ``seed``: ``(round record, seat records, log)``.

    The log has one row per event: ``(event, seat, cards, code, extra)`` (codes in
    ``tichusim.kernels.engine``).
    """
    seed, _, params = _prepare(strategies, "nanjing", seed)
    rnd, seats, log, err = play_logged(seed, round, first_drawer, params, check)
    if err:
        raise SimulationError(f"round {round}: {E.ERRORS[err]}")
    return rnd[0], seats, log


def _combo(code: int) -> str:
    c = Combo.from_code(code)
    rank = {1: "Ma", 15: "Dr"}.get(c.rank, c.rank)
    if isinstance(rank, float):
        rank = int(rank) if rank == int(rank) else rank
    return f"{c.kind} {rank}" if c.kind != "dog" else "dog"


def transcript(seed: int = 0, round: int = 0, *, strategies="random", first_drawer: int = 0) -> str:
    """The round move by move, in card notation."""
    seed_, names, _ = _prepare(strategies, "nanjing", seed)
    rnd, seats, log = play_with_log(seed_, round, strategies=strategies, first_drawer=first_drawer)
    lines = [
        f"Round {round} of seed {seed}; first drawer: seat {first_drawer}",
        "Strategies: " + ", ".join(f"seat {i} {s.name}" for i, s in enumerate(names)),
    ]
    trick = 1
    new_trick = True
    for event, seat, mask, code, extra in log.tolist():
        m = int(np.uint64(np.int64(mask)))
        if event == E.EV_DEAL8:
            lines.append(f"seat {seat} (team {seat % 2}) first 8: {cards.format(m)}")
        elif event == E.EV_GRAND_TICHU:
            lines.append(f"seat {seat} calls GRAND TICHU")
        elif event == E.EV_DEAL14:
            lines.append(f"seat {seat} holds 14: {cards.format(m)}")
        elif event == E.EV_TICHU:
            lines.append(f"seat {seat} calls TICHU ({_POINT[code]})")
        elif event == E.EV_GIVE:
            lines.append(f"seat {seat} gives {cards.format(m)} to seat {extra}")
        elif event in (E.EV_PLAY, E.EV_BOMB, E.EV_PASS):
            if new_trick:
                lines.append(f"-- trick {trick}")
                new_trick = False
            if event == E.EV_PASS:
                lines.append(f"  seat {seat} passes")
            else:
                verb = "BOMBS out of turn with" if event == E.EV_BOMB else "plays"
                lines.append(f"  seat {seat} {verb} {cards.format(m)}  [{_combo(code)}]")
        elif event == E.EV_WISH:
            lines.append(f"  seat {seat} wishes {'nothing' if code == 0 else cards.RANK_CHARS[code - 2]}")
        elif event == E.EV_WISH_DONE:
            lines.append(f"  (the wish for {cards.RANK_CHARS[code - 2]} is fulfilled)")
        elif event == E.EV_OUT:
            lines.append(f"  seat {seat} is out ({_ORDINAL[code]})")
        elif event == E.EV_DOG:
            lines.append(f"  the Dog passes the lead to seat {extra}")
            trick += 1
            new_trick = True
        elif event == E.EV_DRAGON:
            lines.append(f"  seat {seat} gives the Dragon's trick to seat {extra}")
        elif event == E.EV_TRICK:
            lines.append(f"  seat {seat} wins the trick ({code} points) -> pile of seat {extra}")
            trick += 1
            new_trick = True
        elif event == E.EV_HAND_TO:
            lines.append(f"seat {seat} is last: hand {cards.format(m) or '-'} ({code} points) "
                         f"to team {extra % 2}; its tricks to the first player out")  # fmt: skip
        elif event == E.EV_END:
            lines.append(
                f"End: first out seat {seat}; card points {rnd['card_points'][0]} / "
                f"{rnd['card_points'][1]}{' (double victory)' if rnd['double_victory'] else ''}; "
                f"score team 0: {code}, team 1: {extra}"
            )
    return "\n".join(lines) + "\n"
