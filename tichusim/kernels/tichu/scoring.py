"""The round's score (RULES.md §2.13, §2.14, §3, §4), jitted: the one scoring of the team games.

``round_score`` counts the two teams' card points and adds the calls' bonuses from what the
public record holds once the play is over (the finishing order closed): the points of the
tricks each seat took (``PUBLIC.points_taken``), the hand of the last seat, the calls. The
engine's round end (``engine._end_round``) and a search's rollouts (``rollout.py``) both score
with it, so a scoring Option is written here once.
"""

from ..hand import card_points
from ..jit import njit
from .variants import TIENTSIN, n_seats, victory_size


@njit(cache=True)
def round_score(variant, pub, privs, victory):
    """The two teams' card points and scores once the play is over: with ``victory`` (one
    team's first players out, §2.13, §3) 100 per winner for their team; else §2.13's
    transfers (the last seat's hand to its opponents, its tricks to the first player out;
    Tientsin, §3: the fifth's tricks to the first out, the last's hand and tricks to its
    opponents) over the points each seat took. Then every call's bonus or penalty (§2.14).
    Returns ``(team 0 points, team 1 points, team 0 score, team 1 score)``."""
    n = n_seats(variant)
    first = pub.out_order[0]
    p0 = 0
    p1 = 0
    if victory:
        if first % 2 == 0:
            p0 = 100 * victory_size(variant)
        else:
            p1 = 100 * victory_size(variant)
    else:
        last = pub.out_order[n - 1]
        fifth = pub.out_order[n - 2] if variant == TIENTSIN else -1
        for s in range(n):
            team = s % 2
            if s == last:
                team = (last + 1) % 2 if variant == TIENTSIN else first % 2
            elif s == fifth:
                team = first % 2
            if team == 0:
                p0 += pub.points_taken[s]
            else:
                p1 += pub.points_taken[s]
        if last % 2 == 0:  # the last seat's hand: its opponents'
            p1 += card_points(privs[last].hand)
        else:
            p0 += card_points(privs[last].hand)
    s0 = p0
    s1 = p1
    for s in range(n):
        bonus = 200 * pub.grand_tichu[s] + 100 * pub.tichu[s]
        if s != first:
            bonus = -bonus
        if s % 2 == 0:
            s0 += bonus
        else:
            s1 += bonus
    return p0, p1, s0, s1


__all__ = ["round_score"]
