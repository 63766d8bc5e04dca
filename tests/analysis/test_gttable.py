"""Grand Tichu odds across hands: the paired experiment, class tables, the fitted model."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

import tichusim
from tichusim import cards
from tichusim.analysis import gttable
from tichusim.analysis.handclass import FEATURES, GTModel, features, fit_linear, fit_logistic
from tichusim.cli import main
from tichusim.stats import Estimate


@pytest.fixture(scope="module")
def deals():
    return gttable.experiment(4000, seed=9)


def test_experiment_rows_are_paired_deals(deals):
    assert len(deals) == 4000 and (deals["round"] == np.arange(4000)).all()
    assert (deals["gain"] == deals["points_call"] - deals["points_no_call"]).all()
    # seat 0's 8 cards are dealt at random: about 8/56 of deals hold the Dragon
    share = np.mean([bool(h & cards.DRAGON) for h in deals["hand8"]])
    assert abs(share - 8 / 56) < 4 * np.sqrt(8 / 56 * 48 / 56 / 4000)


def test_class_tables_partition_the_deals(deals):
    t = gttable.build(deals, source="experiment", info={"seed": 9}, fit=False)
    assert t.classes["deals"].sum() == 4000 == t.scores["deals"].sum()
    assert set(t.classes.columns) >= {"aces", "dragon", "phoenix", "bomb", "p_success", "ev_diff"}
    c = t.classes
    row = c[(c.aces == 0) & ~c.dragon & ~c.phoenix & ~c.bomb]
    f = features(deals["hand8"].to_numpy(np.uint64))
    sel = (f[:, 0] == 0) & (f[:, 2] == 0) & (f[:, 3] == 0) & (f[:, 6] == 0)
    assert int(row.deals.iloc[0]) == sel.sum()
    assert row.ev_diff.iloc[0] == pytest.approx(deals["gain"][sel].mean())
    # stronger hands do better when calling (a property of the game the table must show)
    best = t.classes[t.classes.dragon & t.classes.phoenix & ~t.classes.bomb]
    assert best.p_success.mean() > t.overall["p_success"]


def test_the_batch_size_changes_no_row(deals):
    small = gttable.experiment(4000, seed=9, batch=1500)
    assert small.equals(deals)


@pytest.mark.parametrize(
    "hand, cls",
    [
        ("Dr Ph A A K 9 5 3", (2, True, True, False)),
        ("2j 3j 4j 5j 6j Aj As 9p", (2, False, False, True)),  # a straight flush
        ("K K K K 2 3 5 7", (0, False, False, True)),  # four of a kind
        ("Dog Ma 2 3 5 7 9 J", (0, False, False, False)),
    ],
)
def test_a_hands_class_row(deals, hand, cls):
    """``class_row``: the row of ``by_class`` whose class the hand is in, as estimates."""
    classes = gttable.by_class(deals, gttable.CLASS_KEYS)
    got = gttable.class_row(classes, hand)
    assert tuple(got["class"].values()) == cls and list(got["class"]) == gttable.CLASS_KEYS
    match = classes[
        (classes.aces == cls[0])
        & (classes.dragon == cls[1])
        & (classes.phoenix == cls[2])
        & (classes.bomb == cls[3])
    ]
    if len(match) == 0:
        assert got["deals"] == 0 and got["estimates"] == {}
        return
    row = match.iloc[0]
    assert got["deals"] == row.deals
    n = int(row.deals)
    assert got["estimates"] == {
        "p_success": Estimate(row.p_success, row.p_low, row.p_high, n).to_json(),
        "ev_diff": Estimate(row.ev_diff, row.ev_diff_low, row.ev_diff_high, n).to_json(),
    }


def test_logistic_and_linear_fits_recover_known_coefficients():
    rng = np.random.default_rng(1)
    n = 40_000
    x = np.column_stack(
        [np.ones(n), rng.integers(0, 5, n), rng.random(n) < 0.15, rng.normal(0, 1, n)]
    )
    beta = np.array([-1.2, 0.45, 1.1, -0.3])
    y = rng.random(n) < 1 / (1 + np.exp(-(x @ beta)))
    b, cov = fit_logistic(x, y.astype(float))
    assert np.all(np.abs(b - beta) < 4 * np.sqrt(np.diag(cov)))
    g = x @ np.array([-100, 20, 60, 5]) + rng.normal(0, 150, n) * (1 + x[:, 2])  # heteroskedastic
    b, cov = fit_linear(x, g)
    assert np.all(np.abs(b - [-100, 20, 60, 5]) < 4 * np.sqrt(np.diag(cov)))


def test_model_answers_for_any_8_cards_and_round_trips(tmp_path, deals, estimates_json):
    t = gttable.build(deals, source="experiment", info={"seed": 9, "strategies": "test"})
    m = t.model
    assert m is not None and m.info["holdout"]["deals"] == (deals["round"] % 5 == 0).sum()
    strong, weak = m.predict("Dr Ph A A A K K Q"), m.predict("Dog 2 3 4 6 8 9 J")
    assert strong["p_success"] > 0.5 > weak["p_success"] and strong["ev_diff"] > weak["ev_diff"]
    assert strong["ci_low"] < strong["p_success"] < strong["ci_high"]
    assert set(strong["features"]) == set(FEATURES)
    m.save(tmp_path / "model.json")
    again = GTModel.load(tmp_path / "model.json")
    assert again.predict("Dr Ph A A A K K Q") == strong
    res = CliRunner().invoke(
        main,
        [
            "gt-odds",
            "--hand",
            "Dr Ph A A A K K Q",
            "--model",
            str(tmp_path / "model.json"),
            "--json",
        ],
    )
    assert res.exit_code == 0 and json.loads(res.output)["p_success"] == strong["p_success"]
    estimates_json(
        json.loads(res.output), ("p_success", "ev_diff"), {"p_success": ("ci_low", "ci_high")}
    )
    assert strong["estimates"]["ev_diff"]["n"] == len(deals)
    text = m.describe(strong)
    p, gain = strong["estimates"]["p_success"], strong["estimates"]["ev_diff"]
    assert f"[{100 * p['low']:.1f}, {100 * p['high']:.1f}]" in text
    verdict = "call" if gain["low"] > 0 else "do not call" if gain["high"] < 0 else "too close"
    assert f"-> {verdict}" in text
    (tmp_path / "bad.json").write_text("{}")
    res = CliRunner().invoke(
        main, ["gt-odds", "--hand", "Dr Ph A A A K K Q", "--model", str(tmp_path / "bad.json")]
    )
    assert res.exit_code == 2 and "not a Grand Tichu model" in res.output


def test_from_run_uses_the_calls_of_a_seats_table():
    forced = {"base": "heuristic", "grand_tichu": "always"}
    _, seats = tichusim.simulate(2000, seed=3, strategies=[forced] + ["heuristic"] * 3)
    calls = gttable.from_run(seats)
    assert len(calls) == int(seats["grand_tichu"].sum()) >= 2000
    assert calls["success"].sum() == int((seats["grand_tichu"] & (seats["finish"] == 1)).sum())
    t = gttable.build(calls, source="run", info={}, fit=False)
    assert t.model is None and np.isnan(t.overall["ev_diff"])
    assert "Observational" in gttable.markdown(t, "cmd")


def test_cli_gt_table_writes_its_files(tmp_path):
    res = CliRunner().invoke(
        main,
        ["gt-table", "--deals", "3000", "--seed", "2", "--quiet", "--out", str(tmp_path / "gt")],
    )
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "gt").iterdir())
    assert names == ["by_class.csv", "by_score.csv", "gt_odds.png", "model.json", "table.md"]
    assert (tmp_path / "gt" / "gt_odds.png").read_bytes()[:4] == b"\x89PNG"
    table = (tmp_path / "gt" / "table.md").read_text()
    assert "Regenerate: `tichusim gt-table --deals 3000 --seed 2" in table
    res = CliRunner().invoke(main, ["gt-table", "--run", str(tmp_path / "gt")])
    assert res.exit_code == 2 and res.output.startswith("tichusim: error:")


def test_from_run_reads_every_team_game_and_names_the_cards_seen():
    forced = {"base": "heuristic", "grand_tichu": "always"}
    _, seats = tichusim.simulate(200, variant="tientsin", seed=3, strategies=forced)
    calls = gttable.from_run(seats)
    assert len(calls) == int(seats["grand_tichu"].sum()) == 6 * 200
    assert (calls["cards_seen"] == 6).all()  # RULES.md §3: the call comes after 6 cards
    t = gttable.build(calls, source="run", info={}, fit=False)
    assert t.info["cards_seen"] == 6 and t.classes["deals"].sum() == len(calls)
    text = gttable.markdown(t, "cmd")
    assert "## No bomb in the first 6 cards" in text and "after 6 cards (Tientsin" in text
    _, seats = tichusim.simulate(200, variant="wuwang", seed=3, strategies=forced)
    calls = gttable.from_run(seats)
    opponents = seats[seats["role"] == "opponent"]
    assert len(calls) == len(opponents) == 2 * 200  # RULES.md §4: only the opponents call
    assert calls["success"].sum() == (opponents["finish"] == 1).sum()
    text = gttable.markdown(gttable.build(calls, source="run", info={}, fit=False), "cmd")
    assert "## No bomb in the first 8 cards" in text and "Tientsin" not in text


def test_from_run_refuses_grand_seigneur_in_one_line():
    _, seats = tichusim.simulate(
        20, variant="grand-seigneur", players=5, seed=1, strategies="heuristic"
    )
    with pytest.raises(ValueError, match=r"Grand Seigneur has no calls, RULES\.md §5") as err:
        gttable.from_run(seats)
    assert "\n" not in str(err.value)
