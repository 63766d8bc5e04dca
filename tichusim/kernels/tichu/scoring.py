"""The round's end and score (RULES.md §2.13, §2.14, §3, §4), jitted: the one scoring of the
team games.

``round_score`` counts the two teams' card points and adds the calls' bonuses from what the
public record holds once the play is over (the finishing order closed): the points of the
tricks each seat took (``PUBLIC.points_taken``), the hand of the last seat, the calls. The
engine's round end (``end_round``, below) and a search's rollouts (``rollout.py``) both score
with it, so a scoring Option is written here once. ``end_round`` closes the play (the trick in
play, the last player), hands the last player's tricks and cards over and fills the records.
"""

from ..bits import PHOENIX, ZERO
from ..errors import ERR_CARDS, ERR_FINISH, ERR_NONE, ERR_POINTS
from ..eventlog import log_cards
from ..hand import card_points
from ..jit import njit
from .checks import conserved, finish_ok, points_ok
from .records import EV_END, EV_HAND_TO, EV_TRICKS_TO, PHOENIX_HELD
from .tricks import collect_trick, next_active
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


@njit(cache=True)
def _round_totals(n, pub, privs, rnd, seats):
    """What the tally of the round (kept in the seats' records as it happens) ends with: each
    seat's cards left, the points of its tricks before any hand-over (``pub.points_taken``), a
    Phoenix still held; the round's totals: bombs out of turn, who fulfilled the wish, the
    points still in the hands and those of a trick a victory left in play (with the seats'
    ``card_points_won`` they make 100)."""
    oot = 0
    fulfilled = -1
    held = 0
    for s in range(n):
        seat = seats[s]
        hand = privs[s].hand
        seat.card_points_won = pub.points_taken[s]
        seat.cards_left = pub.counts[s]
        if hand & PHOENIX:
            seat.phoenix_as = PHOENIX_HELD
        oot += seat.bombs_out_of_turn
        if seat.wish_fulfilled:
            fulfilled = s
        held += card_points(hand)
    rnd.bombs_out_of_turn = oot
    rnd.wish_fulfilled_by = fulfilled
    rnd.hand_points_left = held
    rnd.table_points_left = card_points(pub.trick_cards)


@njit(cache=True)
def _tientsin_transfers(pub, work, nlog, hand_to):
    """§3: the fifth player out gives their tricks to the first player out; the last player
    gives their hand cards and their tricks to the opposing team. (Which opponent keeps the
    tricks only matters to the seats' ``card_points``: the first of them out.)"""
    piles = work.piles
    n = pub.n_players
    first = pub.out_order[0]
    fifth = pub.out_order[n - 2]
    last = pub.out_order[n - 1]
    nlog = log_cards(
        work, nlog, EV_TRICKS_TO, fifth, piles[fifth], card_points(piles[fifth]), first
    )
    piles[first] |= piles[fifth]
    piles[fifth] = ZERO
    taker = first
    for i in range(n):
        if (pub.out_order[i] - last) % 2 != 0:
            taker = pub.out_order[i]
            break
    nlog = log_cards(work, nlog, EV_HAND_TO, last, hand_to, card_points(hand_to), taker)
    nlog = log_cards(work, nlog, EV_TRICKS_TO, last, piles[last], card_points(piles[last]), taker)
    piles[taker] |= piles[last]
    piles[last] = ZERO
    return nlog


@njit(cache=True, inline="always")
def _close(variant, work, pub, privs, rnd, seats, nlog, outside):
    """The play over without a victory: the trick in play goes to the seat whose going out
    ended the round, which gives it away when its top is the Dragon (§2.12, §2.13, §3), and
    the one seat still holding cards closes the finishing order. Returns ``(error, log
    rows)``."""
    n = n_seats(variant)
    closer = pub.out_order[n - 2]  # the third (Tientsin: fifth) player out
    if pub.trick_cards != ZERO:
        err, nlog = collect_trick(pub, privs, work, rnd, seats, closer, nlog, outside)
        if err != ERR_NONE:
            return err, nlog
    pub.out_order[n - 1] = next_active(pub, closer)
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def _hand_over(variant, work, pub, nlog, hand_to):
    """§2.13: the last player's tricks go to the first player out (Tientsin: §3's transfers,
    ``_tientsin_transfers``), its hand cards ``hand_to`` to its opponents. Returns the log
    rows."""
    if variant == TIENTSIN:
        return _tientsin_transfers(pub, work, nlog, hand_to)
    piles = work.piles
    n = pub.n_players
    first = pub.out_order[0]
    last = pub.out_order[n - 1]
    piles[first] |= piles[last]
    piles[last] = ZERO
    return log_cards(work, nlog, EV_HAND_TO, last, hand_to, card_points(hand_to), (last + 1) % n)


@njit(cache=True, inline="always")
def _seat_results(variant, pub, seats, piles, victory, score):
    """Each seat's calls, card points after the hand-overs, finishing place (a victory's
    winners only) and its team's score."""
    n = n_seats(variant)
    vk = victory_size(variant)
    for s in range(n):
        seats[s].grand_tichu = pub.grand_tichu[s] == 1
        seats[s].tichu = pub.tichu[s] == 1
        seats[s].card_points = 0 if victory else card_points(piles[s])
    for s in range(n):
        seats[s].finish = 0
    for i in range(n):
        if pub.out_order[i] >= 0 and (i < vk or not victory):
            seats[pub.out_order[i]].finish = i + 1
    for s in range(n):
        seats[s].points = score[s % 2]


@njit(cache=True, inline="always")
def end_round(variant, work, pub, privs, rnd, seats, victory, check, nlog, outside):
    """The end of the round (§2.13, §3) and its score (§2.14, ``round_score``): the trick in
    play and the last player's cards handed over, card points counted, call bonuses, the
    finishing order. Returns ``(error, log rows)``."""
    n = n_seats(variant)
    piles = work.piles
    hand_to = ZERO  # the last player's hand cards, for the opponents (§2.13)
    if not victory:
        err, nlog = _close(variant, work, pub, privs, rnd, seats, nlog, outside)
        if err != ERR_NONE:
            return err, nlog
        hand_to = privs[pub.out_order[n - 1]].hand
        if check and not conserved(pub, privs, piles):
            return ERR_CARDS, nlog
    _round_totals(n, pub, privs, rnd, seats)
    if not victory:
        nlog = _hand_over(variant, work, pub, nlog, hand_to)
    p0, p1, s0, s1 = round_score(variant, pub, privs, victory)
    if check and not victory and not points_ok(pub, piles, hand_to, p0, p1):
        return ERR_POINTS, nlog
    rnd.card_points[0] = p0
    rnd.card_points[1] = p1
    score = rnd.score
    score[0] = s0
    score[1] = s1
    _seat_results(variant, pub, seats, piles, victory, score)
    if check and not finish_ok(pub, victory_size(variant) if victory else n):
        return ERR_FINISH, nlog
    first = pub.out_order[0]
    rnd.double_victory = victory
    rnd.tricks = pub.tricks
    rnd.bombs = pub.bombs
    rnd.first_out = first
    nlog = log_cards(work, nlog, EV_END, first, ZERO, score[0], score[1])
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def close_play(variant, work, pub, privs, rnd, seats, victory):
    """What ``end_round`` does before counting, for a round played on from a state by the
    strategies alone (``rollout.py``): the play closed without a victory (``_close``).
    Returns the error code."""
    if victory:
        return ERR_NONE
    err, _ = _close(variant, work, pub, privs, rnd, seats, 0, False)
    return err


__all__ = ["close_play", "end_round", "round_score"]
