"""Slow, obviously-correct reference for Tichu combinations and legal plays.

Written independently of ``tichusim`` (it must not import it) so that the test suite can
cross-check the fast implementation against a plain brute-force reading of RULES.md
(§1, §2.5-§2.11).

Card notation (canonical tokens, case-sensitive)
------------------------------------------------
* normal card: rank char + suit char; ranks ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``
  (values 2..14), suits ``j`` ``s`` ``p`` ``t``. Example: ``"Tj"`` = ten of Jade.
* specials: ``"Ma"`` (Mah Jong, rank 1), ``"Dog"``, ``"Ph"`` (Phoenix), ``"Dr"`` (Dragon).
* a card set is a ``frozenset`` of tokens.

API
---
* ``ALL_CARDS``: tuple of the 56 tokens.
* ``parse_cards(text) -> frozenset``
* ``classify(cards, phoenix_on=None, phoenix_led_half=False) -> list[Combo]``: every valid
  reading (RULES.md §2.5).
* ``beats(play, top) -> bool``: RULES.md §2.6-§2.7 (and §2.10: nothing beats the Dog).
* ``legal_plays(hand, top=None, wish=None, phoenix_on=None, phoenix_led_half=False)
  -> (set[frozenset], bool)``: brute force over every non-empty subset of the hand,
  RULES.md §2.8-§2.11.

A reading is ``Combo(kind, length, rank)``:
* kind in ``KINDS``; length = number of cards;
* rank: single -> card rank (Ma 1, 2..14, Dragon 15; the Phoenix single: see below);
  pair/triple -> that rank; stairs/straight -> highest rank; fullhouse -> the triple's rank;
  bomb4 -> rank; bombsf -> the tuple ``(length, highest rank)``; dog -> 0.

The Phoenix single's value (RULES.md §2.6) is given by ``classify``'s ``phoenix_on``
argument: ``phoenix_on + 0.5`` when it is played on a single of rank ``phoenix_on``, ``1.5``
when ``phoenix_on`` is None (led). ``phoenix_on`` is ignored for every other card set.
With ``phoenix_led_half=True`` (the French edition's Option of RULES.md §2.6) the led Phoenix
is worth ``0.5`` instead, and so the Mah Jong (1) beats it.
"""

from collections import Counter, namedtuple
from functools import cache
from itertools import combinations

Combo = namedtuple("Combo", ["kind", "length", "rank"])

KINDS = ("single", "pair", "stairs", "triple", "fullhouse", "straight", "bomb4", "bombsf", "dog")
BOMB_KINDS = ("bomb4", "bombsf")

RANK_CHARS = "23456789TJQKA"
RANK_VALUE = {ch: value for value, ch in enumerate(RANK_CHARS, start=2)}  # '2'->2 .. 'A'->14
SUITS = "jspt"

MAHJONG, DOG, PHOENIX, DRAGON = "Ma", "Dog", "Ph", "Dr"
SPECIALS = (MAHJONG, DOG, PHOENIX, DRAGON)
MAHJONG_RANK = 1
DRAGON_RANK = 15
PHOENIX_LED_VALUE = 1.5  # RULES.md §2.6 (default)
PHOENIX_LED_VALUE_HALF = 0.5  # RULES.md §2.6 Option (the French edition)

ALL_CARDS = tuple(r + s for r in RANK_CHARS for s in SUITS) + SPECIALS
_ALL_CARDS_SET = frozenset(ALL_CARDS)


def parse_cards(text):
    """``"Ma 2j Ph"`` -> ``frozenset({"Ma", "2j", "Ph"})``. Rejects unknown or repeated tokens."""
    tokens = text.split()
    for token in tokens:
        if token not in _ALL_CARDS_SET:
            raise ValueError(f"unknown card token {token!r}")
    cards = frozenset(tokens)
    if len(cards) != len(tokens):
        raise ValueError(f"repeated card in {text!r}")
    return cards


def format_cards(cards):
    """Sorted, space-separated string of a card set (the jsonl's format)."""
    return " ".join(sorted(cards))


def _rank_of_token(token):
    if token == MAHJONG:
        return MAHJONG_RANK
    if token == DRAGON:
        return DRAGON_RANK
    if token in (DOG, PHOENIX):
        return None
    return RANK_VALUE[token[0]]


CARD_RANK = {token: _rank_of_token(token) for token in ALL_CARDS}


def card_rank(token):
    """Rank of a card: Ma 1, normal 2..14, Dragon 15; None for the Dog and the Phoenix."""
    return CARD_RANK[token]


def is_bomb(reading):
    return reading.kind in BOMB_KINDS


# ---------------------------------------------------------------------------------------------
# Classification (RULES.md §2.5)
# ---------------------------------------------------------------------------------------------


def classify(cards, phoenix_on=None, phoenix_led_half=False):
    """Every valid reading of ``cards`` as one combination (RULES.md §2.5), sorted by rank.

    A set may have several readings only through the Phoenix (e.g. ``7 7 8 8 Ph`` is a full
    house of 7s or of 8s; ``T J Q K Ph`` is a straight to the K or to the A). All readings of
    one set always have the same kind and length. An invalid set gives ``[]``.
    """
    cards = frozenset(cards)
    if not cards <= _ALL_CARDS_SET:
        raise ValueError(f"unknown card token(s) {sorted(cards - _ALL_CARDS_SET)!r}")
    if not cards:
        return []

    if len(cards) == 1:
        (card,) = cards
        if card == DOG:
            return [Combo("dog", 1, 0)]
        if card == PHOENIX:
            # RULES.md §2.6: ½ above the single it is played on, 1½ when led (the Option: ½).
            if phoenix_on is not None:
                value = phoenix_on + 0.5
            elif phoenix_led_half:
                value = PHOENIX_LED_VALUE_HALF
            else:
                value = PHOENIX_LED_VALUE
            return [Combo("single", 1, value)]
        return [Combo("single", 1, card_rank(card))]

    # RULES.md §2.5: the Dragon and the Dog are only ever played alone.
    if DOG in cards or DRAGON in cards:
        return []

    normal = [c for c in cards if c not in SPECIALS]
    ranks = tuple(sorted([CARD_RANK[c] for c in normal]))
    one_suit = len(normal) > 0 and len({c[1] for c in normal}) == 1
    return list(_classify_multi(ranks, MAHJONG in cards, PHOENIX in cards, one_suit))


@cache
def _classify_multi(normal_ranks, has_mahjong, has_phoenix, one_suit):
    """Readings of a set of >= 2 cards without Dog/Dragon, described by its shape.

    normal_ranks: sorted ranks (2..14) of the normal cards; one_suit: all normal cards share a
    suit (only matters without Ma/Phoenix, for the straight flush).
    """
    if not has_phoenix:
        return tuple(
            sorted(_natural_readings(normal_ranks, has_mahjong, one_suit), key=lambda r: r.rank)
        )
    # RULES.md §2.5: the Phoenix stands for any rank 2..A (never 1 = Mah Jong, never Dog or
    # Dragon) and is never part of a bomb. Try it as every rank; keep the non-bomb readings.
    readings = set()
    for phoenix_rank in range(2, 15):
        ranks = tuple(sorted(normal_ranks + (phoenix_rank,)))
        for reading in _natural_readings(ranks, has_mahjong, one_suit=False):
            if not is_bomb(reading):
                readings.add(reading)
    return tuple(sorted(readings, key=lambda r: r.rank))


def _is_run(ranks):
    """True if the sorted ranks are consecutive integers without repeats."""
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def _natural_readings(ranks, has_mahjong, one_suit):
    """Readings of cards with the given sorted ranks 2..14 (plus the Mah Jong if has_mahjong).

    No wildcards here: every rank is one real (or Phoenix-substituted) card.
    """
    readings = []
    if has_mahjong:
        # RULES.md §2.5: the Mah Jong (rank 1) is only a single or the bottom of a straight.
        all_ranks = (MAHJONG_RANK,) + ranks
        if len(all_ranks) >= 5 and _is_run(all_ranks):
            # Never a straight flush: the Mah Jong has no suit (RULES.md §2.5 table: SF is 2-A).
            readings.append(Combo("straight", len(all_ranks), all_ranks[-1]))
        return readings

    n = len(ranks)
    counts = Counter(ranks)
    distinct = sorted(counts)

    if n == 2 and len(counts) == 1:
        readings.append(Combo("pair", 2, ranks[0]))
    if n == 3 and len(counts) == 1:
        readings.append(Combo("triple", 3, ranks[0]))
    if n == 4 and len(counts) == 1:
        readings.append(Combo("bomb4", 4, ranks[0]))
    if n == 5 and sorted(counts.values()) == [2, 3]:
        # A triple plus a pair of ANOTHER rank: four of a kind + Phoenix never gets here,
        # since its only split is XXX + XX (same rank). RULES.md §2.5 Decision.
        triple_rank = next(r for r, k in counts.items() if k == 3)
        readings.append(Combo("fullhouse", 5, triple_rank))
    if n >= 4 and n % 2 == 0 and all(k == 2 for k in counts.values()) and _is_run(distinct):
        readings.append(Combo("stairs", n, distinct[-1]))
    if n >= 5 and len(counts) == n and _is_run(distinct):
        if one_suit:
            # RULES.md §2.5: a straight flush is always a bomb, never an ordinary straight.
            readings.append(Combo("bombsf", n, (n, distinct[-1])))
        else:
            readings.append(Combo("straight", n, distinct[-1]))
    return readings


def top_reading(cards, phoenix_on=None, phoenix_led_half=False):
    """The reading of an already-played combination: its highest valid reading."""
    readings = classify(cards, phoenix_on=phoenix_on, phoenix_led_half=phoenix_led_half)
    if not readings:
        raise ValueError(f"not a valid combination: {format_cards(cards)}")
    return max(readings, key=lambda r: r.rank)


# ---------------------------------------------------------------------------------------------
# Beating (RULES.md §2.6, §2.7, §2.10)
# ---------------------------------------------------------------------------------------------


def beats(play, top):
    """Whether reading ``play`` may be played on reading ``top``.

    For a Phoenix single, ``play.rank`` must be the value it has on this top
    (``classify({"Ph"}, phoenix_on=top.rank)`` gives ``top.rank + 0.5``).
    """
    if top.kind == "dog" or play.kind == "dog":
        return False  # RULES.md §2.9/§2.10: nothing is played on the Dog; the Dog only leads.
    if is_bomb(play):
        if not is_bomb(top):
            return True  # RULES.md §2.7: a bomb beats every non-bomb, the Dragon included.
        if play.kind == "bombsf" and top.kind == "bomb4":
            return True  # every straight flush beats every four of a kind
        if play.kind == "bomb4" and top.kind == "bombsf":
            return False
        return play.rank > top.rank  # bomb4: rank; bombsf: (length, top rank)
    if is_bomb(top):
        return False  # only a higher bomb beats a bomb
    if play.kind != top.kind or play.length != top.length:
        return False  # RULES.md §2.7: same type, same number of cards
    if play.kind == "single" and top.rank >= DRAGON_RANK:
        return False  # RULES.md §2.6: the Dragon beats every single, the Phoenix included
    return play.rank > top.rank


# ---------------------------------------------------------------------------------------------
# Legal plays (RULES.md §2.8-§2.11)
# ---------------------------------------------------------------------------------------------


def _all_subsets(cards):
    cards = sorted(cards)
    for size in range(1, len(cards) + 1):
        for subset in combinations(cards, size):
            yield frozenset(subset)


def has_wished_rank(cards, wish):
    """Whether the card set holds a real card of the wished rank (the Phoenix never counts)."""
    return any(c not in SPECIALS and CARD_RANK[c] == wish for c in cards)


def legal_plays(hand, top=None, wish=None, phoenix_on=None, phoenix_led_half=False):
    """All card sets the player may play on their own turn, and whether they may pass.

    hand: the player's cards; top: the top combination of the trick (None = leading; the Dog on
    top also means leading, RULES.md §2.10); wish: open wished rank 2..14 or None;
    phoenix_on: when ``top`` is the lone Phoenix, the rank it was played on (None = led: 1½,
    or ½ with ``phoenix_led_half``, the Option of RULES.md §2.6).
    Returns ``(plays, can_pass)`` with plays a set of frozensets.
    """
    hand = frozenset(hand)
    top_combo = (
        None
        if top is None
        else top_reading(frozenset(top), phoenix_on=phoenix_on, phoenix_led_half=phoenix_led_half)
    )
    leading = top_combo is None or top_combo.kind == "dog"

    plays = set()
    bombs = set()
    for subset in _all_subsets(hand):
        if leading:
            # a led Phoenix is 1½, or ½ under the Option (RULES.md §2.6)
            readings = classify(subset, phoenix_led_half=phoenix_led_half)
            if readings:  # RULES.md §2.8: the leader plays any combination, a bomb or the Dog
                plays.add(subset)
                if any(is_bomb(r) for r in readings):
                    bombs.add(subset)
        else:
            # A Phoenix single is worth ½ more than the single it is played on (§2.6).
            on = top_combo.rank if top_combo.kind == "single" else None
            winning = [r for r in classify(subset, phoenix_on=on) if beats(r, top_combo)]
            if winning:  # RULES.md §2.7-§2.8: a higher combination of the same type, or a bomb
                plays.add(subset)
                if any(is_bomb(r) for r in winning):
                    bombs.add(subset)
    can_pass = not leading

    # RULES.md §2.11: the wish binds a player who holds the wished rank and has a legal play
    # containing it.
    if wish is not None and has_wished_rank(hand, wish):
        fulfilling = {p for p in plays if has_wished_rank(p, wish)}
        if fulfilling:
            if leading:
                plays = fulfilling  # only combinations containing the rank (bombs only if so)
            else:
                plays = fulfilling | bombs  # plus every bomb beating the top (§2.9); no pass
            can_pass = False
    return plays, can_pass
