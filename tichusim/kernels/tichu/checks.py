"""The RULES.md §7 invariants the team engine checks after every action (``check``), jitted.

Each test recomputes what it checks independently of the path the engine took: every card in
exactly one place, a play re-read by the classifier and the wish rule against the full list of
candidates, the card points scored against the trick piles, the Minister's hand shown as it is
(§4). A broken one stops the round with the error code of ``kernels/errors.py``.
"""

from ..bits import NORMAL, PHOENIX, SPECIALS, U64, ZERO, popcount
from ..combos import beats, classify, phoenix_single
from ..hand import card_points
from ..jit import njit
from ..moves import candidate_moves
from ..turns import chosen_play, wish_kept, wish_missed
from .variants import KING, MINISTER


@njit(cache=True)
def conserved(pub, privs, piles):
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
def points_ok(pub, piles, hand_to, p0, p1):
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
def views_ok(pub, privs):
    """The checker's §4 test: what is shown of the Minister is its hand."""
    m = privs[MINISTER].hand
    return (
        pub.exposed == m
        and privs[KING].ally_hand == m
        and privs[MINISTER].ally_hand == privs[KING].hand
    )


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
def turn_ok(top, wish, hand, choice, moves_m, moves_c, all_m, all_c, phoenix_led):
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
def finish_ok(pub, k):
    """§7: the first ``k`` places of the finishing order are ``k`` different players."""
    seen_out = 0
    for i in range(k):
        seen_out |= 1 << pub.out_order[i]
    return popcount(U64(seen_out)) == k
