"""The variants a round is played in: Nanjing (RULES.md §2), Tientsin (§3) and Wu Wang (§4).

The engine plays every variant with the same code, reading the differences from these small
rules. Seats are *positions* in turn order (seat i plays after seat i - 1). In all three
games the two sides alternate around the table, so a seat's team is ``seat % 2`` and its
partners are the other seats of its parity:

* Nanjing: 4 seats, partners opposite (§2.1).
* Tientsin: 6 seats, teams {0, 2, 4} and {1, 3, 5} (§3).
* Wu Wang: 4 positions. The King sits at ``KING`` (0) and his Minister, the dummy hand he
  plays, opposite at ``MINISTER`` (2), between the two opponents at 1 and 3 (§4). Which real
  player holds which position changes every round; ``tichusim.kernels.tichu.batch`` maps players
  to positions and back (``wuwang_player``).

Passing is described by offsets: seat ``s`` gives one card to seat ``(s + d) % n`` for each
offset ``d`` in ``pass_offsets(variant, s)``. Strategies fill one card slot per offset
(``out[d - 1]``), so the 4-player slots read right opponent, partner, left opponent: the seat
one place on is the right-hand opponent, as the rule books say (RULES.md §2.1).
"""

from ..jit import njit

NANJING, TIENTSIN, WUWANG = 0, 1, 2
NAMES = ("nanjing", "tientsin", "wuwang")
MAX_SEATS = 6
KING, MINISTER = 0, 2  # Wu Wang positions (§4)
KING_STREAM = 100  # the random stream that picks the first King (§4): above every seat's


@njit(cache=True)
def n_seats(variant):
    return 6 if variant == TIENTSIN else 4


@njit(cache=True)
def hand_size(variant, draw_position):
    """Cards of the player ``draw_position`` places after the first drawer: 14 (§2.2), or in
    Tientsin 10 for the first two in draw order and 9 for the others (§3 Decision)."""
    if variant == TIENTSIN:
        return 10 if draw_position < 2 else 9
    return 14


@njit(cache=True)
def gt_cards(variant):
    """Cards seen before the Grand Tichu decision: 8 (§2.2), 6 in Tientsin (§3)."""
    return 6 if variant == TIENTSIN else 8


@njit(cache=True)
def may_call_grand(variant, seat):
    """Neither the King nor the Minister may call Grand Tichu (§4)."""
    return variant != WUWANG or seat % 2 == 1


@njit(cache=True)
def pass_offsets(variant, seat):
    """Bit ``d`` set when ``seat`` gives a card to the seat ``d`` places after it: the three
    others (§2.4); the two partners (§3); among Wu Wang's three real players only, the
    Minister neither giving nor receiving (§4)."""
    if variant == TIENTSIN:
        return (1 << 2) | (1 << 4)
    if variant == WUWANG:
        if seat == KING:
            return (1 << 1) | (1 << 3)  # the two opponents
        if seat == MINISTER:
            return 0
        if seat == 1:
            return (1 << 2) | (1 << 3)  # the other opponent, the King
        return (1 << 1) | (1 << 2)  # seat 3: the King, the other opponent
    return (1 << 1) | (1 << 2) | (1 << 3)


@njit(cache=True)
def victory_size(variant):
    """Players of one team going out first that end the round at once: a double victory
    (§2.13) or, in Tientsin, a triple victory (§3); it scores 100 per player."""
    return 3 if variant == TIENTSIN else 2


@njit(cache=True)
def wish_free(variant):
    """Bitmask of the seats the Mah Jong's wish does not bind: the Minister (§4)."""
    return 1 << MINISTER if variant == WUWANG else 0


@njit(cache=True)
def wuwang_player(king, position):
    """The real player (0..2) at a Wu Wang position, or 3 for the Minister: turn order among
    the three players is 0, 1, 2 whoever is King, and the Minister sits between the two
    opponents (§4)."""
    if position == MINISTER:
        return 3
    return (king + (position + 1) // 2) % 3
