"""Decision policies on constructed hands (the engine's strategy interface, RULES.md §6)."""

import numpy as np
import pytest
from numba import njit

from tichusim import cards, legal_plays
from tichusim.kernels.moves import MAX_MOVES, gen_bombs
from tichusim.kernels.tichu import learned, policies
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.strategies.tichu import STRATEGIES

RANDOM = STRATEGIES["random"].param_row()
LOWEST = STRATEGIES["lowest"].param_row()
HEURISTIC = STRATEGIES["heuristic"].param_row()


@njit
def _draw_plays(params, hand, top, wish, draws):
    """``draws`` answers of ``policies.play`` for one hand and trick state (-1 = pass)."""
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    me[0].hand = hand
    me[0].rng = np.uint64(12345)
    pub[0].top_code = top
    pub[0].wish = wish
    moves_m = np.empty(MAX_MOVES, np.uint64)
    moves_c = np.empty(MAX_MOVES, np.int64)
    models = np.zeros((1, learned.HEADER), np.float32)  # no learned play here
    learn = np.zeros(learned.LEARN_FLOATS, np.float32)
    out = np.zeros(draws, np.uint64)
    for i in range(draws):
        j = policies.play(params, pub[0], me[0], moves_m, moves_c, models, learn)
        out[i] = moves_m[j] if j >= 0 else np.uint64(0)
    return out


LEAD_HANDS = [
    ("Ma 2j 2s 3p 4t 5j 6j Ph Dog", 0),  # straights with and without the Phoenix, pairs, Dog
    ("2j 2s 2p 2t 3j 3s Kj Ks Kp Dr", 0),  # a bomb, full houses, stairs
    ("Ma 2j 2s 3p 4t 5j 6j Ph Dog", 5),  # the wish binds: only leads with a 5
]


@pytest.mark.parametrize("hand,wish", LEAD_HANDS)
def test_random_lead_reaches_every_legal_lead(hand, wish):
    """``random`` draws a lead category, then a play: every legal lead keeps a positive
    probability (engine issue, strategy interface), and nothing outside them is drawn."""
    legal, _ = legal_plays(hand, wish=wish or None)
    drawn = _draw_plays(RANDOM, np.uint64(cards.parse(hand)), 0, wish, 40 * len(legal) + 2000)
    assert set(int(m) for m in drawn) == set(legal)


def test_random_follow_is_uniform_over_plays_and_pass():
    top = np.int64(0x10108)  # single 4
    legal, can_pass = legal_plays("3j 5j 9s Ph Dr", "4j")
    assert can_pass
    drawn = _draw_plays(RANDOM, np.uint64(cards.parse("3j 5j 9s Ph Dr")), top, 0, 20000)
    counts = {m: int((drawn == m).sum()) for m in set(int(x) for x in drawn)}
    assert set(counts) == set(legal) | {0}
    expected = 20000 / (len(legal) + 1)
    assert all(abs(c - expected) < 5 * expected**0.5 for c in counts.values())


@pytest.mark.parametrize(
    "hand,wish,expected",
    [
        ("3j 3s 4p 5t 6j 7j Dog", 0, "Dog"),
        ("Ma 2j 3p 4t 5j", 0, "Ma"),
        ("2j 3p 4t 5j 6j Ph", 0, "Ph"),  # the Phoenix led counts 1½ (RULES.md §2.6)
        ("4p 4t 5j 6j 7s 8s", 0, "4p"),
        ("4p 4t 5j 6j 7s 8s Dog", 6, "6j"),  # §2.11: the wished rank, though the Dog is lower
    ],
)
def test_lowest_leads_its_lowest_single(hand, wish, expected):
    drawn = _draw_plays(LOWEST, np.uint64(cards.parse(hand)), 0, wish, 1)
    assert cards.format(int(drawn[0])) == expected


# ---- passing, wish and Dragon policies (RULES.md §2.4, §2.11, §2.12) ----


@njit
def _passes(params, hand, partner_called):
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0].n_players = 4
    pub[0].tichu[2] = partner_called
    me[0].hand = hand
    me[0].rng = np.uint64(7)
    out = np.zeros(3, np.uint64)
    policies.passes(params, pub[0], me[0], out, None)
    return out


def _strategy(**spec):
    from tichusim.strategies.tichu import build

    return build({"base": "heuristic", **spec}).param_row()


def _pass(policy, hand, partner_called=0):
    out = _passes(_strategy(**{"pass": policy}), np.uint64(cards.parse(hand)), partner_called)
    return [cards.format(int(c)) for c in out]  # right opponent, partner, left opponent


RICH = "Dog Ma 3j 3s 5p 7t 9j Tj Js Qp Kt Ph Dr Aj"


@pytest.mark.parametrize("policy", ["partner-best", "support-call"])
def test_partner_first_policies_never_give_the_dragon_to_an_opponent(policy):
    left, partner, right = _pass(policy, RICH, partner_called=1)
    assert partner == "Dr" and "Dr" not in (left, right) and "Ph" not in (left, right)


def test_keep_combos_breaks_no_pair_straight_or_bomb():
    hand = "2j 2s 3t 4j 4s 4p 4t 6j 7s 8p 9t Tj Qs Kp"  # bomb 4, pair 2, straight 6-T
    assert _pass("keep-combos", hand) == ["3t", "Kp", "Qs"]  # loose cards only, best to partner
    # with only two loose cards the third is the lowest other card
    assert _pass("keep-combos", hand.replace("3t", "Ph")) == ["Qs", "Kp", "2j"]


def test_dog_partner_gives_the_dog_to_the_partner_and_keep_combos_to_an_opponent():
    assert _pass("dog-partner", RICH)[1] == "Dog"
    assert "Dog" in (_pass("keep-combos", RICH)[0], _pass("keep-combos", RICH)[2])


def test_odd_even_signals_even_left_odd_right():
    left, _, right = _pass("odd-even", "2j 5s 6p 8t 9j Jj Qs Kp Ph Dr Aj As At Ma")
    assert cards.parse(left) & cards.parse("2j 6p 8t Qs") and cards.parse(right) & cards.parse(
        "5s 9j Jj Kp"
    )


@njit
def _ask(params, hand, given_right, counts, played, which):
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0].n_players = 4
    for s in range(4):
        pub[0].counts[s] = counts[s]
    pub[0].played = played
    me[0].hand = hand
    me[0].given[1] = given_right  # the card given to seat 1, the right opponent
    if which == 0:
        return policies.wish(params, pub[0], me[0])
    return policies.dragon(params, pub[0], me[0])


def test_wish_policies():
    hand = np.uint64(cards.parse("Ma 2j 3s Aj As Kp"))
    counts = np.array([6, 10, 10, 10])
    none = np.uint64(0)
    assert _ask(_strategy(wish="none"), hand, np.uint64(cards.parse("7t")), counts, none, 0) == 0
    assert (
        _ask(_strategy(wish="passed-right"), hand, np.uint64(cards.parse("7t")), counts, none, 0)
        == 7
    )
    assert (
        _ask(_strategy(wish="highest-missing"), hand, none, counts, none, 0) == 12
    )  # Q: no A, K held
    all_queens = np.uint64(cards.parse("Qj Qs Qp Qt"))
    assert _ask(_strategy(wish="highest-missing"), hand, none, counts, all_queens, 0) == 11


def test_dragon_policies_give_to_an_opponent():
    hand = np.uint64(cards.parse("2j"))
    counts = np.array([1, 3, 9, 8])  # seat 0 decides: opponents are 1 (right) and 3 (left)
    assert _ask(_strategy(dragon="more-cards"), hand, np.uint64(0), counts, np.uint64(0), 1) == 3
    assert _ask(_strategy(dragon="next"), hand, np.uint64(0), counts, np.uint64(0), 1) == 1
    assert _ask(_strategy(dragon="right"), hand, np.uint64(0), counts, np.uint64(0), 1) == 1
    gone = np.array([1, 0, 9, 8])
    assert _ask(_strategy(dragon="next"), hand, np.uint64(0), gone, np.uint64(0), 1) == 3


# ---- heuristic play ----


@njit
def _heuristic_turn(params, hand, top_code, top_mask, top_seat, counts, calls, window):
    """Seat 0's answer on its turn (``window`` False) or in an out-of-turn bomb window."""
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0].n_players = 4
    for s in range(4):
        pub[0].counts[s] = counts[s]
        pub[0].tichu[s] = calls[s]
    pub[0].top_code = top_code
    pub[0].top_mask = top_mask
    pub[0].top_seat = top_seat
    pub[0].trick_cards = top_mask
    me[0].hand = hand
    m = np.empty(MAX_MOVES, np.uint64)
    c = np.empty(MAX_MOVES, np.int64)
    models = np.zeros((1, learned.HEADER), np.float32)  # no learned play here
    learn = np.zeros(learned.LEARN_FLOATS, np.float32)
    if window:
        n = gen_bombs(hand, top_code, m, c, 0)
        j = policies.bomb(params, pub[0], me[0], m, c, n, models, learn)
    else:
        j = policies.play(params, pub[0], me[0], m, c, models, learn)
    return m[j] if j >= 0 else np.uint64(0)


def _turn(hand, top, top_seat, counts=(8, 8, 8, 8), calls=(0, 0, 0, 0), window=False, **spec):
    from tichusim.cards.combos import combo_code

    code = combo_code(top) if top else 0
    mask = np.uint64(cards.parse(top)) if top else np.uint64(0)
    got = _heuristic_turn(
        _strategy(**spec),
        np.uint64(cards.parse(hand)),
        code,
        mask,
        top_seat,
        np.array(counts),
        np.array(calls),
        window,
    )
    return cards.format(int(got)) if got else "pass"


def test_heuristic_does_not_overtake_its_partner():
    assert _turn("5j 9s Kp Aj Dr", "4t", top_seat=2) == "pass"
    assert _turn("5j 9s Kp Aj Dr", "4t", top_seat=1) != "pass"


def test_heuristic_goes_out_when_one_play_does_it():
    assert _turn("9s 9p", "4t 4j", top_seat=2) == "9s 9p"  # even over its partner


def test_heuristic_bombs_an_opponent_about_to_go_out_and_keeps_it_otherwise():
    hand = "3j 7j 7s 7p 7t Kp"
    threat = _turn(hand, "Aj", top_seat=1, counts=(6, 2, 8, 8), window=True)
    assert threat == "7j 7s 7p 7t"
    calm = _turn(hand, "9j", top_seat=1, counts=(6, 10, 8, 8), window=True)
    assert calm == "pass"
    assert _turn(hand, "Aj", top_seat=2, counts=(6, 8, 2, 8), window=True) == "pass"  # partner's
    never = _turn(
        hand,
        "Aj",
        top_seat=1,
        counts=(6, 2, 8, 8),
        window=True,
        params={"bomb_threat": 0, "bomb_points": 200},
    )
    assert never == "pass"


def test_heuristic_leads_its_weakest_combination_and_keeps_bombs():
    # pair of 3s, straight 5-9, bomb of Ks, Ace: the straight or the 3s go, never the bomb
    lead = _turn("3j 3s 5j 6s 7p 8t 9j Kj Ks Kp Kt Aj", None, top_seat=-1)
    assert lead in ("3j 3s", "5j 6s 7p 8t 9j")


def test_heuristic_leads_the_dog_to_a_partner_who_called():
    assert _turn("Dog 4j 6s 9p Jt Qj", None, top_seat=-1, calls=(0, 0, 1, 0)) == "Dog"


@pytest.mark.parametrize("half", [False, True])
def test_lowest_fast_path_equals_the_lowest_legal_play(half):
    """``lowest_single`` (bits only) picks what ``lowest_index`` picks from the full legal list,
    with a led Phoenix worth 1½ or, under the §2.6 Option, ½ (the list valued as the strategies
    see it at such a table)."""
    from tichusim.kernels.combos import RANK2_PHOENIX_LED, RANK2_PHOENIX_LED_HALF
    from tichusim.kernels.moves import legal_moves

    led = RANK2_PHOENIX_LED_HALF if half else RANK2_PHOENIX_LED

    rng = np.random.default_rng(4)
    deck = [1 << b for b in range(64) if cards.DECK >> b & 1]
    singles = [0] + [0x10100 | r2 for r2 in range(2, 31)]  # lead, then singles Ma .. Dragon
    m = np.empty(MAX_MOVES, np.uint64)
    c = np.empty(MAX_MOVES, np.int64)
    checked = 0
    for _ in range(20_000):
        size = int(rng.integers(1, 15))
        hand = sum(int(x) for x in rng.choice(deck, size, replace=False))
        top = int(rng.choice(singles))
        wish = int(rng.choice([0, 0, int(rng.integers(2, 15))]))
        mask, code = policies.lowest_single(np.uint64(hand), top, wish, led)
        if mask == 0:
            continue
        n, _ = legal_moves(np.uint64(hand), top, wish, m, c)
        for i in range(n):
            if top == 0 and m[i] == cards.PHOENIX:
                c[i] = 0x10100 | led  # a lone Phoenix led (§2.6)
        j = policies.lowest_index(c, n)
        assert (int(m[j]), int(c[j])) == (int(mask), int(code)), (cards.format(hand), top, wish)
        checked += 1
    assert checked > 10_000
