"""Steps of a turn that both round engines take alike (RULES.md §2.8-§2.11), jitted.

The team games' engine (``tichu/engine.py``) holds cards as one ``uint64`` mask, Grand
Seigneur's (``seigneur/engine.py``) as a two-deck multiset ``(a, b)``. The steps here read and
write only the public fields the two records share (``top_code``, ``top_seat``, ``passed``,
``wish``, ``leader``, ``out_order``, ``n_out``) and test a rank through the cards of ``a``
(a two-deck multiset holds a card in ``a`` whenever it holds it at all), so each engine passes
its own records and numba compiles a copy per record type. All are inlined: they run on every
turn of every round, and the engines fold their table's constants through them.

A turn ends with one of the outcomes below, which the engines' trick loops act on.
"""

from numba import njit

from .bits import ZERO, rank_cards
from .combos import BOMB_FOUR
from .moves import wish_binds

PLAYED = 0  # a play or a pass stands; bombs may follow out of turn (§2.9)
LEAD_GIVEN = 1  # the Dog gave the lead away: no bomb window (§2.9, §2.10)
ROUND_OVER = 2  # one player (team games: one team's last) still holds cards (§2.13, §5)
VICTORY = 3  # team games: one team's first players went out, the round ends (§2.13, §3)


@njit(cache=True, inline="always")
def open_turn(pub, seat):
    """Whether ``seat`` leads (no trick in play); a leader is recorded as such."""
    leading = pub.top_code == 0
    if leading:
        pub.leader = seat
    return leading


@njit(cache=True, inline="always")
def choice_ok(choice, n_moves, leading):
    """A strategy's answer is an index into its ``n_moves`` plays, or -1 to pass, which a
    leader may not (§2.8)."""
    return -1 <= choice < n_moves and not (choice == -1 and leading)


@njit(cache=True, inline="always")
def wish_ok(rank):
    """A wish is a normal rank 2..14, or 0 for none (§2.11)."""
    return rank == 0 or 2 <= rank <= 14


@njit(cache=True, inline="always")
def is_bomb(code):
    """Whether the combination ``code`` is a bomb (§2.7)."""
    return (code >> 16) >= BOMB_FOUR


@njit(cache=True, inline="always")
def top_trick(pub, seat, cards, code):
    """``seat``'s play ``cards`` (``code``) tops the trick; True when it fulfils the open wish
    (§2.11), which then lapses."""
    pub.top_code = code
    pub.top_seat = seat
    pub.passed = 0
    if pub.wish != 0 and cards & rank_cards(pub.wish):
        pub.wish = 0
        return True
    return False


@njit(cache=True, inline="always")
def go_out(pub, seat):
    """``seat`` played its last card: it takes the next place in the finishing order."""
    pub.out_order[pub.n_out] = seat
    pub.n_out += 1


@njit(cache=True, inline="always")
def trick_won(pub, holders):
    """Whether the trick in play is over: every holder of cards (bitmask ``holders``) but the
    top's player has passed since the last play (§2.8)."""
    return holders & ~(1 << pub.top_seat) & ~pub.passed == 0


@njit(cache=True, inline="always")
def wish_kept(top, wish, choice, code, cards, hand):
    """The checker's §2.11 test before it needs the full list of plays: True when the answer
    respects the wish whatever the hand could play (no wish, the wished rank played or not
    held, or a bomb played out of a lead), False when a play must be listed to know."""
    if choice >= 0 and top != 0 and is_bomb(code):
        return True
    return wish == 0 or cards & rank_cards(wish) != ZERO or hand & rank_cards(wish) == ZERO


@njit(cache=True, inline="always")
def wish_missed(hand, wish, moves, n):
    """The rest of the test: some of the ``n`` plays listed in ``moves`` (``n`` may exceed the
    buffer) holds the wished rank that the answer left out (§2.11)."""
    return wish_binds(hand, wish, moves, min(n, moves.shape[0]))


__all__ = ["LEAD_GIVEN", "PLAYED", "ROUND_OVER", "VICTORY", "choice_ok", "go_out", "is_bomb",
           "open_turn", "top_trick", "trick_won", "wish_kept", "wish_missed", "wish_ok"]  # fmt: skip
