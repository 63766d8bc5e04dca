"""The ``expert`` strategy on constructed positions: card tracking, partnership, wish, calls,
and RULES.md §6 (it reads only the public record and its own hand)."""

import inspect

import numpy as np
import pytest
from numba import njit

from tichusim import cards, simulate
from tichusim.kernels.combos import BOMB_FOUR, PAIR, SINGLE, STRAIGHT, make_code
from tichusim.kernels.moves import MAX_MOVES
from tichusim.kernels.tichu import expert, learned, policies, slots
from tichusim.kernels.tichu.expert import ALL_CARDS
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
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
    models = np.zeros((1, learned.HEADER), np.float32)  # no learned play here
    learn = np.zeros(learned.LEARN_FLOATS, np.float32)
    j = policies.play(params, pub[0], me[0], moves_m, moves_c, models, learn)
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


def _with(**params):
    """The expert's row with some parameters changed."""
    return resolve({"base": "expert", "name": "expert-test", "params": params})[0].param_row()


def test_expert_does_not_go_out_ahead_of_a_calling_partner():
    """Going out first makes the partner's Tichu fail (§2.14): while the calling partner is in
    and nobody is out, the expert keeps a card (``hold_margin`` 14: even when an opponent holds
    fewer cards than the caller); once somebody is out, it goes out. With ``hold_margin`` 0 it
    holds back only while the caller holds fewer cards than every opponent."""
    pub, me = _records("Kj Ks", counts=(2, 10, 3, 10))
    pub["tichu"][0, 2] = 1
    pub["top_code"] = make_code(PAIR, 2, 2 * 7)
    pub["top_seat"] = 1
    assert _play(EXPERT, pub, me) == 0  # pass rather than go out
    pub["counts"][0, 3] = 3
    assert _play(EXPERT, pub, me) == 0  # an opponent as close as the caller: still held
    assert _play(_with(hold_margin=0), pub, me) == _mask("Kj Ks")
    pub["counts"][0, 3] = 0
    pub["n_out"] = 1
    pub["out_order"][0, 0] = 3
    assert _play(EXPERT, pub, me) == _mask("Kj Ks")  # the call is decided: out


def _single_trick(pub, card, rank, seat):
    pub["top_code"] = make_code(SINGLE, 1, 2 * rank)
    pub["top_mask"] = _mask(card)
    pub["top_seat"] = seat
    pub["trick_cards"] = _mask(card)


def test_the_caller_takes_its_partners_cheap_trick_to_lead():
    """``caller_overtake``: while its own call is open the caller takes a partner's trick with a
    cheap play (a loose single) to get the lead; not with a control card, and a player who did
    not call never overtakes its partner."""
    pub, me = _records("Kj 9s 9p 5t Ph", counts=(5, 10, 8, 10))
    pub["tichu"][0, 0] = 1
    _single_trick(pub, "3s", 3, 2)  # the partner led a low single
    assert _play(EXPERT, pub, me) == _mask("5t")
    assert _play(_with(caller_overtake=-100), pub, me) == 0
    pub["tichu"][0, 0] = 0
    assert _play(EXPERT, pub, me) == 0
    pub, me = _records("Aj 9s 9p 8j 8s", counts=(5, 10, 8, 10))  # only the Ace: keep it
    pub["tichu"][0, 0] = 1
    _single_trick(pub, "3s", 3, 2)
    assert _play(EXPERT, pub, me) == 0


@njit
def _bomb_beatable(out, code):
    return expert.bomb_beatable(out, code)


def test_tracker_knows_which_bombs_can_beat_ours():
    """A four of a kind is beaten by a higher four of a kind or any straight flush the others
    can still hold (§2.7); nothing when neither can be left among their cards."""
    sevens = make_code(BOMB_FOUR, 4, 2 * 7)
    assert _bomb_beatable(_mask("Kj Ks Kp Kt 2j"), sevens)
    assert not _bomb_beatable(_mask("5j 5s 5p 5t 2j"), sevens)  # a lower four
    assert _bomb_beatable(_mask("2j 3j 4j 5j 6j"), sevens)  # a straight flush
    assert not _bomb_beatable(_mask("Kj Ks Kp Ph 2j 3j 4j 5j 6s"), sevens)


def _bomb_position(hand, opp_cards, points_trick=""):
    """Seat 0 holds ``hand`` (a bomb in it), the right opponent's single 9 tops the trick (with
    the cards ``points_trick`` played under it), that opponent holding ``opp_cards`` cards."""
    pub, me = _records(hand, counts=(len(hand.split()), opp_cards, 10, 10))
    _single_trick(pub, "9p", 9, 1)
    pub["trick_cards"] = _mask("9p " + points_trick)
    return pub, me


def test_expert_keeps_its_bomb_when_nothing_is_threatened():
    """Bombs kept for what they are worth: no bomb on a pointless trick of an opponent far from
    going out; a bomb on the same trick when that opponent is about to go out."""
    bomb = _mask("7j 7s 7p 7t")
    pub, me = _bomb_position("7j 7s 7p 7t 3j", 10, "2p")
    assert _play(EXPERT, pub, me) == 0
    pub["counts"][0, 1] = 1
    assert _play(EXPERT, pub, me) == bomb


def test_the_callers_partner_bombs_an_opponent_about_to_go_out_first():
    """While the partner's call is open, an opponent about to go out (``bomb_threat``), or with
    ``support_threat`` cards or fewer, is bombed; without a call to support, a player keeps the
    bomb against an opponent holding 3 cards."""
    bomb = _mask("7j 7s 7p 7t")
    pub, me = _bomb_position("7j 7s 7p 7t 3j", 1, "2p")
    pub["tichu"][0, 2] = 1
    assert _play(EXPERT, pub, me) == bomb
    pub["counts"][0, 1] = 3
    assert _play(EXPERT, pub, me) == 0
    assert _play(_with(support_threat=4), pub, me) == bomb
    pub["tichu"][0, 2] = 0
    assert _play(_with(support_threat=4), pub, me) == 0


def test_bomb_keep_keeps_a_bomb_that_could_be_overbombed():
    """``bomb_keep`` 1: no bomb for a trick's points while an opponent may still hold a higher
    bomb (nothing played yet); once the cards left out could form none, the bomb takes the
    points (as it does by default, ``bomb_points``)."""
    bomb = _mask("7j 7s 7p 7t")
    hand = "7j 7s 7p 7t 3j"
    pub, me = _bomb_position(hand, 10, "Kj Ks 5p")
    keep = _with(bomb_keep=1)
    assert _play(EXPERT, pub, me) == bomb  # 25 points: worth a bomb by default
    assert _play(keep, pub, me) == 0
    left = cards.parse("Kp Kt Aj As 2j 2s 5t Qj Dr Dog")  # the others' cards: no bomb among them
    everything = int(ALL_CARDS)
    pub["played"] = np.uint64(everything & ~cards.parse(hand) & ~left)
    assert _play(keep, pub, me) == bomb


def test_leads_the_kind_no_sure_winner_can_retake_first():
    """``retake_lead`` (negative): holding the Dragon, a sure single, the expert leads its low
    pair before its low single (the single can still go under the Dragon's trick later)."""
    pub, me = _records("Dr 3j 4j 4s 9p Jt", counts=(6, 10, 10, 10))
    assert _play(EXPERT, pub, me) == _mask("4j 4s")
    assert _play(_with(retake_lead=0), pub, me) == _mask("3j")


def test_the_caller_gives_its_partner_a_low_card():
    """``caller_gift``: after its own call the caller keeps its high cards, giving its partner
    the highest loose card of rank 7 or lower (the Dog first when it holds it)."""
    pub, me = _records("Dr Ph Aj 2s 3p 5t 7j 9s Jp Qt Kj Ks 8p 8t")
    pub["tichu"][0, 0] = 1
    out = np.zeros(5, np.uint64)
    _passes(EXPERT, pub, me, out)
    assert out[1] == _mask("7j") and {out[0], out[2]} == {_mask("2s"), _mask("3p")}
    _passes(_with(caller_gift=13), pub, me, out)
    assert out[1] == _mask("Qt")


def test_the_callers_partner_defers_to_the_caller_still_to_play():
    """``support_defer``: while the partner's call is open and the caller plays on the trick
    after this seat, the expert takes an opponent's trick only with a play priced at most
    this; once the caller has passed on it, it takes it as usual."""
    pub, me = _records("Kj 9s 9p 5t 3p", counts=(5, 10, 8, 10))
    pub["tichu"][0, 2] = 1
    _single_trick(pub, "4s", 4, 1)  # the right opponent: the caller (seat 2) plays after us
    defer = _with(support_defer=-5)
    assert _play(EXPERT, pub, me) != 0
    assert _play(defer, pub, me) == 0
    pub["passed"] = 1 << 2
    assert _play(defer, pub, me) != 0


def test_attack_split_the_last_chance_spends_its_sure_winner():
    """``attack_split``: on a calling opponent's single, the last of its side who can still
    beat it (its partner has passed) plays the Dragon, a sure winner, rather than an Ace that
    can be beaten; one whose partner still plays after it keeps the Dragon."""
    split = _with(attack_split=5)
    pub, me = _records("Dr Aj 9s 9p 5t", counts=(5, 8, 10, 10))
    pub["tichu"][0, 1] = 1
    _single_trick(pub, "Kp", 13, 1)
    pub["passed"] = (1 << 2) | (1 << 3)  # the partner (seat 2) passed on it
    assert _play(split, pub, me) == _mask("Dr")
    pub["passed"] = 0
    assert _play(split, pub, me) == _mask("Aj")


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
    me["given"][0, 1] = _mask("5j")  # right opponent (the next seat)
    me["given"][0, 2] = _mask("9s")  # partner
    me["given"][0, 3] = _mask("2p")  # left opponent: a rank we hold, no wish at it
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
    policies.passes(params, pub[0], me[0], out, None)


def test_calls_by_value_are_the_fitted_scores():
    """Tichu and Grand Tichu by the linear value score (the coefficients documented as
    parameters): a strong hand calls before passing, a weak one neither before nor after."""
    for prefix in ("tichu_value_", "tichu_after_"):
        names = [n for n in PARAMS if n.startswith(prefix)]
        assert len(names) == expert.N_CALL_FEATURES + expert.N_CALL_SHAPE + expert.N_CALL_CONTEXT
    strong = "Dr Ph Aj As Ap Kj Ks Qj Qs Jj Js Tj Ts 9j"
    weak = "2j 3s 4p 6t 7j 8s Tp Jt Qj 5s 9p 9t Dog Ma"
    for hand, want in ((strong, True), (weak, False)):
        pub, me = _records(hand)
        assert _tichu(EXPERT, pub, me, policies.TICHU_BEFORE_PASSING) == want
        if not want:
            assert not _tichu(EXPERT, pub, me, policies.TICHU_AFTER_PASSING)
        assert not _tichu(EXPERT, pub, me, policies.TICHU_BEFORE_TURN)


@njit
def _tichu(params, pub, me, point):
    return policies.tichu(params, pub[0], me[0], point)


@njit
def _tichu_value(params, pub, me, after):
    first, extra = (
        (slots.TICHU_AFTER_VALUE, slots.TICHU_AFTER_EXTRA)
        if after
        else (slots.TICHU_VALUE, slots.TICHU_EXTRA)
    )
    return expert.tichu_value(params, first, extra, pub[0], me[0])


@njit
def _context(pub, seat):
    return expert.call_context(pub[0], seat)


@pytest.mark.parametrize(
    "hand, low, straights",
    [
        ("2j 3s 4p 5t 6j 9s 9p Kj", 0, 1),  # the straight 2-6 takes the low cards
        ("2j 4s 6p 8t Tj Qs Kp Aj", 4, 0),  # 2, 4, 6, 8 alone
        ("2j 4s 6p 8t Tj Qs Kp Ph", 3, 0),  # the Phoenix pairs one
        ("Ma 2j 3s 4p 5t 7j 8s 9p Tt Jj Qj 9s 9t Ks", 0, 2),  # 7-K, then Ma-5; a pair of 9s left
        ("Ma 2j 3s 4p 5t 7j 8s 9p Tt Jj 9j 9s 9t Ks", 2, 1),  # the 9s a bomb: 7 and 8 alone
        ("Ma 7j 7s Aj Ap", 1, 0),  # the Mah Jong counts
    ],
)
def test_plan_shape_counts_low_singles_and_straights(hand, low, straights):
    assert expert.plan_shape(_mask(hand)) == (low, straights)


def test_call_context_reads_the_calls_made():
    """The public context of a Tichu call (§2.3: calls are public): a partner's call first,
    then an opponent's Grand Tichu, then an opponent's Tichu."""
    pub, _ = _records("2j")
    assert _context(pub, 0) == expert.CONTEXT_NONE
    pub["tichu"][0, 1] = 1
    assert _context(pub, 0) == expert.CONTEXT_OPP_TICHU
    pub["grand_tichu"][0, 3] = 1
    assert _context(pub, 0) == expert.CONTEXT_OPP_GRAND
    assert _context(pub, 1) == expert.CONTEXT_PARTNER  # seat 3 is seat 1's partner
    pub["tichu"][0, 2] = 1
    assert _context(pub, 0) == expert.CONTEXT_PARTNER


@pytest.mark.parametrize("after", [False, True])
def test_calls_made_lower_the_tichu_score(after):
    """The fitted scores: an opponent's Grand Tichu or Tichu makes a call less likely to go
    out first, a partner's call makes a second call of the side pay nothing; a strong hand
    that calls alone does not call over its partner's Grand Tichu."""
    hand = "Dr Ph Aj As Ap Kj Ks Qj Qs Jj Js Tj Ts 9j"
    pub, me = _records(hand)
    alone = _tichu_value(EXPERT, pub, me, after)
    for field, seat in (("grand_tichu", 1), ("tichu", 3), ("grand_tichu", 2)):
        pub, me = _records(hand)
        pub[field][0, seat] = 1
        assert _tichu_value(EXPERT, pub, me, after) < alone, (field, seat)
    pub, me = _records(hand)
    pub["grand_tichu"][0, 2] = 1
    assert not _tichu(EXPERT, pub, me, policies.TICHU_BEFORE_PASSING)


def test_expert_reads_only_the_public_record_and_its_own_hand():
    """RULES.md §6: every function of the expert's that takes table state takes the public
    record and the deciding seat's private record, nothing that holds another hand."""
    allowed = {
        "params",
        "pub",
        "me",
        "moves_m",
        "moves_c",
        "n",
        "can_pass",
        "out",
        "base",
        "first",
        "hand",
        "code",
        "kind",
        "length",
        "seat",
        "ranks",
        "phoenix",
        "fill",
        "hold",
        "margin",
        "masks",
        "codes",
        "threat",
        "sure_cost",
        "i",
        "kl",
        "top",
        "extra",
    }
    # hold: a flag (hold_back); masks/codes: its own bombs offered out of turn; extra: a slot
    # of the strategy row; none a hand
    for name, fn in inspect.getmembers(expert):
        if hasattr(fn, "py_func") and fn.__module__ == expert.__name__:
            params = set(inspect.signature(fn.py_func).parameters)
            assert params <= allowed, (name, params - allowed)


@pytest.mark.parametrize("variant", ["nanjing", "tientsin", "wuwang"])
def test_expert_rounds_keep_the_invariants(variant):
    """RULES.md §7 with expert at every seat (and against heuristic) in each team game."""
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
