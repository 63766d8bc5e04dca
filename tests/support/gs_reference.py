"""Slow, obviously-correct reference for Grand Seigneur combinations with one or two decks.

Written from RULES.md §2.5-§2.11 and §5 alone, independently of ``tichusim`` (it imports
nothing from it), so the tests can cross-check the kernels against a plain brute-force
reading of the rules.

Cards are tokens as in ``tests/support/reference.py`` (``"7j"``, ``"Ma"``, ``"Dog"``, ``"Ph"``,
``"Dr"``); a card set is a **multiset**: a sorted tuple of tokens in which a token appears
once or twice (two decks).

A reading is ``Combo(kind, length, rank)`` with kind in ``KINDS``; rank: single -> the card's
value (Ma 1, 2..14, Dragon 15, a Dragon played on a Dragon 15.5, the Phoenix ½ above the
single it is played on or 1.5 when led); pair/triple/fullhouse -> the rank of the pair, the
triple, the triple; stairs/straight -> the highest rank; bomb4 -> the rank; bombsf ->
``(length, highest rank)``.

Rules encoded here (RULES.md):
* §2.5 the table of combinations; the Mah Jong only alone or at the bottom of a straight; the
  Phoenix stands for any rank 2..A, never in a bomb; Dog and Dragon only alone; a straight
  flush is a bomb; four of a rank plus the Phoenix is no full house.
* §5 with two decks: a second Dragon beats the first; a four-of-a-kind bomb needs four
  different suits; a straight flush one suit; Option: a triple's cards in different suits.
* Decisions of the implementation (documented in ``tichusim/kernels/seigneur/combos.py``): at most
  one Phoenix per combination; a Phoenix single may not be played on a Phoenix worth A½.
"""

from collections import Counter, namedtuple
from itertools import pairwise, product

Combo = namedtuple("Combo", ["kind", "length", "rank"])

KINDS = ("single", "pair", "triple", "stairs", "fullhouse", "straight", "dog", "bomb4", "bombsf")
BOMBS = ("bomb4", "bombsf")
RANKS = "23456789TJQKA"
VALUE = {ch: i + 2 for i, ch in enumerate(RANKS)}
SUITS = "jspt"
SPECIALS = ("Ma", "Dog", "Ph", "Dr")
NORMAL_CARDS = tuple(r + s for r in RANKS for s in SUITS)
DRAGON, DRAGON_ON_DRAGON = 15, 15.5


def deck(kind):
    """The deck of §5 as a Counter: ``"one"`` (55), ``"two"`` (109) or ``"russian"`` (108)."""
    if kind == "one":
        return Counter(NORMAL_CARDS + ("Ma", "Ph", "Dr"))
    if kind == "two":
        return Counter(NORMAL_CARDS * 2 + ("Ma", "Ph", "Ph", "Dr", "Dr"))
    if kind == "russian":
        return Counter(NORMAL_CARDS * 2 + ("Ma", "Dog", "Ph", "Dr"))
    raise ValueError(kind)


def is_bomb(reading):
    return reading.kind in BOMBS


def _natural(cards, distinct_triples):
    """Readings of real cards ``(rank, suit)`` (the Phoenix already given a rank and the suit
    ``"*"``, a suit of its own), without the Mah Jong."""
    n = len(cards)
    counts = Counter(r for r, _ in cards)
    ranks = sorted(counts)
    suits_of = {r: [s for q, s in cards if q == r] for r in ranks}

    def different_suits(r):
        return len(set(suits_of[r])) == len(suits_of[r])

    out = []
    if n == 2 and len(ranks) == 1:
        out.append(Combo("pair", 2, ranks[0]))
    if n == 3 and len(ranks) == 1 and (not distinct_triples or different_suits(ranks[0])):
        out.append(Combo("triple", 3, ranks[0]))
    if n == 4 and len(ranks) == 1 and len(set(suits_of[ranks[0]])) == 4:
        out.append(Combo("bomb4", 4, ranks[0]))
    if n == 5 and sorted(counts.values()) == [2, 3]:
        t = next(r for r in ranks if counts[r] == 3)
        if not distinct_triples or different_suits(t):
            out.append(Combo("fullhouse", 5, t))
    consecutive = all(b == a + 1 for a, b in pairwise(ranks))
    if n >= 4 and n % 2 == 0 and all(counts[r] == 2 for r in ranks) and consecutive:
        out.append(Combo("stairs", n, ranks[-1]))
    if n >= 5 and len(ranks) == n and consecutive:
        if len({s for _, s in cards}) == 1:
            out.append(Combo("bombsf", n, (n, ranks[-1])))
        else:
            out.append(Combo("straight", n, ranks[-1]))
    return out


def readings(cards, on=None, distinct_triples=False):
    """Every reading of the multiset ``cards`` as it would be played on the reading ``on``
    (None: led). Only a lone Phoenix and a lone Dragon depend on ``on``. Sorted by rank."""
    cards = tuple(cards)
    if not cards:
        return []
    if len(cards) == 1:
        (c,) = cards
        if c == "Dog":
            return [Combo("dog", 1, 0)]
        if c == "Ma":
            return [Combo("single", 1, 1)]
        if c == "Dr":
            second = on is not None and on.kind == "single" and on.rank == DRAGON
            return [Combo("single", 1, DRAGON_ON_DRAGON if second else DRAGON)]
        if c == "Ph":
            if on is None or on.kind != "single":
                return [Combo("single", 1, 1.5)]
            if on.rank >= 14.5:
                return []  # never on a Dragon, nor on a Phoenix worth A½ (Decision)
            return [Combo("single", 1, on.rank + 0.5)]
        return [Combo("single", 1, VALUE[c[0]])]
    if "Dog" in cards or "Dr" in cards or cards.count("Ph") > 1:
        return []
    real = [(VALUE[c[0]], c[1]) for c in cards if c not in SPECIALS]
    if "Ma" in cards:
        # only the bottom of a straight (rank 1), never a straight flush: it has no suit
        out = set()
        fills = range(2, 15) if "Ph" in cards else [None]
        for x in fills:
            rs = sorted([1] + [r for r, _ in real] + ([x] if x else []))
            if len(rs) >= 5 and all(b == a + 1 for a, b in pairwise(rs)):
                out.add(Combo("straight", len(rs), rs[-1]))
        return sorted(out, key=lambda r: r.rank)
    if "Ph" in cards:
        out = set()
        for x in range(2, 15):
            for reading in _natural(real + [(x, "*")], distinct_triples):
                if not is_bomb(reading):
                    out.add(reading)
        return sorted(out, key=lambda r: r.rank)
    return sorted(_natural(real, distinct_triples), key=lambda r: r.rank)


def beats(play, top):
    """RULES.md §2.6-§2.7, §2.10: whether reading ``play`` may be played on reading ``top``."""
    if top.kind == "dog" or play.kind == "dog":
        return False
    if is_bomb(play):
        if not is_bomb(top):
            return True
        if play.kind != top.kind:
            return play.kind == "bombsf"
        return play.rank > top.rank
    if is_bomb(top):
        return False
    if (play.kind, play.length) != (top.kind, top.length):
        return False
    return play.rank > top.rank


def sub_multisets(hand):
    """Every non-empty sub-multiset of ``hand`` (a sequence of tokens), as sorted tuples."""
    counts = Counter(hand)
    tokens = sorted(counts)
    for picks in product(*(range(counts[t] + 1) for t in tokens)):
        sub = tuple(t for t, k in zip(tokens, picks, strict=False) for _ in range(k))
        if sub:
            yield sub


def has_rank(cards, wish):
    return any(c not in SPECIALS and VALUE[c[0]] == wish for c in cards)


def legal_plays(hand, top=None, wish=None, distinct_triples=False):
    """``(plays, can_pass)``: every sub-multiset ``hand`` may play on its regular turn when the
    trick's top reading is ``top`` (None or the Dog: leading) and ``wish`` is open (§2.8-§2.11).
    """
    leading = top is None or top.kind == "dog"
    plays, bombs = set(), set()
    for sub in sub_multisets(hand):
        found = readings(sub, None if leading else top, distinct_triples)
        if not leading:
            found = [r for r in found if beats(r, top)]
        if found:
            plays.add(sub)
            if any(is_bomb(r) for r in found):
                bombs.add(sub)
    can_pass = not leading
    if wish is not None and has_rank(hand, wish):
        fulfilling = {p for p in plays if has_rank(p, wish)}
        if fulfilling:
            plays = fulfilling if leading else fulfilling | bombs
            can_pass = False
    return plays, can_pass


def best_reading(cards, on=None, distinct_triples=False):
    """The reading a played set takes: its highest one that beats ``on`` (None: led)."""
    found = readings(cards, on, distinct_triples)
    if on is not None and on.kind != "dog":
        found = [r for r in found if beats(r, on)]
    return max(found, key=lambda r: r.rank) if found else None


def best_cards(hand, k, russian=False):
    """The ``k`` best cards of ``hand`` (§5): Dragon, Phoenix, Mah Jong, (Dog, Russian order),
    A, K, ..., 2; among one rank any suit (returned as ranks: the test compares ranks)."""
    order = ["Dr", "Ph", "Ma"] + (["Dog"] if russian else []) + list(RANKS[::-1])

    def key(c):
        return order.index(c if c in SPECIALS else c[0])

    return sorted(hand, key=key)[:k]
