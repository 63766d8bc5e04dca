"""The round engine (RULES.md §2.2–§2.14, with the tables of §3 and §4), jitted.

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

A rules option lives in ``work`` beside the table: with ``work.phoenix_led_half`` (the Option
of RULES.md §2.6) a lone Phoenix led is given the code of ½ instead of 1½ where the turn's play
is taken; from there on ``combos.beats`` and the move generators let the Mah Jong on it. The
public record carries the switch so that strategies value the lead the same way
(``policies.led_phoenix``). The checker holds every lone Phoenix to its §2.6 value.

A decision a seat's strategy leaves to Python (``outside.py``) is read from the round's script
instead of a policy; past the script's end the round stops with ``ERR_PENDING`` right at that
decision, so that the records show the table as the deciding seat sees it. At a Tichu call
before a turn, a play or a bomb answer it also keeps where the play stood (``_stop_at``), and
the next call goes on from there (``resumable``, ``resume_point``) rather than replaying the
round from the deal.

Outputs go into one ``ROUND`` record and a ``SEAT`` record per seat; with ``work.logging``
every event is written as a row ``(event, seat, cards, code, extra)`` for transcripts; with
``check`` the RULES.md §7 invariants are verified after every action and a broken one stops the
round with a non-zero error code (``kernels/errors.py`` names them). The records are in
``records.py``; ``play_round`` runs the phases below in order (reset, deal and Grand Tichu,
passing, tricks, end and score), the steps a turn shares with Grand Seigneur in ``turns.py``.
"""

from ..bits import (
    DOG,
    DRAGON,
    MAH_JONG,
    NORMAL,
    ONE,
    PHOENIX,
    SPECIALS,
    U64,
    ZERO,
    lowest_bit_index,
    popcount,
    rank_cards,
)
from ..choices import MOVES_OVERFLOW
from ..combos import DOG_LEAD, SINGLE, beats, classify, make_code, phoenix_single
from ..errors import (
    ERR_CARDS,
    ERR_FINISH,
    ERR_ILLEGAL,
    ERR_MOVES,
    ERR_NONE,
    ERR_PENDING,
    ERR_POINTS,
    ERR_STRATEGY,
    ERR_VIEW,
)
from ..eventlog import close_round, log_cards
from ..hand import card_points
from ..jit import njit
from ..moves import candidate_moves, gen_bombs, has_bomb, legal_moves
from ..outside import (
    D_BOMB,
    D_DOG,
    D_DRAGON,
    D_GRAND_TICHU,
    D_PASS,
    D_PLAY,
    D_TICHU,
    D_WISH,
    PENDING,
    answer,
    packed_card,
    taken_outside,
)
from ..refs import borrow
from ..rng import CARD_BITS, rand_below, seed_stream, shuffle_deck, shuffle_prefix
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
    open_turn,
    reset_table,
    seat_record,
    top_trick,
    trick_won,
    wish_kept,
    wish_missed,
)
from . import policies
from .records import (
    DRAGON_GIVEN,
    DRAGON_NONE,
    DRAGON_PLAYED,
    EV_BOMB,
    EV_DEAL8,
    EV_DEAL14,
    EV_DOG,
    EV_DRAGON,
    EV_END,
    EV_GIVE,
    EV_GRAND_TICHU,
    EV_HAND_TO,
    EV_OUT,
    EV_PASS,
    EV_PLAY,
    EV_SHOW,
    EV_TICHU,
    EV_TRICK,
    EV_TRICKS_TO,
    EV_WISH,
    EV_WISH_DONE,
    FIX_AFTER_PASSING,
    FIX_BEFORE_PASSING,
    FIX_CALL_AFTER_PASSING,
    FIX_CALL_AT_PLAYED,
    FIX_CALL_NEVER,
    FIX_MODE,
    FIX_RECEIVED,
    PHOENIX_HELD,
    PHOENIX_IN_COMBO,
    PHOENIX_LED,
    PHOENIX_NONE,
    PHOENIX_ON_SINGLE,
)
from .scoring import round_score
from .slots import P_OUTSIDE
from .variants import (
    KING,
    MAX_SEATS,
    MINISTER,
    NANJING,
    TIENTSIN,
    WUWANG,
    gt_cards,
    hand_size,
    may_call_grand,
    n_seats,
    pass_offsets,
    victory_size,
    wish_free,
)


@njit(cache=True)
def _next_active(pub, seat):
    """The next seat after ``seat`` in turn order that still holds cards (``seat`` itself last)."""
    n = pub.n_players
    q = seat
    for _ in range(n):
        q = q + 1 if q + 1 < n else 0  # no division by a number of seats known only at run time
        if pub.counts[q] > 0:
            return q
    return -1


@njit(cache=True)
def _conserved(pub, privs, piles):
    """§7: every card is in exactly one place (a hand, a trick pile, the trick in play, given)."""
    total = pub.trick_cards
    count = popcount(total)
    for s in range(pub.n_players):
        for m in (privs[s].hand, piles[s]):
            if total & m:
                return False
            total |= m
            count += popcount(m)
    return count == 56 and total == NORMAL | SPECIALS


@njit(cache=True)
def _points_ok(pub, piles, hand_to, p0, p1):
    """§7: the card points scored are 100, and each team's are what its trick piles hold after
    the hand-overs, with the last player's hand ``hand_to`` for its opponents."""
    n = pub.n_players
    t0 = 0
    t1 = 0
    for s in range(n):
        if s % 2 == 0:
            t0 += card_points(piles[s])
        else:
            t1 += card_points(piles[s])
    if pub.out_order[n - 1] % 2 == 0:
        t1 += card_points(hand_to)
    else:
        t0 += card_points(hand_to)
    return p0 + p1 == 100 and t0 == p0 and t1 == p1


@njit(cache=True)
def _show_minister(pub, privs):
    """Wu Wang (§4): the Minister's hand lies face up, and the King's strategy, which plays
    both hands, holds each in the other's private record. Redone after either plays."""
    pub.exposed = privs[MINISTER].hand
    privs[KING].ally_hand = privs[MINISTER].hand
    privs[MINISTER].ally_hand = privs[KING].hand


@njit(cache=True)
def _views_ok(pub, privs):
    """The checker's §4 test: what is shown of the Minister is its hand."""
    m = privs[MINISTER].hand
    return (
        pub.exposed == m
        and privs[KING].ally_hand == m
        and privs[MINISTER].ally_hand == privs[KING].hand
    )


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


@njit(cache=True, inline="always")
def _outside(work, s, decision):
    """Whether seat ``s``'s strategy leaves ``decision`` to Python (``outside.py``)."""
    return taken_outside(work.params[s, P_OUTSIDE], decision)


@njit(cache=True)
def _dog_lead(pub, privs, work, p, outside):
    """Who leads after ``p``'s Dog (§2.10): the partner, or the next holder of cards after
    them; in Tientsin a partner of the strategy's choice while both hold cards, the one who
    does, else the next holder after ``p`` (§3). Returns -1 for an answer outside the choice,
    -2 while the answer is awaited from Python."""
    n = pub.n_players
    if work.variant != TIENTSIN:
        partner = (p + 2) % n
        return partner if pub.counts[partner] > 0 else _next_active(pub, partner)
    a = (p + 2) % n
    b = (p + 4) % n
    if pub.counts[a] > 0 and pub.counts[b] > 0:
        if outside and _outside(work, p, D_DOG):
            t = answer(work, privs[p], p, D_DOG, 0, 2)
            if t == PENDING:
                return -2
        else:
            t = policies.dog_target(work.params[p], pub, privs[p])
        return t if t == a or t == b else -1
    if pub.counts[a] > 0:
        return a
    if pub.counts[b] > 0:
        return b
    return _next_active(pub, p)


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
def _combination_ok(top, hand, mask, code, phoenix_led):
    """Re-check a play with the classifier (§2.5–§2.7): a combination of the hand, read no
    higher than its best reading, that beats ``top`` (0 = leading). A lone Phoenix must carry
    its §2.6 value: half a rank above the single it is played on, ``phoenix_led`` when led."""
    if mask & ~hand or mask == ZERO:
        return False
    if mask == PHOENIX:
        if code != phoenix_single(top, phoenix_led):
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
def _turn_ok(top, wish, hand, choice, moves_m, moves_c, all_m, all_c, phoenix_led):
    """The checker's view of a turn: the play is a combination of the hand that beats the top
    (§2.5–§2.7; a led Phoenix worth ``phoenix_led``, §2.6), and it, or the pass, respects the
    wish (§2.11): the wished rank may be left out only if the player lacks it or no legal play
    contains it (a bomb out of a lead is always allowed). The full candidate list is generated
    independently of the strategy."""
    mask, code = chosen_play(choice, moves_m, moves_c)
    if choice >= 0 and not _combination_ok(top, hand, mask, code, phoenix_led):
        return False
    if choice < 0 and top == 0:
        return False
    if wish_kept(top, wish, choice, code, mask, hand):
        return True
    return not wish_missed(hand, wish, all_m, candidate_moves(hand, top, all_m, all_c))


@njit(cache=True)
def _pick_card(state, avail):
    """One card of the mask ``avail`` drawn uniformly: ``(state, card bit)``."""
    state, j = rand_below(state, popcount(avail))
    for _ in range(j):
        avail &= avail - ONE
    return state, avail & (~avail + ONE)


@njit(cache=True)
def _slot(variant, first_drawer, seat):
    """``(first place, size)`` of ``seat``'s cards in the dealt deck (``_deal``)."""
    n = n_seats(variant)
    base = 0
    for s in range(seat):
        base += hand_size(variant, (s - first_drawer) % n)
    return base, hand_size(variant, (seat - first_drawer) % n)


@njit(cache=True)
def _shuffled_rest(deck, reserved, state):
    """The cards not in ``reserved`` at the front of ``deck``, shuffled: ``(their count,
    state)``."""
    n = 0
    for i in range(56):
        if not reserved & (ONE << U64(CARD_BITS[i])):
            deck[n] = CARD_BITS[i]
            n += 1
    return n, shuffle_prefix(deck, n, state)


@njit(cache=True)
def _deal_fixed(variant, first_drawer, work, state):
    """Fill ``work.deck`` so that seat ``work.fixed_seat`` sees ``work.fixed_cards`` plus, for
    each rank r, ``work.fixed_ranks[r]`` cards of that rank drawn uniformly among the free
    ones as its first 8 (Tientsin 6); every other card is dealt uniformly at random. With
    ``FIX_AFTER_PASSING`` the cards are the seat's whole hand *after* the passing instead
    (``_deal_after_passing``); with ``FIX_BEFORE_PASSING`` its whole dealt hand (§2.4), in a
    random order (its first 8 a random 8 of them). The other seats' cards come from the same
    draws whatever ``FIX_RECEIVED`` says, so plays that differ only in the fixed seat's passes
    deal the other seats the same cards."""
    chosen = work.fixed_cards
    for r in range(2, 15):
        for _ in range(work.fixed_ranks[r]):
            state, bit = _pick_card(state, rank_cards(r) & ~chosen)
            chosen |= bit
    mode = work.fixed_ranks[FIX_MODE] & 0xFF
    if mode == FIX_AFTER_PASSING:
        _deal_after_passing(variant, first_drawer, work, state, chosen)
        return
    deck = work.deck
    n, state = _shuffled_rest(deck, chosen, state)
    # open a gap at the fixed seat's first places (moving backwards is safe: every card
    # moves up or stays), then put the fixed seat's cards in it
    base, size = _slot(variant, first_drawer, work.fixed_seat)
    seen = size if mode == FIX_BEFORE_PASSING else gt_cards(variant)
    src = n - 1
    for i in range(55, -1, -1):
        if base <= i < base + seen:
            continue
        deck[i] = deck[src]
        src -= 1
    x = chosen
    for k in range(seen):
        deck[base + k] = lowest_bit_index(x)
        x &= x - ONE
    if mode == FIX_BEFORE_PASSING:
        for i in range(seen - 1, 0, -1):  # which 8 the seat sees first: drawn per round
            state, j = rand_below(state, i + 1)
            tmp = deck[base + i]
            deck[base + i] = deck[base + j]
            deck[base + j] = tmp


@njit(cache=True)
def _deal_after_passing(variant, first_drawer, work, state, hand):
    """A deal after which seat ``f = work.fixed_seat`` holds ``hand`` once the passing is over
    (``tichu-odds``): each seat ``t`` that passes to ``f`` gives it a card of ``hand``, the one
    ``work.fixed_ranks[FIX_RECEIVED]`` names for t's place after f (6 bits each: card index +
    1, 0 for one drawn at random); ``f`` gives each seat it passes to a card drawn among the
    other cards. ``f`` is dealt ``hand`` less what it receives plus what it gives, each giver
    its card plus random ones; ``_passing`` then makes these the passes to and from ``f``
    (``work.fixed_take``, ``work.fixed_give``)."""
    n = n_seats(variant)
    f = work.fixed_seat
    spec = work.fixed_ranks[FIX_RECEIVED]
    named = ZERO
    for j in range(n - 1):
        c = (spec >> (6 * j)) & 63
        if c > 0:
            named |= ONE << U64(c - 1)
    received = ZERO
    for j in range(n - 1):
        t = (f + j + 1) % n
        work.fixed_take[t] = ZERO
        if pass_offsets(variant, t) >> ((f - t) % n) & 1:
            c = (spec >> (6 * j)) & 63
            if c > 0:
                bit = ONE << U64(c - 1)
            else:
                state, bit = _pick_card(state, hand & ~received & ~named)
            work.fixed_take[t] = bit
            received |= bit
    given = ZERO
    outside = (NORMAL | SPECIALS) & ~hand
    for j in range(n - 1):
        t = (f + j + 1) % n
        work.fixed_give[t] = ZERO
        if pass_offsets(variant, f) >> (j + 1) & 1:
            state, bit = _pick_card(state, outside & ~given)
            work.fixed_give[t] = bit
            given |= bit
    dealt = (hand & ~received) | given
    reserved = dealt | received
    deck = work.deck
    n_free, state = _shuffled_rest(deck, reserved, state)
    # fill the seats' slots from the last place down (every free card moves up or stays)
    src = n_free - 1
    for s in range(n - 1, -1, -1):
        base, size = _slot(variant, first_drawer, s)
        own = dealt if s == f else work.fixed_take[s]
        k = base + size - 1
        x = own
        while x != ZERO:
            deck[k] = lowest_bit_index(x)
            x &= x - ONE
            k -= 1
        while k >= base:
            deck[k] = deck[src]
            src -= 1
            k -= 1
        for i in range(size - 1, 0, -1):  # the slot in random order (the first cards matter)
            state, j = rand_below(state, i + 1)
            tmp = deck[base + i]
            deck[base + i] = deck[base + j]
            deck[base + j] = tmp


@njit(cache=True, inline="always")
def _fixed_passes(variant, work, s, gifts_s):
    """``tichu-odds`` deals (``_deal_after_passing``): seat ``s``'s passes to and from the
    fixed seat are the dealt ones; a card its strategy meant for another seat that is now the
    fixed seat's goes to that seat instead of what it meant for the fixed seat."""
    n = n_seats(variant)
    f = work.fixed_seat
    if s == f:
        for d in range(1, n):
            gifts_s[d - 1] = work.fixed_give[(f + d) % n]
        return
    want = work.fixed_take[s]
    if want == ZERO:
        return
    d0 = (f - s) % n
    for d in range(1, n):
        if d != d0 and gifts_s[d - 1] == want:
            gifts_s[d - 1] = gifts_s[d0 - 1]
    gifts_s[d0 - 1] = want


@njit(cache=True, inline="always")
def _forced_passes(work, n, gifts_s):
    """``pass-advice`` deals (``FIX_BEFORE_PASSING``): the fixed seat gives the cards that
    ``work.fixed_ranks[FIX_RECEIVED]`` names, 6 bits per seat after it (card index + 1), in
    place of its strategy's; 0 leaves its strategy's passes (RULES.md §2.4)."""
    spec = work.fixed_ranks[FIX_RECEIVED]
    if spec == 0:
        return
    for d in range(1, n):
        c = (spec >> (6 * (d - 1))) & 63
        gifts_s[d - 1] = ZERO if c == 0 else ONE << U64(c - 1)


@njit(cache=True, inline="always")
def _tichu_decision(work, pub, me, s, point, outside):
    """Seat ``s``'s Tichu answer at ``point`` (§2.3), 1 to call, 0 not, ``PENDING`` while
    awaited from Python: its strategy's, except for the fixed seat of a ``tichu-odds`` deal,
    whose call is set (never, right after the passing, or before its first own turn once the
    table has played a given number of cards)."""
    if s == work.fixed_seat and work.fixed_ranks[FIX_MODE] & 0xFF == FIX_AFTER_PASSING:
        call = work.fixed_ranks[FIX_MODE] >> 8
        if call == FIX_CALL_NEVER:
            return 0
        if call == FIX_CALL_AFTER_PASSING:
            return 1 if point == policies.TICHU_AFTER_PASSING else 0
        return (
            1
            if (
                point == policies.TICHU_BEFORE_TURN
                and popcount(pub.played) >= call - FIX_CALL_AT_PLAYED
            )
            else 0
        )
    if outside and _outside(work, s, D_TICHU):
        return answer(work, me, s, D_TICHU, point, 2)
    return 1 if policies.tichu(work.params[s], pub, me, point) else 0


@njit(cache=True, inline="always")
def _note_tichu(seat, pub, s, point):
    """What ``tichu_when`` records of seat ``s``'s Tichu call at decision ``point`` (§2.3): the
    point, the cards it held, the tricks completed."""
    seat.tichu_when = point
    seat.tichu_cards = pub.counts[s]
    seat.tichu_trick = pub.tricks


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
def _collect_trick(pub, privs, work, rnd, seats, seat, nlog, outside):
    """``seat`` takes the trick in play, or gives it to an opponent of its choice when it was
    won with the Dragon (§2.12). Returns ``(error, log rows)``."""
    taker = seat
    if pub.top_mask == DRAGON:
        if outside and _outside(work, seat, D_DRAGON):
            taker = answer(work, privs[seat], seat, D_DRAGON, 0, 2)
            if taker == PENDING:
                return ERR_PENDING, nlog
        else:
            taker = policies.dragon(work.params[seat], pub, privs[seat])
        if taker < 0 or taker >= pub.n_players or (taker - seat) % 2 == 0:
            return ERR_STRATEGY, nlog
        rnd.dragon_to = taker
        seats[seat].dragon = DRAGON_GIVEN
        nlog = log_cards(work, nlog, EV_DRAGON, seat, ZERO, 0, taker)
    pts = card_points(pub.trick_cards)
    work.piles[taker] |= pub.trick_cards
    pub.points_taken[taker] += pts
    pub.tricks += 1
    seats[taker].tricks_won += 1
    nlog = log_cards(work, nlog, EV_TRICK, seat, pub.trick_cards, pts, taker)
    pub.trick_cards = ZERO
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def play_round(variant, seed, key, first_drawer, work, pub, privs, rnd, seats, check, outside):
    """Play one round at the table ``variant`` (``work.variant``) with the strategies loaded in
    ``work.params``; fill ``rnd`` and ``seats[:n]``; return ``(error, log rows)`` (the log is
    written to ``work.log`` when ``work.logging``). Called with ``variant`` a constant, the
    other tables' branches are pruned before typing, so a caller compiles and links only its
    own table's round (a Nanjing run compiles only its part of the team engine). With
    ``outside`` (a constant too) the round reads the decisions strategies leave to Python
    from the script (``outside.py``); without, those branches are pruned and the batch path
    runs the engine as it was (they cost a measurable share of a round with cheap strategies)."""
    if outside:
        if variant == TIENTSIN:
            return _step_tientsin(seed, key, first_drawer, work, pub, privs, rnd, seats, check)
        if variant == WUWANG:
            return _step_wuwang(seed, key, first_drawer, work, pub, privs, rnd, seats, check)
        return _step_nanjing(seed, key, first_drawer, work, pub, privs, rnd, seats, check)
    if variant == TIENTSIN:
        return _play_tientsin(seed, key, first_drawer, work, pub, privs, rnd, seats, check)
    if variant == WUWANG:
        return _play_wuwang(seed, key, first_drawer, work, pub, privs, rnd, seats, check)
    return _play_nanjing(seed, key, first_drawer, work, pub, privs, rnd, seats, check)


# One compiled round per table, and per table one that takes decisions from Python: ``_play``'s
# body, and the phases below with it, is inlined into each with its variant and ``outside``
# constants, so the compiler folds the other tables' branches away and the loops over seats get
# fixed bounds (a single function reading the variant at run time was measurably slower, most
# with cheap strategies at the other tables; benchmarks/bench_trees.py measures such a change).


@njit(cache=True)
def _play_nanjing(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    return _play(NANJING, seed, key, first_drawer, work, pub, privs, rnd, seats, check, False)


@njit(cache=True)
def _play_tientsin(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    return _play(TIENTSIN, seed, key, first_drawer, work, pub, privs, rnd, seats, check, False)


@njit(cache=True)
def _play_wuwang(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    return _play(WUWANG, seed, key, first_drawer, work, pub, privs, rnd, seats, check, False)


@njit(cache=True)
def _step_nanjing(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    return _play(NANJING, seed, key, first_drawer, work, pub, privs, rnd, seats, check, True)


@njit(cache=True)
def _step_tientsin(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    return _play(TIENTSIN, seed, key, first_drawer, work, pub, privs, rnd, seats, check, True)


@njit(cache=True)
def _step_wuwang(seed, key, first_drawer, work, pub, privs, rnd, seats, check):
    return _play(WUWANG, seed, key, first_drawer, work, pub, privs, rnd, seats, check, True)


@njit(cache=True, inline="always")
def _play(variant, seed, key, first_drawer, work, pub, privs, rnd, seats, check, outside):
    """The round at the table ``variant`` (a constant in each caller above), phase by phase.
    The phases take the seats' records as views without a reference count (``refs.borrow``):
    counting them at every inlined call cost a measurable share of the round with cheap
    strategies."""
    privs = borrow(privs)
    seats = borrow(seats)
    if outside and work.resume_seat >= 0:  # the table kept where the round stopped
        turn, window, armed, forced, nlog = resume_point(work, privs)
        err = ERR_NONE
    else:
        _reset(variant, seed, key, first_drawer, work, pub, privs, rnd, seats)
        nlog = _deal(variant, seed, key, first_drawer, work, pub, privs, seats, 0, outside)
        if outside and work.asked[0] != 0:  # a Grand Tichu call awaited from Python
            return close_round(work, rnd, ERR_PENDING, nlog)
        err, nlog = _passing(variant, first_drawer, work, pub, privs, seats, nlog, outside)
        turn = 0
        armed = 0
        if err == ERR_NONE:
            turn, armed = trick_start(variant, pub, privs)
        window = -1
        forced = NOT_FORCED
    victory = False
    if err == ERR_NONE:
        err, victory, nlog = tricks_from(
            variant, work, pub, privs, rnd, seats, check, nlog, outside, turn, armed, forced, window
        )
    if err == ERR_NONE:
        err, nlog = _end_round(variant, work, pub, privs, rnd, seats, victory, check, nlog, outside)
    return close_round(work, rnd, err, nlog)


@njit(cache=True, inline="always")
def _reset(variant, seed, key, first_drawer, work, pub, privs, rnd, seats):
    """Empty the table and the records for a new round; each seat's decision stream seeded."""
    piles = work.piles
    gifts = work.gifts
    n = n_seats(variant)
    pub.n_players = n
    pub.variant = variant
    pub.wish_free = wish_free(variant)
    pub.phoenix_led_half = work.phoenix_led_half  # a rule everybody knows (§2.6 Option)
    pub.exposed = ZERO
    pub.first_drawer = first_drawer
    reset_table(pub)
    _clear_trick(pub)
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
    for s in range(n):  # the tally of what each seat does (written as it happens)
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


@njit(cache=True, inline="always")
def _deal(variant, seed, key, first_drawer, work, pub, privs, seats, nlog, outside):
    """The deal (§2.2, §3): each seat draws the next slice of the deck, its size set by its
    place in draw order (14 each; Tientsin 10 for the first two drawers, 9 after); the first 8
    (Tientsin 6) are seen before Grand Tichu, called in turn order from the first drawer, never
    by the King or the Minister (§4). Returns the log rows; stops at a Grand Tichu decision
    awaited from Python (``work.asked``)."""
    n = n_seats(variant)
    deck = work.deck
    if work.fixed_seat < 0:
        shuffle_deck(deck, seed_stream(U64(seed), U64(key), U64(0)))
    else:
        _deal_fixed(variant, first_drawer, work, seed_stream(U64(seed), U64(key), U64(0)))
    seen = gt_cards(variant)
    start = 0
    for s in range(n):
        h8 = ZERO
        h14 = ZERO
        size = hand_size(variant, (s - first_drawer) % n)
        for k in range(size):
            b = ONE << U64(deck[start + k])
            h14 |= b
            if k < seen:
                h8 |= b
        start += size
        seats[s].hand8 = h8
        seats[s].hand14 = h14
        seats[s].grand_tichu = False
        seats[s].tichu = False
        nlog = log_cards(work, nlog, EV_DEAL8, s, h8, 0, 0)
    for i in range(n):
        s = (first_drawer + i) % n
        privs[s].hand = seats[s].hand8
        pub.counts[s] = seen
        if not may_call_grand(variant, s):
            continue
        if outside and _outside(work, s, D_GRAND_TICHU):
            call = answer(work, privs[s], s, D_GRAND_TICHU, 0, 2)
            if call == PENDING:
                return nlog  # the table as seat s sees it: 8 cards each (``_play`` stops)
        else:
            call = 1 if policies.grand_tichu(work.params[s], pub, privs[s]) else 0
        if call == 1:
            pub.grand_tichu[s] = 1
            nlog = log_cards(work, nlog, EV_GRAND_TICHU, s, ZERO, 0, 0)
    for s in range(n):
        privs[s].hand = seats[s].hand14
        pub.counts[s] = popcount(seats[s].hand14)
        nlog = log_cards(work, nlog, EV_DEAL14, s, seats[s].hand14, 0, 0)
    if variant == WUWANG:  # §4: the King draws, and sees, the Minister's cards
        privs[KING].ally_hand = privs[MINISTER].hand
        privs[MINISTER].ally_hand = privs[KING].hand
    return nlog


@njit(cache=True, inline="always")
def _tichu_calls(n, first_drawer, work, pub, privs, seats, point, nlog, outside):
    """Each seat without a call may call Tichu at decision ``point``, in turn order from the
    first drawer (§2.3); stops at a call awaited from Python."""
    for i in range(n):
        s = (first_drawer + i) % n
        if pub.grand_tichu[s] == 0 and pub.tichu[s] == 0:
            call = _tichu_decision(work, pub, privs[s], s, point, outside)
            if call == PENDING:
                return nlog  # ``work.asked`` says the round waits
            if call == 1:
                pub.tichu[s] = 1
                _note_tichu(seats[s], pub, s, point)
                nlog = log_cards(work, nlog, EV_TICHU, s, ZERO, point, 0)
    return nlog


@njit(cache=True, inline="always")
def _passing(variant, first_drawer, work, pub, privs, seats, nlog, outside):
    """Tichu before passing (§2.3), the simultaneous passing (§2.4, §3, §4), the Minister's hand
    laid face up (§4), Tichu after passing. Returns ``(error, log rows)``."""
    n = n_seats(variant)
    gifts = work.gifts
    err = ERR_NONE
    nlog = _tichu_calls(
        n, first_drawer, work, pub, privs, seats, policies.TICHU_BEFORE_PASSING, nlog, outside
    )
    if outside and work.asked[0] != 0:
        return ERR_PENDING, nlog
    for s in range(n):
        offsets = pass_offsets(variant, s)
        if offsets == 0:
            continue  # the Minister neither gives nor receives (§4)
        if outside and _outside(work, s, D_PASS):
            packed = answer(work, privs[s], s, D_PASS, offsets, 0)
            if packed == PENDING:
                return ERR_PENDING, nlog
            for d in range(1, n):
                c = packed_card(packed, d - 1)
                gifts[s, d - 1] = ZERO if c < 0 else ONE << U64(c)
        else:
            policies.passes(work.params[s], pub, privs[s], gifts[s])
        if work.fixed_seat >= 0:
            if work.fixed_ranks[FIX_MODE] & 0xFF == FIX_AFTER_PASSING:
                _fixed_passes(variant, work, s, gifts[s])
            elif s == work.fixed_seat and work.fixed_ranks[FIX_MODE] & 0xFF == FIX_BEFORE_PASSING:
                _forced_passes(work, n, gifts[s])
        used = ZERO
        for d in range(1, n):
            if offsets >> d & 1:
                g = gifts[s, d - 1]
                if g == ZERO or g & (g - ONE) or g & ~privs[s].hand or g & used:
                    err = ERR_STRATEGY
                used |= g
            elif gifts[s, d - 1] != ZERO:
                err = ERR_STRATEGY  # a card for a seat the passing does not reach
    if err != ERR_NONE:
        return err, nlog
    for s in range(n):
        for d in range(n - 1):
            privs[s].hand &= ~gifts[s, d]
    for s in range(n):
        offsets = pass_offsets(variant, s)
        for d in range(1, n):
            if offsets >> d & 1:
                g = gifts[s, d - 1]
                t = (s + d) % n
                privs[t].hand |= g
                privs[s].given[t] = g
                privs[t].received[s] = g
                seats[s].given[d - 1] = g
                seats[t].received[n - d - 1] = g  # t sees s as its (n - d)-th neighbour
                nlog = log_cards(work, nlog, EV_GIVE, s, g, 0, t)
    for s in range(n):
        seats[s].hand_passed = privs[s].hand
    if variant == WUWANG:
        _show_minister(pub, privs)  # §4: face up once the passing is over
        nlog = log_cards(work, nlog, EV_SHOW, MINISTER, pub.exposed, 0, 0)
    nlog = _tichu_calls(
        n, first_drawer, work, pub, privs, seats, policies.TICHU_AFTER_PASSING, nlog, outside
    )
    if outside and work.asked[0] != 0:
        return ERR_PENDING, nlog
    return ERR_NONE, nlog


NOT_FORCED = -2  # ``tricks_from``: no answer is forced, every seat asks its strategy
# ``tricks_from``: the first turn's Tichu question is already answered (``pub.tichu`` holds
# the answer) and its play is the strategy's: a search's rollouts of a Tichu call
TICHU_ANSWERED = -3


@njit(cache=True, inline="always")
def resumable(work):
    """Whether a round stepped from Python can go on from the table its last call left
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
def tricks_from(
    variant, work, pub, privs, rnd, seats, check, nlog, outside, turn, armed, forced, window
):
    """The play (§2.8–§2.13) from a state until the round ends: turns, each followed by its
    out-of-turn bomb windows, and the tricks they make. Returns ``(error, victory, log rows)``,
    ``victory`` when one team's first players went out.

    The state is the records as the engine leaves them at a decision: ``turn`` is the seat
    that decides and ``armed`` the seats holding a bomb (``armed_seats``). With ``window``
    -1 the decision is ``turn``'s play on its own turn; with ``window`` a seat, it is
    ``turn``'s answer in the bomb window opened by ``window``'s play or pass (the seats between
    them have declined). ``forced`` (``NOT_FORCED``: ask the strategy) is that first answer:
    an index into the legal plays as ``legal_moves`` lists them (-1 to pass) or into the bombs
    as ``gen_bombs`` lists them (-1 for none); a forced turn skips the Tichu question, already
    asked before the play, as ``TICHU_ANSWERED`` does, which leaves the play to the strategy.
    Every later decision is the strategies' (a search's rollouts)."""
    n = n_seats(variant)
    while True:
        opener = turn  # whose play or pass opens the bomb window
        asked = -1  # the seat answering ``forced`` in it (-1: none)
        if window < 0:
            err, outcome, armed, nlog = _turn(
                variant, work, pub, privs, rnd, seats, turn, armed, check, nlog, outside, forced
            )
            if err != ERR_NONE or outcome >= ROUND_OVER:
                return err, outcome == VICTORY, nlog
            if outcome == LEAD_GIVEN:
                dog = turn
                turn = _dog_lead(pub, privs, work, dog, outside)
                if turn < 0:
                    return (ERR_PENDING if turn == -2 else ERR_STRATEGY), False, nlog
                nlog = log_cards(work, nlog, EV_DOG, dog, ZERO, 0, turn)
                if check and not _conserved(pub, privs, work.piles):
                    return ERR_CARDS, False, nlog
                forced = NOT_FORCED
                continue  # §2.9: the Dog is never bombed
        else:  # a resumed bomb window: ``turn`` answers ``forced``, then the window goes on
            opener = window
            asked = turn
            window = -1
        err, outcome, actor, armed, nlog = _bomb_windows(
            variant, work, pub, privs, seats, opener, armed, nlog, outside, asked, forced
        )
        forced = NOT_FORCED
        if err != ERR_NONE or outcome >= ROUND_OVER:
            return err, outcome == VICTORY, nlog
        # ---- trick over? every other holder of cards has passed since the last play ----
        holders = 0
        for s in range(n):
            if pub.counts[s] > 0:
                holders |= 1 << s
        if trick_won(pub, holders):
            winner = pub.top_seat
            err, nlog = _collect_trick(pub, privs, work, rnd, seats, winner, nlog, outside)
            if err != ERR_NONE:
                return err, False, nlog
            _clear_trick(pub)
            turn = winner if pub.counts[winner] > 0 else _next_active(pub, winner)
        else:
            turn = _next_active(pub, actor)
        if check and not _conserved(pub, privs, work.piles):
            return ERR_CARDS, False, nlog
        if check and variant == WUWANG and not _views_ok(pub, privs):
            return ERR_VIEW, False, nlog


@njit(cache=True, inline="always")
def _clear_trick(pub):
    """No trick in play: no cards or combination on the table, nobody has passed."""
    clear_top(pub)
    pub.top_mask = ZERO
    pub.trick_cards = ZERO


@njit(cache=True, inline="always")
def _turn(variant, work, pub, privs, rnd, seats, p, armed, check, nlog, outside, forced):
    """Seat ``p``'s turn: a Tichu call while it has played no card (§2.3), then its play or
    pass, checked, with what follows from the play: the wish (§2.11), going out (§2.13, §3), the
    Dog (§2.10). ``forced`` (``NOT_FORCED``: none) is an answer given in advance, an index into
    the legal plays (``tricks_from``), or ``TICHU_ANSWERED``: only the Tichu question is.
    Returns ``(error, outcome, armed, log rows)`` with an outcome of ``turns``."""
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
        call = _tichu_decision(work, pub, me, p, policies.TICHU_BEFORE_TURN, outside)
        if call == PENDING:
            if outside:
                _stop_at(work, p, -1, armed, nlog)
            return ERR_PENDING, PLAYED, armed, nlog
        if call == 1:
            pub.tichu[p] = 1
            _note_tichu(seats[p], pub, p, policies.TICHU_BEFORE_TURN)
            nlog = log_cards(work, nlog, EV_TICHU, p, ZERO, policies.TICHU_BEFORE_TURN, 0)
    moves_m = work.moves_m
    moves_c = work.moves_c
    wish_before = pub.wish
    if forced >= -1 or (outside and _outside(work, p, D_PLAY)):
        # every legal play as the rules core lists them (the led Phoenix at its table value)
        n_legal, can_pass = legal_moves(
            me.hand, pub.top_code, policies.binding_wish(pub, p), moves_m, moves_c
        )
        if n_legal > moves_m.shape[0]:
            return ERR_MOVES, PLAYED, armed, nlog
        if leading:
            policies.value_led_phoenix(pub, moves_m, moves_c, n_legal)
        if forced >= -1:
            if forced >= n_legal or (forced == -1 and can_pass == 0):
                return ERR_STRATEGY, PLAYED, armed, nlog
            choice = forced
        else:
            choice = answer(work, me, p, D_PLAY, can_pass, n_legal)
            if choice == PENDING:
                _stop_at(work, p, -1, armed, nlog)
                return ERR_PENDING, PLAYED, armed, nlog
    else:
        choice = policies.play(work.params[p], pub, me, moves_m, moves_c)
    if choice == MOVES_OVERFLOW:
        return ERR_MOVES, PLAYED, armed, nlog
    if not choice_ok(choice, moves_m.shape[0], leading):
        return ERR_STRATEGY, PLAYED, armed, nlog
    if choice >= 0 and not _answer_ok(pub.top_code, me.hand, moves_m[choice], moves_c[choice]):
        return ERR_STRATEGY, PLAYED, armed, nlog
    if leading and moves_m[choice] == PHOENIX:
        # §2.6: the lone Phoenix led is worth 1½, or ½ under the Option (the move lists
        # give it 1½); from its code on, ``beats`` lets the Mah Jong on a ½
        moves_c[choice] = make_code(SINGLE, 1, policies.led_phoenix(pub))
    if check and not _turn_ok(
        pub.top_code,
        policies.binding_wish(pub, p),
        me.hand,
        choice,
        moves_m,
        moves_c,
        work.check_m,
        work.check_c,
        policies.led_phoenix(pub),
    ):
        return ERR_ILLEGAL, PLAYED, armed, nlog
    if pub.wish != 0:  # rare: the inference reads the turn only while a wish is open
        mask, code = chosen_play(choice, moves_m, moves_c)
        _note_lacks(pub, p, leading, mask, code)
    if choice == -1:
        pub.passed |= 1 << p
        nlog = log_cards(work, nlog, EV_PASS, p, ZERO, 0, 0)
        return ERR_NONE, PLAYED, armed, nlog
    mask, code = moves_m[choice], moves_c[choice]
    if is_bomb(code):
        pub.bombs += 1
        _note_bomb(seats[p], pub, code, False)
    if mask & (PHOENIX | DRAGON | DOG):
        _note_special(seats[p], mask, leading)
    done = _play_cards(pub, me, p, mask, code)
    if variant == WUWANG and p % 2 == KING % 2:
        _show_minister(pub, privs)
    if armed & (1 << p) and not has_bomb(me.hand):
        armed &= ~(1 << p)
    nlog = log_cards(work, nlog, EV_PLAY, p, mask, code, 0)
    if done:
        seats[p].wish_fulfilled = True
        nlog = log_cards(work, nlog, EV_WISH_DONE, p, ZERO, wish_before, 0)
    if mask & MAH_JONG:
        if outside and _outside(work, p, D_WISH):
            w = answer(work, me, p, D_WISH, 0, 14)
            if w == PENDING:
                return ERR_PENDING, PLAYED, armed, nlog
        else:
            w = policies.wish(work.params[p], pub, me)
        if not make_wish(pub, rnd, w):
            return ERR_STRATEGY, PLAYED, armed, nlog
        seats[p].mahjong_wish = w
        nlog = log_cards(work, nlog, EV_WISH, p, ZERO, w, 0)
    if me.hand == ZERO:
        outcome, nlog = _out(variant, work, pub, p, nlog)
        if outcome != PLAYED:
            return ERR_NONE, outcome, armed, nlog
    if code >> 16 == DOG_LEAD:
        # §2.10, §3: the lead goes at once to a partner, or the next holder of cards
        work.piles[p] |= pub.trick_cards
        _clear_trick(pub)
        pub.tricks += 1
        seats[p].tricks_won += 1  # the Dog's trick is its player's (§2.10)
        return ERR_NONE, LEAD_GIVEN, armed, nlog
    return ERR_NONE, PLAYED, armed, nlog


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
def _out(variant, work, pub, p, nlog):
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
def _bomb_windows(variant, work, pub, privs, seats, actor, armed, nlog, outside, asked, forced):
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
            elif outside and _outside(work, q, D_BOMB):
                j = answer(work, privs[q], q, D_BOMB, 0, nb)
                if j == PENDING:
                    _stop_at(work, q, actor, armed, nlog)
                    return ERR_PENDING, PLAYED, actor, armed, nlog
            else:
                j = policies.bomb(work.params[q], pub, privs[q], bombs_m, bombs_c, nb)
            if not choice_ok(j, nb, False):
                return ERR_STRATEGY, PLAYED, actor, armed, nlog
            if j >= 0:
                bomber = q
                wish_b = pub.wish
                _note_bomb(seats[q], pub, bombs_c[j], True)
                done = _play_cards(pub, privs[q], q, bombs_m[j], bombs_c[j])
                if variant == WUWANG and q % 2 == KING % 2:
                    _show_minister(pub, privs)
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
                    return ERR_NONE, VICTORY, q, armed, nlog
                if pub.n_out == n - 1:
                    return ERR_NONE, ROUND_OVER, q, armed, nlog
                break
        if bomber < 0:  # a window without a bomb: the play or pass stands
            return ERR_NONE, PLAYED, actor, armed, nlog
        actor = bomber


@njit(cache=True, inline="always")
def _end_round(variant, work, pub, privs, rnd, seats, victory, check, nlog, outside):
    """The end of the round (§2.13, §3) and its score (§2.14): the trick in play and the last
    player's cards handed over, card points counted, call bonuses, the finishing order.
    Returns ``(error, log rows)``."""
    n = n_seats(variant)
    vk = victory_size(variant)
    piles = work.piles
    hand_to = ZERO  # the last player's hand cards, for the opponents (§2.13)
    if not victory:
        closer = pub.out_order[n - 2]  # the third (Tientsin: fifth) player out
        if pub.trick_cards != ZERO:  # the trick in play goes to that player
            err, nlog = _collect_trick(pub, privs, work, rnd, seats, closer, nlog, outside)
            if err != ERR_NONE:
                return err, nlog
        last = _next_active(pub, closer)
        pub.out_order[n - 1] = last
        hand_to = privs[last].hand
        if check and not _conserved(pub, privs, piles):
            return ERR_CARDS, nlog
    _round_totals(n, pub, privs, rnd, seats)
    first = pub.out_order[0]
    if not victory:
        last = pub.out_order[n - 1]
        if variant == TIENTSIN:
            nlog = _tientsin_transfers(pub, work, nlog, hand_to)
        else:  # §2.13: the last player's tricks go to the first player out
            piles[first] |= piles[last]
            piles[last] = ZERO
            nlog = log_cards(
                work, nlog, EV_HAND_TO, last, hand_to, card_points(hand_to), (last + 1) % n
            )
    p0, p1, s0, s1 = round_score(variant, pub, privs, victory)
    if check and not victory and not _points_ok(pub, piles, hand_to, p0, p1):
        return ERR_POINTS, nlog
    rnd.card_points[0] = p0
    rnd.card_points[1] = p1
    score = rnd.score
    score[0] = s0
    score[1] = s1
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
    if check:  # §7: the finishing order is a permutation of the players who went out
        seen_out = 0
        for i in range(vk if victory else n):
            seen_out |= 1 << pub.out_order[i]
        if popcount(U64(seen_out)) != (vk if victory else n):
            return ERR_FINISH, nlog
    rnd.double_victory = victory
    rnd.tricks = pub.tricks
    rnd.bombs = pub.bombs
    rnd.first_out = first
    nlog = log_cards(work, nlog, EV_END, first, ZERO, score[0], score[1])
    return ERR_NONE, nlog


@njit(cache=True, inline="always")
def close_play(variant, work, pub, privs, rnd, seats, victory):
    """What ``_end_round`` does before counting, for a round played on from a state by the
    strategies alone (``rollout.py``): without a victory the trick in play goes to the seat
    whose going out ended the round, which gives it away when its top is the Dragon (§2.12,
    §2.13, §3), and the one seat still holding cards closes the finishing order. Returns the
    error code."""
    if victory:
        return ERR_NONE
    n = n_seats(variant)
    closer = pub.out_order[n - 2]
    if pub.trick_cards != ZERO:
        err, _ = _collect_trick(pub, privs, work, rnd, seats, closer, 0, False)
        if err != ERR_NONE:
            return err
    pub.out_order[n - 1] = _next_active(pub, closer)
    return ERR_NONE


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
