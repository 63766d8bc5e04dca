"""The other games: Tientsin (RULES.md §3, 6 players) and Wu Wang (§4, 3 players and the
Minister). Invariants of §7 adapted to each, independent replays of the event logs
(``replay.check_round``), one test per rule clause that differs from §2, golden transcripts."""

import importlib.util
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import njit
from support.cli_output import said_lines
from support.replay import check_round

from tichusim import cards, simulate, simulate_games
from tichusim.games.transcript import play_with_log
from tichusim.kernels.moves import MAX_MOVES
from tichusim.kernels.tichu import learned, policies, records, variants
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.strategies.tichu import build

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

SEATS = {"tientsin": 6, "wuwang": 4}
MASK_BITS = np.array([1 << b for b in range(64)], dtype=np.uint64)


def ncards(masks) -> np.ndarray:
    """Cards in each mask of an array of uint64 masks."""
    m = np.asarray(masks, dtype=np.uint64)
    return ((m[..., None] & MASK_BITS) != 0).sum(axis=-1)


def bonuses(seats, n):
    """Per round and team: the call bonuses of §2.14 (the caller's team, ± by going out first)."""
    sign = np.where(seats["finish"] == 1, 1, -1)
    b = (sign * (200 * seats["grand_tichu"] + 100 * seats["tichu"])).to_numpy().reshape(-1, n)
    team = seats["team"].to_numpy().reshape(-1, n)
    return np.stack([(b * (team == t)).sum(axis=1) for t in (0, 1)], axis=1)


# ---- §7, adapted: invariants over 100,000 random rounds per table, checker on ----
# (the slow tier; 10,000 in the fast one)

ROUNDS = [pytest.param(100_000, marks=pytest.mark.slow, id="100k"), pytest.param(10_000, id="10k")]


@pytest.mark.parametrize("n", ROUNDS)
def test_tientsin_invariants_over_random_rounds(n):
    """§7 with 6 players: the kernel checks every action (card conservation, legality, the
    finishing order, card points, score); the tables are re-checked here."""
    rounds, seats = simulate(n, seed=2026, strategies="random", check=True, variant="tientsin")
    assert len(rounds) == n and len(seats) == 6 * n
    triple = rounds["triple_victory"].to_numpy()
    card = rounds[["card_points_team0", "card_points_team1"]].to_numpy()
    assert (card[~triple].sum(axis=1) == 100).all()  # §7: 100 without a triple victory
    assert set(map(tuple, card[triple])) == {(300, 0), (0, 300)}  # §3: 300 to one team
    score = rounds[["score_team0", "score_team1"]].to_numpy()
    assert (score == card + bonuses(seats, 6)).all()  # §2.14: card points + call bonuses
    fin = seats["finish"].to_numpy().reshape(-1, 6)
    assert (np.sort(fin[~triple], axis=1) == [1, 2, 3, 4, 5, 6]).all()  # a permutation
    assert (np.sort(fin[triple], axis=1) == [0, 0, 0, 1, 2, 3]).all()
    team = seats["team"].to_numpy().reshape(-1, 6)
    assert (team == np.arange(6) % 2).all()  # §3: teams {0, 2, 4} and {1, 3, 5}
    winners = np.take_along_axis(team, np.argsort(np.where(fin == 0, 9, fin), axis=1), 1)[:, :3]
    assert (winners[triple] == winners[triple][:, :1]).all()  # one team's first three out
    assert not (seats["grand_tichu"] & seats["tichu"]).any()
    assert 0.02 < triple.mean() < 0.2 and rounds["bombs"].sum() > 0


@pytest.mark.parametrize("n", ROUNDS)
def test_wuwang_invariants_over_random_rounds(n):
    """§7 with three players and the Minister (4 hands): the kernel also checks after every
    action that the Minister's hand shown to everybody is the hand (§4, §6)."""
    rounds, seats = simulate(n, seed=2026, strategies="random", check=True, variant="wuwang")
    assert len(rounds) == n and len(seats) == 4 * n
    double = rounds["double_victory"].to_numpy()
    card = rounds[["card_points_team0", "card_points_team1"]].to_numpy()
    assert (card[~double].sum(axis=1) == 100).all()
    assert set(map(tuple, card[double])) == {(200, 0), (0, 200)}
    score = rounds[["score_team0", "score_team1"]].to_numpy()
    assert (score == card + bonuses(seats, 4)).all()
    fin = seats["finish"].to_numpy().reshape(-1, 4)
    assert (np.sort(fin[~double], axis=1) == [1, 2, 3, 4]).all()
    assert (np.sort(fin[double], axis=1) == [0, 0, 1, 2]).all()
    role = seats["role"].astype(str).to_numpy().reshape(-1, 4)
    king = rounds["king"].to_numpy()
    assert (role[np.arange(len(king)), king] == "king").all() and (role[:, 3] == "minister").all()
    assert ((role == "opponent").sum(axis=1) == 2).all()
    assert np.bincount(king).min() > 0.3 * n  # §4: the King of a first round is drawn at random
    assert not (seats["grand_tichu"] & seats["tichu"]).any()


@pytest.mark.parametrize(
    "n", [pytest.param(12, marks=pytest.mark.slow, id="12"), pytest.param(2, id="2")]
)
@pytest.mark.parametrize("variant", ["tientsin", "wuwang"])
@pytest.mark.parametrize("strategies", ["random", "lowest", "heuristic"])
def test_replayed_rounds_follow_every_rule(variant, strategies, n):
    """Each round's log replayed with the brute-force reference (§2 as amended by §3, §4): 12
    rounds a table and strategy (the slow tier; 2 in the fast one)."""
    for key in range(n):
        rnd, seats, log = play_with_log(13, key, strategies=strategies, variant=variant)
        check_round(rnd, seats, log, variant=variant)


@pytest.mark.parametrize("variant", ["tientsin", "wuwang"])
def test_many_replayed_rounds_structure(variant):
    """The replay without the (slow) legality check over more rounds and mixed strategies:
    deal, calls, passing, turns, tricks, Dog, Dragon, wish, going out, transfers, score."""
    seen = Counter()
    mixed = ["heuristic", "random", "lowest"] * 2
    for key in range(600):
        strategies = "random" if key % 2 else mixed[: 3 if variant == "wuwang" else 6]
        rnd, seats, log = play_with_log(5, key, strategies=strategies, variant=variant)
        seen += check_round(rnd, seats, log, legal_check=False, variant=variant)
    assert 0 < seen["victory"] < 600


# ---- §3 Tientsin, clause by clause ----


def test_tientsin_hands_follow_the_draw_order():
    """§3: 56 cards, the first two players in draw order get 10, the other four 9 (Decision);
    in games the first drawer is the previous first out (§2.15), so every seat draws first."""
    rounds, seats = simulate_games(40, seed=3, strategies="lowest", variant="tientsin", target=500)
    size = ncards(seats["hand14"]).reshape(-1, 6)
    drawer = rounds["first_drawer"].to_numpy()
    place = (np.arange(6) - drawer[:, None]) % 6
    assert (size == np.where(place < 2, 10, 9)).all()
    assert set(drawer) == set(range(6))
    assert (
        drawer[1:][rounds["round_in_game"].to_numpy()[1:] > 0]
        == rounds["first_out"].to_numpy()[:-1][rounds["round_in_game"].to_numpy()[1:] > 0]
    ).all()
    union = np.bitwise_or.reduce(seats["hand14"].to_numpy().reshape(-1, 6), axis=1)
    assert (union == np.uint64(cards.DECK)).all()


def test_tientsin_grand_tichu_after_six_cards():
    """§3: Grand Tichu is called after seeing 6 cards (the replay also checks that every call
    comes before the rest of the cards are dealt)."""
    always = build({"base": "lowest", "grand_tichu": "always"})
    rounds, seats = simulate(300, seed=4, strategies=always, variant="tientsin")
    assert (ncards(seats["hand8"]) == 6).all() and seats["grand_tichu"].all()
    rnd, s, log = play_with_log(4, 0, strategies=always, variant="tientsin")
    check_round(rnd, s, log, variant="tientsin")


def test_tientsin_passing_to_the_two_partners():
    """§3: each player gives one card to each of the two partners and receives one from each."""
    _, seats = simulate(2000, seed=5, strategies="random", variant="tientsin")
    g1, g2 = seats["given_partner1"].to_numpy(), seats["given_partner2"].to_numpy()
    r1, r2 = seats["received_partner1"].to_numpy(), seats["received_partner2"].to_numpy()
    assert (ncards(g1) == 1).all() and (ncards(g2) == 1).all() and (g1 != g2).all()
    # the partner two places on receives from its partner four places on: its received_partner2
    g1 = g1.reshape(-1, 6)
    r2 = r2.reshape(-1, 6)
    assert (np.roll(r2, -2, axis=1) == g1).all()
    hand = seats["hand14"].to_numpy()
    after = (hand & ~(g1.reshape(-1) | g2)) | r1 | r2.reshape(-1)
    assert (after == seats["hand_passed"].to_numpy()).all()


def test_tientsin_dog_goes_to_the_partner_of_the_strategys_choice():
    """§3: the Dog gives the lead to a partner of the player's choice (the ``dog`` decision);
    the replay checks that the lead goes to a partner holding cards, or past them when both
    are out."""
    counts = {}
    for policy in ("next", "random"):
        strategy = build({"base": "random", "dog": policy})
        seen = Counter()
        for key in range(700):
            rnd, seats, log = play_with_log(6, key, strategies=strategy, variant="tientsin")
            seen += check_round(rnd, seats, log, legal_check=False, variant="tientsin")
        counts[policy] = seen
    assert counts["next"]["dog_choice"] > 20 and counts["next"]["dog_to_offset4"] == 0
    assert counts["random"]["dog_to_offset2"] > 5 and counts["random"]["dog_to_offset4"] > 5


@njit
def _dog_answer(params, seat, counts, calls):
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0].n_players = 6
    pub[0].variant = variants.TIENTSIN
    for s in range(6):
        pub[0].counts[s] = counts[s]
        pub[0].tichu[s] = calls[s]
    me[0].seat = seat
    me[0].rng = np.uint64(3)
    return policies.dog_target(params, pub[0], me[0])


def test_dog_target_policies():
    """§3: seat 1's partners are 3 (next in turn order) and 5."""
    row = {
        p: build({"base": "heuristic", "dog": p}).param_row()
        for p in ("next", "fewer-cards", "support-call")
    }
    counts = np.array([5, 5, 5, 7, 5, 3])
    none = np.zeros(6, np.int64)
    assert _dog_answer(row["next"], 1, counts, none) == 3
    assert _dog_answer(row["fewer-cards"], 1, counts, none) == 5
    assert _dog_answer(row["support-call"], 1, counts, none) == 5  # no call: fewer cards
    called = np.array([0, 0, 0, 1, 0, 0])
    assert _dog_answer(row["support-call"], 1, counts, called) == 3  # the caller
    assert _dog_answer(row["fewer-cards"], 1, counts, called) == 5


def test_tientsin_triple_victory():
    """§3: no double victory; one team's three players first, second and third out end the
    round at once: 300 to that team, 0 to the other, card points not counted, bonuses apply."""
    rounds, seats = simulate(20_000, seed=8, strategies="random", variant="tientsin")
    assert "double_victory" not in rounds
    triple = rounds["triple_victory"].to_numpy()
    fin = seats["finish"].to_numpy().reshape(-1, 6)
    # two partners out first and second do not end the round
    first_two = np.argsort(np.where(fin == 0, 9, fin), axis=1)[:, :2]
    partners = (first_two[:, 0] - first_two[:, 1]) % 2 == 0
    assert (~triple & partners).any()
    team = rounds["first_out"].to_numpy() % 2
    card = rounds[["card_points_team0", "card_points_team1"]].to_numpy()
    assert (card[triple, team[triple]] == 300).all() and (card[triple, 1 - team[triple]] == 0).all()
    assert ((fin[triple] > 0).sum(axis=1) == 3).all()  # at once: nobody else went out
    assert (seats["card_points"].to_numpy().reshape(-1, 6)[triple] == 0).all()
    score = rounds[["score_team0", "score_team1"]].to_numpy()
    assert (score[triple] == (card + bonuses(seats, 6))[triple]).all()
    assert (score[triple] != card[triple]).any()  # bonuses still apply


def test_tientsin_fifth_out_ends_the_round_and_the_transfers():
    """§3: the round ends when the fifth player goes out (taking the trick in play); the
    fifth's tricks go to the first player out, the last player's hand and tricks to the
    opposing team. The replay recomputes the points from these rules; here: every ending
    round has the three transfers, and their points reach the right teams."""
    moved = Counter()
    for key in range(300):
        rnd, seats, log = play_with_log(9, key, strategies="random", variant="tientsin")
        check_round(rnd, seats, log, legal_check=False, variant="tientsin")
        if rnd["double_victory"]:
            continue
        rows = [tuple(int(v) for v in r) for r in log]
        outs = [r[1] for r in rows if r[0] == records.EV_OUT]
        assert len(outs) == 5
        transfers = [r for r in rows if r[0] in (records.EV_HAND_TO, records.EV_TRICKS_TO)]
        (e1, g1, _, p1, to1), (e2, g2, _, p2, to2), (e3, g3, _, p3, to3) = transfers
        assert (e1, g1, to1) == (
            records.EV_TRICKS_TO,
            outs[4],
            outs[0],
        )  # fifth's tricks: first out
        last = ({*range(6)} - set(outs)).pop()
        assert e2 == records.EV_HAND_TO and g2 == last and (to2 - last) % 2 == 1  # hand: opponents
        assert e3 == records.EV_TRICKS_TO and g3 == last and to3 == to2  # tricks: opponents
        moved["points"] += abs(p1) + abs(p2) + abs(p3)
    assert moved["points"] > 0


def test_tientsin_refuses_policies_that_give_to_opponents():
    """§3 passes to partners only: a policy naming a card given to an opponent means nothing."""
    for spec, what in (
        ({"pass": "odd-even"}, "odd-even"),
        ({"pass": "dog-opponent"}, "dog-opponent"),
        ({"wish": "passed-right"}, "passed-right"),
    ):
        with pytest.raises(ValueError, match=f"'{what}' does not apply to tientsin") as err:
            simulate(1, strategies={"base": "heuristic", **spec}, variant="tientsin")
        assert "\n" not in str(err.value)
        simulate(10, strategies={"base": "heuristic", **spec})  # the 4-player game takes it
    with pytest.raises(ValueError, match="list of 6"):
        simulate(1, strategies=["random"] * 4, variant="tientsin")


# ---- §4 Wu Wang, clause by clause ----


def _king_rows(rounds, seats, column):
    """``column`` of each round's King, Minister and opponents (seat rows by role)."""
    king = rounds["king"].to_numpy()
    values = seats[column].to_numpy().reshape(-1, 4)
    role = seats["role"].astype(str).to_numpy().reshape(-1, 4)
    return values[np.arange(len(king)), king], values[:, 3], values[role == "opponent"]


def test_wuwang_no_grand_tichu_for_the_king_or_the_minister():
    """§4: the King and the Minister may not call Grand Tichu; the two opponents may."""
    always = build({"base": "lowest", "grand_tichu": "always"})
    rounds, seats = simulate(2000, seed=10, strategies=always, variant="wuwang")
    king, minister, opponents = _king_rows(rounds, seats, "grand_tichu")
    assert not king.any() and not minister.any() and opponents.all()
    assert (ncards(seats["hand8"]) == 8).all() and (ncards(seats["hand14"]) == 14).all()


def test_wuwang_passing_among_the_three_players():
    """§4: each real player gives one card to each other real player (2 given, 2 received);
    the Minister neither gives nor receives."""
    rounds, seats = simulate(2000, seed=11, strategies="random", variant="wuwang")
    given = np.stack([seats[f"given_{x}"].to_numpy() for x in ("right", "partner", "left")], 1)
    got = np.stack([seats[f"received_{x}"].to_numpy() for x in ("right", "partner", "left")], 1)
    role = seats["role"].astype(str).to_numpy()
    assert (ncards(given).sum(axis=1) == np.where(role == "minister", 0, 2)).all()
    assert (ncards(got).sum(axis=1) == np.where(role == "minister", 0, 2)).all()
    minister = role == "minister"
    assert (seats["hand_passed"].to_numpy()[minister] == seats["hand14"].to_numpy()[minister]).all()
    # the King's partner is the Minister: he gives to his left and right opponents only
    assert (given[role == "king", 1] == 0).all() and (
        ncards(given[role == "king"][:, [0, 2]]) == 1
    ).all()
    # cards given are cards received: over every round the sets agree
    per_round = seats["round"].to_numpy()
    for r in range(50):
        rows = per_round == r
        assert np.bitwise_or.reduce(given[rows].ravel()) == np.bitwise_or.reduce(got[rows].ravel())


def test_wuwang_minister_hand_is_public_after_passing():
    """§4: after passing the Minister's hand is laid face up, in every strategy's view. The log
    shows it (the replay checks it is the hand), and with the checker on the engine verifies
    after every action that the public record shows the Minister's current hand and the King's
    private record both hands (RULES.md §6's exception)."""
    for key in range(20):
        rnd, seats, log = play_with_log(12, key, strategies="random", variant="wuwang")
        shown = [r for r in log.tolist() if r[0] == records.EV_SHOW]
        assert len(shown) == 1 and shown[0][1] == variants.MINISTER
        assert int(np.uint64(np.int64(shown[0][2]))) == int(seats[variants.MINISTER]["hand_passed"])
        check_round(rnd, seats, log, legal_check=False, variant="wuwang")
    simulate(5000, seed=12, strategies="heuristic", variant="wuwang", check=True)


@pytest.mark.slow
def test_wuwang_king_decides_for_the_minister():
    """§4: the King plays the Minister's cards and may call Tichu for it: the Minister's
    decisions follow the King's strategy, whoever is King."""
    caller = build({"base": "lowest", "tichu": "always", "name": "caller"})
    rounds, seats = simulate(
        3000, seed=13, strategies=[caller, "lowest", "lowest"], variant="wuwang"
    )
    king, minister, _ = _king_rows(rounds, seats, "tichu")
    is_caller = rounds["king"].to_numpy() == 0
    assert (minister == is_caller).all() and (king == is_caller).all()
    names = seats["strategy"].astype(str).to_numpy().reshape(-1, 4)[:, 3]
    assert (names == np.where(is_caller, "caller", "lowest")).all()
    # the play: a King playing "lowest" never lets the Minister pass while it has a play
    seen = {}
    for king_player, strategies in (
        (0, ["lowest", "random", "random"]),
        (0, ["random", "lowest", "lowest"]),
    ):
        c = Counter()
        for key in range(12):
            rnd, s, log = play_with_log(
                14, key, strategies=strategies, variant="wuwang", king=king_player
            )
            c += check_round(rnd, s, log, variant="wuwang")
        seen[strategies[0]] = c
    assert seen["lowest"]["minister_passed_with_a_play"] == 0
    assert seen["random"]["minister_passed_with_a_play"] > 0


@pytest.mark.slow
def test_wuwang_minister_is_free_of_the_wish():
    """§4: the Minister, and only the Minister, is not bound by the Mah Jong's wish. The replay
    holds every other seat to the wish and counts the Minister's turns that ignored it."""
    seen = Counter()
    for key in range(120):  # fully replayed rounds until the Minister has ignored a wish
        rnd, seats, log = play_with_log(15, key, strategies="random", variant="wuwang")
        seen += check_round(rnd, seats, log, variant="wuwang")
        if seen["minister_ignored_wish"]:
            break
    assert seen["minister_ignored_wish"] > 0


@njit
def _lowest_play(params, hand, wish, free):
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0].n_players = 4
    pub[0].variant = variants.WUWANG
    pub[0].wish = wish
    pub[0].wish_free = variants.wish_free(variants.WUWANG) if free else 0
    me[0].seat = variants.MINISTER
    me[0].hand = hand
    m = np.empty(MAX_MOVES, np.uint64)
    c = np.empty(MAX_MOVES, np.int64)
    models = np.zeros((1, learned.HEADER), np.float32)  # no learned play here
    learn = np.zeros(learned.LEARN_FLOATS, np.float32)
    return m[policies.play(params, pub[0], me[0], m, c, models, learn)]


def test_minister_policies_ignore_the_wish():
    """§4 on a constructed lead: holding the wished 6, the Minister may lead the Dog."""
    row = build({"base": "lowest"}).param_row()
    hand = np.uint64(cards.parse("4p 4t 5j 6j 7s 8s Dog"))
    assert cards.format(int(_lowest_play(row, hand, 6, False))) == "6j"
    assert cards.format(int(_lowest_play(row, hand, 6, True))) == "Dog"


def test_wuwang_scores_per_player():
    """§4: the King scores his side's total, each opponent their side's, and the Minister the
    King's side's total in a column of its own."""
    rounds, seats = simulate(3000, seed=16, strategies="heuristic", variant="wuwang")
    king = rounds["king"].to_numpy()
    team0, team1 = rounds["score_team0"].to_numpy(), rounds["score_team1"].to_numpy()
    for p in range(3):
        want = np.where(king == p, team0, team1)
        assert (rounds[f"score_player{p}"].to_numpy() == want).all()
    assert (rounds["score_minister"].to_numpy() == team0).all()
    points = seats["points"].to_numpy().reshape(-1, 4)
    assert (
        points
        == rounds[["score_player0", "score_player1", "score_player2", "score_minister"]].to_numpy()
    ).all()
    team = seats["team"].to_numpy().reshape(-1, 4)
    assert (team[:, 3] == 0).all() and (team[np.arange(len(king)), king] == 0).all()


def test_wuwang_tables_name_players_not_positions():
    """The engine plays positions (the King at 0, the Minister at 2); the tables name players
    0..2 and the Minister 3 (``variants.wuwang_player``): checked against the event logs."""
    rounds, seats = simulate(
        40, seed=7, strategies=["random", "lowest", "heuristic"], variant="wuwang"
    )
    for key in range(40):
        rnd, pos, log = play_with_log(
            7, key, strategies=["random", "lowest", "heuristic"], variant="wuwang"
        )
        king = int(rnd["king"])
        player = [variants.wuwang_player(king, q) for q in range(4)]
        row = rounds.iloc[key]
        assert row["king"] == king == row["first_drawer"]
        assert row["first_out"] == player[int(rnd["first_out"])]
        gifts = [int(e[4]) for e in log.tolist() if e[0] == records.EV_DRAGON]
        assert row["dragon_to"] == (player[gifts[-1]] if gifts else -1)
        mine = seats[seats["round"] == key].set_index("seat")
        for q in range(4):
            assert mine.loc[player[q], "hand14"] == pos[q]["hand14"]
            assert mine.loc[player[q], "finish"] == pos[q]["finish"]


@pytest.mark.parametrize("rotating", [False, True])
def test_wuwang_games_and_the_king_role(rotating):
    """§4: a game is 9 rounds; the King is drawn at random in round 1, then the first player
    out becomes King (a King or Minister going out first keeps the King); the Option: the role
    rotates to the next player each round. The highest individual total wins."""
    opts = {"rotating_king": rotating}
    rounds, seats = simulate_games(
        60, seed=17, strategies="random", variant="wuwang", options=opts, check=True
    )
    assert (rounds.groupby("game").size() == 9).all()
    for _, g in rounds.groupby("game"):
        king = g["king"].to_numpy()
        first = g["first_out"].to_numpy()
        if rotating:
            want = (king[:-1] + 1) % 3
        else:
            want = np.where(first[:-1] == 3, king[:-1], first[:-1])  # 3: the Minister
        assert (king[1:] == want).all()
        totals = g[["total_player0", "total_player1", "total_player2", "total_minister"]]
        end = totals.to_numpy()[-1]
        scores = g[["score_player0", "score_player1", "score_player2", "score_minister"]]
        assert (end == scores.to_numpy().sum(axis=0)).all()
        winner = g["winner"].to_numpy()
        assert (winner[:-1] == -1).all() and g["game_over"].to_numpy()[-1]
        best = np.flatnonzero(end == end.max())
        assert winner[-1] == (best[0] if len(best) == 1 else -1)
    first_kings = rounds.loc[rounds["round_in_game"] == 0, "king"]
    assert first_kings.nunique() == 3


def test_wuwang_game_length_and_options_are_validated():
    """§4: games of 9 rounds or another multiple of 3; unknown options and a target score
    are refused with one line."""
    rounds, _ = simulate_games(
        5, seed=18, strategies="lowest", variant="wuwang", options={"game_rounds": 12}
    )
    assert (rounds.groupby("game").size() == 12).all()
    for bad, match in (
        ({"game_rounds": 10}, "multiple of 3"),
        ({"game_rounds": True}, "multiple"),
        ({"rotating_king": 1}, "true or false"),
        ({"kings": 2}, "unknown"),
    ):
        with pytest.raises(ValueError, match=match) as err:
            simulate_games(1, variant="wuwang", options=bad)
        assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="target"):
        simulate_games(1, variant="wuwang", target=1000)
    with pytest.raises(ValueError, match="unknown"):
        simulate(1, variant="tientsin", options={"rotating_king": True})
    with pytest.raises(ValueError, match="list of 3"):
        simulate(1, strategies=["random"] * 4, variant="wuwang")


def test_the_minister_can_win_a_game():
    """§4: the highest individual score wins, the Minister's column included."""
    rounds, _ = simulate_games(400, seed=19, strategies="heuristic", variant="wuwang")
    winners = rounds.loc[rounds["game_over"], "winner"].value_counts()
    assert winners.get(3, 0) > 0 and set(winners.index) <= {-1, 0, 1, 2, 3}


# ---- reproducibility and transcripts ----


@pytest.mark.parametrize("variant", ["tientsin", "wuwang"])
def test_rounds_replay_alone_and_deals_do_not_depend_on_strategies(variant):
    a, sa = simulate(600, seed=21, strategies="random", variant=variant)
    b, sb = simulate(10, seed=21, strategies="random", variant=variant, first_round=500)
    assert (
        b.drop(columns="variant").to_numpy() == a.iloc[500:510].drop(columns="variant").to_numpy()
    ).all()
    k = SEATS[variant]
    assert (sb["hand14"].to_numpy() == sa["hand14"].to_numpy()[500 * k : 510 * k]).all()
    _, sc = simulate(600, seed=21, strategies="lowest", variant=variant)
    assert set(sa["hand14"].to_numpy().reshape(-1, k)[0]) == set(
        sc["hand14"].to_numpy().reshape(-1, k)[0]
    )


@pytest.mark.parametrize("variant, seed, round_, strategies", regen.VARIANT_CASES)
def test_variant_transcripts_unchanged(variant, seed, round_, strategies):
    got = regen.variant_transcript(variant, seed, round_, strategies)
    want = (regen.GOLDEN / regen.variant_name(variant, seed, round_, strategies)).read_text()
    assert got == want


def test_variant_golden_files_cover_the_rules():
    text = "".join(
        p.read_text()
        for p in regen.GOLDEN.glob("*_seed*.txt")
        if p.name.startswith(("tientsin", "wuwang"))
    )
    for needle in (
        "first 6:",
        "holds 10:",
        "holds 9:",
        "triple victory",
        "gives its tricks",
        "the Dog passes the lead",
        "BOMBS",
        "gives the Dragon's trick",
        "the Minister's hand is laid face up",
        "(called by the King)",
        "player 0 (opponent)",
        "double victory",
        "Minister",
    ):
        assert needle in text, needle


def test_command_line_takes_the_variant(tmp_path):
    """``tichusim show`` and ``tichusim simulate`` with ``--variant``; bad input is one line."""
    from click.testing import CliRunner

    from tichusim.cli import main

    def run(*args):
        return CliRunner().invoke(main, list(args))

    res = run("show", "--variant", "tientsin", "--seed", "7", "--round", "50")
    assert res.exit_code == 0 and "first 6:" in res.output and "triple victory" in res.output
    res = run("show", "--variant", "wuwang", "--seed", "7", "--round", "4")
    assert res.exit_code == 0 and "the Minister's hand is laid face up" in res.output
    out = tmp_path / "ww"
    res = run(
        "simulate",
        "--variant",
        "wuwang",
        "--rounds",
        "500",
        "--seed",
        "2",
        "--strategies",
        "heuristic,lowest,random",
        "--out",
        str(out),
    )
    assert res.exit_code == 0, res.output
    seats = pd.read_parquet(out / "seats.parquet")
    assert len(seats) == 2000 and set(seats["role"].astype(str)) == {"king", "opponent", "minister"}
    res = run("simulate", "--variant", "tientsin", "--rounds", "300")
    assert res.exit_code == 0 and "triple victories" in res.output
    for args in (
        ("show", "--variant", "nope"),
        ("simulate", "--variant", "tientsin", "--strategies", "random,lowest"),
    ):
        res = run(*args)
        lines = said_lines(res.output)
        assert res.exit_code == 2 and len(lines) == 1, res.output
