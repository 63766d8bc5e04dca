"""The play (RULES.md §2.5–§2.13, §3, §4), jitted: turns, the out-of-turn bomb windows after
each play or pass, and the tricks they make, from the first lead to the round's end
(``tricks_from``). A round stepped from Python stops at a decision awaited from it and keeps
where the play stood (``_stop_at``), so the next call goes on from there (``resumable``,
``resume_point``) rather than replaying the round from the deal.
"""

from ..bits import DOG, DRAGON, MAH_JONG, PHOENIX, ZERO, popcount, rank_cards
from ..choices import MOVES_OVERFLOW
from ..combos import DOG_LEAD, SINGLE, beats, make_code
from ..errors import (
    ERR_CARDS,
    ERR_ILLEGAL,
    ERR_MOVES,
    ERR_NONE,
    ERR_PENDING,
    ERR_STRATEGY,
    ERR_VIEW,
)
from ..eventlog import log_cards
from ..hand import card_points
from ..jit import njit
from ..moves import gen_bombs, has_bomb, legal_moves
from ..outside import D_BOMB, D_DOG, D_DRAGON, D_PLAY, D_TICHU, D_WISH, PENDING
from ..turns import (
    LEAD_GIVEN,
    PLAYED,
    ROUND_OVER,
    VICTORY,
    choice_ok,
    chosen_play,
    clear_top,
    go_out,
    is_bomb,
    make_wish,
    next_holder,
    open_turn,
    top_trick,
    trick_won,
)
from . import policies
from .checks import conserved, turn_ok, views_ok
from .deal import left_to_python
from .passing import show_minister, tichu_called, tichu_decision
from .recorded import ask
from .records import (
    DRAGON_GIVEN,
    DRAGON_PLAYED,
    EV_BOMB,
    EV_DOG,
    EV_DRAGON,
    EV_OUT,
    EV_PASS,
    EV_PLAY,
    EV_TRICK,
    EV_WISH,
    EV_WISH_DONE,
    PHOENIX_IN_COMBO,
    PHOENIX_LED,
    PHOENIX_ON_SINGLE,
)
from .variants import KING, TIENTSIN, WUWANG, n_seats, victory_size

NOT_FORCED = -2  # ``tricks_from``: no answer is forced, every seat asks its strategy


# ``tricks_from``: the first turn's Tichu question is already answered (``pub.tichu`` holds
# the answer) and its play is the strategy's: a search's rollouts of a Tichu call
TICHU_ANSWERED = -3


@njit(cache=True)
def next_active(pub, seat):
    """The next seat after ``seat`` in turn order that still holds cards (``seat`` itself last)."""
    return next_holder(pub.n_players, pub, seat)


@njit(cache=True)
def _victory(pub, k):
    """Whether the first ``k`` players out are all of one team: a double (§2.13) or triple
    (§3) victory, which ends the round at once."""
    if pub.n_out != k:
        return False
    for i in range(1, k):
        if (pub.out_order[i] - pub.out_order[0]) % 2 != 0:
            return False
    return True


@njit(cache=True)
def _dog_lead(pub, privs, work, p, outside):
    """Who leads after ``p``'s Dog (§2.10): the partner, or the next holder of cards after
    them; in Tientsin a partner of the strategy's choice while both hold cards, the one who
    does, else the next holder after ``p`` (§3). Returns -1 for an answer outside the choice,
    -2 while the answer is awaited from Python."""
    n = pub.n_players
    if work.variant != TIENTSIN:
        partner = (p + 2) % n
        return partner if pub.counts[partner] > 0 else next_active(pub, partner)
    a = (p + 2) % n
    b = (p + 4) % n
    if pub.counts[a] > 0 and pub.counts[b] > 0:
        if outside and left_to_python(work, p, D_DOG):
            t = ask(work, pub, privs[p], p, D_DOG, 0, 2)
            if t == PENDING:
                return -2
        else:
            t = policies.dog_target(work.params[p], pub, privs[p])
        return t if t == a or t == b else -1
    if pub.counts[a] > 0:
        return a
    if pub.counts[b] > 0:
        return b
    return next_active(pub, p)


@njit(cache=True)
def _play_cards(pub, me, seat, mask, code):
    """Move ``mask`` from the seat's hand to the trick; returns True if the wish was fulfilled."""
    me.hand &= ~mask
    pub.counts[seat] -= popcount(mask)
    pub.played |= mask
    pub.played_by[seat] |= mask
    pub.trick_cards |= mask
    pub.top_mask = mask
    pub.has_played[seat] = 1
    return top_trick(pub, seat, mask, code)


@njit(cache=True)
def _answer_ok(top, hand, mask, code):
    """The cheap check every answer gets: cards of the hand, a code that beats the top."""
    return mask != ZERO and mask & ~hand == ZERO and (top == 0 or beats(code, top))


@njit(cache=True, inline="always")
def _note_bomb(seat, pub, code, out_of_turn):
    """The seat plays the bomb ``code`` (§2.7, §2.9); the first is kept with its trick."""
    if seat.bombs_played == 0:
        seat.first_bomb = code
        seat.first_bomb_trick = pub.tricks
    seat.bombs_played += 1
    if out_of_turn:
        seat.bombs_out_of_turn += 1


@njit(cache=True, inline="always")
def _note_special(seat, mask, leading):
    """The seat plays ``mask`` holding the Phoenix, the Dragon or the Dog: how the Phoenix went
    (led alone, alone on a single, inside a combination, §2.6), that the Dragon (§2.12) or the
    Dog (§2.10) was played."""
    if mask & PHOENIX:
        if mask != PHOENIX:
            seat.phoenix_as = PHOENIX_IN_COMBO
        elif leading:
            seat.phoenix_as = PHOENIX_LED
        else:
            seat.phoenix_as = PHOENIX_ON_SINGLE
    if mask & DRAGON:
        seat.dragon = DRAGON_PLAYED
    if mask & DOG:
        seat.dog_led = True  # §2.10: led, whether or not it was the seat's last card


@njit(cache=True, inline="always")
def _note_lacks(pub, p, leading, mask, code):
    """What everybody learns from a turn that leaves a binding wish open (§2.11): a seat bound
    by the wish must play the wished rank, and a single of that rank is a legal play on a lead
    and on a lower single. So a seat that leads without the rank (a bomb included), or passes
    or plays a combination other than a bomb without it on a single the rank beats, holds no
    card of it (``pub.lacks``, a bitmask of ranks per seat)."""
    w = policies.binding_wish(pub, p)
    if w == 0 or mask & rank_cards(w):
        return
    if leading or (
        not (mask != ZERO and is_bomb(code)) and beats(make_code(SINGLE, 1, 2 * w), pub.top_code)
    ):
        pub.lacks[p] |= 1 << w


@njit(cache=True, inline="always")
def clear_trick(pub):
    """No trick in play: no cards or combination on the table, nobody has passed."""
    clear_top(pub)
    pub.top_mask = ZERO
    pub.trick_cards = ZERO


@njit(cache=True)
def collect_trick(pub, privs, work, rnd, seats, seat, nlog, outside):
    """``seat`` takes the trick in play, or gives it to an opponent of its choice when it was
    won with the Dragon (§2.12). Returns ``(error, log rows)``."""
    taker = seat
    if pub.top_mask == DRAGON:
        if outside and left_to_python(work, seat, D_DRAGON):
            taker = ask(work, pub, privs[seat], seat, D_DRAGON, 0, 2)
            if taker == PENDING:
                return ERR_PENDING, nlog
        else:
            taker = policies.dragon(work.params[seat], pub, privs[seat])
        if taker < 0 or taker >= pub.n_players or (taker - seat) % 2 == 0:
            return ERR_STRATEGY, nlog
        rnd.dragon_to = taker
        seats[seat].dragon = DRAGON_GIVEN
        nlog = log_cards(work, nlog, EV_DRAGON, seat, ZERO, 0, taker)
    return ERR_NONE, take_trick(pub, work, seats, seat, taker, nlog)


@njit(cache=True, inline="always")
def take_trick(pub, work, seats, seat, taker, nlog):
    """``taker`` takes the trick in play that ``seat`` won (itself, or an opponent it gave the
    Dragon's trick to, §2.12): its cards and points. Returns the log rows."""
    pts = card_points(pub.trick_cards)
    work.piles[taker] |= pub.trick_cards
    pub.points_taken[taker] += pts
    pub.tricks += 1
    seats[taker].tricks_won += 1
    nlog = log_cards(work, nlog, EV_TRICK, seat, pub.trick_cards, pts, taker)
    pub.trick_cards = ZERO
    return nlog


@njit(cache=True, inline="always")
def went_out(variant, work, pub, p, nlog):
    """Seat ``p`` played its last card. The round ends at once when it makes one team's first
    players out (§2.13, §3: a double or triple victory) or leaves one player holding cards
    (the trick in play then goes to this player). Returns ``(outcome, log rows)``."""
    go_out(pub, p)
    nlog = log_cards(work, nlog, EV_OUT, p, ZERO, pub.n_out, 0)
    if _victory(pub, victory_size(variant)):
        return VICTORY, nlog
    if pub.n_out == n_seats(variant) - 1:
        return ROUND_OVER, nlog
    return PLAYED, nlog


@njit(cache=True, inline="always")
def _call_before_turn(work, pub, me, seats, p, armed, nlog, outside):
    """Seat ``p``'s Tichu question before its turn, while it has played no card (§2.3).
    Returns ``(error, log rows)``; ``ERR_PENDING`` while the answer is awaited from Python."""
    call = tichu_decision(work, pub, me, p, policies.TICHU_BEFORE_TURN, outside)
    if call == PENDING:
        if outside:
            _stop_at(work, p, -1, armed, nlog)
        return ERR_PENDING, nlog
    if call == 1:
        nlog = tichu_called(work, pub, seats, p, policies.TICHU_BEFORE_TURN, nlog)
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def _call_before_bomb(work, pub, me, seats, q, nlog):
    """Seat ``q`` bombs out of turn (§2.9) before it has played a card: a seat decided from
    Python is asked for a Tichu right before it (§2.3: a call stands until the first card,
    however that card comes). The scripted strategies are not asked here; their calls come
    at the other moments. Returns ``(error, log rows)``; ``ERR_PENDING`` while the answer is
    awaited, and the round then replays from the deal."""
    if pub.has_played[q] or pub.grand_tichu[q] or pub.tichu[q]:
        return ERR_NONE, nlog
    if not left_to_python(work, q, D_TICHU):
        return ERR_NONE, nlog
    call = ask(work, pub, me, q, D_TICHU, policies.TICHU_BEFORE_BOMB, 2)
    if call == PENDING:
        return ERR_PENDING, nlog
    if call == 1:
        nlog = tichu_called(work, pub, seats, q, policies.TICHU_BEFORE_BOMB, nlog)
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def _choose(work, models, pub, me, p, leading, armed, nlog, outside, forced):
    """Seat ``p``'s play or pass, an index into ``work.moves_m``/``moves_c`` (-1: pass): the
    answer ``forced`` or Python's among every legal play as the rules core lists them (the led
    Phoenix at its table value), else its strategy's; checked against its choices, a lone
    Phoenix led given its §2.6 value. Returns ``(error, choice)``."""
    moves_m = work.moves_m
    moves_c = work.moves_c
    if forced >= -1 or (outside and left_to_python(work, p, D_PLAY)):
        n_legal, can_pass = legal_moves(
            me.hand, pub.top_code, policies.binding_wish(pub, p), moves_m, moves_c
        )
        if n_legal > moves_m.shape[0]:
            return ERR_MOVES, 0
        if leading:
            policies.value_led_phoenix(pub, moves_m, moves_c, n_legal)
        if forced >= -1:
            if forced >= n_legal or (forced == -1 and can_pass == 0):
                return ERR_STRATEGY, 0
            choice = forced
        else:
            choice = ask(work, pub, me, p, D_PLAY, can_pass, n_legal)
            if choice == PENDING:
                _stop_at(work, p, -1, armed, nlog)
                return ERR_PENDING, 0
    else:
        choice = policies.play(work.params[p], pub, me, moves_m, moves_c, models, work.learn)
    if choice == MOVES_OVERFLOW:
        return ERR_MOVES, 0
    if not choice_ok(choice, moves_m.shape[0], leading):
        return ERR_STRATEGY, 0
    if choice >= 0 and not _answer_ok(pub.top_code, me.hand, moves_m[choice], moves_c[choice]):
        return ERR_STRATEGY, 0
    if leading and moves_m[choice] == PHOENIX:
        # §2.6: the lone Phoenix led is worth 1½, or ½ under the Option (the move lists
        # give it 1½); from its code on, ``beats`` lets the Mah Jong on a ½
        moves_c[choice] = make_code(SINGLE, 1, policies.led_phoenix(pub))
    return ERR_NONE, choice


@njit(cache=True, inline="always")
def _wish_made(work, pub, me, rnd, seats, p, nlog, outside):
    """Seat ``p`` played the Mah Jong: its wish (§2.11), Python's or its strategy's. Returns
    ``(error, log rows)``."""
    if outside and left_to_python(work, p, D_WISH):
        w = ask(work, pub, me, p, D_WISH, 0, 14)
        if w == PENDING:
            return ERR_PENDING, nlog
    else:
        w = policies.wish(work.params[p], pub, me)
    if not make_wish(pub, rnd, w):
        return ERR_STRATEGY, nlog
    seats[p].mahjong_wish = w
    nlog = log_cards(work, nlog, EV_WISH, p, ZERO, w, 0)
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def _played(variant, work, pub, privs, rnd, seats, p, leading, choice, armed, nlog, outside):
    """What follows from seat ``p``'s play ``choice``: the cards on the trick, the tally, the
    Minister's hand shown again (§4), the wish fulfilled or made (§2.11), going out (§2.13,
    §3), the lead given away by the Dog (§2.10). Returns ``(error, outcome, armed, log
    rows)``."""
    me = privs[p]
    wish_before = pub.wish
    mask, code = work.moves_m[choice], work.moves_c[choice]
    if is_bomb(code):
        pub.bombs += 1
        _note_bomb(seats[p], pub, code, False)
    if mask & (PHOENIX | DRAGON | DOG):
        _note_special(seats[p], mask, leading)
    done = _play_cards(pub, me, p, mask, code)
    if variant == WUWANG and p % 2 == KING % 2:
        show_minister(pub, privs)
    if armed & (1 << p) and not has_bomb(me.hand):
        armed &= ~(1 << p)
    nlog = log_cards(work, nlog, EV_PLAY, p, mask, code, 0)
    if done:
        seats[p].wish_fulfilled = True
        nlog = log_cards(work, nlog, EV_WISH_DONE, p, ZERO, wish_before, 0)
    if mask & MAH_JONG:
        err, nlog = _wish_made(work, pub, me, rnd, seats, p, nlog, outside)
        if err != ERR_NONE:
            return err, PLAYED, armed, nlog
    if me.hand == ZERO:
        outcome, nlog = went_out(variant, work, pub, p, nlog)
        if outcome != PLAYED:
            return ERR_NONE, outcome, armed, nlog
    if code >> 16 == DOG_LEAD:
        # §2.10, §3: the lead goes at once to a partner, or the next holder of cards
        work.piles[p] |= pub.trick_cards
        clear_trick(pub)
        pub.tricks += 1
        seats[p].tricks_won += 1  # the Dog's trick is its player's (§2.10)
        return ERR_NONE, LEAD_GIVEN, armed, nlog
    return ERR_NONE, PLAYED, armed, nlog


@njit(cache=True, inline="always")
def _turn(variant, work, models, pub, privs, rnd, seats, p, armed, check, nlog, outside, forced):
    """Seat ``p``'s turn: a Tichu call while it has played no card (§2.3), then its play or
    pass, checked, with what follows from the play (``_played``). ``forced`` (``NOT_FORCED``:
    none) is an answer given in advance, an index into the legal plays (``tricks_from``), or
    ``TICHU_ANSWERED``: only the Tichu question is. Returns ``(error, outcome, armed, log
    rows)`` with an outcome of ``turns``."""
    me = privs[p]
    leading = open_turn(pub, p)
    # Tichu decision point before each own turn while no card is played (§2.3); a forced
    # answer resumes the turn after it
    if (
        forced == NOT_FORCED
        and pub.has_played[p] == 0
        and pub.grand_tichu[p] == 0
        and pub.tichu[p] == 0
    ):
        err, nlog = _call_before_turn(work, pub, me, seats, p, armed, nlog, outside)
        if err != ERR_NONE:
            return err, PLAYED, armed, nlog
    err, choice = _choose(work, models, pub, me, p, leading, armed, nlog, outside, forced)
    if err != ERR_NONE:
        return err, PLAYED, armed, nlog
    if check and not turn_ok(
        pub.top_code,
        policies.binding_wish(pub, p),
        me.hand,
        choice,
        work.moves_m,
        work.moves_c,
        work.check_m,
        work.check_c,
        policies.led_phoenix(pub),
    ):
        return ERR_ILLEGAL, PLAYED, armed, nlog
    if pub.wish != 0:  # rare: the inference reads the turn only while a wish is open
        mask, code = chosen_play(choice, work.moves_m, work.moves_c)
        _note_lacks(pub, p, leading, mask, code)
    if choice == -1:
        pub.passed |= 1 << p
        nlog = log_cards(work, nlog, EV_PASS, p, ZERO, 0, 0)
        return ERR_NONE, PLAYED, armed, nlog
    return _played(variant, work, pub, privs, rnd, seats, p, leading, choice, armed, nlog, outside)


@njit(cache=True, inline="always")
def _bombed(variant, work, pub, privs, seats, q, j, armed, nlog):
    """Seat ``q`` bombs out of turn with its bomb ``j`` of ``work.bombs_m``/``bombs_c`` (§2.9):
    the cards on the trick, the tally, the Minister's hand shown again (§4), the wish
    fulfilled (§2.11), going out, which may end the round (§2.13, §3). Returns ``(outcome,
    armed, log rows)``."""
    bombs_m = work.bombs_m
    bombs_c = work.bombs_c
    wish_b = pub.wish
    _note_bomb(seats[q], pub, bombs_c[j], True)
    done = _play_cards(pub, privs[q], q, bombs_m[j], bombs_c[j])
    if variant == WUWANG and q % 2 == KING % 2:
        show_minister(pub, privs)
    if not has_bomb(privs[q].hand):
        armed &= ~(1 << q)
    pub.bombs += 1
    nlog = log_cards(work, nlog, EV_BOMB, q, bombs_m[j], bombs_c[j], 0)
    if done:
        seats[q].wish_fulfilled = True
        nlog = log_cards(work, nlog, EV_WISH_DONE, q, ZERO, wish_b, 0)
    if privs[q].hand == ZERO:
        go_out(pub, q)
        nlog = log_cards(work, nlog, EV_OUT, q, ZERO, pub.n_out, 0)
    if _victory(pub, victory_size(variant)):
        return VICTORY, armed, nlog
    if pub.n_out == n_seats(variant) - 1:
        return ROUND_OVER, armed, nlog
    return PLAYED, armed, nlog


@njit(cache=True, inline="always")
def _bomb_windows(
    variant, work, models, pub, privs, seats, actor, armed, nlog, outside, asked, forced
):
    """The out-of-turn bomb windows (§2.9 Decision) after ``actor``'s play or pass: each armed
    seat after the last actor is offered its bombs in turn order; the first to bomb becomes
    the last actor and opens the next window, until a window passes without a bomb or a bomb
    ends the round. ``asked`` >= 0 resumes the first window at that seat, whose answer is
    ``forced`` (an index into the bombs, -1 for none; ``tricks_from``): the seats before it
    have declined. Returns ``(error, outcome, last actor, armed, log rows)``."""
    n = n_seats(variant)
    bombs_m = work.bombs_m
    bombs_c = work.bombs_c
    while True:
        bomber = -1
        q = actor
        for _ in range(n - 1):
            q = q + 1 if q + 1 < n else 0
            if asked >= 0 and q != asked:
                continue  # declined before the resumed answer
            if not armed & (1 << q):
                if asked >= 0:
                    return ERR_STRATEGY, PLAYED, actor, armed, nlog
                continue
            nb = gen_bombs(privs[q].hand, pub.top_code, bombs_m, bombs_c, 0)
            if nb == 0:
                if asked >= 0:
                    return ERR_STRATEGY, PLAYED, actor, armed, nlog
                continue
            nb = min(nb, bombs_m.shape[0])
            if asked >= 0:
                asked = -1
                j = forced
            elif outside and left_to_python(work, q, D_BOMB):
                j = ask(work, pub, privs[q], q, D_BOMB, 0, nb)
                if j == PENDING:
                    _stop_at(work, q, actor, armed, nlog)
                    return ERR_PENDING, PLAYED, actor, armed, nlog
            else:
                j = policies.bomb(
                    work.params[q], pub, privs[q], bombs_m, bombs_c, nb, models, work.learn
                )
            if not choice_ok(j, nb, False):
                return ERR_STRATEGY, PLAYED, actor, armed, nlog
            if j >= 0 and outside:
                err, nlog = _call_before_bomb(work, pub, privs[q], seats, q, nlog)
                if err != ERR_NONE:
                    return err, PLAYED, actor, armed, nlog
            if j >= 0:
                outcome, armed, nlog = _bombed(variant, work, pub, privs, seats, q, j, armed, nlog)
                if outcome != PLAYED:
                    return ERR_NONE, outcome, q, armed, nlog
                bomber = q
                break
        if bomber < 0:  # a window without a bomb: the play or pass stands
            return ERR_NONE, PLAYED, actor, armed, nlog
        actor = bomber


@njit(cache=True)
def armed_seats(n, privs):
    """Bitmask of the seats whose hand holds a bomb (§2.9). A hand only loses cards, so a seat
    stays armed until a play takes its last bomb: the trick loop keeps this mask up to date."""
    armed = 0
    for s in range(n):
        if has_bomb(privs[s].hand):
            armed |= 1 << s
    return armed


@njit(cache=True, inline="always")
def trick_start(variant, pub, privs):
    """Where the play (§2.8–§2.13, ``tricks_from``) starts: ``(the Mah Jong's holder, who
    leads, the seats holding a bomb)``. The Mah Jong's holder leads (§2.8), so every other
    seat is known to lack it from then on (``pub.lacks`` bit 1, the Mah Jong's rank)."""
    n = n_seats(variant)
    armed = armed_seats(n, privs)
    turn = 0
    for s in range(n):
        if privs[s].hand & MAH_JONG:
            turn = s
    for s in range(n):
        if s != turn:
            pub.lacks[s] |= 1 << 1
    pub.leader = turn
    return turn, armed


@njit(cache=True, inline="always")
def _next_turn(variant, work, pub, privs, rnd, seats, actor, nlog, outside):
    """Whose turn follows the bomb windows after ``actor``'s play or pass: when every other
    holder of cards has passed since the last play, the trick's winner takes it (§2.8,
    §2.12) and leads, or the next holder of cards after them; else the next holder after
    ``actor``. Returns ``(error, turn, log rows)``."""
    n = n_seats(variant)
    holders = 0
    for s in range(n):
        if pub.counts[s] > 0:
            holders |= 1 << s
    if not trick_won(pub, holders):
        return ERR_NONE, next_holder(n, pub, actor), nlog
    winner = pub.top_seat
    err, nlog = collect_trick(pub, privs, work, rnd, seats, winner, nlog, outside)
    if err != ERR_NONE:
        return err, -1, nlog
    clear_trick(pub)
    return ERR_NONE, (winner if pub.counts[winner] > 0 else next_holder(n, pub, winner)), nlog


@njit(cache=True, inline="always")
def tricks_from(variant, work, models, pub, privs, rnd, seats, check, nlog, outside, at):
    """The play (§2.8–§2.13) from a state until the round ends: turns, each followed by its
    out-of-turn bomb windows, and the tricks they make. Returns ``(error, victory, log rows)``,
    ``victory`` when one team's first players went out.

    The state is the records as the engine leaves them at a decision, and where the play
    stands, ``at = (turn, armed, forced, window)``: ``turn`` is the seat that decides and
    ``armed`` the seats holding a bomb (``armed_seats``). With ``window`` -1 the decision is
    ``turn``'s play on its own turn; with ``window`` a seat, it is ``turn``'s answer in the
    bomb window opened by ``window``'s play or pass (the seats between them have declined).
    ``forced`` (``NOT_FORCED``: ask the strategy) is that first answer: an index into the
    legal plays as ``legal_moves`` lists them (-1 to pass) or into the bombs as ``gen_bombs``
    lists them (-1 for none); a forced turn skips the Tichu question, already asked before
    the play, as ``TICHU_ANSWERED`` does, which leaves the play to the strategy. Every later
    decision is the strategies' (a search's rollouts)."""
    turn, armed, forced, window = at
    while True:
        opener = turn  # whose play or pass opens the bomb window
        asked = -1  # the seat answering ``forced`` in it (-1: none)
        if window < 0:
            err, outcome, armed, nlog = _turn(
                variant,
                work,
                models,
                pub,
                privs,
                rnd,
                seats,
                turn,
                armed,
                check,
                nlog,
                outside,
                forced,
            )
            if err != ERR_NONE or outcome >= ROUND_OVER:
                return err, outcome == VICTORY, nlog
            if outcome == LEAD_GIVEN:
                dog = turn
                turn = _dog_lead(pub, privs, work, dog, outside)
                if turn < 0:
                    return (ERR_PENDING if turn == -2 else ERR_STRATEGY), False, nlog
                nlog = log_cards(work, nlog, EV_DOG, dog, ZERO, 0, turn)
                if check and not conserved(pub, privs, work.piles):
                    return ERR_CARDS, False, nlog
                forced = NOT_FORCED
                continue  # §2.9: the Dog is never bombed
        else:  # a resumed bomb window: ``turn`` answers ``forced``, then the window goes on
            opener = window
            asked = turn
            window = -1
        err, outcome, actor, armed, nlog = _bomb_windows(
            variant, work, models, pub, privs, seats, opener, armed, nlog, outside, asked, forced
        )
        forced = NOT_FORCED
        if err != ERR_NONE or outcome >= ROUND_OVER:
            return err, outcome == VICTORY, nlog
        err, turn, nlog = _next_turn(variant, work, pub, privs, rnd, seats, actor, nlog, outside)
        if err != ERR_NONE:
            return err, False, nlog
        if check and not conserved(pub, privs, work.piles):
            return ERR_CARDS, False, nlog
        if check and variant == WUWANG and not views_ok(pub, privs):
            return ERR_VIEW, False, nlog


@njit(cache=True, inline="always")
def resumable(work):
    """Whether a round stepped from Python can go on from the records its last call left
    (``resume_point``) instead of being replayed from the deal: it stopped in the play at a
    Tichu call before a turn, a play or a bomb answer, whose place is kept (``_stop_at``),
    and the script holds exactly that answer more. Nothing else is read from the stop: the
    table is the records as they were left."""
    return (
        work.resume_seat >= 0
        and (work.asked[0] == D_TICHU or work.asked[0] == D_PLAY or work.asked[0] == D_BOMB)
        and work.script_len == work.script_pos + 1
    )


@njit(cache=True, inline="always")
def _stop_at(work, seat, window, armed, nlog):
    """Keep where the round stops for ``seat``'s turn (its Tichu call or its play: ``window``
    -1) or its answer in the bomb window opened by ``window``'s play or pass: what
    ``tricks_from`` needs to go on from the same records, which hold everything else (the
    hands, the trick, the streams, the tally)."""
    work.resume_seat = seat
    work.resume_window = window
    work.resume_armed = armed
    work.resume_nlog = nlog


@njit(cache=True, inline="always")
def resume_point(work, privs):
    """Take the awaited answer from the script as ``answer`` would (the seat's stream set as
    the answer left it) and return where ``tricks_from`` goes on: ``(turn, window, armed,
    forced answer, log rows)``. A Tichu call before a turn is not taken: the turn starts
    again (before the call it only notes who leads, which it notes again) and asks the
    script for it. The place is used once: a later stop keeps its own."""
    seat = work.resume_seat
    if work.asked[0] == D_TICHU:
        work.asked[0] = 0
        work.resume_seat = -1
        return seat, -1, work.resume_armed, NOT_FORCED, work.resume_nlog
    i = work.script_pos
    work.script_pos = i + 1
    privs[seat].rng = work.script_rng[i]
    work.asked[0] = 0
    work.resume_seat = -1
    return seat, work.resume_window, work.resume_armed, work.script[i], work.resume_nlog
