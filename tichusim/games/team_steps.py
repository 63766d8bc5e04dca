"""How the team games' decisions look in Python: their legal choices, the answers
the engine's script takes (``kernels/outside.py``), and one round as a ``steps.Unit``.

Legal choices, by decision (``Unit.legal()``):

* ``grand_tichu``, ``tichu``: ``[False, True]`` (call or not; a Tichu's ``view.detail`` is the
  decision point: 0 before passing, 1 after, 2 before the seat's first play, §2.3);
* ``pass``: a ``Gifts``, the tuples of distinct hand cards (``int`` masks of one card each),
  one for each seat in ``receivers`` (4 seats: right opponent, partner, left opponent: the
  next seat is the right-hand one, as the rule books say, RULES.md §2.1);
* ``play``: every legal play as the rules core lists them, each a ``cards.combos.Play`` (the
  cards as a mask, and the combination: a led Phoenix at the table's value, §2.6), then
  ``None`` (pass) when passing is allowed;
* ``bomb`` (out of turn, §2.9): the bombs that may be played, then ``None`` (no bomb);
* ``wish``: ``0`` (no wish) and the ranks 2..14 (§2.11);
* ``dragon``: the opponents' seats (§2.12); ``dog``: the two partners' seats (Tientsin, §3).
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from ..cards import notation as cards
from ..cards.combos import Combo, Play
from ..kernels import outside as O
from ..kernels.tichu import batch
from ..kernels.tichu import decide as K
from ..kernels.tichu import variants as V
from ..kernels.tichu.slots import P_OUTSIDE
from ..strategies.tichu import DEFAULT_STRATEGY
from .base import Records, thread_scratch

unit_name = "round key"  # what a Round's key names
decide_use = "team"  # its kernel in the registry's "stepping" family
outside_slot = P_OUTSIDE
default_base = DEFAULT_STRATEGY  # the row under a seat decided from Python (never read)
decisions = ("grand_tichu", "tichu", "pass", "play", "bomb", "wish", "dragon", "dog")


class Gifts:
    """The legal passings (§2.4, §3): one distinct card of ``hand`` for each seat of
    ``receivers``, as a tuple of one-card masks in that order. ``receivers`` runs in turn
    order from the next seat: at 4 seats the right opponent, the partner, the left opponent
    (the rule books' sides, RULES.md §2.1)."""

    def __init__(self, hand: int, seat: int, seats: int, offsets: tuple[int, ...]):
        self.hand = hand
        self.offsets = offsets  # the receivers as places after the giver (script order)
        self.receivers = tuple((seat + d) % seats for d in offsets)
        self.cards = tuple(cards.cards_of(hand))

    def packed(self, choice) -> int:
        """The script's answer: card index + 1 in bits ``6 * (d - 1)`` for offset ``d``."""
        return sum(
            int(c).bit_length() << (6 * (d - 1)) for d, c in zip(self.offsets, choice, strict=False)
        )

    def unpacked(self, packed: int) -> tuple[int, ...]:
        return tuple(1 << (((packed >> (6 * (d - 1))) & 63) - 1) for d in self.offsets)

    def __contains__(self, choice) -> bool:
        if not isinstance(choice, (tuple, list)) or len(choice) != len(self.receivers):
            return False
        picked = [int(c) for c in choice if isinstance(c, (int, np.integer))]
        return (
            len(picked) == len(choice)
            and all(c in self.cards for c in picked)
            and len(set(picked)) == len(picked)
        )

    def __iter__(self):
        return itertools.permutations(self.cards, len(self.receivers))

    def __len__(self) -> int:
        n, k, out = len(self.cards), len(self.receivers), 1
        for i in range(k):
            out *= n - i
        return out

    def __repr__(self) -> str:
        return f"Gifts(hand {cards.format(self.hand)!r}, one card each to seats {self.receivers})"


def renamed(strategy, name: str):
    return dataclasses.replace(strategy, name=name)


def hand_text(view) -> str:
    return cards.format(int(view.hand))


def player_of(game, kept, seat: int) -> int:
    """The player deciding at position ``seat`` (Wu Wang: the King for the Minister, §4)."""
    if game.table != V.WUWANG:
        return seat
    king = int(kept[0][0]["king"])
    player = int(V.wuwang_player(king, seat))
    return king if player == 3 else player


kept_tables = batch.kept_tables


def round_unit(game, seed: int, key: int, params: np.ndarray, check: bool):
    """How ``steps.Round`` plays round ``key`` (``simulate``'s round ``key``): ``(play(kept),
    rounds, seats)``."""
    first = int(game._first_drawers(np.array([key], np.int64))[0])
    rounds = np.zeros((1, 1), batch.ROUND)
    seats = np.zeros((1, 1, game.seats), batch.SEAT)
    half = game.options["phoenix_led_half"]

    def play(kept):
        return batch.play_kept(
            game.table, seed, key, first, params, kept, rounds, seats, check, half
        )

    return play, rounds, seats


def records(game, rounds: np.ndarray, seats: np.ndarray, chosen: list) -> Records:
    r, s = game._by_player(rounds.reshape(-1).copy(), seats.reshape(-1, game.seats).copy())
    return Records(r, s, chosen, None, None, 0, game)


# -- legal choices and answers ------------------------------------------------------------


def choices(game, kept, asked):
    work, privs = kept[0][0], kept[2]
    decision, seat, detail, n = asked
    if decision in (O.D_GRAND_TICHU, O.D_TICHU):
        return [False, True]
    if decision == O.D_PASS:
        offsets = tuple(d for d in range(1, game.seats) if detail >> d & 1)
        return Gifts(int(privs[seat]["hand"]), seat, game.seats, offsets)
    if decision == O.D_PLAY:
        plays = _plays(work["moves_m"], work["moves_c"], n)
        return plays + [None] if detail else plays
    if decision == O.D_BOMB:
        return _plays(work["bombs_m"], work["bombs_c"], n) + [None]
    if decision == O.D_WISH:
        return [0, *range(2, 15)]
    if decision == O.D_DRAGON:
        return [q for q in range(game.seats) if (q - seat) % 2]
    if decision == O.D_DOG:
        return [(seat + 2) % game.seats, (seat + 4) % game.seats]
    raise AssertionError(f"decision code {decision}")


def _plays(masks, codes, n: int) -> list:
    return [
        Play(m, Combo.from_code(c))
        for m, c in zip(masks[:n].tolist(), codes[:n].tolist(), strict=False)
    ]


def answer_of(choice, legal):
    """The answer of ``choice`` among ``legal`` (a play: its index; -1 for ``None``)."""
    if isinstance(legal, Gifts):
        if choice not in legal:
            raise ValueError("not one distinct card of the hand per receiver")
        return legal.packed(choice)
    if legal and isinstance(legal[0], Play) or legal == [None]:
        if choice is None:
            if None in legal:
                return -1
            raise ValueError("passing is not allowed")
        for i, p in enumerate(legal):  # the usual answer: one of the list itself
            if p is choice:
                return i
        if isinstance(choice, Play):
            hits = [
                i
                for i, p in enumerate(legal)
                if p is not None and int(p) == int(choice) and p.combo == choice.combo
            ]
        elif isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            hits = [i for i, p in enumerate(legal) if p is not None and int(p) == int(choice)]
            if len(hits) > 1:
                raise ValueError("these cards play as more than one combination: give the Play")
        else:
            hits = []
        if not hits:
            raise ValueError("not a legal play")
        return hits[0]
    if isinstance(choice, (bool, np.bool_)) and legal == [False, True]:
        return int(choice)
    if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool) and choice in legal:
        return int(choice)
    raise ValueError("not a legal choice")


def decide(game, row: np.ndarray, view, legal):
    """The choice the strategy row ``row`` makes at ``view``'s decision among ``legal``, as the
    engine would (``kernels/tichu/decide.py``); the view's stream moves on as the engine's."""
    from .steps import CODES

    code = CODES[view.decision]
    plays = [p for p in legal if p is not None] if code in (O.D_PLAY, O.D_BOMB) else []
    masks = np.array([int(p) for p in plays] or [0], np.uint64)  # never empty: a typed array
    codes = np.array([p.combo.code for p in plays] or [0], np.int64)
    answer = int(
        K.decide(
            np.ascontiguousarray(row, np.float64),
            view.public,
            view.private,
            code,
            int(view.detail),
            masks,
            codes,
            len(plays),
            thread_scratch(K.scratch),
        )
    )
    if code in (O.D_GRAND_TICHU, O.D_TICHU):
        return bool(answer)
    if code == O.D_PASS:
        return legal.unpacked(answer)
    if code in (O.D_PLAY, O.D_BOMB):
        return None if answer < 0 else legal[answer]
    return answer
