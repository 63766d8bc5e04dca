"""The table columns the team games derive from several fields of a round's seats, in one pass.

The rounds table's calls, cards passed and finishing order and the seats table's first bomb
and whether a call succeeded (docs/schema.md) each combine fields of a round's seat records
(``records.SEAT``); ``derive`` reads each record once for all of them, where numpy would read
the records of a block once per field and seat. ``games.team`` makes the columns of them.
"""

from ..combos import BOMB_SF
from ..jit import njit

__all__ = ["derive"]


@njit(cache=True)
def derive(seats, calls, passed, order, bomb_kind, bomb_rank, success, called):
    """For ``seats`` (``(rounds, k)`` seat records, rows by seat or player), per round and
    seat: ``calls`` 0 none, 1 Tichu, 2 Grand Tichu; ``passed`` the cards it gave (every
    direction's or-ed); ``bomb_kind`` its first bomb's kind, 0 none, 1 four of a kind, 2 a
    straight flush, and ``bomb_rank`` its rank (-1 none); ``called`` whether it called Tichu
    or Grand Tichu and ``success`` whether it went out first. ``order`` ``(rounds, k + 1)``:
    column ``p`` (1..k) the first seat whose ``finish`` is ``p`` (``k`` the last, 0 still
    holding after a victory), -1 for none; column 0 the first seat with no such place."""
    rounds, k = seats.shape
    for i in range(rounds):
        for p in range(k + 1):
            order[i, p] = -1
        for s in range(k - 1, -1, -1):  # the first seat written last
            place = seats[i, s].finish
            order[i, place if 1 <= place <= k else 0] = s
        for s in range(k):
            seat = seats[i, s]
            calls[i, s] = 2 if seat.grand_tichu else (1 if seat.tichu else 0)
            given = seat.given[0]
            for j in range(1, seat.given.shape[0]):
                given |= seat.given[j]
            passed[i, s] = given
            code = seat.first_bomb
            if code == 0:
                bomb_kind[i, s], bomb_rank[i, s] = 0, -1
            else:
                bomb_kind[i, s] = 2 if (code >> 16) == BOMB_SF else 1
                bomb_rank[i, s] = (code & 0xFF) // 2
            called[i, s] = seat.grand_tichu or seat.tichu
            success[i, s] = order[i, 1] == s
