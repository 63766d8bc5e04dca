"""gt-odds: paired plays of the same deals, suit averaging, precision, JSON, one-line errors."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from support.cli_output import said_lines

from tichusim import cards
from tichusim.analysis.gtodds import GTOdds, gt_odds, paired_rounds, seat_strategies
from tichusim.cli import main

HAND = "Dr Ph A A K 9 5 3"


def test_both_plays_of_a_deal_hold_the_same_cards():
    """The pairing by construction: with and without the call, every seat gets the same 14
    cards (same seed and round key), and seat 0's first 8 follow the pattern."""
    call, no_call = seat_strategies("heuristic", "heuristic")
    assert call[0].grand_tichu == "always" and no_call[0].grand_tichu == "never"
    assert call[1:] == no_call[1:]
    exact, ranks = cards.parse_pattern(HAND)
    keys = np.arange(500)
    pairs = paired_rounds(4, keys, call, no_call, fixed=(exact, ranks), check=True)
    (rc, sc), (rn, sn) = pairs.call, pairs.no_call
    assert (sc["hand14"] == sn["hand14"]).all() and (sc["hand8"] == sn["hand8"]).all()
    assert sc[:, 0]["grand_tichu"].all() and not sn[:, 0]["grand_tichu"].any()
    assert ((sc[:, 0]["hand8"] & np.uint64(exact)) == exact).all()
    assert (rc["first_drawer"] == keys % 4).all() and (rn["first_drawer"] == keys % 4).all()
    assert (sc[:, 0]["points"] != sn[:, 0]["points"]).any()  # the call does change the play


def test_result_is_the_per_deal_difference_and_deterministic():
    r = gt_odds(HAND, deals=1500, seed=2)
    assert r.deals == 1500
    assert r.ev_diff.value == pytest.approx(r.ev_call.value - r.ev_no_call.value)
    # pairing on the same deals narrows the interval below what independent samples give
    unpaired = np.hypot(r.ev_call.high - r.ev_call.low, r.ev_no_call.high - r.ev_no_call.low)
    assert r.ev_diff.high - r.ev_diff.low < unpaired
    again = gt_odds(HAND, deals=1500, seed=2)
    assert {k: v for k, v in again.to_dict().items() if k != "seconds"} == {
        k: v for k, v in r.to_dict().items() if k != "seconds"
    }


def test_precision_stops_once_the_interval_is_narrow_enough():
    r = gt_odds(HAND, deals=200_000, precision=0.015, seed=1)
    half = (r.p_success.high - r.p_success.low) / 2
    assert half < 0.015 and r.deals < 20_000  # about 3,000 deals are needed at p ~ 0.78
    assert gt_odds(HAND, deals=1200, precision=0.001, seed=1).deals == 1200  # the cap wins


def test_suit_averaging_matches_fixing_each_suit():
    """A suit-less 6 next to the Jade 7-8-9-10 makes a straight-flush bomb only as the Jade 6,
    which lifts the success rate by ~5 points: the rank-only estimate must equal the average
    of the four exact-suit estimates (a draw biased towards any suit would show)."""
    base, n = "7j 8j 9j Tj Js Jp 2s", 6000
    rank_only = gt_odds(f"{base} 6", deals=n, seed=11).p_success
    exact = [gt_odds(f"{base} 6{s}", deals=n, seed=11).p_success for s in cards.SUITS]
    assert exact[0].low > max(e.high for e in exact[1:])  # the suit matters here
    mean = np.mean([e.value for e in exact])
    se = np.sqrt(rank_only.value * (1 - rank_only.value) / n * (1 + 1 / 4))
    assert abs(rank_only.value - mean) < 3.5 * se


def test_cli_json_keys(estimates_json):
    res = CliRunner().invoke(main, ["gt-odds", "--hand", HAND, "--rounds", "1000", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)  # one object, nothing else on stdout
    for key in (
        "p_success",
        "ci_low",
        "ci_high",
        "ev_call",
        "ev_no_call",
        "ev_diff",
        "ev_diff_ci_low",
        "ev_diff_ci_high",
        "deals",
    ):
        assert key in out, key
    assert out["deals"] == 1000 and out["ci_low"] <= out["p_success"] <= out["ci_high"]
    assert out["ev_diff_ci_low"] <= out["ev_diff"] <= out["ev_diff_ci_high"]
    estimates_json(out, GTOdds.ESTIMATES, {"p_success": ("ci_low", "ci_high")})
    assert out["estimates"]["ev_diff"]["n"] == 1000


def test_cli_text_and_strategy_options():
    res = CliRunner().invoke(
        main,
        [
            "gt-odds",
            "--hand",
            HAND,
            "--rounds",
            "1000",
            "--quiet",
            "--others",
            "heuristic,heuristic:pass=lowest,heuristic",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "P(out first | call)" in res.output and "heuristic[pass=lowest]" in res.output


@pytest.mark.parametrize(
    "args",
    [
        ["--hand", "Dr Ph A A K 9 5"],  # 7 cards
        ["--hand", "Dr Ph A A K 9 5 3 2"],  # 9 cards
        ["--hand", "Dr Dr A A K 9 5 3"],  # duplicate
        ["--hand", "Dr Ph A A A A A 3"],  # five Aces
        ["--hand", "Dr Ph Zz A K 9 5 3"],  # unknown card
        ["--hand", HAND, "--others", "lowest,random"],  # two strategies
        ["--hand", HAND, "--seat-strategy", "heuristic:pass=nope"],
        ["--hand", HAND, "--precision", "0"],
        ["--hand", HAND, "--rounds", "0"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    res = CliRunner().invoke(main, ["gt-odds", *args])
    assert res.exit_code == 2, res.output
    lines = said_lines(res.output)
    assert len(lines) == 1 and lines[0].startswith("tichusim: error:"), res.output
