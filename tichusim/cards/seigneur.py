"""Python face of the two-deck card model of Grand Seigneur (RULES.md §5): notation of card
multisets, classification and legal plays through the same kernels the round engine uses
(``kernels.seigneur.cards``, ``.combos``, ``.moves``).

A card multiset is a pair of masks ``(a, b)`` in the layout of ``tichusim.cards``: ``a`` the
cards held at least once, ``b`` the cards held twice (drawing in ``kernels/seigneur/cards.py``).
Notation is the one-deck notation with a card written twice when both copies are meant:
``"7j 7j 7s Dr Dr"``.
"""

from __future__ import annotations

import re

import numpy as np

from ..kernels.seigneur import cards as _gc
from ..kernels.seigneur import combos as _gcombos
from ..kernels.seigneur import moves as _gmoves
from ..kernels.seigneur import rules as _grules
from . import notation as _cards
from .combos import Combo

__all__ = ["DECKS", "classify", "deck", "format", "legal_plays", "parse", "readings"]

DECKS = {"one": _gc.DECK_ONE, "two": _gc.DECK_TWO, "russian": _gc.DECK_RUSSIAN}


def deck(kind: str = "two") -> tuple[int, int]:
    """The deck of §5 as a multiset: ``"one"`` (55 cards), ``"two"`` (109), ``"russian"`` (108)."""
    if kind not in DECKS:
        raise ValueError(f"unknown deck {kind!r} (one of {', '.join(DECKS)})")
    k = DECKS[kind]
    return int(_gc.DECK_A[k]), int(_gc.DECK_B[k])


def parse(text: str) -> tuple[int, int]:
    """Parse notation into ``(a, b)``. A card may appear twice (two decks), never three times;
    ``ValueError`` names the offending card."""
    if not isinstance(text, str):
        raise ValueError(f"card notation must be a string, not {type(text).__name__}")
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    a = b = 0
    for token in tokens:
        bit = _cards.parse(token)
        if b & bit:
            raise ValueError(f"card {token!r} given three times (two decks hold two)")
        if a & bit:
            b |= bit
        else:
            a |= bit
    return a, b


def as_pair(cards) -> tuple[int, int]:
    """Accept notation, a pair of masks or a single mask (one copy of each card)."""
    if isinstance(cards, str):
        return parse(cards)
    if isinstance(cards, tuple) and len(cards) == 2:
        a, b = (int(x) for x in cards)
    elif isinstance(cards, (int, np.integer)) and not isinstance(cards, bool):
        a, b = int(cards), 0
    else:
        raise ValueError(f"cards must be notation or masks (a, b), not {cards!r}")
    full = _cards.DECK
    if a < 0 or b < 0 or a & ~full or b & ~a:
        raise ValueError(f"masks ({a:#x}, {b:#x}) are no card multiset (b must lie inside a)")
    return a, b


def format(a: int, b: int = 0) -> str:  # as tichusim.cards.format
    """Notation of ``(a, b)`` in display order, a doubled card written twice."""
    out = []
    for bit in _cards.cards_of(int(a)):
        text = _cards.format(bit)
        out += [text, text] if int(b) & bit else [text]
    return " ".join(out)


def readings(cards, *, distinct_triples: bool = False) -> list[Combo]:
    """Every reading of a multiset as a combination (led), highest first."""
    a, b = as_pair(cards)
    out = np.zeros(2, np.int64)
    n = _gcombos.readings(np.uint64(a), np.uint64(b), distinct_triples, out)
    return [Combo.from_code(c) for c in out[:n]]


def classify(cards, *, distinct_triples: bool = False) -> Combo | None:
    """The highest reading of a multiset, or ``None`` if it is no combination."""
    found = readings(cards, distinct_triples=distinct_triples)
    return found[0] if found else None


def legal_plays(
    hand, top=None, *, wish: int = 0, top_code: int | None = None, distinct_triples: bool = False
) -> tuple[list[tuple[int, int, int]], bool]:
    """Every distinct multiset ``hand`` may play on its regular turn: ``([(a, b, code)],
    can_pass)``.

    ``top`` is the trick's top as cards, read as led (a lone Dragon 30, a lone Phoenix 1½);
    ``top_code`` gives the top's exact kernel code instead (a second Dragon, a Phoenix on a
    card). ``wish`` is the open wished rank 2..14 or 0."""
    ha, hb = as_pair(hand)
    if top_code is None:
        top_code = 0
        if top is not None:
            ta, tb = as_pair(top)
            top_code = int(_gcombos.classify(np.uint64(ta), np.uint64(tb), distinct_triples))
            if top_code == 0:
                raise ValueError(f"top {format(ta, tb)!r} is not a combination")
            if top_code >> 16 == 7:
                top_code = 0  # the Dog hands the lead on (§2.10)
    if not (wish == 0 or 2 <= wish <= 14):
        raise ValueError(f"wish {wish} is not a rank 2..14")
    rules = _grules.record({"distinct_triples": distinct_triples})
    size = 4096
    while True:
        oa = np.empty(size, np.uint64)
        ob = np.empty(size, np.uint64)
        oc = np.empty(size, np.int64)
        n, can_pass = _gmoves.legal_moves(
            np.uint64(ha), np.uint64(hb), int(top_code), int(wish), rules[0], oa, ob, oc
        )
        if n <= size:
            return [(int(oa[i]), int(ob[i]), int(oc[i])) for i in range(n)], bool(can_pass)
        size = n
