"""Rule-book clauses of Grand Seigneur (RULES.md §5), one test per difference from §2."""

from collections import Counter

import numpy as np
import pytest
from support import gs_reference as ref
from support.gs_replay import seat_of_rank, toks

from tichusim.cards import seigneur as seigneur_cards
from tichusim.games.seigneur import play_with_log, simulate_seigneur
from tichusim.kernels.combos import (
    BOMB_FOUR,
    BOMB_SF,
    PAIR,
    SINGLE,
    STAIRS,
    STRAIGHT,
    make_code,
)
from tichusim.kernels.seigneur import records

DRAGON = make_code(SINGLE, 1, 30)
PLAY_VALUE = {"Dog": 0, "Ma": 1, "Ph": 15, "Dr": 16}


def play_value(card):
    """Order of the lowest cards: Dog, Mah Jong, 2 .. A, Phoenix, Dragon."""
    return PLAY_VALUE.get(card) or ref.VALUE[card[0]]


DRAGON2 = make_code(SINGLE, 1, 31)


def codes_of(hand, **kw):
    plays, _ = seigneur_cards.legal_plays(hand, **kw)
    return {seigneur_cards.format(a, b): code for a, b, code in plays}


def test_second_dragon_beats_the_first():
    # §5: with two decks a second Dragon beats the first; nothing but a bomb beats it, and the
    # Phoenix never beats a Dragon (§2.6)
    assert codes_of("Dr Ph 2j", top_code=DRAGON) == {"Dr": DRAGON2}
    assert codes_of("Dr Ph 2j", top_code=DRAGON2) == {}
    bomb = codes_of("Dr 7j 7s 7p 7t", top_code=DRAGON2)
    assert bomb == {"7j 7s 7p 7t": make_code(BOMB_FOUR, 4, 14)}
    assert codes_of("Dr", top_code=make_code(SINGLE, 1, 28)) == {"Dr": DRAGON}  # on an Ace
    # a Phoenix on a Phoenix worth A½ would reach the Dragon: not allowed (Decision)
    assert codes_of("Ph 2j", top_code=make_code(SINGLE, 1, 29)) == {}
    assert codes_of("Ph", top_code=make_code(SINGLE, 1, 27)) == {"Ph": make_code(SINGLE, 1, 28)}


def test_four_of_a_kind_bomb_needs_four_different_suits():
    # §5: with two decks, four cards of a rank are a bomb only in four different suits
    assert seigneur_cards.classify("7j 7j 7s 7p") is None
    assert seigneur_cards.classify("7j 7s 7p 7t").kind == "four-of-a-kind bomb"
    leads = codes_of("7j 7j 7s 7s 7p 7t")
    bombs = [cards for cards, code in leads.items() if code >> 16 >= BOMB_FOUR]
    assert bombs == ["7j 7s 7p 7t"]  # one bomb: the doubled Jade and Sword add none
    assert codes_of("7j 7j 7s 7s", top_code=make_code(PAIR, 2, 26)) == {}


def test_straight_flush_needs_one_suit():
    # §5: a straight flush needs one suit; a doubled card cannot be in it (ranks differ)
    assert seigneur_cards.classify("3j 4j 5j 6j 7j").kind == "straight-flush bomb"
    assert seigneur_cards.classify("3j 4j 5j 6j 7s").kind == "straight"
    assert seigneur_cards.classify("3j 3j 4j 5j 6j 7j") is None
    leads = codes_of("3j 3j 4j 5j 6j 7j")
    assert {c for c, code in leads.items() if code >> 16 == BOMB_SF} == {"3j 4j 5j 6j 7j"}
    assert not {c for c, code in leads.items() if code >> 16 == STRAIGHT}


def test_both_copies_of_a_card_make_pairs_triples_full_houses_stairs():
    # §5 keeps the §2.5 combinations; with two decks a card may be held twice
    assert seigneur_cards.classify("7j 7j") == seigneur_cards.classify("7j 7s")
    assert seigneur_cards.classify("7j 7j 7s").kind == "triple"
    assert seigneur_cards.classify("7j 7j 8s 8s").kind == "stairs"
    assert seigneur_cards.classify("7j 7j 7s 8j 8j").kind == "full house"
    assert seigneur_cards.classify("7j 7j 7s 7s 8j") is None  # four of a rank and one: nothing
    assert seigneur_cards.classify("Ph Ph") is None  # Decision: one Phoenix per combination
    leads = codes_of("7j 7j 8j 8s")
    assert leads["7j 7j 8j 8s"] == make_code(STAIRS, 4, 16)


def test_russian_option_triples_of_different_suits():
    # §5 Option (Russian edition): a triple's cards, alone or in a full house, differ in suit
    opt = {"distinct_triples": True}
    assert seigneur_cards.classify("7j 7j 7s", **opt) is None
    assert seigneur_cards.classify("7j 7s 7p", **opt).kind == "triple"
    assert seigneur_cards.classify("7j 7j Ph", **opt) is None
    assert seigneur_cards.classify("7j 7s Ph", **opt).kind == "triple"
    assert seigneur_cards.classify("7j 7j 7s 8j 8s", **opt) is None
    assert seigneur_cards.classify("7j 7s 7p 8j 8j", **opt).rank == 7
    # two pairs and the Phoenix: only the pair of two suits can be the triple
    assert [c.rank for c in seigneur_cards.readings("7j 7s 8j 8j Ph", **opt)] == [7]
    assert [c.rank for c in seigneur_cards.readings("7j 7s 8j 8j Ph")] == [8, 7]
    assert seigneur_cards.classify("7j 7j", **opt).kind == "pair"  # pairs are untouched


@pytest.mark.parametrize(
    "players, deck, total", [(5, "one", 55), (6, "one", 55), (7, "two", 109), (12, "two", 109)]
)
def test_decks_by_player_count_without_dogs(players, deck, total):
    # §5: one deck for 5-6 players, two for 7-12; the Dogs and the second Mah Jong removed
    _rnd, _seats, log, _ = play_with_log(1, 0, 0, players=players)
    dealt = sum((toks(r[2], r[3]) for r in log if r[0] == records.EV_DEAL), Counter())
    assert dealt == ref.deck(deck) and sum(dealt.values()) == total
    assert dealt["Dog"] == 0 and dealt["Ma"] == 1


@pytest.mark.parametrize(
    "players, sizes", [(5, [12] * 5), (8, [12] * 8), (10, [11] * 8 + [10] * 2)]
)
def test_russian_deck_twelve_each_leftovers_face_up(players, sizes):
    # §5 Option: 108 cards, 12 to each player, the rest face up and out of play (ten players:
    # eight get 11 and two 10, as the Russian book says)
    rnd, _seats, log, _ = play_with_log(2, 0, 1, players=players, options="russian")
    dealer = next(r[1] for r in log if r[0] == records.EV_DEAL and r[4] == players)
    by_seat = {r[1]: sum(toks(r[2], r[3]).values()) for r in log if r[0] == records.EV_DEAL}
    assert [by_seat[(dealer + 1 + k) % players] for k in range(players)] == sizes
    left = [toks(r[2], r[3]) for r in log if r[0] == records.EV_LEFTOVER]
    assert sum(sum(c.values()) for c in left) == 108 - sum(sizes)
    if left:
        assert toks(rnd["leftover_a"], rnd["leftover_b"]) == left[0]


def test_deal_round_robin_from_the_seat_after_the_dealer():
    # §5: all cards dealt round-robin starting after the dealer: earlier seats may get one more
    rnd, seats, log, _ = play_with_log(3, 0, 2, players=6)  # 55 cards: one seat gets 10
    dealer = next(r[1] for r in log if r[0] == records.EV_DEAL and r[4] == 6)  # the last deals
    tens = [r[1] for r in log if r[0] == records.EV_DEAL and sum(toks(r[2], r[3]).values()) == 10]
    assert tens == [(dealer + 1) % 6]
    assert seats[rnd["dealer"]]["rank_before"] == 6


def test_first_round_has_no_exchange_later_rounds_exchange_best_cards():
    # §5: round 1 without exchange; then the last gives their 3 best to the Grand Seigneur,
    # the second-to-last 2 to the second, the third-to-last 1 to the third; best order
    # Dragon, Phoenix, Mah Jong, A, K, ..., 2; each receiver gives back as many
    _r, s = simulate_seigneur(30, players=7, seed=8, rounds_per_game=3, strategies="lowest")
    first = s[s.round_in_game == 0]
    assert (first.gave_a == 0).all() and (first.got_a == 0).all()
    later = s[s.round_in_game > 0]
    for _, table in later.groupby(["game", "round_in_game"]):
        by_rank = table.set_index("rank_before")
        for giver, taker, k in ((7, 1, 3), (6, 2, 2), (5, 3, 1)):
            g, t = by_rank.loc[giver], by_rank.loc[taker]
            gift = toks(g.gave_a, g.gave_b)
            assert gift == toks(t.got_a, t.got_b) and sum(gift.values()) == k
            dealt = toks(g.dealt_a, g.dealt_b)

            def key(c):
                return c if c in ref.SPECIALS else c[0]

            assert sorted(map(key, gift.elements())) == sorted(
                map(key, ref.best_cards(sorted(dealt.elements()), k))
            )
            back = toks(t.gave_a, t.gave_b)
            assert back == toks(g.got_a, g.got_b) and sum(back.values()) == k
            # giving back is a strategy decision: "lowest" returns its lowest cards
            held = toks(t.dealt_a, t.dealt_b) + gift
            assert (
                sorted(map(play_value, back.elements()))
                == sorted(map(play_value, held.elements()))[:k]
            )
        assert by_rank.loc[4].gave_a == 0 and by_rank.loc[4].got_a == 0  # the middle rank


def test_five_players_exchange_two_and_one():
    # §5: with 5 players every level gives one card fewer (2 and 1)
    _, s = simulate_seigneur(10, players=5, seed=9, rounds_per_game=2)
    later = s[s.round_in_game == 1].set_index(["game", "rank_before"])

    def size(a, b):
        return sum(toks(a, b).values())

    for game in range(10):
        assert [
            size(later.loc[(game, r)].gave_a, later.loc[(game, r)].gave_b) for r in (5, 4, 3, 2, 1)
        ] == [2, 1, 0, 1, 2]


@pytest.mark.parametrize("russian_seating", [False, True])
def test_seating_follows_rank(russian_seating):
    # §5: the Grand Seigneur first, the second at his left, ..., the last at his right; turn
    # order passes to the right, so the last plays right after the Grand Seigneur (Decision,
    # Japanese edition). Option (Russian edition): the second sits at his right.
    opts = {"russian_seating": True} if russian_seating else None
    _, s = simulate_seigneur(20, players=8, seed=10, rounds_per_game=3, options=opts)
    later = s[s.round_in_game > 0]
    want = later.rank_before.map(lambda r: seat_of_rank(int(r), 8, russian_seating))
    assert (later.seat == want).all()
    gs = later[later.rank_before == 1]
    assert (gs.seat == 0).all()
    nxt = later[later.seat == 1].rank_before
    assert (nxt == (2 if russian_seating else 8)).all()


def test_mah_jong_holder_leads_the_first_trick():
    # §5: the Mah Jong's holder leads the first trick (after the exchange)
    for game in range(10):
        rnd, seats, log, _ = play_with_log(4, game, 1, players=9)
        hands = {r[1]: toks(r[2], r[3]) for r in log if r[0] == records.EV_DEAL}
        for r in log:
            if r[0] in (records.EV_GIVE, records.EV_GIVE_BACK):
                hands[r[1]] -= toks(r[2], r[3])
                hands[r[5]] += toks(r[2], r[3])
        holder = next(s for s, h in hands.items() if h["Ma"])
        first_play = next(r for r in log if r[0] == records.EV_PLAY)
        assert first_play[1] == holder and seats[rnd["leader"]]["seat"] == holder


def test_round_ends_when_one_player_still_holds_cards():
    # §5: the round ends at once when one player still holds cards; that player is last
    for players in (5, 9, 12):
        rnd, seats, log, _ = play_with_log(5, 0, 0, players=players)
        outs = [r[1] for r in log if r[0] == records.EV_OUT]
        end = [r for r in log if r[0] == records.EV_END]
        assert len(outs) == players - 1 and len(end) == 1 and log[-1][0] == records.EV_END
        last = end[0][1]
        assert last not in outs and toks(end[0][2], end[0][3])  # it holds cards
        assert seats[rnd["last"]]["rank_after"] == players
        assert [seats[p]["seat"] for p in np.argsort(seats["rank_after"])] == outs + [last]


def test_russian_dog_gives_the_lead_to_the_last_ranked_player():
    # §5 Option (Russian edition): the Dog gives the lead to the last-ranked player
    found = 0
    for game in range(60):
        _rnd, seats, log, _ = play_with_log(6, game, 1, players=7, options="russian")
        last_seat = int(seats[np.argmax(seats["rank_before"])]["seat"])
        out = set()
        for r in log:
            if r[0] == records.EV_OUT:
                out.add(r[1])
            if r[0] == records.EV_DOG and last_seat not in out:
                found += 1
                assert r[5] == last_seat
    assert found > 0


def test_no_teams_points_or_calls():
    # §5: no teams, no points, no Tichu calls, no Dragon's gift: the tables say nothing of them
    r, s = simulate_seigneur(3, players=6, seed=1)
    for col in ("score_team0", "card_points_team0", "dragon_to", "double_victory"):
        assert col not in r.columns
    for col in ("team", "tichu", "grand_tichu", "points"):
        assert col not in s.columns


def test_the_wish_binds_with_two_decks():
    # §5 keeps the play rules, the Mah Jong's wish among them (§2.11)
    plays, can_pass = seigneur_cards.legal_plays(
        "5j 5j 9s Ks", top_code=make_code(SINGLE, 1, 8), wish=5
    )
    assert {seigneur_cards.format(a, b) for a, b, _ in plays} == {"5j"} and not can_pass
    plays, can_pass = seigneur_cards.legal_plays("5j 5j 9s", top_code=make_code(PAIR, 2, 6), wish=5)
    assert {seigneur_cards.format(a, b) for a, b, _ in plays} == {"5j 5j"} and not can_pass
