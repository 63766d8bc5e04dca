"""The one transcript loop: walk a round's event log, asking the game how to word each event.

The engines log different events with different codes and row layouts (the team games and
Grand Seigneur), so a game supplies a ``Wording``: its codes of the events every game shares
(plays, bombs, passes, the Mah Jong's wish), which events end a trick, how to read a log row
and name a seat, and the lines of its own events. The loop words the shared events itself and
opens a ``-- trick N`` line before the first play or pass of each trick.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..cards.combos import Combo
from ..cards.notation import RANK_CHARS

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Wording", "combo_name", "narrate"]


class Wording(NamedTuple):
    play: int  # the engine's event codes of the shared events
    bomb: int
    passes: int
    wish: int
    wish_done: int
    trick_ends: frozenset  # a trick won, or the lead passed by the Dog
    read: Callable[[tuple], tuple]  # log row -> (event, seat, cards in notation, code, extra)
    who: Callable[[int], str]  # a seat's name
    say: Callable[[tuple], list[str]]  # log row of the game's own events -> its lines


def narrate(header: list[str], log: np.ndarray, w: Wording) -> str:
    """``header`` then the log's events, one or more lines each, with trick numbers."""
    lines = list(header)
    trick = 1
    new_trick = True
    for row in log.tolist():
        event, seat, hand, code, _ = w.read(row)
        if event in (w.play, w.bomb, w.passes):
            if new_trick:
                lines.append(f"-- trick {trick}")
                new_trick = False
            if event == w.passes:
                lines.append(f"  {w.who(seat)} passes")
            else:
                verb = "BOMBS out of turn with" if event == w.bomb else "plays"
                lines.append(f"  {w.who(seat)} {verb} {hand}  [{combo_name(code)}]")
        elif event == w.wish:
            wished = "nothing" if code == 0 else RANK_CHARS[code - 2]
            lines.append(f"  {w.who(seat)} wishes {wished}")
        elif event == w.wish_done:
            lines.append(f"  (the wish for {RANK_CHARS[code - 2]} is fulfilled)")
        else:
            lines.extend(w.say(row))
        if event in w.trick_ends:
            trick += 1
            new_trick = True
    return "\n".join(lines) + "\n"


def combo_name(code: int) -> str:
    """A combination as a transcript names it: ``pair 9``, ``single Ma``, ``dog``; a second
    Dragon (two decks, RULES.md §5) is ``Dr (second)``."""
    c = Combo.from_code(code)
    if c.kind == "dog":
        return "dog"
    rank = {1: "Ma", 15: "Dr", 15.5: "Dr (second)"}.get(c.rank, c.rank)
    if isinstance(rank, float):
        rank = int(rank) if rank == int(rank) else rank
    return f"{c.kind} {rank}"
