"""The 4-player round engine (Tichu Nanjing, RULES.md §2.2–§2.14), jitted.

``play_round`` plays one complete round from the deal to the score. All randomness comes from
counter-based streams seeded by (run seed, round key, stream): stream 0 deals, stream 1 + s
drives seat ``s``'s decisions (``rng.py``). Decisions go through ``policies`` with the public
record and the deciding seat's private record only (RULES.md §6, ``view.py``).

Outputs go into one ``ROUND`` record and four ``SEAT`` records; with a non-empty ``log`` array
every event is written as a row ``(event, seat, cards, code, extra)`` for transcripts; with
``check`` the RULES.md §7 invariants are verified after every action and a broken one stops the
round with a non-zero error code (``ERRORS`` names them).
"""

import numpy as np
from numba import njit

from . import policies
from .bits import (
    DRAGON, MAH_JONG, NORMAL, ONE, PHOENIX, SPECIALS, U64, ZERO, lowest_bit_index, popcount,
    rank_cards,
)  # fmt: skip
from .combos import BOMB_FOUR, DOG_LEAD, SINGLE, beats, classify
from .hand import card_points
from .moves import MAX_MOVES, candidate_moves, gen_bombs, has_bomb
from .rng import CARD_BITS, rand_below, seed_stream, shuffle_deck, shuffle_prefix

N = 4  # seats; partners sit opposite (RULES.md §2.1)
N_PARAMS = 32  # strategy parameters per seat
MAX_BOMBS = 64  # a 14-card hand holds at most 3 four-of-a-kinds and 40-odd straight flushes

ROUND = np.dtype(
    [
        ("round", np.int64),
        ("first_drawer", np.int64),
        ("double_victory", np.bool_),
        ("card_points", np.int64, (2,)),
        ("score", np.int64, (2,)),
        ("tricks", np.int64),
        ("bombs", np.int64),
        ("wish", np.int64),  # rank wished with the Mah Jong, 0 = none, -1 = Mah Jong unplayed
        ("dragon_to", np.int64),  # seat given a Dragon trick, -1 = none
        ("first_out", np.int64),
        ("error", np.int64),
    ],
    align=True,
)

SEAT = np.dtype(
    [
        ("hand8", np.uint64),
        ("hand14", np.uint64),
        ("hand_passed", np.uint64),  # the 14 cards after passing
        ("given", np.uint64, (3,)),  # to the left opponent, the partner, the right opponent
        ("received", np.uint64, (3,)),  # from the same three
        ("grand_tichu", np.bool_),
        ("tichu", np.bool_),
        ("finish", np.int64),  # 1-3 order out, 4 last holding cards, 0 after a double victory
        ("card_points", np.int64),  # points in the tricks this seat ended the round holding
        ("points", np.int64),  # the round score of the seat's team
    ],
    align=True,
)

# event codes of the log (see tichusim.transcript)
EV_DEAL8, EV_DEAL14, EV_GRAND_TICHU, EV_TICHU, EV_GIVE, EV_PLAY, EV_PASS, EV_BOMB = range(8)
EV_WISH, EV_WISH_DONE, EV_DOG, EV_TRICK, EV_DRAGON, EV_OUT, EV_END, EV_HAND_TO = range(8, 16)
LOG_WIDTH = 5
LOG_ROWS = 2048  # more events than any round has (a round that overflows reports ERR_LOG)

WORK = np.dtype(
    [
        # A worker's scratch, one record per thread. Kernels get its arrays as record fields,
        # which carry no reference count: array arguments would cost two atomic operations per
        # call and made up a third of the engine's time.
        ("params", np.float64, (N, N_PARAMS)),  # each seat's strategy row (slots.py)
        ("moves_m", np.uint64, (MAX_MOVES,)),  # the deciding strategy's plays
        ("moves_c", np.int64, (MAX_MOVES,)),
        ("check_m", np.uint64, (MAX_MOVES,)),  # the checker's own list of legal plays
        ("check_c", np.int64, (MAX_MOVES,)),
        ("bombs_m", np.uint64, (MAX_BOMBS,)),  # bombs offered in an out-of-turn window
        ("bombs_c", np.int64, (MAX_BOMBS,)),
        ("deck", np.int64, (56,)),
        ("piles", np.uint64, (N,)),  # cards in the tricks each seat has taken
        ("gifts", np.uint64, (N, 3)),
        # a fixed first 8 cards for one seat (Grand Tichu odds): -1 = a free deal
        ("fixed_seat", np.int64),
        ("fixed_cards", np.uint64),  # exact cards of the 8
        ("fixed_ranks", np.int64, (15,)),  # how many more cards of rank r, suit drawn per round
        ("logging", np.bool_),
        ("log", np.int64, (LOG_ROWS, LOG_WIDTH)),
    ],
    align=True,
)

ERR_NONE = 0
ERR_CARDS = 1  # a card in two places or in none (§7)
ERR_ILLEGAL = 2  # a play that is no combination, does not beat the top, or breaks the wish
ERR_POINTS = 3  # card points of the two teams do not sum to 100
ERR_SCORE = 4  # score is not card points + call bonuses
ERR_FINISH = 5  # finishing order is not a permutation
ERR_STRATEGY = 6  # a strategy answered outside its choices
ERR_MOVES = 7  # the move buffer was too small
ERR_LOG = 8  # the log buffer was too small
ERRORS = ("", "card conservation", "illegal play", "card points", "score", "finishing order",
          "strategy answer", "move buffer", "log buffer")  # fmt: skip


@njit(cache=True)
def _log(work, nlog, event, seat, mask, code, extra):
    if not work.logging:
        return nlog
    if nlog < LOG_ROWS:
        work.log[nlog, 0] = event
        work.log[nlog, 1] = seat
        work.log[nlog, 2] = np.int64(mask)
        work.log[nlog, 3] = code
        work.log[nlog, 4] = extra
    return nlog + 1


@njit(cache=True)
def _next_active(pub, seat):
    """The next seat after ``seat`` in turn order that still holds cards (``seat`` itself last)."""
    for i in range(1, N + 1):
        q = (seat + i) % N
        if pub.counts[q] > 0:
            return q
    return -1


@njit(cache=True)
def _conserved(pub, privs, piles):
    """§7: every card is in exactly one place (a hand, a trick pile, the trick in play, given)."""
    total = pub.trick_cards
    count = popcount(total)
    for s in range(N):
        for m in (privs[s].hand, piles[s]):
            if total & m:
                return False
            total |= m
            count += popcount(m)
    return count == 56 and total == NORMAL | SPECIALS


@njit(cache=True)
def _play_cards(pub, me, seat, mask, code):
    """Move ``mask`` from the seat's hand to the trick; returns True if the wish was fulfilled."""
    me.hand &= ~mask
    pub.counts[seat] -= popcount(mask)
    pub.played |= mask
    pub.played_by[seat] |= mask
    pub.trick_cards |= mask
    pub.top_code = code
    pub.top_mask = mask
    pub.top_seat = seat
    pub.has_played[seat] = 1
    pub.passed = 0
    if pub.wish != 0 and mask & rank_cards(pub.wish):
        pub.wish = 0
        return True
    return False


@njit(cache=True)
def _combination_ok(top, hand, mask, code):
    """Re-check a play with the classifier (§2.5–§2.7): a combination of the hand, read no
    higher than its best reading, that beats ``top`` (0 = leading)."""
    if mask & ~hand or mask == ZERO:
        return False
    if mask == PHOENIX:
        if code >> 8 != (SINGLE << 8) | 1:
            return False
    else:
        c = classify(mask)
        if c == 0 or (c >> 8) != (code >> 8) or (c & 0xFF) < (code & 0xFF):
            return False
    return top == 0 or beats(code, top)


@njit(cache=True)
def _answer_ok(top, hand, mask, code):
    """The cheap check every answer gets: cards of the hand, a code that beats the top."""
    return mask != ZERO and mask & ~hand == ZERO and (top == 0 or beats(code, top))


@njit(cache=True)
def _turn_ok(top, wish, hand, choice, moves_m, moves_c, all_m, all_c):
    """The checker's view of a turn: the play is a combination of the hand that beats the top
    (§2.5–§2.7), and it, or the pass, respects the wish (§2.11): the wished rank may be left
    out only if the player lacks it or no legal play contains it (a bomb out of a lead is
    always allowed). The full candidate list is generated independently of the strategy."""
    leading = top == 0
    if choice >= 0:
        mask = moves_m[choice]
        code = moves_c[choice]
        if not _combination_ok(top, hand, mask, code):
            return False
        if not leading and (code >> 16) >= BOMB_FOUR:
            return True
    elif leading:
        return False
    else:
        mask = ZERO
    if wish == 0 or mask & rank_cards(wish) or hand & rank_cards(wish) == ZERO:
        return True
    n = candidate_moves(hand, top, all_m, all_c)
    for i in range(min(n, all_m.shape[0])):
        if all_m[i] & rank_cards(wish):
            return False
    return True


@njit(cache=True)
def _deal_fixed(work, state):
    """Fill ``work.deck`` so that seat ``work.fixed_seat`` sees ``work.fixed_cards`` plus, for
    each rank r, ``work.fixed_ranks[r]`` cards of that rank drawn uniformly among the free
    ones as its first 8; every other card is dealt uniformly at random."""
    chosen = work.fixed_cards
    for r in range(2, 15):
        for _ in range(work.fixed_ranks[r]):
            avail = rank_cards(r) & ~chosen
            state, j = rand_below(state, popcount(avail))
            for _ in range(j):
                avail &= avail - ONE
            chosen |= avail & (~avail + ONE)
    deck = work.deck
    n = 0
    for i in range(56):
        if not chosen & (ONE << U64(CARD_BITS[i])):
            deck[n] = CARD_BITS[i]
            n += 1
    shuffle_prefix(deck, n, state)
    # open a gap of 8 at the fixed seat's first places (moving backwards is safe: every card
    # moves up or stays), then put the fixed seat's cards in it
    base = 14 * work.fixed_seat
    src = n - 1
    for i in range(55, -1, -1):
        if base <= i < base + 8:
            continue
        deck[i] = deck[src]
        src -= 1
    x = chosen
    for k in range(8):
        deck[base + k] = lowest_bit_index(x)
        x &= x - ONE


@njit(cache=True)
def _collect_trick(pub, privs, work, rnd, seat, nlog):
    """``seat`` takes the trick in play, or gives it to an opponent of its choice when it was
    won with the Dragon (§2.12). Returns ``(error, log rows)``."""
    taker = seat
    if pub.top_mask == DRAGON:
        taker = policies.dragon(work.params[seat], pub, privs[seat])
        if taker < 0 or taker >= N or (taker - seat) % 2 == 0:
            return ERR_STRATEGY, nlog
        rnd.dragon_to = taker
        nlog = _log(work, nlog, EV_DRAGON, seat, ZERO, 0, taker)
    pts = card_points(pub.trick_cards)
    work.piles[taker] |= pub.trick_cards
    pub.points_taken[taker] += pts
    pub.tricks += 1
    nlog = _log(work, nlog, EV_TRICK, seat, pub.trick_cards, pts, taker)
    pub.trick_cards = ZERO
    return ERR_NONE, nlog


@njit(cache=True)
def play_round(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    """Play one round with the strategies loaded in ``work``; fill ``rnd`` and ``seats``;
    return ``(error, log rows)`` (the log is written to ``work.log`` when ``work.logging``)."""
    params = work.params
    moves_m = work.moves_m
    moves_c = work.moves_c
    piles = work.piles
    gifts = work.gifts
    bombs_m = work.bombs_m
    bombs_c = work.bombs_c
    # ---- reset ----
    pub.n_players = N
    pub.first_drawer = first_drawer
    pub.played = ZERO
    pub.n_out = 0
    pub.wish = 0
    pub.top_code = 0
    pub.top_mask = ZERO
    pub.top_seat = -1
    pub.trick_cards = ZERO
    pub.leader = -1
    pub.passed = 0
    pub.tricks = 0
    pub.bombs = 0
    for s in range(N):
        piles[s] = ZERO
        pub.counts[s] = 0
        pub.grand_tichu[s] = 0
        pub.tichu[s] = 0
        pub.has_played[s] = 0
        pub.played_by[s] = ZERO
        pub.out_order[s] = -1
        pub.points_taken[s] = 0
        me = privs[s]
        me.seat = s
        me.hand = ZERO
        me.rng = seed_stream(U64(seed), U64(key), U64(1 + s))
        for t in range(N):
            me.given[t] = ZERO
            me.received[t] = ZERO
    rnd.round = key
    rnd.first_drawer = first_drawer
    rnd.double_victory = False
    rnd.wish = -1
    rnd.dragon_to = -1
    rnd.error = ERR_NONE
    nlog = 0
    err = ERR_NONE

    # ---- deal (§2.2): seat s draws deck[14s .. 14s+13]; the first 8 are seen before GT ----
    deck = work.deck
    if work.fixed_seat < 0:
        shuffle_deck(deck, seed_stream(U64(seed), U64(key), U64(0)))
    else:
        _deal_fixed(work, seed_stream(U64(seed), U64(key), U64(0)))
    for s in range(N):
        h8 = ZERO
        h14 = ZERO
        for k in range(14):
            b = ONE << U64(deck[14 * s + k])
            h14 |= b
            if k < 8:
                h8 |= b
        seats[s].hand8 = h8
        seats[s].hand14 = h14
        seats[s].grand_tichu = False
        seats[s].tichu = False
        nlog = _log(work, nlog, EV_DEAL8, s, h8, 0, 0)

    # ---- Grand Tichu after 8 cards, in turn order from the first drawer (§2.2) ----
    for i in range(N):
        s = (first_drawer + i) % N
        privs[s].hand = seats[s].hand8
        pub.counts[s] = 8
        if policies.grand_tichu(params[s], pub, privs[s]):
            pub.grand_tichu[s] = 1
            nlog = _log(work, nlog, EV_GRAND_TICHU, s, ZERO, 0, 0)
    for s in range(N):
        privs[s].hand = seats[s].hand14
        pub.counts[s] = 14
        nlog = _log(work, nlog, EV_DEAL14, s, seats[s].hand14, 0, 0)

    # ---- Tichu before passing (§2.3), then simultaneous passing (§2.4) ----
    for i in range(N):
        s = (first_drawer + i) % N
        if pub.grand_tichu[s] == 0 and pub.tichu[s] == 0:
            if policies.tichu(params[s], pub, privs[s], policies.TICHU_BEFORE_PASSING):
                pub.tichu[s] = 1
                nlog = _log(work, nlog, EV_TICHU, s, ZERO, policies.TICHU_BEFORE_PASSING, 0)
    for s in range(N):
        policies.passes(params[s], pub, privs[s], gifts[s])
        used = ZERO
        for j in range(3):
            g = gifts[s, j]
            if g == ZERO or g & (g - ONE) or g & ~privs[s].hand or g & used:
                err = ERR_STRATEGY
            used |= g
    if err != ERR_NONE:
        rnd.error = err
        return err, nlog
    for s in range(N):
        for j in range(3):
            privs[s].hand &= ~gifts[s, j]
    for s in range(N):
        for j in range(3):
            t = (s + 1 + j) % N
            privs[t].hand |= gifts[s, j]
            privs[s].given[t] = gifts[s, j]
            privs[t].received[s] = gifts[s, j]
            seats[s].given[j] = gifts[s, j]
            seats[t].received[2 - j] = gifts[s, j]  # t sees s as its (2 - j)-th neighbour
            nlog = _log(work, nlog, EV_GIVE, s, gifts[s, j], 0, t)
    for s in range(N):
        seats[s].hand_passed = privs[s].hand
    for i in range(N):
        s = (first_drawer + i) % N
        if pub.grand_tichu[s] == 0 and pub.tichu[s] == 0:
            if policies.tichu(params[s], pub, privs[s], policies.TICHU_AFTER_PASSING):
                pub.tichu[s] = 1
                nlog = _log(work, nlog, EV_TICHU, s, ZERO, policies.TICHU_AFTER_PASSING, 0)

    # ---- the play (§2.8–§2.13) ----
    # seats holding a bomb; a hand changes only when its seat plays, so the test is redone then
    armed = 0
    for s in range(N):
        if has_bomb(privs[s].hand):
            armed |= 1 << s
    turn = 0
    for s in range(N):
        if privs[s].hand & MAH_JONG:
            turn = s
    pub.leader = turn
    hand_to = ZERO  # the last player's hand cards, for the opponents (§2.13)
    double_victory = False
    round_over = False
    while not round_over:
        p = turn
        me = privs[p]
        leading = pub.top_code == 0
        if leading:
            pub.leader = p
        # Tichu decision point before each own turn while no card is played (§2.3)
        if pub.has_played[p] == 0 and pub.grand_tichu[p] == 0 and pub.tichu[p] == 0:
            if policies.tichu(params[p], pub, me, policies.TICHU_BEFORE_TURN):
                pub.tichu[p] = 1
                nlog = _log(work, nlog, EV_TICHU, p, ZERO, policies.TICHU_BEFORE_TURN, 0)
        wish_before = pub.wish
        choice = policies.play(params[p], pub, me, moves_m, moves_c)
        if choice == policies.MOVES_OVERFLOW:
            err = ERR_MOVES
            break
        if choice < -1 or choice >= moves_m.shape[0] or (choice == -1 and leading):
            err = ERR_STRATEGY
            break
        if choice >= 0 and not _answer_ok(pub.top_code, me.hand, moves_m[choice], moves_c[choice]):
            err = ERR_STRATEGY
            break
        if check and not _turn_ok(pub.top_code, wish_before, me.hand, choice, moves_m, moves_c,
                                  work.check_m, work.check_c):  # fmt: skip
            err = ERR_ILLEGAL
            break
        actor = p
        if choice == -1:
            pub.passed |= 1 << p
            nlog = _log(work, nlog, EV_PASS, p, ZERO, 0, 0)
        else:
            mask = moves_m[choice]
            code = moves_c[choice]
            if (code >> 16) >= BOMB_FOUR:
                pub.bombs += 1
            done = _play_cards(pub, me, p, mask, code)
            if armed & (1 << p) and not has_bomb(me.hand):
                armed &= ~(1 << p)
            nlog = _log(work, nlog, EV_PLAY, p, mask, code, 0)
            if done:
                nlog = _log(work, nlog, EV_WISH_DONE, p, ZERO, wish_before, 0)
            if mask & MAH_JONG:
                w = policies.wish(params[p], pub, me)
                if w != 0 and (w < 2 or w > 14):
                    err = ERR_STRATEGY
                    break
                pub.wish = w
                rnd.wish = w
                nlog = _log(work, nlog, EV_WISH, p, ZERO, w, 0)
            if me.hand == ZERO:
                pub.out_order[pub.n_out] = p
                pub.n_out += 1
                nlog = _log(work, nlog, EV_OUT, p, ZERO, pub.n_out, 0)
                if pub.n_out == 2 and (pub.out_order[0] + 2) % N == pub.out_order[1]:
                    double_victory = True  # §2.13: partners first and second, the round ends
                    break
                if pub.n_out == 3:
                    break  # §2.13: the round ends at once; the trick goes to the third out
            if code >> 16 == DOG_LEAD:
                # §2.10: the lead goes at once to the partner, or the next holder after them
                piles[p] |= pub.trick_cards
                pub.trick_cards = ZERO
                pub.top_code = 0
                pub.top_mask = ZERO
                pub.top_seat = -1
                pub.tricks += 1
                partner = (p + 2) % N
                turn = partner if pub.counts[partner] > 0 else _next_active(pub, partner)
                nlog = _log(work, nlog, EV_DOG, p, ZERO, 0, turn)
                if check and not _conserved(pub, privs, piles):
                    err = ERR_CARDS
                    break
                continue  # §2.9: the Dog is never bombed
        # ---- out-of-turn bomb windows (§2.9 Decision): after every play and every pass ----
        while True:
            bomber = -1
            for i in range(1, N):
                q = (actor + i) % N
                if not armed & (1 << q):
                    continue
                nb = gen_bombs(privs[q].hand, pub.top_code, bombs_m, bombs_c, 0)
                if nb == 0:
                    continue
                nb = min(nb, bombs_m.shape[0])
                j = policies.bomb(params[q], pub, privs[q], bombs_m, bombs_c, nb)
                if j < -1 or j >= nb:
                    err = ERR_STRATEGY
                    break
                if j >= 0:
                    bomber = q
                    wish_b = pub.wish
                    done = _play_cards(pub, privs[q], q, bombs_m[j], bombs_c[j])
                    if not has_bomb(privs[q].hand):
                        armed &= ~(1 << q)
                    pub.bombs += 1
                    nlog = _log(work, nlog, EV_BOMB, q, bombs_m[j], bombs_c[j], 0)
                    if done:
                        nlog = _log(work, nlog, EV_WISH_DONE, q, ZERO, wish_b, 0)
                    if privs[q].hand == ZERO:
                        pub.out_order[pub.n_out] = q
                        pub.n_out += 1
                        nlog = _log(work, nlog, EV_OUT, q, ZERO, pub.n_out, 0)
                    break
            if err != ERR_NONE or bomber < 0:
                break
            actor = bomber
            if pub.n_out == 2 and (pub.out_order[0] + 2) % N == pub.out_order[1]:
                double_victory = True
                round_over = True
                break
            if pub.n_out == 3:
                round_over = True
                break
        if err != ERR_NONE or round_over:
            break
        # ---- trick over? every other holder of cards has passed since the last play ----
        others = 0
        for s in range(N):
            if pub.counts[s] > 0 and s != pub.top_seat:
                others |= 1 << s
        if others & ~pub.passed == 0:
            winner = pub.top_seat
            err, nlog = _collect_trick(pub, privs, work, rnd, winner, nlog)
            if err != ERR_NONE:
                break
            pub.top_code = 0
            pub.top_mask = ZERO
            pub.top_seat = -1
            pub.passed = 0
            turn = winner if pub.counts[winner] > 0 else _next_active(pub, winner)
        else:
            turn = _next_active(pub, actor)
        if check and not _conserved(pub, privs, piles):
            err = ERR_CARDS
            break

    if err != ERR_NONE:
        rnd.error = err
        return err, nlog

    # ---- end of the round (§2.13) and scoring (§2.14) ----
    if not double_victory:
        third = pub.out_order[2]
        if pub.trick_cards != ZERO:  # §2.13: the trick in play goes to the third player out
            err, nlog = _collect_trick(pub, privs, work, rnd, third, nlog)
            if err != ERR_NONE:
                rnd.error = err
                return err, nlog
        last = _next_active(pub, third)
        pub.out_order[3] = last
        hand_to = privs[last].hand
        if check and not _conserved(pub, privs, piles):
            rnd.error = ERR_CARDS
            return ERR_CARDS, nlog
    team_points = rnd.card_points
    team_points[0] = 0
    team_points[1] = 0
    first = pub.out_order[0]
    if double_victory:
        team_points[first % 2] = 200
    else:
        last = pub.out_order[3]
        first_pile = piles[last]  # the last player's tricks go to the first player out
        piles[first] |= first_pile
        piles[last] = ZERO
        nlog = _log(work, nlog, EV_HAND_TO, last, hand_to, card_points(hand_to), (last + 1) % N)
        team_points[(last + 1) % 2] += card_points(hand_to)
        for s in range(N):
            team_points[s % 2] += card_points(piles[s])
        if check and team_points[0] + team_points[1] != 100:
            rnd.error = ERR_POINTS
            return ERR_POINTS, nlog
    score = rnd.score
    score[0] = team_points[0]
    score[1] = team_points[1]
    for s in range(N):
        won = 1 if s == first else -1
        if pub.grand_tichu[s]:
            score[s % 2] += 200 * won
        if pub.tichu[s]:
            score[s % 2] += 100 * won
        seats[s].grand_tichu = pub.grand_tichu[s] == 1
        seats[s].tichu = pub.tichu[s] == 1
        seats[s].card_points = 0 if double_victory else card_points(piles[s])
    for s in range(N):
        seats[s].finish = 0
    for i in range(N):
        if pub.out_order[i] >= 0 and (i < 2 or not double_victory):
            seats[pub.out_order[i]].finish = i + 1
    for s in range(N):
        seats[s].points = score[s % 2]
    if check:  # §7: the finishing order is a permutation of the players who went out
        seen = 0
        for i in range(2 if double_victory else N):
            seen |= 1 << pub.out_order[i]
        if popcount(U64(seen)) != (2 if double_victory else N):
            rnd.error = ERR_FINISH
            return ERR_FINISH, nlog
    rnd.double_victory = double_victory
    rnd.tricks = pub.tricks
    rnd.bombs = pub.bombs
    rnd.first_out = first
    nlog = _log(work, nlog, EV_END, first, ZERO, score[0], score[1])
    if nlog > LOG_ROWS:
        rnd.error = ERR_LOG
        return ERR_LOG, nlog
    return ERR_NONE, nlog

