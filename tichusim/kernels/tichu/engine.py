"""The round engine (RULES.md §2.2–§2.14, with the variants of §3 and §4), jitted.

``play_round`` plays one complete round from the deal to the score, at the table described
by ``work.variant`` (``variants.py``): Tichu Nanjing with 4 seats, Tientsin with 6 (§3), or
Wu Wang's King, two opponents and the Minister at 4 positions (§4). One function serves all
three: the differences are data (hand sizes, who passes to whom, who may call Grand Tichu,
double or triple victory) plus three short branches (the Dog's choice of partner, the end of
a Tientsin round, the Minister's hand shown to everybody), so the 4-player game runs the code
it always ran. All randomness comes from counter-based streams seeded by (run seed, round
key, stream): stream 0 deals, stream 1 + s drives seat ``s``'s decisions (``rng.py``).
Decisions go through ``policies`` with the public record and the deciding seat's private
record only (RULES.md §6, ``view.py``); in Wu Wang the King's strategy row is loaded for the
Minister's seat too, so the King decides for both hands (§4).

The table's rules Options come in ``work.rules`` (one ``rules.RULES`` record) and are copied
whole into the public record, which every decision reads: each Option is read only by the rule
that applies it (``rules.py`` names them), so the engine passes them on without naming one.

A decision a seat's strategy leaves to Python (``outside.py``) is read from the round's script
instead of a policy; past the script's end the round stops with ``ERR_PENDING`` right at that
decision, so that the records show the table as the deciding seat sees it. At a Tichu call
before a turn, a play or a bomb answer it also keeps where the play stood (``tricks.py``:
``_stop_at``), and the next call goes on from there (``resumable``, ``resume_point``) rather
than replaying the round from the deal.

Outputs go into one ``ROUND`` record and a ``SEAT`` record per seat; with ``work.logging``
every event is written as a row ``(event, seat, cards, code, extra)`` for transcripts; with
``check`` the RULES.md §7 invariants are verified after every action and a broken one stops the
round with a non-zero error code (``kernels/errors.py`` names them). The records are in
``records.py``; ``play_round`` runs the phases in order, each in a module of its own: the reset
(here), the deal and Grand Tichu (``deal.py``), the calls and the passing (``passing.py``),
the play (``tricks.py``), the end and score (``scoring.py``), with the §7 checks in
``checks.py`` and the steps a turn shares with Grand Seigneur in ``turns.py``.
"""

from ..bits import ZERO
from ..errors import ERR_NONE, ERR_PENDING
from ..eventlog import close_round
from ..jit import njit
from ..refs import borrow
from ..turns import reset_table, seat_record
from .deal import deal
from .passing import passing, tichu_called
from .policies import TICHU_BEFORE_TURN
from .recorded import calls_after_the_end
from .records import DRAGON_NONE, PHOENIX_NONE
from .scoring import end_round
from .tricks import NOT_FORCED, TICHU_ANSWERED, clear_trick, resume_point, trick_start, tricks_from
from .variants import MAX_SEATS, NANJING, TIENTSIN, WUWANG, n_seats, wish_free


@njit(cache=True, inline="always")
def play_round(
    variant, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, outside
):
    """Play one round in the variant ``variant`` (``work.variant``) with the strategies loaded in
    ``work.params``; fill ``rnd`` and ``seats[:n]``; return ``(error, log rows)`` (the log is
    written to ``work.log`` when ``work.logging``). Called with ``variant`` a constant, the
    other variants' branches are pruned before typing, so a caller compiles and links only its
    own variant's round (a Nanjing run compiles only its part of the team engine). With
    ``outside`` (a constant too) the round reads the decisions strategies leave to Python
    from the script (``outside.py``); without, those branches are pruned and the batch path
    runs the engine as it was (they cost a measurable share of a round with cheap strategies).
    ``models``: the table's learned models, one row each (``models.py``), or ``None`` at a
    table where no seat plays one, whose round then compiles without the learned play."""
    if outside:
        if variant == TIENTSIN:
            return _step_tientsin(
                seed, key, first_drawer, work, models, pub, privs, rnd, seats, check
            )
        if variant == WUWANG:
            return _step_wuwang(
                seed, key, first_drawer, work, models, pub, privs, rnd, seats, check
            )
        return _step_nanjing(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check)
    if variant == TIENTSIN:
        return _play_tientsin(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check)
    if variant == WUWANG:
        return _play_wuwang(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check)
    return _play_nanjing(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check)


@njit(cache=True)
def _play_nanjing(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check):
    return _play(
        NANJING, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, False
    )


@njit(cache=True)
def _play_tientsin(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check):
    return _play(
        TIENTSIN, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, False
    )


@njit(cache=True)
def _play_wuwang(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check):
    return _play(
        WUWANG, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, False
    )


@njit(cache=True)
def _step_nanjing(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check):
    return _play(
        NANJING, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, True
    )


@njit(cache=True)
def _step_tientsin(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check):
    return _play(
        TIENTSIN, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, True
    )


@njit(cache=True)
def _step_wuwang(seed, key, first_drawer, work, models, pub, privs, rnd, seats, check):
    return _play(WUWANG, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, True)


@njit(cache=True, inline="always")
def _play(variant, seed, key, first_drawer, work, models, pub, privs, rnd, seats, check, outside):
    """The round in the variant ``variant`` (a constant in each caller above), phase by phase.
    The phases take the seats' records as views without a reference count (``refs.borrow``):
    counting them at every inlined call cost a measurable share of the round with cheap
    strategies."""
    privs = borrow(privs)
    seats = borrow(seats)
    if outside and work.resume_seat >= 0:  # the records kept where the round stopped
        turn, window, armed, forced, nlog = resume_point(work, privs)
        err = ERR_NONE
    else:
        _reset(variant, seed, key, first_drawer, work, pub, privs, rnd, seats)
        nlog = deal(variant, seed, key, first_drawer, work, pub, privs, seats, 0, outside)
        if outside and work.asked[0] != 0:  # a Grand Tichu call awaited from Python
            return close_round(work, rnd, ERR_PENDING, nlog)
        err, nlog = passing(variant, first_drawer, work, models, pub, privs, seats, nlog, outside)
        turn = 0
        armed = 0
        if err == ERR_NONE:
            turn, armed = trick_start(variant, pub, privs)
        window = -1
        forced = NOT_FORCED
    victory = False
    if err == ERR_NONE:
        at = (turn, armed, forced, window)
        err, victory, nlog = tricks_from(
            variant, work, models, pub, privs, rnd, seats, check, nlog, outside, at
        )
    if err == ERR_NONE and outside and work.rec_len > 0:
        nlog = _calls_left(variant, work, pub, seats, nlog)
    if err == ERR_NONE:
        err, nlog = end_round(variant, work, pub, privs, rnd, seats, victory, check, nlog, outside)
    return close_round(work, rnd, err, nlog)


@njit(cache=True, inline="always")
def _calls_left(variant, work, pub, seats, nlog):
    """A round played from its record: a Tichu call the record made while its seat had played
    no card, and which no question of that seat took before the round ended, stands (§2.3:
    the right to call ends only with the seat's first card). Returns the log rows."""
    calls_after_the_end(work, pub)
    for s in range(n_seats(variant)):
        if work.rec_tichu >> s & 1:
            point = work.rec_tichu_point[s]
            point = TICHU_BEFORE_TURN if point < 0 else point
            nlog = tichu_called(work, pub, seats, s, point, nlog)
    work.rec_tichu = 0
    return nlog


@njit(cache=True, inline="always")
def _reset(variant, seed, key, first_drawer, work, pub, privs, rnd, seats):
    """Empty the table and the records for a new round; each seat's decision stream seeded."""
    piles = work.piles
    gifts = work.gifts
    n = n_seats(variant)
    pub.n_players = n
    pub.variant = variant
    pub.wish_free = wish_free(variant)
    pub.rules = work.rules  # the table's Options, which everybody knows (§6)
    pub.exposed = ZERO
    pub.first_drawer = first_drawer
    reset_table(pub)
    clear_trick(pub)
    pub.played = ZERO
    for s in range(n):
        piles[s] = ZERO
        pub.counts[s] = 0
        pub.grand_tichu[s] = 0
        pub.tichu[s] = 0
        pub.has_played[s] = 0
        pub.played_by[s] = ZERO
        pub.out_order[s] = -1
        pub.points_taken[s] = 0
        pub.lacks[s] = 0
        me = privs[s]
        seat_record(me, s, seed, key, s)
        me.hand = ZERO
        me.ally_hand = ZERO
        for t in range(n):
            me.given[t] = ZERO
            me.received[t] = ZERO
        for d in range(MAX_SEATS - 1):
            gifts[s, d] = ZERO
            seats[s].given[d] = ZERO
            seats[s].received[d] = ZERO
    rnd.round = key
    rnd.first_drawer = first_drawer
    rnd.double_victory = False
    rnd.wish = -1
    rnd.dragon_to = -1
    rnd.king = -1
    rnd.bombs_out_of_turn = 0
    rnd.wish_fulfilled_by = -1
    rnd.hand_points_left = 0
    rnd.table_points_left = 0
    rnd.error = ERR_NONE
    _reset_tally(n, seats)


@njit(cache=True, inline="always")
def _reset_tally(n, seats):
    """Empty the tally of what each seat does, written as it happens."""
    for s in range(n):
        seat = seats[s]
        seat.bombs_played = 0
        seat.bombs_out_of_turn = 0
        seat.first_bomb = 0
        seat.first_bomb_trick = -1
        seat.tricks_won = 0
        seat.tichu_when = -1
        seat.tichu_cards = -1
        seat.tichu_trick = -1
        seat.phoenix_as = PHOENIX_NONE
        seat.dragon = DRAGON_NONE
        seat.dog_led = False
        seat.mahjong_wish = -1
        seat.wish_fulfilled = False


__all__ = ["NOT_FORCED", "TICHU_ANSWERED", "play_round"]
