"""The Grand Seigneur round (RULES.md §5, 5 to 12 players, one or two decks), jitted.

``play_round`` plays one round: seating by rank, the deal, the exchange of best cards, the
tricks under the play rules of §2.5-§2.11 (with §5's two-deck changes), until one player
still holds cards. There are no teams, points, calls or Dragon's gift; the finishing order is
the result and becomes the next round's ranks.

Seats and players. ``seat`` is a chair in turn order (seat ``i`` plays before ``i + 1``, the
direction the books call "to the right"); ``player`` is who sits there and owns a strategy
and a random stream. The players' ranks from the previous round place them (§5):

    seat 0            the Grand Seigneur (rank 1)
    Decision (Japanese edition): the second sits at his left, ... the last at his right, so
    turn order runs  GS -> last -> second-to-last -> ... -> second        seat p: rank n + 1 - p
    Option (Russian edition): the second sits at his right, turn order runs by rank
                     GS -> second -> third -> ... -> last                 seat p: rank p + 1

In a game's first round nobody has a rank: **Decision**, the players take the chairs in a
random order (drawn from the round's seating stream) and the last chair deals.

Deal (§5): every card of the deck, round-robin starting after the dealer (earlier seats may get
one more). The dealer is the last-ranked player (both books have the lowest deal). Option
(Russian edition): 108 cards, 12 to each player while the deck lasts (with 10 or more players
the whole deck is dealt round-robin, as the Russian book does for ten), the rest face up out
of play.

Exchange from a game's second round (§5): the last gives their 3 best cards to the Grand
Seigneur, the second-to-last 2 to the second, the third-to-last 1 to the third (5 players: 2
and 1); "best" is ``cards.best_value``. Then every receiver gives the same number of cards
of their choice back (``policies.give_back``), from the hand it holds after receiving.

Play: the Mah Jong's holder leads the first trick (**Decision**: if it lies among the Russian
leftovers, the first player dealt to leads); the wish (§2.11); bombs out of turn as §2.9's
Decision; a trick ends when every other holder of cards passed after the last play; its
cards leave play; the winner leads, or the next holder after them. Russian Option: the Dog
gives the lead to the last-ranked player (**Decision**: the dealer, the last-ranked from the
second round on; themselves too if they played it; the next holder after them if they are
out, as §2.10). The round ends at once when only one player holds cards: that player is last.

Randomness: stream 0 deals, stream 1 + p drives player p's decisions, stream ``SEAT_STREAM``
the first round's seating (``rng.py``), all keyed by (run seed, round key).

A decision a player's strategy leaves to Python (``outside.py``) is read from the round's
script instead of a policy; past the script's end the round stops with ``ERR_PENDING`` right
at that decision.

The records are in ``records.py``, the error codes in ``kernels/errors.py``; ``play_round`` runs
the phases below in order (seating and reset, deal, exchange, tricks, end), the steps a turn
shares with the team games in ``kernels/turns.py``.
"""

import numpy as np

from ..bits import DOG, MAH_JONG, ONE, U64, ZERO, lowest_bit_index
from ..combos import DOG_LEAD
from ..errors import (
    ERR_CARDS,
    ERR_FINISH,
    ERR_ILLEGAL,
    ERR_MOVES,
    ERR_NONE,
    ERR_PENDING,
    ERR_STRATEGY,
)
from ..eventlog import close_round, log_multiset
from ..jit import njit
from ..moves import has_bomb
from ..outside import (
    D_BOMB,
    D_GIVE_BACK,
    D_PLAY,
    D_WISH,
    PENDING,
    answer,
    packed_card,
    taken_outside,
)
from ..refs import borrow
from ..rng import seed_stream, shuffle_prefix
from ..turns import (
    LEAD_GIVEN,
    PLAYED,
    ROUND_OVER,
    choice_ok,
    chosen_play,
    clear_top,
    go_out,
    is_bomb,
    make_wish,
    open_turn,
    reset_table,
    seat_record,
    top_trick,
    trick_won,
    wish_kept,
    wish_missed,
)
from . import policies
from .cards import (
    CARD_LISTS,
    DECK_RUSSIAN,
    DECK_SIZES,
    add_card,
    best_cards,
    ms_add,
    ms_contains,
    ms_remove,
    ms_size,
    tally,
    tally_is_deck,
)
from .combos import play_code
from .moves import MAX_MOVES, candidate_moves, gen_bombs2, legal_moves, may_beat
from .records import (
    EV_BOMB,
    EV_DEAL,
    EV_DOG,
    EV_END,
    EV_GIVE,
    EV_GIVE_BACK,
    EV_LEFTOVER,
    EV_OUT,
    EV_PASS,
    EV_PLAY,
    EV_TRICK,
    EV_WISH,
    EV_WISH_DONE,
    GS_ST_BOMBS,
    GS_ST_BOMBS_OOT,
    GS_ST_TRICKS,
    MAX_BOMBS,
    N_GS_STATS,
)

SEAT_STREAM = 63
RUSSIAN_HAND = 12


@njit(cache=True, inline="always")
def _outside(work, s, decision):
    """Whether the strategy of the player at seat ``s`` leaves ``decision`` to Python."""
    return taken_outside(work.params[work.seat_player[s], policies.G_OUTSIDE], decision)


@njit(cache=True)
def _next_in(mask, seat):
    """The first seat of bitmask ``mask`` after ``seat`` in turn order (``seat`` itself last);
    -1 for an empty mask."""
    if mask == 0:
        return -1
    later = mask & ~((np.int64(2) << seat) - 1)
    m = later if later != 0 else mask
    return lowest_bit_index(U64(m & -m))


@njit(cache=True)
def _next_active(pub, seat):
    """The next seat after ``seat`` in turn order that still holds cards (``seat`` itself last)."""
    return _next_in(pub.holders, seat)


@njit(cache=True)
def seat_of_rank(rank, n, russian_seating):
    """The chair of the player ranked ``rank`` (1..n) in the round after (§5, see above)."""
    if rank == 1:
        return 0
    if russian_seating:
        return rank - 1
    return n + 1 - rank


@njit(cache=True)
def _conserved(work, pub, privs):
    """§7 with two decks: every card is in exactly one place, as often as the deck has it."""
    c0 = ZERO
    c1 = ZERO
    over = ZERO
    c0, c1, over = tally(c0, c1, over, pub.trick_a, pub.trick_b)
    c0, c1, over = tally(c0, c1, over, work.discard_a, work.discard_b)
    c0, c1, over = tally(c0, c1, over, pub.leftover_a, pub.leftover_b)
    for s in range(pub.n_players):
        c0, c1, over = tally(c0, c1, over, privs[s].hand_a, privs[s].hand_b)
    return tally_is_deck(c0, c1, over, work.deck_kind)


@njit(cache=True)
def _play_cards(pub, me, seat, a, b, code):
    """Move ``(a, b)`` from the seat's hand to the trick; True if the wish was fulfilled."""
    me.hand_a, me.hand_b = ms_remove(me.hand_a, me.hand_b, a, b)
    pub.counts[seat] -= ms_size(a, b)
    pub.played_a, pub.played_b = ms_add(pub.played_a, pub.played_b, a, b)
    pub.trick_a, pub.trick_b = ms_add(pub.trick_a, pub.trick_b, a, b)
    pub.top_a = a
    pub.top_b = b
    return top_trick(pub, seat, a, code)


@njit(cache=True)
def _turn_ok(work, pub, me, choice, a, b, code, wish):
    """The checker's view of a regular turn: the play is a combination of the hand read at its
    best reading that beats the top (§2.5-§2.7, §5), and it or the pass respects the wish
    (§2.11), the full list of plays generated again for the test."""
    top = pub.top_code
    if choice >= 0:
        if a == ZERO or not ms_contains(me.hand_a, me.hand_b, a, b):
            return False
        if play_code(a, b, top, pub.rules) != code:
            return False
    elif top == 0:
        return False
    if wish_kept(top, wish, choice, code, a, me.hand_a):
        return True
    n = candidate_moves(
        me.hand_a, me.hand_b, top, pub.rules, work.check_a, work.check_b, work.check_c
    )
    return not wish_missed(me.hand_a, wish, work.check_a, n)


@njit(cache=True)
def _go_out(work, pub, seat, nlog):
    """``seat`` played its last card: no longer a holder, next in the finishing order."""
    pub.holders &= ~(np.int64(1) << seat)
    go_out(pub, seat)
    return log_multiset(work, nlog, EV_OUT, seat, ZERO, ZERO, pub.n_out, 0)


@njit(cache=True)
def _clear_trick(pub):
    """No trick in play: nothing on the table, nobody has passed."""
    clear_top(pub)
    pub.trick_a = ZERO
    pub.trick_b = ZERO
    pub.top_a = ZERO
    pub.top_b = ZERO


@njit(cache=True)
def _collect(work, pub):
    """The trick in play leaves play (nobody keeps tricks in Grand Seigneur, §5)."""
    work.discard_a, work.discard_b = ms_add(
        work.discard_a, work.discard_b, pub.trick_a, pub.trick_b
    )
    _clear_trick(pub)
    pub.tricks += 1


@njit(cache=True)
def _no_exchange(rec):
    """Nothing given or received yet: a seat's private record or its row of results."""
    rec.gave_a = ZERO
    rec.gave_b = ZERO
    rec.got_a = ZERO
    rec.got_b = ZERO


@njit(cache=True)
def _hand_over(giver, taker, a, b):
    """Move the multiset ``(a, b)`` from one private hand to another in the exchange (§5), as
    what the one gave and the other got."""
    giver.hand_a, giver.hand_b = ms_remove(giver.hand_a, giver.hand_b, a, b)
    taker.hand_a, taker.hand_b = ms_add(taker.hand_a, taker.hand_b, a, b)
    giver.gave_a, giver.gave_b, taker.got_a, taker.got_b = a, b, a, b


@njit(cache=True)
def _seat_players(seed, key, work, ranks_before):
    """Fill ``work.seat_player``: by rank (§5), or at random in a game's first round."""
    n = work.n_players
    if ranks_before[0] == 0:
        perm = work.deck  # scratch: the deck is refilled after seating
        for p in range(n):
            perm[p] = p
        shuffle_prefix(perm, n, seed_stream(U64(seed), U64(key), U64(SEAT_STREAM)))
        for s in range(n):
            work.seat_player[s] = perm[s]
    else:
        for p in range(n):
            work.seat_player[seat_of_rank(ranks_before[p], n, work.rules.russian_seating)] = p


@njit(cache=True, inline="always")
def play_round(
    seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check, outside
):
    """Play one round with the strategies and options loaded in ``work``. ``ranks_before[p]`` is
    player p's rank from the previous round (all 0 in a game's first round: no exchange).
    Fills ``rnd`` and ``seats[player]``; returns ``(error, log rows)``. With ``outside`` (a
    constant) the round reads the decisions strategies leave to Python from the script
    (``outside.py``); the batch path's round is compiled without those branches."""
    if outside:
        return _round_stepped(
            seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check
        )
    return _round(seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check)


@njit(cache=True)
def _round(seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check):
    return _play(
        seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check, False
    )


@njit(cache=True)
def _round_stepped(
    seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check
):
    return _play(
        seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check, True
    )


@njit(cache=True, inline="always")
def _play(
    seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before, check, outside
):
    """The round, phase by phase. The phases take the arrays as views without a reference count
    (``refs.borrow``): counting them at every inlined call cost a measurable share of the round
    with cheap strategies."""
    privs = borrow(privs)
    seats = borrow(seats)
    ranks_before = borrow(ranks_before)
    _seat_players(seed, key, work, ranks_before)
    _reset(seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before)
    nlog = _deal(seed, key, work, pub, privs, rnd, seats, ranks_before)
    err = ERR_NONE
    if ranks_before[0] != 0:  # from a game's second round on
        err, nlog = _exchange(work, pub, privs, seats, ranks_before, check, nlog, outside)
    if err == ERR_NONE:
        err, nlog = _tricks(work, pub, privs, rnd, check, nlog, outside)
    if err == ERR_NONE:
        err, nlog = _end_round(work, pub, privs, rnd, seats, check, nlog)
    return close_round(work, rnd, err, nlog)


@njit(cache=True, inline="always")
def _reset(seed, key, game, round_in_game, work, pub, privs, rnd, seats, ranks_before):
    """Empty the table and the records for a new round, the players in their chairs (§5), each
    player's decision stream seeded; the last-ranked player deals."""
    n = work.n_players
    sp = work.seat_player
    pub.n_players = n
    pub.deck = work.deck_kind
    pub.rules = work.rules  # the table's Options, which everybody knows (§6)
    reset_table(pub)
    _clear_trick(pub)
    pub.played_a = ZERO
    pub.played_b = ZERO
    work.discard_a = ZERO
    work.discard_b = ZERO
    dealer = n - 1
    for s in range(n):
        p = sp[s]
        pub.counts[s] = 0
        pub.out_order[s] = -1
        pub.exchanged[s] = 0
        pub.rank_before[s] = ranks_before[p]
        if ranks_before[p] == n:
            dealer = s
        me = privs[s]
        seat_record(me, s, seed, key, p)
        me.player = p
        me.hand_a = ZERO
        me.hand_b = ZERO
        _no_exchange(me)
        seat = seats[p]
        seat.seat = s
        seat.rank_before = ranks_before[p]
        seat.rank_after = 0
        _no_exchange(seat)
    pub.dealer = dealer
    rnd.round = key
    rnd.game = game
    rnd.round_in_game = round_in_game
    rnd.dealer = sp[dealer]
    rnd.wish = -1
    rnd.bombs_out_of_turn = 0
    rnd.error = ERR_NONE
    for s in range(n):
        for j in range(N_GS_STATS):
            work.stats[s, j] = 0


@njit(cache=True, inline="always")
def _deal(seed, key, work, pub, privs, rnd, seats, ranks_before):
    """The deal (§5): round-robin from the seat after the dealer; under the Russian Option 12
    each while the deck lasts, the rest face up out of play. Returns the log rows."""
    n = work.n_players
    sp = work.seat_player
    dealer = pub.dealer
    nlog = 0
    kind = work.deck_kind
    size = DECK_SIZES[kind]
    deck = work.deck
    for i in range(size):
        deck[i] = CARD_LISTS[kind, i]
    shuffle_prefix(deck, size, seed_stream(U64(seed), U64(key), U64(0)))
    dealt = size if kind != DECK_RUSSIAN else min(size, RUSSIAN_HAND * n)
    for i in range(dealt):
        s = (dealer + 1 + i) % n
        privs[s].hand_a, privs[s].hand_b = add_card(
            privs[s].hand_a, privs[s].hand_b, ONE << U64(deck[i])
        )
        pub.counts[s] += 1
    pub.leftover_a = ZERO
    pub.leftover_b = ZERO
    pub.holders = (np.int64(1) << n) - 1  # every seat gets cards (9 at least)
    for i in range(dealt, size):
        pub.leftover_a, pub.leftover_b = add_card(
            pub.leftover_a, pub.leftover_b, ONE << U64(deck[i])
        )
    rnd.leftover_a = pub.leftover_a
    rnd.leftover_b = pub.leftover_b
    for s in range(n):
        seat = seats[sp[s]]
        seat.dealt_a = privs[s].hand_a
        seat.dealt_b = privs[s].hand_b
        seat.cards = pub.counts[s]
        nlog = log_multiset(
            work, nlog, EV_DEAL, s, privs[s].hand_a, privs[s].hand_b, ranks_before[sp[s]], sp[s]
        )
    if dealt < size:
        nlog = log_multiset(
            work, nlog, EV_LEFTOVER, -1, pub.leftover_a, pub.leftover_b, size - dealt, 0
        )
    return nlog


@njit(cache=True, inline="always")
def _exchange(work, pub, privs, seats, ranks_before, check, nlog, outside):
    """The exchange (§5): forced best cards up, chosen cards back. Returns ``(error, log
    rows)``."""
    n = work.n_players
    sp = work.seat_player
    levels = 2 if n == 5 else 3
    rank_seat = work.rank_seat
    for s in range(n):
        rank_seat[ranks_before[sp[s]]] = s
    for j in range(levels):
        k = levels - j
        giver = rank_seat[n - j]
        taker = rank_seat[1 + j]
        ga, gb = best_cards(privs[giver].hand_a, privs[giver].hand_b, k)
        _hand_over(privs[giver], privs[taker], ga, gb)
        pub.exchanged[giver] = k
        pub.exchanged[taker] = k
        nlog = log_multiset(work, nlog, EV_GIVE, giver, ga, gb, k, taker)
    for j in range(levels):
        k = levels - j
        giver = rank_seat[n - j]
        taker = rank_seat[1 + j]
        t = privs[taker]
        if outside and _outside(work, taker, D_GIVE_BACK):
            packed = answer(work, t, taker, D_GIVE_BACK, k, 0)
            if packed == PENDING:
                return ERR_PENDING, nlog
            xa = ZERO
            xb = ZERO
            for i in range(k):
                c = packed_card(packed, i)
                if c >= 0:
                    xa, xb = add_card(xa, xb, ONE << U64(c))
        else:
            xa, xb = policies.give_back(work.params[sp[taker]], pub, t, k)
        if ms_size(xa, xb) != k or xb & ~xa or not ms_contains(t.hand_a, t.hand_b, xa, xb):
            return ERR_STRATEGY, nlog
        _hand_over(t, privs[giver], xa, xb)
        nlog = log_multiset(work, nlog, EV_GIVE_BACK, taker, xa, xb, k, giver)
    for s in range(n):
        seat = seats[sp[s]]
        seat.gave_a = privs[s].gave_a
        seat.gave_b = privs[s].gave_b
        seat.got_a = privs[s].got_a
        seat.got_b = privs[s].got_b
    if check and not _conserved(work, pub, privs):
        return ERR_CARDS, nlog
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def _tricks(work, pub, privs, rnd, check, nlog, outside):
    """The play (§2.8-§2.11 with §5) from the Mah Jong's lead (the first player dealt to's,
    when it lies among the leftovers) until one player holds cards: turns, each followed by
    its out-of-turn bomb window, and the tricks they make. Returns ``(error, log rows)``."""
    n = work.n_players
    armed = 0  # seats holding a bomb; redone when their hand changes
    turn = (pub.dealer + 1) % n
    for s in range(n):
        if has_bomb(privs[s].hand_a):
            armed |= 1 << s
        if privs[s].hand_a & MAH_JONG:
            turn = s
    rnd.leader = work.seat_player[turn]
    if check and not _conserved(work, pub, privs):
        return ERR_CARDS, nlog
    while True:
        err, outcome, armed, nlog = _turn(work, pub, privs, rnd, turn, armed, check, nlog, outside)
        if err != ERR_NONE or outcome == ROUND_OVER:
            return err, nlog
        if outcome == LEAD_GIVEN:
            # Russian Option: the lead goes to the last-ranked player (§2.10's shape)
            dog = turn
            target = pub.dealer
            turn = target if pub.counts[target] > 0 else _next_active(pub, target)
            nlog = log_multiset(work, nlog, EV_DOG, dog, DOG, ZERO, 0, turn)
            if check and not _conserved(work, pub, privs):
                return ERR_CARDS, nlog
            continue  # the Dog is never bombed (§2.9)
        err, outcome, actor, armed, nlog = _bomb_windows(
            work, pub, privs, turn, armed, check, nlog, outside
        )
        if err != ERR_NONE or outcome == ROUND_OVER:
            return err, nlog
        # ---- trick over? every other holder of cards has passed since the last play ----
        if trick_won(pub, pub.holders):
            winner = pub.top_seat
            work.stats[winner, GS_ST_TRICKS] += 1
            nlog = log_multiset(work, nlog, EV_TRICK, winner, pub.trick_a, pub.trick_b, 0, 0)
            _collect(work, pub)
            turn = winner if pub.counts[winner] > 0 else _next_active(pub, winner)
        else:
            turn = _next_active(pub, actor)
        if check and not _conserved(work, pub, privs):
            return ERR_CARDS, nlog


@njit(cache=True, inline="always")
def _turn(work, pub, privs, rnd, p, armed, check, nlog, outside):
    """Seat ``p``'s turn: its play or pass (forced when nothing beats the top), checked, with
    what follows from the play: the wish (§2.11), going out, the Dog (Russian Option). Returns
    ``(error, outcome, armed, log rows)`` with an outcome of ``turns``."""
    n = work.n_players
    params = work.params
    sp = work.seat_player
    ma = work.moves_a
    mb = work.moves_b
    mc = work.moves_c
    me = privs[p]
    leading = open_turn(pub, p)
    wish_before = pub.wish
    forced = not leading and not may_beat(me.hand_a, me.hand_b, pub.top_code, pub.rules)
    if forced:
        choice = -1  # nothing beats the top: a forced pass, no decision to ask for
    elif outside and _outside(work, p, D_PLAY):
        # every legal play as the rules core lists them
        n_legal, can_pass = legal_moves(
            me.hand_a, me.hand_b, pub.top_code, pub.wish, pub.rules, ma, mb, mc
        )
        if n_legal > ma.shape[0]:
            return ERR_MOVES, PLAYED, armed, nlog
        choice = answer(work, me, p, D_PLAY, can_pass, n_legal)
        if choice == PENDING:
            return ERR_PENDING, PLAYED, armed, nlog
    else:
        choice = policies.play(params[sp[p]], pub, me, ma, mb, mc)
    if choice == policies.MOVES_OVERFLOW:
        return ERR_MOVES, PLAYED, armed, nlog
    if not choice_ok(choice, MAX_MOVES, leading):
        return ERR_STRATEGY, PLAYED, armed, nlog
    a, code = chosen_play(choice, ma, mc)
    b = mb[choice] if choice >= 0 else ZERO
    if choice >= 0 and (a == ZERO or not ms_contains(me.hand_a, me.hand_b, a, b)):
        return ERR_STRATEGY, PLAYED, armed, nlog
    if check and not _turn_ok(work, pub, me, choice, a, b, code, wish_before):
        return ERR_ILLEGAL, PLAYED, armed, nlog
    if (
        check
        and forced
        and candidate_moves(
            me.hand_a,
            me.hand_b,
            pub.top_code,
            pub.rules,
            work.check_a,
            work.check_b,
            work.check_c,
        )
        != 0
    ):
        return ERR_ILLEGAL, PLAYED, armed, nlog  # the forced-pass test missed a play
    if choice == -1:
        pub.passed |= 1 << p
        nlog = log_multiset(work, nlog, EV_PASS, p, ZERO, ZERO, 0, 0)
        return ERR_NONE, PLAYED, armed, nlog
    if is_bomb(code):
        pub.bombs += 1
        work.stats[p, GS_ST_BOMBS] += 1
    done = _play_cards(pub, me, p, a, b, code)
    if armed & (1 << p) and not has_bomb(me.hand_a):
        armed &= ~(1 << p)
    nlog = log_multiset(work, nlog, EV_PLAY, p, a, b, code, 0)
    if done:
        nlog = log_multiset(work, nlog, EV_WISH_DONE, p, ZERO, ZERO, wish_before, 0)
    if a & MAH_JONG:
        if outside and _outside(work, p, D_WISH):
            w = answer(work, me, p, D_WISH, 0, 14)
            if w == PENDING:
                return ERR_PENDING, PLAYED, armed, nlog
        else:
            w = policies.wish(params[sp[p]], pub, me)
        if not make_wish(pub, rnd, w):
            return ERR_STRATEGY, PLAYED, armed, nlog
        nlog = log_multiset(work, nlog, EV_WISH, p, ZERO, ZERO, w, 0)
    if pub.counts[p] == 0:
        nlog = _go_out(work, pub, p, nlog)
        if pub.n_out == n - 1:
            return ERR_NONE, ROUND_OVER, armed, nlog  # §5: one player still holds cards
    if code >> 16 == DOG_LEAD:
        _collect(work, pub)
        return ERR_NONE, LEAD_GIVEN, armed, nlog
    return ERR_NONE, PLAYED, armed, nlog


@njit(cache=True, inline="always")
def _bomb_windows(work, pub, privs, actor, armed, check, nlog, outside):
    """The out-of-turn bomb windows (§2.9 Decision) after ``actor``'s play or pass: the seats
    with a bomb are asked in turn order after the last actor; the first to bomb (checked with
    ``check``) becomes the last actor and opens the next window, until a window passes without
    a bomb or a bomb leaves one player holding cards. Returns ``(error, outcome, last actor,
    armed, log rows)``."""
    sp = work.seat_player
    while True:
        bomber = -1
        waiting = armed & ~(np.int64(1) << actor)  # seats with a bomb, asked in turn order
        q = actor
        while waiting != 0 and bomber < 0:
            q = _next_in(waiting, q)
            waiting &= ~(np.int64(1) << q)
            nb = gen_bombs2(
                privs[q].hand_a, pub.top_code, work.bombs_a, work.bombs_b, work.bombs_c, 0
            )
            if nb == 0:
                continue
            nb = min(nb, MAX_BOMBS)
            if outside and _outside(work, q, D_BOMB):
                j = answer(work, privs[q], q, D_BOMB, 0, nb)
                if j == PENDING:
                    return ERR_PENDING, PLAYED, actor, armed, nlog
            else:
                j = policies.bomb(work.params[sp[q]], pub, privs[q], work.bombs_a, work.bombs_c, nb)
            if not choice_ok(j, nb, False):
                return ERR_STRATEGY, PLAYED, actor, armed, nlog
            if j < 0:
                continue
            bomber = q
            wish_b = pub.wish
            ba = work.bombs_a[j]
            bc = work.bombs_c[j]
            if check and (
                play_code(ba, ZERO, pub.top_code, pub.rules) != bc
                or not is_bomb(bc)
                or ba & ~privs[q].hand_a
            ):
                return ERR_ILLEGAL, PLAYED, actor, armed, nlog
            done = _play_cards(pub, privs[q], q, ba, ZERO, bc)
            if not has_bomb(privs[q].hand_a):
                armed &= ~(1 << q)
            pub.bombs += 1
            work.stats[q, GS_ST_BOMBS] += 1
            work.stats[q, GS_ST_BOMBS_OOT] += 1
            nlog = log_multiset(work, nlog, EV_BOMB, q, ba, ZERO, bc, 0)
            if done:
                nlog = log_multiset(work, nlog, EV_WISH_DONE, q, ZERO, ZERO, wish_b, 0)
            if pub.counts[q] == 0:
                nlog = _go_out(work, pub, q, nlog)
                if pub.n_out == work.n_players - 1:
                    return ERR_NONE, ROUND_OVER, q, armed, nlog
        if bomber < 0:
            return ERR_NONE, PLAYED, actor, armed, nlog  # nobody bombed: the play or pass stands
        actor = bomber


@njit(cache=True, inline="always")
def _end_round(work, pub, privs, rnd, seats, check, nlog):
    """The end of the round: the finishing order is the rank (§5), the last player the one
    still holding cards. Returns ``(error, log rows)``."""
    n = work.n_players
    sp = work.seat_player
    last = _next_active(pub, 0)
    pub.out_order[n - 1] = last
    if check:
        seen = 0
        for i in range(n):
            if pub.out_order[i] >= 0:
                seen |= 1 << pub.out_order[i]
        if seen != (1 << n) - 1 or pub.counts[last] == 0:
            return ERR_FINISH, nlog
        if not _conserved(work, pub, privs):
            return ERR_CARDS, nlog
    for i in range(n):
        seats[sp[pub.out_order[i]]].rank_after = i + 1
    oot = 0
    for s in range(n):
        seat = seats[sp[s]]
        seat.bombs_played = work.stats[s, GS_ST_BOMBS]
        seat.bombs_out_of_turn = work.stats[s, GS_ST_BOMBS_OOT]
        seat.tricks_won = work.stats[s, GS_ST_TRICKS]
        seat.cards_left = pub.counts[s]
        oot += work.stats[s, GS_ST_BOMBS_OOT]
    rnd.bombs_out_of_turn = oot
    rnd.tricks = pub.tricks
    rnd.bombs = pub.bombs
    rnd.first_out = sp[pub.out_order[0]]
    rnd.last = sp[last]
    nlog = log_multiset(
        work, nlog, EV_END, last, privs[last].hand_a, privs[last].hand_b, 0, sp[last]
    )
    return ERR_NONE, nlog
