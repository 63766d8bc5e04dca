"""Python face of the combination kernels: classify card sets and list legal plays.

These functions validate their input, convert notation to masks and call the same jitted
kernels the round engine uses (``tichusim.kernels.combos`` and ``tichusim.kernels.moves``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..kernels import combos as _combos
from ..kernels import moves as _moves
from . import notation as _cards

__all__ = [
    "Combo",
    "Play",
    "beats",
    "bombs",
    "classify",
    "combo_code",
    "legal_plays",
    "readings",
    "trick_top",
]


class Combo(NamedTuple):
    """One reading of a card set: ``kind`` (see ``KIND_NAMES``), ``length`` (cards) and the
    comparing ``rank`` (Mah Jong 1, 2..14, Dragon 15, a Phoenix single ``x.5``)."""

    kind: str
    length: int
    rank: float

    @classmethod
    def from_code(cls, code: int) -> Combo:
        return _combo_of(int(code))

    @property
    def code(self) -> int:
        """The kernels' code of this reading (``kernels/combos.py``), ``from_code``'s inverse."""
        return _code_of(self)


@functools.cache
def _combo_of(code: int) -> Combo:
    """A code's reading, made once (a round stepped from Python lists thousands)."""
    return Combo(_combos.KIND_NAMES[code >> 16], (code >> 8) & 0xFF, (code & 0xFF) / 2)


@functools.cache
def _code_of(combo: Combo) -> int:
    """A reading's code, made once (a scripted strategy deciding from Python reads the code
    of every legal play at every decision)."""
    return (
        (_combos.KIND_NAMES.index(combo.kind) << 16) | (combo.length << 8) | round(combo.rank * 2)
    )


class Play(int):
    """A legal play: the card set (an ``int`` mask, usable wherever a mask is) and ``combo``,
    the combination it is played as (a lone Phoenix valued on the trick, RULES.md §2.6)."""

    combo: Combo

    def __new__(cls, cards: int, combo: Combo) -> Play:
        play = super().__new__(cls, cards)
        play.combo = combo
        return play

    @property
    def cards(self) -> int:
        return int(self)

    def __repr__(self) -> str:
        return f"Play({_cards.format(self)!r}, {self.combo})"

    def __reduce__(self):
        return (Play, (int(self), self.combo))


def readings(cards: int | str) -> list[Combo]:
    """Every reading of a card set as a combination, highest first (empty: not a combination)."""
    out = np.zeros(2, np.int64)
    count = _combos.combo_readings(np.uint64(_cards.as_mask(cards)), out)
    return [Combo.from_code(c) for c in out[:count]]


def classify(cards: int | str) -> Combo | None:
    """The highest reading of a card set (RULES.md §2.5), or ``None`` if it is no combination."""
    found = readings(cards)
    return found[0] if found else None


def _legal(cards: int) -> Combo:
    """The reading of a legal play, which is always a combination."""
    combo = classify(cards)
    assert combo is not None, f"legal play {cards:#x} is no combination"
    return combo


def _rank_value(value: int | str | None, what: str, low: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().upper()
        lookup = {c: i + 2 for i, c in enumerate(_cards.RANK_CHARS)} | {"10": 10, "MA": 1, "1": 1}
        if text not in lookup:
            raise ValueError(f"{what} {value!r} is not a rank")
        value = lookup[text]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{what} must be a rank, not {type(value).__name__}")
    if not low <= int(value) <= 14:
        raise ValueError(f"{what} {value} is not a rank {low}..14")
    return int(value)


def combo_code(
    top: int | str | None, phoenix_on: int | str | None = None, *, phoenix_led_half: bool = False
) -> int:
    """Kernel code of a trick's top combination (0 when the player leads, also after the Dog).

    ``phoenix_on``: when the top is the lone Phoenix, the rank of the single it was played on
    (1 for the Mah Jong); ``None`` means it was led and is worth 1½ (RULES.md §2.6), or ½ with
    ``phoenix_led_half`` (the Option of §2.6, the French edition).
    """
    if not isinstance(phoenix_led_half, (bool, np.bool_)):
        raise ValueError(f"phoenix_led_half must be True or False, not {phoenix_led_half!r}")
    on = _rank_value(phoenix_on, "phoenix_on", 1)
    if top is None:
        if on is not None:
            raise ValueError("phoenix_on given but there is no top combination")
        return 0
    mask = _cards.as_mask(top)
    code = _combos.classify(np.uint64(mask))
    if code == 0:
        raise ValueError(f"top {_cards.format(mask)!r} is not a combination")
    if mask == _cards.DOG:
        return 0  # §2.10: the Dog hands the lead on; the next player leads
    if on is not None:
        if mask != _cards.PHOENIX:
            raise ValueError("phoenix_on only applies when the top is the lone Phoenix")
        return _combos.make_code(_combos.SINGLE, 1, 2 * on + 1)
    if mask == _cards.PHOENIX and phoenix_led_half:
        return _combos.make_code(_combos.SINGLE, 1, _combos.RANK2_PHOENIX_LED_HALF)
    return int(code)


def trick_top(trick: Sequence[int | str | None]) -> tuple[int | None, int | None]:
    """The top of a trick given as its plays in order (card sets; ``None`` or ``"pass"`` for
    a pass, skipped), and the rank a lone Phoenix on top was played on (§2.6): the single
    before it, ``None`` when it was led. ``(None, None)`` for a trick with no play yet."""
    plays = [
        _cards.as_mask(p)
        for p in trick
        if p is not None and not (isinstance(p, str) and p.strip().lower() == "pass")
    ]
    if not plays:
        return None, None
    top = plays[-1]
    if top != _cards.PHOENIX or len(plays) == 1:
        return top, None
    under = combo_code(plays[-2])
    if under >> 16 != _combos.SINGLE:
        raise ValueError("a lone Phoenix follows only a single (§2.6)")
    return top, (under & 0xFF) // 2


def _top(
    top: int | str | None,
    trick: Sequence[int | str | None] | None,
    phoenix_on: int | str | None,
) -> tuple[int | str | None, int | str | None]:
    """``top`` and ``phoenix_on``, or both read from ``trick`` (``trick_top``)."""
    if trick is None:
        return top, phoenix_on
    if top is not None or phoenix_on is not None:
        raise ValueError("give the trick, or its top (and phoenix_on), not both")
    return trick_top(trick)


def beats(
    play: int | str,
    top: int | str | None = None,
    *,
    trick: Sequence[int | str | None] | None = None,
    phoenix_on: int | str | None = None,
    phoenix_led_half: bool = False,
) -> bool:
    """Whether card set ``play`` may be played on ``top`` under §2.6–§2.7 (ignoring the wish);
    nothing is played on the Dog, not even a bomb (§2.7, §2.10).

    A Phoenix single is read as played on ``top``; any set with several readings is tried at
    each. ``phoenix_on`` and ``phoenix_led_half`` read a lone Phoenix top (``combo_code``);
    ``trick`` (the trick's plays in order) gives both at once (``trick_top``).
    """
    top, phoenix_on = _top(top, trick, phoenix_on)
    if top is not None and _cards.as_mask(top) == _cards.DOG:
        return False
    top_code = combo_code(top, phoenix_on, phoenix_led_half=phoenix_led_half)
    mask = _cards.as_mask(play)
    if mask == _cards.PHOENIX:
        return _combos.phoenix_single(top_code, _combos.RANK2_PHOENIX_LED) != 0
    out = np.zeros(2, np.int64)
    count = _combos.combo_readings(np.uint64(mask), out)
    return any(_combos.beats(int(c), top_code) for c in out[:count])


def legal_plays(
    hand: int | str,
    top: int | str | None = None,
    *,
    trick: Sequence[int | str | None] | None = None,
    wish: int | str | None = None,
    phoenix_on: int | str | None = None,
    phoenix_led_half: bool = False,
) -> tuple[list[Play], bool]:
    """Every distinct card set ``hand`` may play on its regular turn, and whether it may pass.

    ``hand`` and ``top`` are masks or notation; ``top=None`` (or ``"Dog"``) means the player
    leads. ``wish`` is the open wished rank 2..14 (RULES.md §2.11). A lone Phoenix top was
    played on a single of rank ``phoenix_on``, or led (``None``): then it is worth 1½, or ½
    with ``phoenix_led_half`` (the Option of RULES.md §2.6: the Mah Jong may be played on it).
    ``trick``, the trick's plays in order, gives the top and the Phoenix's value at once
    (``trick_top``). Each card set appears once, whatever its readings, as a ``Play``: the
    mask with the combination it is played as (its highest reading; a lone Phoenix valued on
    this trick).
    """
    top, phoenix_on = _top(top, trick, phoenix_on)
    hand_mask = _cards.as_mask(hand)
    if hand_mask == 0:
        raise ValueError("the hand is empty")
    top_code = combo_code(top, phoenix_on, phoenix_led_half=phoenix_led_half)
    if top is not None and hand_mask & _cards.as_mask(top):
        raise ValueError("the hand and the top combination share cards")
    wish_rank = _rank_value(wish, "wish", 2) or 0
    size = 256
    while True:
        masks = np.empty(size, np.uint64)
        codes = np.empty(size, np.int64)
        count, can_pass = _moves.legal_moves(
            np.uint64(hand_mask), top_code, wish_rank, masks, codes
        )
        if count <= size:
            break
        size = count
    # §2.6: a lone Phoenix is worth ½ more than the single it is played on, or its led value
    led = _combos.RANK2_PHOENIX_LED_HALF if phoenix_led_half else _combos.RANK2_PHOENIX_LED
    phoenix = Combo.from_code(_combos.phoenix_single(top_code, led))
    plays = [
        Play(int(m), phoenix if m == _cards.PHOENIX else _legal(int(m))) for m in masks[:count]
    ]
    return plays, bool(can_pass)


def bombs(
    hand: int | str,
    top: int | str | None = None,
    *,
    trick: Sequence[int | str | None] | None = None,
    phoenix_on: int | str | None = None,
    phoenix_led_half: bool = False,
) -> list[Play]:
    """The bombs ``hand`` may play out of turn on ``top`` (§2.9): every bomb it holds that
    beats the top (§2.7), lowest first; none before the trick is led and none on the Dog
    (§2.10). ``trick``, ``phoenix_on`` and ``phoenix_led_half`` as in ``legal_plays``."""
    top, phoenix_on = _top(top, trick, phoenix_on)
    hand_mask = _cards.as_mask(hand)
    if top is None or _cards.as_mask(top) == _cards.DOG:
        return []
    if hand_mask & _cards.as_mask(top):
        raise ValueError("the hand and the top combination share cards")
    top_code = combo_code(top, phoenix_on, phoenix_led_half=phoenix_led_half)
    size = 64
    while True:
        masks = np.empty(size, np.uint64)
        codes = np.empty(size, np.int64)
        count = _moves.gen_bombs(np.uint64(hand_mask), top_code, masks, codes, 0)
        if count <= size:
            break
        size = count
    found = sorted(zip(codes[:count].tolist(), masks[:count].tolist(), strict=True))
    return [Play(m, Combo.from_code(c)) for c, m in found]
