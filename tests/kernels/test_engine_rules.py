"""The round engine against RULES.md §2 and §7: independent replays, invariants, determinism."""

import numpy as np
import pytest
from support.replay import check_round

from tichusim import cards, simulate, simulate_games
from tichusim.games.transcript import play_with_log


@pytest.mark.parametrize(
    "n", [pytest.param(25, marks=pytest.mark.slow, id="25"), pytest.param(2, id="2")]
)
@pytest.mark.parametrize(
    "strategies", ["random", "lowest", "heuristic", ["heuristic", "lowest", "heuristic", "random"]]
)
def test_replayed_rounds_follow_every_rule(strategies, n):
    """Each round's log, replayed with the brute-force reference generator (RULES.md §2.2–§2.14):
    25 rounds a strategy (the slow tier; 2 in the fast one)."""
    for key in range(n):
        rnd, seats, log = play_with_log(11, key, strategies=strategies)
        check_round(rnd, seats, log)


def test_many_replayed_rounds_structure():
    """Same replay without the (slow) legality check, over more rounds: turn order, tricks,
    Dog, Dragon, wish, going out, transfers and scores."""
    for key in range(1500):
        rnd, seats, log = play_with_log(5, key, strategies="random")
        check_round(rnd, seats, log, legal_check=False)


@pytest.mark.parametrize(
    "n", [pytest.param(200_000, marks=pytest.mark.slow, id="200k"), pytest.param(10_000, id="10k")]
)
def test_invariant_checker_over_random_rounds(n):
    """RULES.md §7 checked in the kernel after every action, over 200,000 random rounds (the
    slow tier; 10,000 in the fast one)."""
    rounds, seats = simulate(n, seed=2024, strategies="random", check=True)
    assert len(rounds) == n
    # §7 on the tables: without a double victory card points sum to 100
    normal = ~rounds["double_victory"]
    assert (
        rounds.loc[normal, "card_points_team0"] + rounds.loc[normal, "card_points_team1"] == 100
    ).all()
    dv = rounds.loc[~normal, ["card_points_team0", "card_points_team1"]]
    assert set(map(tuple, dv.to_numpy())) <= {(200, 0), (0, 200)}
    # round score = card points + call bonuses (§2.14)
    bonus = np.where(seats["finish"] == 1, 1, -1) * (
        200 * seats["grand_tichu"] + 100 * seats["tichu"]
    )
    per_team = bonus.groupby([seats["round"], seats["team"]]).sum().unstack()
    assert (
        rounds["score_team0"].to_numpy()
        == rounds["card_points_team0"].to_numpy() + per_team[0].to_numpy()
    ).all()
    assert (
        rounds["score_team1"].to_numpy()
        == rounds["card_points_team1"].to_numpy() + per_team[1].to_numpy()
    ).all()
    # finishing positions form a permutation (§7)
    fin = seats["finish"].to_numpy().reshape(-1, 4)
    assert (np.sort(fin[~rounds["double_victory"].to_numpy()], axis=1) == [1, 2, 3, 4]).all()
    assert (np.sort(fin[rounds["double_victory"].to_numpy()], axis=1) == [0, 0, 1, 2]).all()
    # GT and Tichu never both (§2.2)
    assert not (seats["grand_tichu"] & seats["tichu"]).any()


def test_deal_is_uniform_enough():
    """§2.2: each card lands in each seat a quarter of the time (chi-square, 20k deals)."""
    _, seats = simulate(20_000, seed=9, strategies="lowest")
    hands = seats["hand14"].to_numpy().reshape(-1, 4)
    bits = [b for b in range(64) if cards.DECK >> b & 1]
    counts = np.array(
        [[(hands[:, s] >> np.uint64(b) & np.uint64(1)).sum() for s in range(4)] for b in bits]
    )
    assert counts.sum(axis=1).tolist() == [20_000] * 56
    chi2 = ((counts - 5000) ** 2 / 5000).sum()
    assert chi2 < 56 * 3 + 6 * np.sqrt(2 * 56 * 3)  # 168 dof: mean 168, sd 18


def test_same_seed_same_tables_and_rounds_replay_alone():
    a, sa = simulate(3000, seed=77, strategies="random")
    b, sb = simulate(3000, seed=77, strategies="random")
    assert a.equals(b) and sa.equals(sb)
    # round 2500 replayed alone gives the same row (randomness from (seed, round) only)
    c, sc = simulate(10, seed=77, strategies="random", first_round=2495)
    assert (
        c.iloc[5].equals(a.iloc[2500].rename(5))
        or (c.iloc[5].to_numpy() == a.iloc[2500].to_numpy()).all()
    )
    assert (sc.iloc[20:24].to_numpy() == sa.iloc[10000:10004].to_numpy()).all()
    d, _ = simulate(3000, seed=78, strategies="random")
    assert not a.equals(d)


def test_thread_count_does_not_change_results():
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a, sa = simulate(2000, seed=5, strategies="random")
    finally:
        numba.set_num_threads(before)
    b, sb = simulate(2000, seed=5, strategies="random")
    assert a.equals(b) and sa.equals(sb)


def test_deals_do_not_depend_on_strategies():
    """Separate deal and decision streams: the same deals under any strategies (paired designs)."""
    _, sa = simulate(500, seed=3, strategies="random")
    _, sb = simulate(500, seed=3, strategies="lowest")
    assert (sa["hand14"].to_numpy() == sb["hand14"].to_numpy()).all()


def test_games_to_target():
    """§2.15: rounds until a team reaches the target with more points; the next first drawer is
    the previous first out."""
    rounds, _ = simulate_games(30, seed=1, strategies="lowest", target=1000, check=True)
    for _, g in rounds.groupby("game"):
        t0, t1 = g["total_team0"].to_numpy(), g["total_team1"].to_numpy()
        assert g["game_over"].iloc[-1]
        assert max(t0[-1], t1[-1]) >= 1000 and t0[-1] != t1[-1]
        done_before = ((np.maximum(t0, t1) >= 1000) & (t0 != t1))[:-1]
        assert not done_before.any()
        assert g["first_drawer"].iloc[0] == 0
        assert (g["first_drawer"].to_numpy()[1:] == g["first_out"].to_numpy()[:-1]).all()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown strategy"):
        simulate(1, strategies="nope")
    with pytest.raises(ValueError, match="one per seat"):
        simulate(1, strategies=["random"] * 3)
    with pytest.raises(ValueError, match="rounds"):
        simulate(-1)
    with pytest.raises(ValueError, match="variant"):
        simulate(1, variant="nope")


@pytest.mark.parametrize(
    "n", [pytest.param(50_000, marks=pytest.mark.slow, id="50k"), pytest.param(5_000, id="5k")]
)
def test_heuristic_rounds_keep_the_invariants(n):
    """RULES.md §7 with the scripted strategy (its calls, passes, bombs, Dog leads, wishes)."""
    rounds, seats = simulate(n, seed=8, strategies="heuristic", check=True)
    assert rounds["bombs"].sum() > 0 and seats["tichu"].any() and (rounds["wish"] > 0).any()


def test_strategies_see_only_public_information_and_their_own_hand():
    """RULES.md §6: every decision function gets the public record and the deciding seat's
    private record, nothing else that holds cards; the public record holds no hidden hand."""
    import inspect

    from tichusim.kernels.tichu import heuristic, policies
    from tichusim.kernels.tichu.view import PUBLIC

    allowed = {
        "params",
        "pub",
        "me",
        "point",
        "out",
        "moves_m",
        "moves_c",
        "masks",
        "codes",
        "n",
        "can_pass",
        # the learned play's models (weights: no cards) and its scratch, every entry of
        # which it writes from this seat's two records before reading it
        # (tests/kernels/test_learned_play.py)
        "models",
        "learn",
    }
    for module, names in (
        (
            policies,
            ("grand_tichu", "tichu", "passes", "play", "bomb", "wish", "dragon", "dog_target"),
        ),
        (heuristic, ("choose", "bomb_out_of_turn")),
    ):
        for name in names:
            params = set(inspect.signature(getattr(module, name).py_func).parameters)
            assert params <= allowed, (name, params - allowed)
    public_cards = {"played", "played_by", "top_mask", "trick_cards"}  # all face up on the table
    public_cards.add("exposed")  # Wu Wang: the Minister's hand, face up after passing (§4, §6)
    card_fields = {f for f in PUBLIC.names if PUBLIC[f].base == np.uint64}
    assert card_fields == public_cards


def test_fixed_first_eight_cards_keep_the_deal_uniform_elsewhere():
    """The Grand Tichu odds deal: one seat's first 8 cards fixed (exact cards, or ranks whose
    suit is drawn per round uniformly among the free cards); all 56 cards dealt once (§2.2)."""
    from tichusim.games import game
    from tichusim.kernels.tichu import batch
    from tichusim.kernels.tichu.records import ROUND, SEAT, N

    seed, params = 3, game("nanjing").params("heuristic")
    n = 12_000
    r_out, s_out = np.zeros(n, ROUND), np.zeros((n, N), SEAT)
    ranks = np.zeros(15, np.int64)
    ranks[14], ranks[13], ranks[9], ranks[5], ranks[3] = 2, 1, 1, 1, 1  # A A K 9 5 3
    fixed = np.uint64(cards.parse("Dr Ph"))
    run = batch.Run(batch.NANJING, seed, True, fixed_seat=1, fixed_cards=fixed, fixed_ranks=ranks)
    batch.play_rounds(run, np.arange(n), np.zeros(n, np.int64), params, r_out, s_out, 8)
    assert (r_out["error"] == 0).all()
    h8 = s_out[:, 1]["hand8"]
    for i in range(200):
        held = cards.format(int(h8[i])).split()
        assert {"Dr", "Ph"} <= set(held) and len(held) == 8
        assert sorted(c[0] for c in held if c not in ("Dr", "Ph")) == sorted("AAK953")
    union = np.bitwise_or.reduce(s_out["hand14"], axis=1)
    assert (union == np.uint64(cards.DECK)).all()
    counts = sum(
        np.vectorize(lambda m: bin(int(m)).count("1"))(s_out["hand14"][:, s]) for s in range(N)
    )
    assert (counts == 56).all()
    # each of the 6 suit pairs of the two Aces about equally often
    aces = h8 & np.uint64(cards.parse("Aj As Ap At"))
    _, freq = np.unique(aces, return_counts=True)
    assert len(freq) == 6 and abs(freq - n / 6).max() < 5 * (n / 6) ** 0.5
