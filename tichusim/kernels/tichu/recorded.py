"""A recorded round's actions as the engine's answers (RULES.md §2.2–§2.12), jitted.

A round is played from its record: the deal as given (``records.FIX_DECK``: ``work.deck``
cut as it lies) and the seats' actions in the order they happened (``work.rec``). Where a
seat's decision is taken outside (``outside.py``) and the script holds no answer for it,
``ask`` takes the answer from the record and appends it to the script, so a round played
from its record leaves the script that replays it, and ``work.rec_of[i]`` names the action
that gave answer ``i`` (-1: a question the record did not answer, declined):

- the action at the cursor answers the decision when it is that seat's, of that kind;
- Grand Tichu and Tichu calls and the passed cards come when the books let them (§2.2–§2.4):
  one that is not the question asked waits, and answers its seat's next question of its
  kind (a Tichu call made while another seat plays is the seat's at its next turn, or before
  its bomb, §2.3); a Tichu call is taken no earlier than the record puts it (after passed
  cards: after the passing; after a play: in the play), and at the moment it names if it
  names one;
- a Grand Tichu, Tichu or bomb question the record does not answer is declined; a play of a
  bomb answers a bomb window (§2.9) unless the seat's own turn comes next, where it is played;
- the lead the Dog hands on (§2.10) needs no answer where the table has no choice: the
  action is checked against the seat that then acts, and passed over;
- a Tichu call still waiting when the round ends (its seat played no card after it) stands:
  the engine makes it before the score (``engine._calls_left``).

An action the engine cannot take stops the round as if waiting (``PENDING``), with
``work.rec_error`` (``RE_*``) saying why and ``work.rec_error_at`` naming the action; a record
that ends stops the round at the next decision it would answer (the round waits for more).
``work.rec_stop`` stops it before answer ``rec_stop`` (a decision's position to be seen).

One row of ``work.rec`` per action (``REC_*``: seat, kind, cards, value):

============  ========================================  =====================================
kind          cards                                     value
============  ========================================  =====================================
REC_GRAND     0                                         0
REC_TICHU     0                                         1 + its moment (§2.3), 0 for any
REC_GIVE      the cards given                           the script's packed answer (§2.4)
REC_PLAY      the cards played on the seat's turn       0
REC_PASS      0                                         0
REC_BOMB      a bomb played out of turn (§2.9)          0
REC_WISH      0                                         the wished rank 2..14, 0 for none
REC_DRAGON    0                                         the opponent given the trick (§2.12)
REC_DOG       0                                         the seat the lead goes to (§2.10)
============  ========================================  =====================================
"""

import numpy as np

from ..bits import ONE, U64, ZERO
from ..jit import njit
from ..outside import (
    D_BOMB,
    D_DOG,
    D_DRAGON,
    D_GRAND_TICHU,
    D_NONE,
    D_PASS,
    D_PLAY,
    D_TICHU,
    D_WISH,
    MAX_SCRIPT,
    PENDING,
    answer,
    packed_card,
)
from ..turns import next_holder, trick_won
from . import policies
from .policies import TICHU_BEFORE_BOMB
from .variants import MAX_SEATS

REC_GRAND, REC_TICHU, REC_GIVE, REC_PLAY, REC_PASS, REC_BOMB, REC_WISH, REC_DRAGON, REC_DOG = range(
    1, 10
)
MAX_REC = 512  # actions per round: more than any round has (56 cards, each play passed on)

# why an action cannot be taken (``work.rec_error``; the Python face words them)
RE_NONE = 0
RE_GRAND_LATE = 1  # a Grand Tichu after the seat's question on its first cards (§2.2)
RE_CALLED = 2  # a call by a seat that has called already (§2.2, §2.3)
RE_TICHU_LATE = 3  # a Tichu after the seat's first card (§2.3)
RE_GIVE_LATE = 4  # cards passed after the passing (§2.4)
RE_GIVE_TWICE = 5
RE_GIVE_CARDS = 6  # cards not of the hand, or not one to each receiver (§2.4)
RE_NO_GIVE = 7  # the passing goes on without the seat's cards (§2.4)
RE_TURN = 8  # a play, pass or other action while another seat's decision is due (§2.8)
RE_NO_PASS = 9  # a pass where the seat must play: a lead, or the wish binds (§2.8, §2.11)
RE_PLAY = 10  # cards that are no legal play on the seat's turn (§2.5–§2.11)
RE_BOMB = 11  # cards that are no bomb beating the trick (§2.7, §2.9)
RE_WISH = 12  # the Mah Jong's wish missing or no rank (§2.11)
RE_DRAGON = 13  # the Dragon's trick given to nobody or to no opponent (§2.12)
RE_DOG = 14  # the Dog's lead to a seat it cannot reach (§2.10, §3)
RE_LONG = 15  # more answers than a script holds

# how far the actions read so far have taken the round (``_read``)
PHASE_DEAL, PHASE_CALLS, PHASE_PASSING, PHASE_PLAY = range(4)
# where the round stands at a decision, in order (``_stage``)
STAGE_GRAND, STAGE_BEFORE_PASSING, STAGE_PASSING, STAGE_AFTER_PASSING, STAGE_PLAY = range(5)


@njit(cache=True, inline="always")
def _fail(work, why, at=-1):
    """Stop the round: action ``at`` (default: the one at the cursor) cannot be taken."""
    work.rec_error = why
    work.rec_error_at = work.rec_pos if at < 0 else at
    return PENDING


@njit(cache=True)
def _found(masks, codes, n, cards):
    """The index of the highest reading of ``cards`` among ``masks[:n]`` (§2.5's Decision:
    a card set that reads two ways is played at its higher reading), -1 if absent."""
    best = -1
    for i in range(min(n, masks.shape[0])):
        if masks[i] == cards and (best < 0 or codes[i] > codes[best]):
            best = i
    return best


@njit(cache=True)
def turn_after_window(pub):
    """The seat whose turn comes after a bomb window that closes without a bomb (§2.8–§2.9):
    the trick's winner (or the next holder of cards after it) when every other holder has
    passed on the top, else the next holder after the last seat that played or passed (the
    passes since the top's play run in turn order from it)."""
    n = pub.n_players
    top = pub.top_seat
    holders = 0
    for q in range(n):
        if pub.counts[q] > 0:
            holders |= 1 << q
    if trick_won(pub, holders):
        return top if pub.counts[top] > 0 else next_holder(n, pub, top)
    last = top
    far = 0
    for q in range(n):
        if pub.passed >> q & 1 and (q - top) % n > far:
            far = (q - top) % n
            last = q
    return next_holder(n, pub, last)


@njit(cache=True)
def _gives_ok(packed, hand, offsets, n):
    """A passing's packed answer gives one card of ``hand`` to each seat ``offsets`` names,
    each a different card, and none to another (§2.4)."""
    used = ZERO
    for d in range(1, n):
        c = packed_card(packed, d - 1)
        if offsets >> d & 1:
            if c < 0:
                return False
            bit = ONE << U64(c)
            if bit & ~hand or bit & used:
                return False
            used |= bit
        elif c >= 0:
            return False
    return True


@njit(cache=True, inline="always")
def _read(work, k):
    """Move the cursor past action ``k``, noting how far the round has gone by it: a call
    on the 14 cards ends the Grand Tichu questions, passed cards end the Tichu questions
    before the passing, a play (or anything of the play) the questions after it."""
    work.rec_pos = k + 1
    kind = work.rec[k, 1]
    phase = PHASE_PLAY
    if kind == REC_GRAND:
        phase = PHASE_DEAL
    elif kind == REC_TICHU:
        phase = PHASE_CALLS
    elif kind == REC_GIVE:
        phase = PHASE_PASSING
    if phase > work.rec_phase:
        work.rec_phase = phase


@njit(cache=True, inline="always")
def _stage(decision, detail):
    """Where the round stands at ``decision``: ``STAGE_*``."""
    if decision == D_GRAND_TICHU:
        return STAGE_GRAND
    if decision == D_TICHU and detail == policies.TICHU_BEFORE_PASSING:
        return STAGE_BEFORE_PASSING
    if decision == D_PASS:
        return STAGE_PASSING
    if decision == D_TICHU and detail == policies.TICHU_AFTER_PASSING:
        return STAGE_AFTER_PASSING
    return STAGE_PLAY


@njit(cache=True, inline="always")
def _point_stage(point):
    """The stage of a Tichu's decision point (``policies.TICHU_*``)."""
    if point == policies.TICHU_BEFORE_PASSING:
        return STAGE_BEFORE_PASSING
    if point == policies.TICHU_AFTER_PASSING:
        return STAGE_AFTER_PASSING
    return STAGE_PLAY


@njit(cache=True, inline="always")
def _tichu_stage(phase):
    """The earliest stage a Tichu call read after actions up to ``phase`` (``PHASE_*``) can
    be taken at: before the passing, after it once passed cards were read, in the play once
    a play was."""
    if phase <= PHASE_CALLS:
        return STAGE_BEFORE_PASSING
    if phase == PHASE_PASSING:
        return STAGE_AFTER_PASSING
    return STAGE_PLAY


@njit(cache=True)
def _simultaneous(work, pub, me, seat, decision, detail):
    """Take the calls and passings at the cursor that answer no question now: each waits for
    its seat's question. Returns the answer when the action at the cursor is this seat's
    answer to this question, else -1 (``PENDING`` after a failure)."""
    while work.rec_pos < work.rec_len:
        k = work.rec_pos
        who = work.rec[k, 0]
        kind = work.rec[k, 1]
        bit = 1 << who
        if kind == REC_GRAND:
            if decision != D_GRAND_TICHU or work.rec_asked & bit:
                return _fail(work, RE_GRAND_LATE)
            if work.rec_grand & bit:
                return _fail(work, RE_CALLED)
            _read(work, k)
            if who == seat:
                work.rec_took = k
                work.rec_asked |= bit
                return 1
            work.rec_grand |= bit
            work.rec_waited[who] = k
        elif kind == REC_TICHU:
            point = work.rec[k, 3] - 1  # the moment the record names (§2.3), -1: any
            need = _tichu_stage(work.rec_phase)
            if point >= 0:
                need = max(need, _point_stage(point))
            if _stage(decision, detail) < need:
                return -1  # a call after the passing, or in the play: the round is not there
            if pub.grand_tichu[who] or pub.tichu[who] or (work.rec_tichu | work.rec_grand) & bit:
                return _fail(work, RE_CALLED)
            if pub.has_played[who]:
                return _fail(work, RE_TICHU_LATE)
            _read(work, k)
            if decision == D_TICHU and who == seat and (point < 0 or point == detail):
                work.rec_took = k
                return 1
            work.rec_tichu |= bit
            work.rec_waited[who] = k
            work.rec_tichu_point[who] = point
        elif kind == REC_GIVE:
            passing = (
                decision == D_GRAND_TICHU
                or decision == D_PASS
                or (decision == D_TICHU and detail == policies.TICHU_BEFORE_PASSING)
            )
            if not passing:
                return _fail(work, RE_GIVE_LATE)
            if (work.rec_given | work.rec_gives_waiting) & bit:
                return _fail(work, RE_GIVE_TWICE)
            _read(work, k)
            if decision == D_PASS and who == seat:
                work.rec_took = k
                return _given(work, me, seat, detail, work.rec[k, 3], k)
            work.rec_gives_waiting |= bit
            work.rec_gives[who] = work.rec[k, 3]
            work.rec_waited_give[who] = k
        elif kind == REC_DOG and decision != D_DOG:
            # the table handed the lead on by itself (§2.10): the seat that acts is the one
            if not ((decision == D_TICHU or decision == D_PLAY) and seat == work.rec[k, 3]):
                return _fail(work, RE_DOG)
            _read(work, k)
        else:
            return -1
    return -1


@njit(cache=True)
def _given(work, me, seat, offsets, packed, k):
    """Seat ``seat`` passes the cards of action ``k`` (its packed answer)."""
    if not _gives_ok(packed, me.hand, offsets, work.rec_n):
        return _fail(work, RE_GIVE_CARDS, k)
    work.rec_given |= 1 << seat
    return packed


@njit(cache=True, inline="always")
def _declined(work, decision, detail):
    """Whether a call question the record does not answer may be declined once the record
    is read to its end: the round has gone past that question's moment for every seat
    (``_read``), or it is a Tichu before a bomb, whose call the record names before the
    bomb. Otherwise the round waits for more of the record."""
    if decision == D_GRAND_TICHU:
        return work.rec_phase > PHASE_DEAL
    if detail == policies.TICHU_BEFORE_PASSING:
        return work.rec_phase >= PHASE_PASSING
    if detail == policies.TICHU_AFTER_PASSING:
        return work.rec_phase >= PHASE_PLAY
    return detail == TICHU_BEFORE_BOMB


@njit(cache=True)
def _recorded(work, pub, me, seat, decision, detail, choices):
    """The record's answer to ``seat``'s ``decision`` (module docstring), ``PENDING`` when the
    record ends before it or cannot give it (``work.rec_error``)."""
    work.rec_took = -1
    got = _simultaneous(work, pub, me, seat, decision, detail)
    if got == PENDING or got >= 0:
        return got
    bit = 1 << seat
    more = work.rec_pos < work.rec_len
    if decision == D_GRAND_TICHU or decision == D_TICHU:
        waiting = work.rec_grand if decision == D_GRAND_TICHU else work.rec_tichu
        if decision == D_TICHU and work.rec_tichu_point[seat] >= 0:
            if work.rec_tichu_point[seat] != detail:
                waiting = 0  # a call the record puts at another of the seat's moments
        if waiting & bit:
            if decision == D_GRAND_TICHU:
                work.rec_grand &= ~bit
                work.rec_asked |= bit
            else:
                work.rec_tichu &= ~bit
            work.rec_took = work.rec_waited[seat]
            return 1
        if not more and not _declined(work, decision, detail):
            return PENDING
        if decision == D_GRAND_TICHU:
            work.rec_asked |= bit
        return 0
    if decision == D_PASS:
        if work.rec_gives_waiting & bit:
            work.rec_gives_waiting &= ~bit
            k = work.rec_waited_give[seat]
            work.rec_took = k
            return _given(work, me, seat, detail, work.rec_gives[seat], k)
        return _fail(work, RE_NO_GIVE) if more else PENDING
    if not more:
        return PENDING
    k = work.rec_pos
    who = work.rec[k, 0]
    kind = work.rec[k, 1]
    cards = U64(work.rec[k, 2])
    value = work.rec[k, 3]
    mine = who == seat
    if decision == D_BOMB:
        if mine and (kind == REC_BOMB or kind == REC_PLAY):
            j = _found(work.bombs_m, work.bombs_c, choices, cards)
            if kind == REC_BOMB and j < 0:
                return _fail(work, RE_BOMB)
            if j >= 0 and (kind == REC_BOMB or turn_after_window(pub) != seat):
                _read(work, k)
                work.rec_took = k
                return j
        return -1
    if decision == D_PLAY:
        if not mine or not (kind == REC_PLAY or kind == REC_PASS or kind == REC_BOMB):
            return _fail(work, RE_TURN)
        if kind == REC_PASS:
            if detail == 0:
                return _fail(work, RE_NO_PASS)
            j = -1
        else:
            j = _found(work.moves_m, work.moves_c, choices, cards)
            if j < 0:
                return _fail(work, RE_PLAY)
    elif decision == D_WISH:
        if not mine or kind != REC_WISH or not (value == 0 or 2 <= value <= 14):
            return _fail(work, RE_WISH)
        j = value
    elif decision == D_DRAGON:
        if not mine or kind != REC_DRAGON:
            return _fail(work, RE_DRAGON)
        if not 0 <= value < pub.n_players or (value - seat) % 2 == 0:
            return _fail(work, RE_DRAGON)
        j = value
    elif decision == D_DOG:
        n = pub.n_players
        if not mine or kind != REC_DOG or not (value == (seat + 2) % n or value == (seat + 4) % n):
            return _fail(work, RE_DOG)
        j = value
    else:
        return _fail(work, RE_TURN)
    _read(work, k)
    work.rec_took = k
    return j


@njit(cache=True)
def ask(work, pub, me, seat, decision, detail, choices):
    """The answer to ``seat``'s ``decision`` taken outside: the script's (``outside.answer``),
    else, in a round played from its record (``work.rec_len > 0``), the record's, appended to
    the script (the module docstring). ``PENDING`` while it waits, with ``work.asked`` set."""
    a = answer(work, me, seat, decision, detail, choices)
    if a != PENDING or work.rec_len == 0:
        return a
    i = work.script_pos
    if work.rec_error != RE_NONE or i >= work.rec_stop:
        return PENDING
    if i >= MAX_SCRIPT:
        return _fail(work, RE_LONG)
    a = _recorded(work, pub, me, seat, decision, detail, choices)
    if a == PENDING:
        return PENDING
    work.script[i] = a
    work.script_rng[i] = me.rng
    work.rec_of[i] = work.rec_took
    work.script_pos = i + 1
    work.script_len = i + 1
    work.asked[0] = D_NONE
    return a


@njit(cache=True)
def calls_after_the_end(work, pub):
    """The Tichu calls the record holds after the round's last play (calls of seats that
    played no card, made while the round ended: ``engine._calls_left`` makes them), added to
    those waiting; a call of a seat that played is refused as any late call."""
    while work.rec_pos < work.rec_len and work.rec[work.rec_pos, 1] == REC_TICHU:
        k = work.rec_pos
        who = work.rec[k, 0]
        if pub.grand_tichu[who] or pub.tichu[who] or (work.rec_tichu >> who) & 1:
            _fail(work, RE_CALLED)
            return
        if pub.has_played[who]:
            _fail(work, RE_TICHU_LATE)
            return
        _read(work, k)
        work.rec_tichu |= 1 << who
        work.rec_waited[who] = k
        work.rec_tichu_point[who] = work.rec[k, 3] - 1


@njit(cache=True, inline="always")
def start_record(work, n):
    """A round played from its record reads it from the first action, nothing waiting; ``n``
    seats at the table."""
    work.rec_pos = 0
    work.rec_n = n
    work.rec_error = RE_NONE
    work.rec_error_at = -1
    work.rec_asked = 0
    work.rec_grand = 0
    work.rec_tichu = 0
    work.rec_given = 0
    work.rec_gives_waiting = 0
    work.rec_phase = PHASE_DEAL
    work.script_len = 0


REC_FIELDS = [
    ("rec", np.int64, (MAX_REC, 4)),  # the actions: seat, kind, cards, value
    ("rec_len", np.int64),  # actions recorded (0: the round is not played from a record)
    ("rec_stop", np.int64),  # stop before the script's answer of this position
    ("rec_n", np.int64),  # seats at the table
    ("rec_pos", np.int64),  # the next action to take
    ("rec_took", np.int64),
    ("rec_error", np.int64),  # RE_*
    ("rec_error_at", np.int64),  # the action that failed
    ("rec_asked", np.int64),  # seats asked for Grand Tichu so far
    ("rec_grand", np.int64),  # calls waiting for their seat's question
    ("rec_tichu", np.int64),
    ("rec_given", np.int64),  # seats whose cards are passed
    ("rec_gives_waiting", np.int64),
    ("rec_phase", np.int64),  # PHASE_*: how far the actions read have gone
    ("rec_gives", np.int64, (MAX_SEATS,)),  # a waiting passing's packed answer, per seat
    ("rec_waited_give", np.int64, (MAX_SEATS,)),  # and its action
    ("rec_waited", np.int64, (MAX_SEATS,)),  # the action of each seat's waiting call
    ("rec_tichu_point", np.int64, (MAX_SEATS,)),  # the moment a waiting Tichu names, -1 any
    ("rec_of", np.int16, (MAX_SCRIPT,)),  # the action each answer of the script took
]
