"""The one transcript loop: walk a round's event log, asking the game how to word each event.

The engines log different events with different codes (the team games and Grand Seigneur),
so a game supplies a ``Wording``: which events belong to a trick in play (a ``-- trick N``
line opens before the first of a new trick), which end a trick, and the lines of each event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..cards.combos import Combo

__all__ = ["Wording", "combo_name", "narrate"]


class Wording(NamedTuple):
    trick_events: frozenset  # plays, bombs and passes
    trick_ends: frozenset  # a trick won, or the lead passed by the Dog
    say: Callable[[tuple], list[str]]  # one log row -> its lines


def narrate(header: list[str], log, wording: Wording) -> str:
    """``header`` then the log's events, one or more lines each, with trick numbers."""
    lines = list(header)
    trick = 1
    new_trick = True
    for row in log.tolist():
        event = row[0]
        if event in wording.trick_events and new_trick:
            lines.append(f"-- trick {trick}")
            new_trick = False
        lines.extend(wording.say(row))
        if event in wording.trick_ends:
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
