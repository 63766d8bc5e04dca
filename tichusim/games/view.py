"""What one seat sees when it decides: the ``View`` an agent is handed, the ``Event`` s of the
round's public record it reads, and the decisions by name (``DECISIONS``).

A bot author's first file: ``Agent`` (``tichusim.games.agents``) gets a ``View`` and the
decision's legal choices at each decision it takes. A view is a copy of the seat's two
records where the round stopped (the table's public record and the seat's own private one,
RULES.md §6), read as attributes; what differs between games (which fields have one entry per
seat, how the hand and the table read, what comes next) the view asks its game's ``Steps``
(``tichusim.games.base.Steps``). The View's fields are listed in ``docs/view.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..cards import notation
from ..cards.combos import Combo
from ..kernels import outside

if TYPE_CHECKING:  # a view's game (``base``) names the View in its Steps: a circle of two
    from .base import Game

__all__ = ["CODES", "DECISIONS", "Event", "View", "next_holder"]

# the decisions by the engine's code (kernels/outside.py) and the Agent method taking each
DECISIONS = {
    outside.D_GRAND_TICHU: "grand_tichu",
    outside.D_TICHU: "tichu",
    outside.D_PASS: "pass",
    outside.D_PLAY: "play",
    outside.D_BOMB: "bomb",
    outside.D_WISH: "wish",
    outside.D_DRAGON: "dragon",
    outside.D_DOG: "dog",
    outside.D_GIVE_BACK: "give_back",
}
CODES = {name: code for code, name in DECISIONS.items()}


class Event(NamedTuple):
    """One event of a round's public record (``View.history``), in the order it happened.

    ``kind`` says what happened (``docs/view.md`` lists them with their RULES.md sections);
    ``seat`` who did it; ``cards`` the cards it showed (a mask, 0 for none); ``combo`` the
    combination a ``play`` or ``bomb`` was played as (``None`` otherwise); ``value`` a number
    the kind gives meaning to (a wished rank, a trick's card points, a place out, a Tichu's
    decision point; 0 when none); ``to`` the seat it reached (the Dog's lead, the Dragon's
    trick, a trick's pile, a passed card; -1 when none)."""

    kind: str
    seat: int
    cards: int = 0
    combo: Combo | None = None
    value: int = 0
    to: int = -1

    def __str__(self) -> str:
        text = f"seat {self.seat} {self.kind}"
        if self.cards:
            text += f" {notation.format(self.cards)}"
        if self.combo is not None:
            text += f" [{self.combo.kind} {self.combo.rank:g}]"
        if self.value:
            text += f" value {self.value}"
        if self.to >= 0:
            text += f" to seat {self.to}"
        return text


class View:
    """What one seat may know when it decides (RULES.md §6): the table's public record and the
    seat's own private record, copies taken where the round stopped; never another seat's
    hand. ``docs/view.md`` lists every field with its meaning and RULES section.

    Fields read as attributes (``view.hand``, ``view.counts``, ``view.wish``: the private
    record first, then the public one); a field with one entry per seat is as long as the
    table has seats (``Steps.per_seat``), seats past the end of a list padded with -1
    (``out_order``). ``decision`` and ``detail`` say what is asked; ``random`` is the seat's
    own generator for a Python agent, seeded by (seed, key, seat). ``history`` is the round's
    public record so far as ``Event`` s (the seat's own passed cards included), ``trick`` the
    plays and passes of the trick in play, ``next_turn`` the seat whose turn comes next and
    ``trick_over`` whether the trick in play is collected first."""

    def __init__(
        self,
        game: Game,
        public: np.ndarray,
        private: np.ndarray,
        decision: str,
        detail: int,
        random: np.random.Generator | None = None,
        history: Callable[[], tuple[Event, ...]] | None = None,
    ):
        self.game = game
        self.public = public  # one-record arrays: a scripted strategy's kernel takes them
        self.private = private
        self.decision = decision
        self.detail = detail
        self.random = random
        self._history = history

    @property
    def variant(self) -> str:
        return self.game.name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # never a record field: copying and pickling look for these
            raise AttributeError(name)
        for rec in ("private", "public"):
            arr = self.__dict__.get(rec)
            if arr is not None and name in arr.dtype.names:
                return self._field(arr, name)
        raise AttributeError(f"a view has no field {name!r}")

    def _field(self, arr: np.ndarray, name: str) -> Any:
        value = arr[0][name]
        if value.dtype.names:  # a record in the record (the table's ``rules``): by name
            return {k: value[k].item() for k in value.dtype.names}
        if not isinstance(value, np.ndarray):
            return value.item()
        if name in self.game.steps.per_seat:
            return value[: self.game.steps.seats].copy()
        return value.copy()

    def fields(self) -> dict[str, Any]:
        """Every record field of the view: public ones, then private ones (these win a name
        clash)."""
        return {
            name: self._field(arr, name)
            for arr in (self.public, self.private)
            for name in arr.dtype.names or ()
        }

    @functools.cached_property
    def history(self) -> tuple[Event, ...]:
        """The round's public record so far, in order (``Event``), with the seat's own passed
        and received cards: built at the first read by a logged replay of the round."""
        if self._history is None:
            raise RuntimeError(f"{self.game.name}: this view carries no history")
        return self._history()

    @property
    def trick(self) -> tuple[Event, ...]:
        """The plays, passes and bombs of the trick in play, in order (empty when leading)."""
        out: list[Event] = []
        for event in self.history:
            if event.kind in ("trick", "dog"):
                out = []
            elif event.kind in ("play", "pass", "bomb"):
                out.append(event)
        return tuple(out)

    @property
    def next_turn(self) -> int:
        """The seat whose turn (a play or a pass) comes next if nobody bombs: the seat itself
        at ``play`` and at a Tichu asked before its turn; after a bomb offer, a wish or the
        Dragon's gift, the next seat holding cards (after the trick is collected when
        ``trick_over``); -1 before the play begins and where it depends on the answer
        (``grand_tichu``, the passing, ``dog``)."""
        return self.game.steps.next_turn(self)

    @property
    def trick_over(self) -> bool:
        """Whether, unless a bomb comes, the trick in play is collected by ``top_seat`` before
        the next turn (at a bomb offer after the last pass)."""
        return self.game.steps.trick_over(self)

    def encode(self, candidates: Any) -> np.ndarray:
        """The features a learned player scores, one row per candidate (a legal ``Play``,
        ``None`` for a pass or no bomb, or a ``(mask, code)`` pair): a team game's view only
        (``tichusim.games.encoding.encode``; the layout: ``docs/encoding.md``)."""
        return self.game.steps.encode(self, CODES.get(self.decision, outside.D_NONE), candidates)

    def __repr__(self) -> str:
        return (
            f"View(seat {self.seat}, {self.decision}, detail {self.detail}, hand "
            f"{self.game.steps.hand_text(self)})"
        )

    def __str__(self) -> str:
        """The view as a person reads it: the decision, the hand, the table, the trick."""
        return self.game.steps.view_text(self)


def next_holder(counts: Sequence[int] | np.ndarray, seat: int) -> int:
    """The next seat after ``seat`` in turn order that still holds cards (``seat`` itself
    last; -1: none), for ``counts`` cards per seat: who plays next (RULES.md §2.8). The
    engine's own is ``kernels/tichu/tricks.py``'s ``_next_holder``."""
    n = len(counts)
    for d in range(1, n + 1):
        q = (seat + d) % n
        if counts[q] > 0:
            return q
    return -1
