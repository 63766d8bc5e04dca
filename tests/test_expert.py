"""The ``expert`` strategy on constructed positions: card tracking, partnership, wish, calls,
and RULES.md §6 (it reads only the public record and its own hand)."""

import inspect

import numpy as np
import pytest
from numba import njit

from tichusim import cards
from tichusim.kernels.combos import PAIR, SINGLE, STRAIGHT, make_code
from tichusim.kernels.moves import MAX_MOVES
from tichusim.kernels.tichu import expert, policies
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim import simulate
from tichusim.strategies.tichu import PARAMS, STRATEGIES, resolve

EXPERT = STRATEGIES["expert"].param_row()


def _mask(text):
    return np.uint64(cards.parse(text)) if text else np.uint64(0)


def _records(hand, played="", seat=0, counts=(14, 14, 14, 14)):
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub["n_players"] = 4
    pub["played"] = _mask(played)
    pub["counts"][0, :4] = counts
    pub["top_seat"] = -1
    pub["out_order"] = -1
    me["seat"] = seat
    me["hand"] = _mask(hand)
    me["rng"] = np.uint64(7)
    return pub, me


@njit
def _tracker(pub, me, code):
    out = expert.opponents_may_hold(pub[0], me[0])
    return expert.single_top(out), expert.is_sure(out, code), out


@njit
def _play(params, pub, me):
    moves_m = np.empty(MAX_MOVES, np.uint64)
    moves_c = np.empty(MAX_MOVES, np.int64)
    j = policies.play(params, pub[0], me[0], moves_m, moves_c)
    return moves_m[j] if j >= 0 else np.uint64(0)


@njit
def _wish(params, pub, me):
    return policies.wish(params, pub[0], me[0])


@njit
def _combo_top(out, kind, length):
    return expert.combo_top(out, kind, length)


ACE = make_code(SINGLE, 1, 28)


def test_tracker_knows_the_ace_is_the_highest_single_once_dragon_and_phoenix_are_out():
    """Card tracking from the public record (RULES.md §6): with the Dragon and the Phoenix
    played, an Ace is the highest single left (§2.6), and our own last Ace is a sure winner."""
    pub, me = _records("Aj 3s 4p", played="")
    top, sure, _ = _tracker(pub, me, ACE)
    assert top == 30 and not sure  # the Dragon is still out
    pub, me = _records("Aj 3s 4p", played="Dr Ph")
    top, sure, _ = _tracker(pub, me, ACE)
    assert top == 28 and not sure  # three Aces still out: an equal single does not beat (§2.7)
    pub, me = _records("Aj 3s 4p", played="Dr Ph As Ap At")
    top, sure, _ = _tracker(pub, me, ACE)
    assert top == 26 and sure  # a King is the best the others can play on it


def test_tracker_counts_the_cards_given_to_the_partner_as_theirs():
    """A card given to the partner (§2.4) is not an opponent's: the tracker removes it until it
    is played."""
    pub, me = _records("Aj 3s", played="Dr Ph As Ap")
    me["given"][0, 2] = _mask("At")
    _, sure, out = _tracker(pub, me, ACE)
    assert sure and not int(out) & cards.parse("At")


def test_tracker_highest_combinations_with_the_phoenix():
    """Pairs, straights: the highest the cards left could form, the Phoenix filling one gap."""
    out = _mask("Kj Ks Qj Qs Qp 9j Ph")
    assert _combo_top(out, PAIR, 2) == 2 * 13
    out = _mask("Kj Qj Qs 9j")  # no pair of Kings without the Phoenix
    assert _combo_top(out, PAIR, 2) == 2 * 12
    out = _mask("5j 6s 7p 9t Tj")
    assert _combo_top(out, STRAIGHT, 5) == 0
    assert _combo_top(out | _mask("Ph"), STRAIGHT, 5) == 2 * 10


@njit
def _bomb_possible(out):
    return expert.bomb_possible(out)


def test_tracker_knows_when_no_bomb_can_be_left():
    """Bombs (§2.7) the others can still hold: four of a kind needs all four cards out, a
    straight flush five suited cards in a row; the Phoenix never makes a bomb."""
    assert _bomb_possible(_mask("Kj Ks Kp Kt 2j"))
    assert not _bomb_possible(_mask("Kj Ks Kp Ph 2j"))
    assert _bomb_possible(_mask("5j 6j 7j 8j 9j"))
    assert not _bomb_possible(_mask("5j 6j 7j 8j 9s Ph"))


def test_expert_does_not_overtake_its_partners_winning_trick():
    """Partnership: on the partner's trick the expert passes though it could beat it, and
    beats the same trick when an opponent holds it."""
    hand = "Kj Ks 3p 4t 9j Tj"
    for partner_counts in (14, 1):
        pub, me = _records(hand, counts=(6, 10, partner_counts, 10))
        pub["top_code"] = make_code(SINGLE, 1, 2 * 7)
        pub["top_mask"] = _mask("7s")
        pub["top_seat"] = 2
        pub["trick_cards"] = _mask("7s")
        assert _play(EXPERT, pub, me) == 0  # pass
        pub["top_seat"] = 1
        assert _play(EXPERT, pub, me) != 0


def test_expert_goes_out_over_its_partner():
    """The one exception: the play that empties the hand."""
    pub, me = _records("Kj", counts=(1, 10, 5, 10))
    pub["top_code"] = make_code(SINGLE, 1, 2 * 7)
    pub["top_seat"] = 2
    assert _play(EXPERT, pub, me) == _mask("Kj")


def test_expert_does_not_go_out_ahead_of_a_calling_partner():
    """Going out first makes the partner's Tichu fail (§2.14): while the calling partner holds
    fewer cards than every opponent and nobody is out, the expert keeps a card; once an
    opponent is as close as the caller, it goes out."""
    pub, me = _records("Kj Ks", counts=(2, 10, 3, 10))
    pub["tichu"][0, 2] = 1
    pub["top_code"] = make_code(PAIR, 2, 2 * 7)
    pub["top_seat"] = 1
    assert _play(EXPERT, pub, me) == 0  # pass rather than go out
    pub["counts"][0, 3] = 3
    assert _play(EXPERT, pub, me) == _mask("Kj Ks")


def test_expert_leads_a_sure_winner_when_the_rest_goes_out():
    """Planning: with the Dragon and a pair, it leads the Dragon (nothing beats it but a bomb)
    and keeps the lead for the pair; with more losers left, it plays a loser first."""
    pub, me = _records("Dr 5j 5s", counts=(3, 10, 10, 10))
    assert _play(EXPERT, pub, me) == _mask("Dr")
    pub, me = _records("Dr 5j 5s 8p Jt", counts=(5, 10, 10, 10))
    assert _play(EXPERT, pub, me) != _mask("Dr")


def test_expert_wish_never_names_a_rank_passed_to_the_partner():
    """The wish (§2.11) aims at the rank given to an opponent, never at the card given to the
    partner, even when that is the highest rank it lacks."""
    hand = "Ma Aj Ks Qp Jt Tj 2s"  # lacks 9 .. 3
    pub, me = _records(hand, played="")
    me["given"][0, 1] = _mask("5j")  # left opponent
    me["given"][0, 2] = _mask("9s")  # partner
    me["given"][0, 3] = _mask("2p")  # right opponent: a rank we hold, no wish at it
    assert _wish(EXPERT, pub, me) == 5
    me["given"][0, 1] = _mask("Dog")  # nothing usable given to an opponent
    w = _wish(EXPERT, pub, me)
    assert w == 8  # the highest rank missing, but not the partner's 9
    heuristic = STRATEGIES["heuristic"].param_row()
    assert _wish(heuristic, pub, me) == 9  # what the heuristic does


def test_expert_passes_its_best_card_to_a_partner_who_called():
    pub, me = _records("Dr Ph Aj 2s 3p 4t 6j 7s 8p 9t Tj Jj Qs Kp")
    pub["tichu"][0, 2] = 1
    out = np.zeros(5, np.uint64)
    _passes(EXPERT, pub, me, out)
    assert out[1] == _mask("Dr")
    assert not (int(out[0]) | int(out[2])) & cards.parse("Ph Aj Dr")


@njit
def _passes(params, pub, me, out):
    policies.passes(params, pub[0], me[0], out)


def test_calls_by_value_are_the_fitted_scores():
    """Tichu and Grand Tichu by the linear value score (the coefficients documented as
    parameters), before passing only."""
    names = [n for n in PARAMS if n.startswith("tichu_value_")]
    assert len(names) == expert.N_CALL_FEATURES
    strong = "Dr Ph Aj As Ap Kj Ks Qj Qs Jj Js Tj Ts 9j"
    weak = "2j 3s 4p 6t 7j 8s Tp Jt Qj 5s 9p 9t Dog Ma"
    for hand, want in ((strong, True), (weak, False)):
        pub, me = _records(hand)
        assert _tichu(EXPERT, pub, me, policies.TICHU_BEFORE_PASSING) == want
        assert not _tichu(EXPERT, pub, me, policies.TICHU_AFTER_PASSING)


@njit
def _tichu(params, pub, me, point):
    return policies.tichu(params, pub[0], me[0], point)


def test_expert_reads_only_the_public_record_and_its_own_hand():
    """RULES.md §6: every function of the expert's that takes table state takes the public
    record and the deciding seat's private record, nothing that holds another hand."""
    allowed = {"params", "pub", "me", "moves_m", "moves_c", "n", "can_pass", "out", "base",
               "first", "hand", "code", "kind", "length", "seat", "ranks", "phoenix", "fill",
               "hold"}  # hold: a flag (hold_back), no cards
    for name, fn in inspect.getmembers(expert):
        if hasattr(fn, "py_func") and fn.__module__ == expert.__name__:
            params = set(inspect.signature(fn.py_func).parameters)
            assert params <= allowed, (name, params - allowed)


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_expert_rounds_keep_the_invariants(variant):
    """RULES.md §7 with expert at every seat (and against heuristic) at each team table."""
    seats = {"nanjing": 4, "tientsin": 6, "wuwang": 3}[variant]
    rounds, table = simulate(3000, seed=5, strategies="expert", check=True, variant=variant)
    assert (rounds["error"] == 0).all() if "error" in rounds else True
    mixed = ["expert", "heuristic"] * (seats // 2) + (["expert"] if seats % 2 else [])
    simulate(2000, seed=6, strategies=mixed, check=True, variant=variant)
    if variant == "nanjing":
        assert table["tichu"].any() and (rounds["wish"] > 0).any()


def test_expert_is_documented():
    s = resolve("expert")[0]
    assert s.play == "expert" and s.tichu == "value" and s.grand_tichu == "value"
