"""Grand Seigneur rounds and games (RULES.md §5, §7 adapted to two decks): invariants over
many random-strategy rounds with the engine's checker on, independent replays of logged rounds
against the reference (tests/support/gs_replay.py), the tables, determinism and input errors."""

import numba
import numpy as np
import pandas as pd
import pytest
from support import gs_reference as ref
from support.gs_replay import check_round, toks

from tichusim.cards import seigneur as seigneur_cards
from tichusim.games.seigneur import (
    SeigneurOptions,
    play_with_log,
    seigneur_records,
    simulate_seigneur,
    transcript,
)

# the deck settings of §5: one deck (5-6 players), two decks (7-12), the Russian Option
SETTINGS = {
    "one": [(5, {}), (6, {})],
    "two": [(7, {}), (9, {}), (12, {})],
    "russian": [(6, "russian"), (8, "russian"), (10, "russian")],
}


def _tally_ok(a, b, deck):
    """Vectorised §7 on the records: per round, the dealt hands plus the leftovers are the
    deck, each card exactly as often as the deck holds it."""
    da, db = seigneur_cards.deck(deck)
    rows = a.shape[0]
    c0 = np.zeros(rows, np.uint64)
    c1 = np.zeros(rows, np.uint64)
    over = np.zeros(rows, np.uint64)
    for x in [a[:, j] for j in range(a.shape[1])] + [b[:, j] for j in range(b.shape[1])]:
        carry = c0 & x
        c0 ^= x
        over |= c1 & carry
        c1 |= carry
    return (over == 0) & (c1 == np.uint64(db)) & (c0 == np.uint64(da & ~db))


@pytest.mark.parametrize(
    "n", [pytest.param(100_000, marks=pytest.mark.slow, id="100k"), pytest.param(10_000, id="10k")]
)
@pytest.mark.parametrize("deck", list(SETTINGS))
def test_checked_random_rounds_per_deck_setting(deck, n):
    """At least 100,000 rounds per deck setting (the slow tier; 10,000 in the fast one), games
    of 5 rounds (so the exchange runs), with the engine's invariant checker on after every
    action (every card in one place, every play legal, forced passes really forced, the
    finishing order a permutation)."""
    total = 0
    for players, options in SETTINGS[deck]:
        games = -(-n // (5 * len(SETTINGS[deck])))
        rec = seigneur_records(
            games,
            players=players,
            seed=11,
            strategies="random",
            rounds_per_game=5,
            options=options or None,
            check=True,
        )
        r, s = rec.rounds, rec.seats
        total += len(r)
        assert (r["error"] == 0).all()
        # finishing order: a permutation of 1..n in every round
        assert (np.sort(s["rank_after"], axis=1) == np.arange(1, players + 1)).all()
        # ranks chain: each round's ranks before are the previous round's finish
        nxt = s["rank_before"].reshape(games, 5, players)[:, 1:]
        prev = s["rank_after"].reshape(games, 5, players)[:, :-1]
        assert (nxt == prev).all() and (
            s["rank_before"].reshape(games, 5, players)[:, 0] == 0
        ).all()
        # every card dealt exactly once (plus the face-up leftovers)
        a = np.concatenate([s["dealt_a"], r["leftover_a"][:, None]], axis=1)
        b = np.concatenate([s["dealt_b"], r["leftover_b"][:, None]], axis=1)
        assert _tally_ok(a, b, deck).all()
        # the exchange moves cards between the pairs of ranks only: what one gives, the
        # other gets (checked through totals: gifts and returns balance per round)
        first = (s["rank_before"] == 0).all(axis=1)
        assert (s["gave_a"][first] == 0).all() and (s["got_a"][first] == 0).all()
        sizes = np.vectorize(lambda x: bin(int(x)).count("1"))
        gave = sizes(s["gave_a"]) + sizes(s["gave_b"])
        got = sizes(s["got_a"]) + sizes(s["got_b"])
        assert (gave == got).all()  # every exchange is k cards each way
        levels = [2, 1] if players == 5 else [3, 2, 1]
        for j, k in enumerate(levels):  # the last gives 3 to the first, ... (§5)
            giver = s["rank_before"] == players - j
            assert (gave[giver] == k).all()
    assert total >= n


@pytest.mark.parametrize(
    "players, options, strategies",
    [
        (5, None, "random"),
        (6, None, "heuristic"),
        (7, None, "random"),
        (8, None, "lowest"),
        (12, None, "random"),
        (5, "russian", "random"),
        (9, "russian", "heuristic"),
        (7, {"distinct_triples": True}, "random"),
        (10, {"russian_seating": True}, "random"),
    ],
)
def test_logged_rounds_replay_against_the_reference(players, options, strategies):
    """Every event of logged rounds re-checked by an independent replay (tests/support/gs_replay.py)
    that uses the brute-force reference for combinations, beats and the wish."""
    opts = SeigneurOptions.of(options)
    deck = "russian" if opts.russian_deck else ("one" if players <= 6 else "two")
    for game in range(6):
        for rnd_in_game in range(4):
            rnd, seats, log, _ = play_with_log(
                5, game, rnd_in_game, players=players, strategies=strategies, options=options
            )
            check_round(
                rnd,
                seats,
                log,
                n=players,
                deck=deck,
                distinct=opts.distinct_triples,
                russian_seating=opts.russian_seating,
            )


def test_replays_see_every_kind_of_event():
    """The replayed settings above exercise the rules they check: bombs out of turn, the wish
    fulfilled, the Dog, a second Dragon on a first."""
    from tichusim.kernels.seigneur import records

    seen = set()
    second_dragon = False
    for players, options in ((7, None), (9, "russian"), (12, None), (5, "russian")):
        for game in range(40):
            _, _, log, _ = play_with_log(5, game, 1, players=players, options=options)
            seen |= set(log[:, 0].tolist())
            plays = log[(log[:, 0] == records.EV_PLAY) | (log[:, 0] == records.EV_BOMB)]
            second_dragon |= bool(((plays[:, 4] & 0xFF) == 31).any())
    assert {
        records.EV_BOMB,
        records.EV_WISH_DONE,
        records.EV_DOG,
        records.EV_GIVE,
        records.EV_GIVE_BACK,
    } <= seen
    assert second_dragon


def test_tables_and_variant_columns():
    r, s = simulate_seigneur(20, players=7, seed=3, rounds_per_game=3, strategies="heuristic")
    assert len(r) == 60 and len(s) == 60 * 7
    assert (r.variant == "grand-seigneur").all() and (s.variant == "grand-seigneur").all()
    assert (r.deck == "two").all() and (r.players == 7).all()
    assert s.rank_before.isna().sum() == 20 * 7  # the first round of each game has no ranks
    assert r.kept_title.isna().sum() == 20
    later = s[s.round_in_game > 0]
    gs = later[later.rank_before == 1].set_index(["game", "round_in_game"]).rank_after == 1
    kept = r[r.round_in_game > 0].set_index(["game", "round_in_game"]).kept_title
    assert (gs.sort_index() == kept.sort_index().astype(bool)).all()
    assert (
        r.grand_seigneur
        == s[s.rank_after == 1].set_index("round").loc[r["round"], "player"].to_numpy()
    ).all()
    # the cards each player was dealt, in notation
    hand = seigneur_cards.format(int(s.dealt_a.iloc[0]), int(s.dealt_b.iloc[0])).split()
    assert len(hand) == s.cards.iloc[0] in (15, 16)


def test_results_do_not_depend_on_threads_or_batching():
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        r1, s1 = simulate_seigneur(40, players=9, seed=4, rounds_per_game=3)
        numba.set_num_threads(threads)
        r2, s2 = simulate_seigneur(40, players=9, seed=4, rounds_per_game=3)
    finally:
        numba.set_num_threads(threads)
    pd.testing.assert_frame_equal(r1, r2)
    pd.testing.assert_frame_equal(s1, s2)
    r3, _s3 = simulate_seigneur(10, players=9, seed=4, rounds_per_game=3, first_game=30)
    pd.testing.assert_frame_equal(
        r3.reset_index(drop=True), r1[r1.game >= 30].reset_index(drop=True)
    )
    r4, _ = simulate_seigneur(40, players=9, seed=5, rounds_per_game=3)
    assert not r4.equals(r1)


def test_same_deals_whatever_the_strategies():
    """Deals derive from (seed, round key) only: strategies change the play, never the cards
    (paired comparisons, as for the 4-player game)."""
    _, a = simulate_seigneur(30, players=8, seed=6, strategies="random")
    _, b = simulate_seigneur(30, players=8, seed=6, strategies="heuristic")
    cols = ["player", "seat", "dealt_a", "dealt_b"]
    pd.testing.assert_frame_equal(a[cols], b[cols])


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 4}, "5 to 12 players"),
        ({"players": 13}, "5 to 12 players"),
        ({"players": 7, "decks": 3}, "decks must be 1 or 2"),
        ({"players": 7, "decks": 1, "options": "russian"}, "Russian deck"),
        ({"players": 7, "options": {"russian_dog": True}}, "unknown"),
        ({"players": 7, "options": {"russian_deck": 1}}, "true or false"),
        ({"players": 7, "strategies": "keep-combos"}, "does not apply to grand-seigneur"),
        ({"players": 7, "strategies": {"base": "heuristic", "tichu": "always"}}, "Tichu decision"),
        ({"players": 7, "strategies": "heuristic:pass=lowest"}, "Tichu decision 'pass'"),
        ({"players": 7, "strategies": ["random"] * 6}, "6 strategies given for 7 players"),
        ({"players": 7, "strategies": "heuristic:bomb_cards=x"}, "expected a number"),
        ({"players": 7, "strategies": "heuristic:give_back=best"}, "unknown policy"),
        ({"players": 7, "seed": -1}, "seed"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_seigneur(1, **kwargs)


def test_a_tichu_strategy_object_is_refused():
    from tichusim.strategies.tichu import STRATEGIES

    with pytest.raises(ValueError, match="Tichu strategy 'heuristic' does not apply"):
        simulate_seigneur(1, players=6, strategies=STRATEGIES["heuristic"])


def test_decks_override_and_dealt_sizes():
    # §5 deals every card round-robin: 109 cards to 7 players are 16,16,16,16,15,15,15 from the
    # seat after the dealer; decks=1 overrides the rule for 7 players (55 cards)
    _, s = simulate_seigneur(5, players=7, seed=1)
    assert sorted(s.groupby("round").cards.apply(tuple).iloc[0]) == [15] * 3 + [16] * 4
    _, s = simulate_seigneur(5, players=7, seed=1, decks=1)
    assert sorted(s.groupby("round").cards.apply(tuple).iloc[0]) == [7] * 1 + [8] * 6
    for _, row in s.iterrows():
        assert not toks(row.dealt_a, row.dealt_b)["Dog"]
    assert ref.deck("one")["Dog"] == 0


def test_tichusim_simulate_dispatches_grand_seigneur():
    import tichusim

    r, s = tichusim.simulate(40, variant="grand-seigneur", players=8, seed=3, first_round=5)
    r2, s2 = simulate_seigneur(40, players=8, seed=3, first_game=5)
    pd.testing.assert_frame_equal(r, r2)
    pd.testing.assert_frame_equal(s, s2)
    with pytest.raises(ValueError, match="players=5..12"):
        tichusim.simulate(1, variant="grand-seigneur")


def test_command_line_show_and_simulate(tmp_path):
    from click.testing import CliRunner

    from tichusim.cli import main

    run = CliRunner().invoke
    out = run(
        main,
        ["show", "--variant", "grand-seigneur", "--players", "6", "--seed", "1", "--round", "2"],
    )
    assert out.exit_code == 0
    assert out.output == transcript(1, 2, 0, players=6)  # --round I: game I's first round
    out = run(
        main,
        [
            "simulate",
            "--variant",
            "grand-seigneur",
            "--players",
            "9",
            "--rounds",
            "300",
            "--strategies",
            "heuristic:bomb_cards=2",
            "--out",
            str(tmp_path),
        ],
    )
    assert out.exit_code == 0, out.output
    assert "heuristic:bomb_cards=2: mean rank" in out.output
    seats = pd.read_parquet(tmp_path / "seats.parquet")
    assert len(seats) == 300 * 9 and (seats.variant == "grand-seigneur").all()
    for args, message in (
        (["show", "--variant", "grand-seigneur"], "needs --players"),
        (["simulate", "--players", "7"], "grand-seigneur only"),
        (
            [
                "simulate",
                "--variant",
                "grand-seigneur",
                "--players",
                "7",
                "--strategies",
                "keep-combos",
            ],
            "does not apply",
        ),
    ):
        out = run(main, args)
        assert out.exit_code == 2 and message in out.output
