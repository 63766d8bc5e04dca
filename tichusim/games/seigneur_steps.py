"""How Grand Seigneur's decisions look in Python: legal choices, the script's
answers (``kernels/outside.py``), and one round as a ``steps.Unit``.

Card sets are multisets of up to two decks, ``(a, b)`` masks (``tichusim.cards.seigneur``).
Legal choices, by decision (``Unit.legal()``):

* ``play``: every legal play as the rules core lists them, each a ``GSPlay(a, b, combo)``,
  then ``None`` (pass) when passing is allowed (a forced pass is no decision, §5);
* ``bomb`` (out of turn, §2.9): the bombs that may be played, then ``None`` (no bomb);
* ``wish``: ``0`` (no wish) and the ranks 2..14 (§2.11);
* ``give_back`` (the exchange, §5): a ``GiveBack``, the multisets of ``count`` cards of the
  hand as tuples of one-card masks (a card held twice may appear twice).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..cards import notation as cards
from ..cards import seigneur as gs_cards
from ..cards.combos import Combo
from ..kernels import outside
from ..kernels.seigneur import batch as gs_batch
from ..kernels.seigneur import decide as decide_kernel
from ..kernels.seigneur.policies import G_OUTSIDE
from ..kernels.seigneur.records import GS_ROUND, GS_SEAT, LOG_ROWS, LOG_WIDTH
from ..kernels.seigneur.view import GS_PRIVATE, GS_PUBLIC, MAX_PLAYERS
from ..strategies.seigneur import DEFAULT as DEFAULT_STRATEGY
from .base import Kept, Logged, PlayFn, Records, Steps, thread_scratch
from .view import CODES, Event, View

if TYPE_CHECKING:
    from .seigneur import SeigneurGame


class GSPlay(NamedTuple):
    """A legal play of two decks: the cards as a multiset ``(a, b)`` and its combination."""

    a: int
    b: int
    combo: Combo

    def __repr__(self) -> str:
        return f"GSPlay({gs_cards.format(self.a, self.b)!r}, {self.combo})"


class GiveBack:
    """The legal give-backs of the exchange (§5): ``count`` cards of the hand ``(a, b)``, as a
    tuple of one-card masks (a card held twice may appear twice)."""

    def __init__(self, a: int, b: int, count: int):
        self.a, self.b, self.count = a, b, count
        self.cards = tuple(
            c for bit in cards.cards_of(a) for c in ([bit, bit] if b & bit else [bit])
        )

    def __contains__(self, choice: Any) -> bool:
        if not isinstance(choice, (tuple, list)) or len(choice) != self.count:
            return False
        if not all(isinstance(c, (int, np.integer)) and not isinstance(c, bool) for c in choice):
            return False
        held = Counter(self.cards)
        return all(held[int(c)] >= k for c, k in Counter(int(c) for c in choice).items())

    def __iter__(self) -> Any:
        return iter(dict.fromkeys(itertools.combinations(self.cards, self.count)))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"GiveBack({self.count} of {gs_cards.format(self.a, self.b)!r})"

    def packed(self, choice: Any) -> int:
        return sum(int(c).bit_length() << (6 * i) for i, c in enumerate(choice))

    def unpacked(self, packed: int) -> tuple[int, ...]:
        return tuple(1 << (((packed >> (6 * i)) & 63) - 1) for i in range(self.count))


class SeigneurSteps(Steps):
    """Grand Seigneur's decisions in Python (§5)."""

    game: SeigneurGame

    unit_name = "game"
    outside_slot = G_OUTSIDE
    decisions = ("give_back", "play", "bomb", "wish")
    per_seat = frozenset(
        name
        for dtype in (GS_PUBLIC, GS_PRIVATE)
        for name in dtype.names or ()
        if dtype[name].shape == (MAX_PLAYERS,)
    )
    has_history = False
    log_shape = (LOG_ROWS, LOG_WIDTH)

    @property
    def seats(self) -> int:
        return self.game.players

    @property
    def default_base(self) -> Any:
        return DEFAULT_STRATEGY

    def kept_records(self) -> Kept:
        return gs_batch.kept_records()

    def player_of(self, kept: Kept, seat: int) -> int:
        return int(kept[0][0]["seat_player"][seat])

    def round_unit(
        self, seed: int, key: int, params: np.ndarray, check: bool, deal: Any = None
    ) -> tuple[PlayFn, Logged, np.ndarray, np.ndarray]:
        """The first round of game ``key`` (``simulate``'s independent round ``key``: random
        seating, no exchange)."""
        if deal is not None:
            raise ValueError(f"{self.game.name}: a round from a given deal is a team game's")
        rounds = np.zeros(1, GS_ROUND)
        seats = np.zeros((1, self.game.players), GS_SEAT)
        options = self.game.kernel_options()

        def play(kept: Kept) -> int:
            return gs_batch.play_kept(seed, key, 1, params, options, kept, rounds, seats, check)

        def logged(kept: Kept) -> np.ndarray:
            raise NotImplementedError("Grand Seigneur's views carry no history")

        return play, logged, rounds, seats

    def records(self, rounds: np.ndarray, seats: np.ndarray, chosen: list) -> Records:
        rounds = rounds.copy()
        return Records(
            rounds, seats.copy(), chosen, rounds["game"], rounds["round_in_game"], 0, self.game
        )

    def hand_text(self, view: View) -> str:
        return gs_cards.format(int(view.hand_a), int(view.hand_b))

    def choices(self, kept: Kept, asked: tuple[int, int, int, int]) -> Any:
        work, privs = kept[0][0], kept[2]
        decision, seat, detail, n = asked
        if decision == outside.D_PLAY:
            plays = _plays(work["moves_a"], work["moves_b"], work["moves_c"], n)
            return plays + [None] if detail else plays
        if decision == outside.D_BOMB:
            return _plays(work["bombs_a"], work["bombs_b"], work["bombs_c"], n) + [None]
        if decision == outside.D_WISH:
            return [0, *range(2, 15)]
        if decision == outside.D_GIVE_BACK:
            return GiveBack(int(privs[seat]["hand_a"]), int(privs[seat]["hand_b"]), detail)
        raise AssertionError(f"decision code {decision}")

    def answer_of(self, choice: Any, legal: Any) -> int:
        return answer_of(choice, legal)

    def decide(self, row: np.ndarray, view: View, legal: Any) -> Any:
        """The engine's choice for the strategy row ``row`` (``kernels/seigneur/decide.py``)."""
        code = CODES[view.decision]
        plays = (
            [p for p in legal if p is not None] if code in (outside.D_PLAY, outside.D_BOMB) else []
        )
        a = np.array([p.a for p in plays] or [0], np.uint64)  # never empty: a typed array
        b = np.array([p.b for p in plays] or [0], np.uint64)
        c = np.array([p.combo.code for p in plays] or [0], np.int64)
        answer = int(
            decide_kernel.decide(
                np.ascontiguousarray(row, np.float64),
                view.public,
                view.private,
                code,
                int(view.detail),
                a,
                b,
                c,
                len(plays),
                thread_scratch(decide_kernel.scratch),
            )
        )
        if code == outside.D_GIVE_BACK:
            return legal.unpacked(answer)
        if code in (outside.D_PLAY, outside.D_BOMB):
            return None if answer < 0 else plays[answer]
        return answer

    def history(self, log: np.ndarray, seats: tuple[int, ...]) -> tuple[Event, ...]:
        raise NotImplementedError("Grand Seigneur's views carry no history")

    def scores(self, log: np.ndarray) -> tuple[int, ...]:
        raise NotImplementedError("Grand Seigneur's rounds end in ranks, not scores")


def _plays(a: Any, b: Any, codes: Any, n: int) -> list:
    return [
        GSPlay(x, y, Combo.from_code(c))
        for x, y, c in zip(a[:n].tolist(), b[:n].tolist(), codes[:n].tolist(), strict=False)
    ]


def answer_of(choice: Any, legal: Any) -> int:
    """The script's answer of ``choice`` among ``legal`` (a play: its index; -1 for ``None``);
    ``ValueError`` saying why it is none of them."""
    if isinstance(legal, GiveBack):
        if choice not in legal:
            raise ValueError(f"not {legal.count} cards of the hand")
        return legal.packed(choice)
    if legal and isinstance(legal[0], GSPlay) or legal == [None]:
        if choice is None:
            if None in legal:
                return -1
            raise ValueError("passing is not allowed")
        if isinstance(choice, GSPlay):
            for i, p in enumerate(legal):
                if p == choice:
                    return i
        raise ValueError("not a legal play")
    if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool) and choice in legal:
        return int(choice)
    raise ValueError("not a legal choice")
