"""Steps of a turn that both round engines take alike (RULES.md §2.8-§2.11), jitted.

The team games' engine (``tichu/engine.py``) holds cards as one ``uint64`` mask, Grand
Seigneur's (``seigneur/engine.py``) as a two-deck multiset ``(a, b)``. The steps here read and
write only the fields the two records share (``top_code``, ``top_seat``, ``passed``, ``wish``,
``leader``, ``out_order``, ``n_out``, ``tricks``, ``bombs``; a seat's ``seat`` and ``rng``) and
test a rank through the cards of ``a`` (a two-deck multiset holds a card in ``a`` whenever it
holds it at all), so each engine passes its own records and numba compiles a copy per record
type. All are inlined: they run on every
turn of every round, and the engines fold their variant's constants through them.

A turn ends with one of the outcomes below, which the engines' trick loops act on.
"""

from .bits import U64, ZERO, rank_cards
from .combos import BOMB_FOUR
from .jit import njit
from .moves import wish_binds
from .rng import seed_stream

PLAYED = 0  # a play or a pass stands; bombs may follow out of turn (§2.9)
LEAD_GIVEN = 1  # the Dog gave the lead away: no bomb window (§2.9, §2.10)
ROUND_OVER = 2  # one player (team games: one team's last) still holds cards (§2.13, §5)
VICTORY = 3  # team games: one team's first players went out, the round ends (§2.13, §3)


@njit(cache=True, inline="always")
def reset_table(pub):
    """A new round's public record: no wish, leader, finisher, trick or bomb yet (the trick in
    play is the engine's to clear, ``clear_top``)."""
    pub.n_out = 0
    pub.wish = 0
    pub.leader = -1
    pub.tricks = 0
    pub.bombs = 0


@njit(cache=True, inline="always")
def seat_record(me, seat, seed, key, player):
    """A seat's private record for a new round: its chair and the decision stream of the
    player sitting there (stream 1 + player of the round, ``rng.py``)."""
    me.seat = seat
    me.rng = seed_stream(U64(seed), U64(key), U64(1 + player))


@njit(cache=True, inline="always")
def clear_top(pub):
    """No combination on the table, nobody has passed (a trick ended, or none began)."""
    pub.top_code = 0
    pub.top_seat = -1
    pub.passed = 0


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
def chosen_play(choice, moves, codes):
    """The cards (one mask, or a multiset's ``a``) and code of answer ``choice``; none for a
    pass."""
    if choice < 0:
        return ZERO, 0
    return moves[choice], codes[choice]


@njit(cache=True, inline="always")
def make_wish(pub, rnd, rank):
    """The Mah Jong's player wishes for ``rank`` (§2.11), kept in the table's and the round's
    records; False for an answer that is no normal rank 2..14 nor 0 (no wish)."""
    if rank != 0 and (rank < 2 or rank > 14):
        return False
    pub.wish = rank
    rnd.wish = rank
    return True


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
def next_holder(n, pub, seat):
    """The next seat after ``seat`` of ``n`` in turn order that still holds cards (``seat``
    itself last), -1 if none does."""
    q = seat
    for _ in range(n):
        q = q + 1 if q + 1 < n else 0  # no division by a number of seats known only at run time
        if pub.counts[q] > 0:
            return q
    return -1


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


__all__ = [
    "LEAD_GIVEN",
    "PLAYED",
    "ROUND_OVER",
    "VICTORY",
    "choice_ok",
    "chosen_play",
    "clear_top",
    "go_out",
    "is_bomb",
    "make_wish",
    "open_turn",
    "reset_table",
    "seat_record",
    "top_trick",
    "trick_won",
    "wish_kept",
    "wish_missed",
]
