"""Cards as bits of one ``uint64``, and the text notation (RULES.md §1).

Bit layout
==========
The 52 ranked cards sit in four 16-bit *suit lanes*; inside a lane, bit ``r`` is rank ``r``
(2..14, Ace = 14). The free bits at the edges of the lanes hold the four special cards, placed
at the rank they play at::

    bit   63 .......... 48 47 .......... 32 31 .......... 16 15 .......... 0
          lane 3: Star (t) lane 2: Pagoda  lane 1: Sword (s) lane 0: Jade (j)

    inside each lane (bit = rank):
          15  14 13 12 11 10  9  8  7  6  5  4  3  2   1    0
          --  A  K  Q  J  T   9  8  7  6  5  4  3  2   --   --

    specials:   bit  1 (lane 0, rank-1 column)   Mah Jong  "Ma"
                bit 15 (lane 0, rank-15 column)  Dragon    "Dr"
                bit  0 (lane 0)                  Dog       "Dog"
                bit 16 (lane 1, bit 0)           Phoenix   "Ph"

Why this layout: the hot questions of combination finding become a handful of bitwise
operations on four lanes ``a, b, c, d`` (``lane(m, s) = (m >> 16*s) & 0xFFFF``):

* ranks held at all: ``a | b | c | d`` (the Mah Jong appears as rank 1 there, so straights
  starting with it fall out of the same run test);
* ranks held at least twice / three times / four times: bit-sliced majority terms such as
  ``(a & b) | (a & c) | ...`` and ``a & b & c & d`` (four-of-a-kind bombs);
* straight flushes: runs of five or more set bits inside a single lane;
* a run of ``L`` consecutive ranks ending at ``r``: ``x & x>>1 & ... & x>>(L-1)``.

Bits 0 and 1 (and 15) of lanes 1..3 are always zero and the specials are masked away with
``RANK_LANE`` before rank arithmetic, so a special card can never join a pair or bomb by
accident (the gap trick of DouZero's rank numbering).

Notation
========
A normal card is a rank and a suit letter: ranks ``2``..``9``, ``T`` (or ``10``), ``J``,
``Q``, ``K``, ``A``; suits ``j`` Jade, ``s`` Sword, ``p`` Pagoda, ``t`` Star (``Ts``, ``Aj``,
``5t``). Specials: ``Ma`` (Mah Jong; also ``1``), ``Dog``, ``Ph``, ``Dr``. Cards are separated
by spaces or commas; case does not matter (``ts`` is the Ten of Swords: the first letter of a
two-letter card is always its rank).
"""

from __future__ import annotations

import re

import numpy as np

from ..kernels import bits as _bits

__all__ = [
    "DECK",
    "DOG",
    "DRAGON",
    "MAH_JONG",
    "PHOENIX",
    "RANK_LANE",
    "SPECIALS",
    "SUITS",
    "card_bit",
    "cards_of",
    "format",
    "parse",
    "points",
]

SUITS = "jspt"  # lane order: Jade, Sword, Pagoda, Star
RANK_CHARS = "23456789TJQKA"  # ranks 2..14

# The layout is the kernels' (``kernels.bits``, one definition); here as Python ints.
MAH_JONG = int(_bits.MAH_JONG)
DOG = int(_bits.DOG)
PHOENIX = int(_bits.PHOENIX)
DRAGON = int(_bits.DRAGON)
SPECIALS = int(_bits.SPECIALS)

RANK_LANE = int(_bits.RANK_LANE)  # bits 2..14 of a lane: the ranks 2..A
NORMAL = int(_bits.NORMAL)
DECK = NORMAL | SPECIALS  # all 56 cards


def card_bit(rank: int, suit: int) -> int:
    """Bit index of the normal card of ``rank`` (2..14) and ``suit`` (0..3, see ``SUITS``)."""
    if not (2 <= rank <= 14 and 0 <= suit <= 3):
        raise ValueError(f"no card of rank {rank} and suit {suit}")
    return 16 * suit + rank


_SPECIAL_NAMES = {
    "ma": MAH_JONG,
    "1": MAH_JONG,
    "mahjong": MAH_JONG,
    "sparrow": MAH_JONG,
    "dog": DOG,
    "hound": DOG,
    "ph": PHOENIX,
    "phoenix": PHOENIX,
    "dr": DRAGON,
    "dragon": DRAGON,
}
_SPECIAL_TEXT = {MAH_JONG: "Ma", DOG: "Dog", PHOENIX: "Ph", DRAGON: "Dr"}
_RANK_OF_TEXT = {ch.lower(): i + 2 for i, ch in enumerate(RANK_CHARS)} | {"10": 10}
_TOKEN = re.compile(r"^(10|[2-9tjqka])([jspt])$")


def _parse_token(token: str) -> int:
    low = token.lower()
    if low in _SPECIAL_NAMES:
        return _SPECIAL_NAMES[low]
    m = _TOKEN.match(low)
    if m is None:
        raise ValueError(f"unknown card {token!r}")
    return 1 << card_bit(_RANK_OF_TEXT[m.group(1)], SUITS.index(m.group(2)))


def parse(text: str) -> int:
    """Parse card notation into a mask. Raises ``ValueError`` naming a bad or repeated card."""
    if not isinstance(text, str):
        raise ValueError(f"card notation must be a string, not {type(text).__name__}")
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise ValueError("no cards given")
    mask = 0
    for token in tokens:
        bit = _parse_token(token)
        if mask & bit:
            raise ValueError(f"card {token!r} given twice")
        mask |= bit
    return mask


def cards_of(mask: int) -> list[int]:
    """Single-bit masks of the cards in ``mask``, in display order (see ``format``)."""
    mask = int(mask)
    if mask & ~DECK:
        raise ValueError(f"mask {mask:#x} has bits that are no card")
    out = [b for b in (DOG, MAH_JONG) if mask & b]
    for rank in range(2, 15):
        out += [1 << (16 * s + rank) for s in range(4) if mask >> (16 * s + rank) & 1]
    out += [b for b in (PHOENIX, DRAGON) if mask & b]
    return out


def _card_text(bit: int) -> str:
    if bit in _SPECIAL_TEXT:
        return _SPECIAL_TEXT[bit]
    index = bit.bit_length() - 1
    return RANK_CHARS[index % 16 - 2] + SUITS[index // 16]


def format(mask: int) -> str:  # noqa: A001 - the public name is cards.format
    """Notation of ``mask``: Dog, Mah Jong, ranks 2..A (suits j s p t), Phoenix, Dragon."""
    return " ".join(_card_text(b) for b in cards_of(mask))


_POINTS = {DRAGON: 25, PHOENIX: -25}


def points(mask: int) -> int:
    """Card points of a set (RULES.md §1): 5s = 5, 10s and Kings = 10, Dragon 25, Phoenix -25."""
    total = sum(v for b, v in _POINTS.items() if mask & b)
    for rank, value in ((5, 5), (10, 10), (13, 10)):
        total += value * sum(int(mask) >> (16 * s + rank) & 1 for s in range(4))
    return total


def as_mask(cards: int | str | np.integer) -> int:
    """Accept a mask or notation; validate that it names only real cards."""
    if isinstance(cards, str):
        return parse(cards)
    if isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        mask = int(cards)
        if mask < 0 or mask & ~DECK:
            raise ValueError(f"mask {mask:#x} has bits that are no card")
        return mask
    raise ValueError(f"cards must be a notation string or a mask, not {type(cards).__name__}")


_RANK_ONLY = {ch.lower(): i + 2 for i, ch in enumerate(RANK_CHARS)} | {"10": 10}


def parse_pattern(text: str, count: int = 8) -> tuple[int, np.ndarray]:
    """Parse a hand pattern: exact cards (``Aj``, ``Dr``) and ranks without a suit (``A``,
    ``K``, ``9``, ``T`` or ``10``), each standing for one more card of that rank whose suit is
    left open (``gt-odds`` draws it among the free suits, so its estimate averages over them).

    Returns ``(exact_mask, rank_counts)``: the mask of the exact cards and an ``int64`` array of
    length 15 whose entry ``r`` (2..14) counts the suit-less cards of rank ``r`` — a fixed
    deal's ``fixed_cards`` and ``fixed_ranks`` (``kernels.tichu.batch.Run``). Raises
    ``ValueError`` with one clear sentence when the pattern does not name ``count`` cards,
    repeats an exact card, asks for more than four cards of a rank, or holds an unknown token.
    ``1`` stays the Mah Jong, as in ``parse``.
    """
    if not isinstance(text, str):
        raise ValueError(f"hand must be a string, not {type(text).__name__}")
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not tokens:
        raise ValueError("no cards given")
    exact = 0
    ranks = np.zeros(15, np.int64)
    for token in tokens:
        low = token.lower()
        if low in _RANK_ONLY:
            ranks[_RANK_ONLY[low]] += 1
            continue
        try:
            bit = _parse_token(token)
        except ValueError:
            raise ValueError(
                f"unknown card {token!r} (a card like Aj or Dr, or a rank like A for any suit)"
            ) from None
        if exact & bit:
            raise ValueError(f"card {token!r} given twice")
        exact |= bit
    for r in range(2, 15):
        held = ranks[r] + sum(exact >> (16 * s + r) & 1 for s in range(4))
        if held > 4:
            raise ValueError(f"{held} cards of rank {RANK_CHARS[r - 2]} given; there are 4")
    if len(tokens) != count:
        raise ValueError(f"a hand of {count} cards is needed, {len(tokens)} given")
    return exact, ranks


def format_pattern(exact: int, ranks) -> str:
    """Notation of a pattern (inverse of ``parse_pattern``): the exact cards, then the
    suit-less ranks from low to high."""
    free = [RANK_CHARS[r - 2] for r in range(2, 15) for _ in range(int(ranks[r]))]
    return " ".join(([format(exact)] if exact else []) + free)
