"""tichu-odds: the hand after the passing (RULES.md §2.3, §2.4), paired plays of the
same deals, intervals that separate a strong hand from a weak one, every team game and its
Options, JSON, one-line errors; and gt-odds in every team game (§3, §4) with Options."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from support.cli_output import said_lines

from tichusim import cards
from tichusim.analysis.gtodds import gt_odds, paired_rounds, seat_strategies, setup
from tichusim.analysis.tichuodds import TichuOdds, tichu_odds
from tichusim.cli import main
from tichusim.kernels.tichu import records

STRONG = "Dr Ph Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j 8j"
WEAK = "Dog 2j 2s 3p 4t 5j 6s 7p 8t 9j Ts Jp Qt 3s"


def _fixed_ranks(call):
    ranks = np.zeros(15, np.int64)
    ranks[records.FIX_MODE] = records.FIX_AFTER_PASSING + 256 * call
    return ranks


@pytest.mark.parametrize(
    "variant,hand",
    [
        ("nanjing", STRONG),
        ("tientsin", "Dr Ph Aj As Kj Ks Qj Jj Tj 9j"),
        ("tientsin", "Dr Ph Aj As Kj Ks Qj Jj Tj"),
        ("wuwang", WEAK),
    ],
)
def test_the_seat_holds_the_hand_after_the_passing(variant, hand):
    """§2.4 (§3, §4): every deal gives the seat exactly the hand once the passing is over, the
    cards it received are of the hand and those it gave are not; both plays of a deal hold the
    same cards; the seat calls right after the passing in one and never in the other (§2.3).
    Played with the engine's §7 checks."""
    place = setup(variant)
    call, no_call = seat_strategies(
        "heuristic", "random", variant=variant, grand=("never", "never")
    )
    exact, ranks = cards.parse_pattern(hand, len(hand.split()))
    keys = np.arange(300)
    pairs = paired_rounds(
        5,
        keys,
        call,
        no_call,
        fixed=(exact, ranks),
        check=True,
        place=place,
        firsts=place.firsts(keys, (len(hand.split()),)),
        ranks=(_fixed_ranks(records.FIX_CALL_AFTER_PASSING), _fixed_ranks(records.FIX_CALL_NEVER)),
    )
    (_, sc), (_, sn) = pairs.call, pairs.no_call
    me_c, me_n = sc[:, place.player], sn[:, place.player]
    assert (me_c["hand_passed"] == np.uint64(exact)).all()
    assert (me_n["hand_passed"] == np.uint64(exact)).all()
    assert (sc["hand14"] == sn["hand14"]).all()
    got = np.bitwise_or.reduce(me_c["received"], axis=1)
    gave = np.bitwise_or.reduce(me_c["given"], axis=1)
    assert ((got & np.uint64(exact)) == got).all() and not (gave & np.uint64(exact)).any()
    assert me_c["tichu"].all() and (me_c["tichu_when"] == 1).all() and not me_n["tichu"].any()
    assert not me_c["grand_tichu"].any()
    assert len(set(got.tolist())) > 30  # drawn per deal (Tientsin: 2 of 10, 45 pairs)


def test_named_received_cards():
    """``received``: the card from each seat in turn order from the hand's left."""
    place = setup("nanjing")
    exact, ranks = cards.parse_pattern(STRONG, 14)
    named = [cards.parse(c) for c in ("8j", "Qs", "Ph")]
    r = _fixed_ranks(records.FIX_CALL_NEVER)
    r[records.FIX_RECEIVED] = sum(b.bit_length() << (6 * j) for j, b in enumerate(named))
    call, _ = seat_strategies("heuristic", "heuristic", grand=("never", "never"))
    rec = place.game.rounds(
        np.arange(200), seed=1, strategies=call, check=True, fixed=(exact, r), fixed_seat=0
    )
    me = rec.seats[:, 0]
    for j in range(3):  # received[d - 1]: from the seat d places on
        assert (me["received"][:, j] == np.uint64(named[j])).all()
    assert (me["hand_passed"] == np.uint64(exact)).all()


def test_strong_and_weak_hands_separate_and_pairing_narrows():
    strong = tichu_odds(STRONG, deals=2000, seed=3)
    weak = tichu_odds(WEAK, deals=2000, seed=3)
    assert strong.p_success.low > weak.p_success.high
    assert strong.p_success.value > 0.5 and weak.p_success.value < 0.2
    assert strong.decision == "call" and weak.decision == "do not call"
    for r in (strong, weak):
        assert r.ev_diff.value == pytest.approx(r.ev_call.value - r.ev_no_call.value)
        unpaired = np.hypot(r.ev_call.high - r.ev_call.low, r.ev_no_call.high - r.ev_no_call.low)
        assert r.ev_diff.high - r.ev_diff.low < unpaired
        assert r.called.value == 1
    again = tichu_odds(STRONG, deals=2000, seed=3)
    assert {k: v for k, v in again.to_dict().items() if k != "seconds"} == {
        k: v for k, v in strong.to_dict().items() if k != "seconds"
    }


def test_a_later_call_and_every_table():
    later = tichu_odds(STRONG, deals=600, seed=2, played=8)
    assert 0 < later.called.value < 1  # the seat sometimes plays before 8 cards are down
    for variant, hand in (("tientsin", "Dr Ph Aj As Kj Ks Qj Jj Tj 9j"), ("wuwang", STRONG)):
        r = tichu_odds(
            hand, deals=600, seed=2, variant=variant, options={"phoenix_led_half": True}, check=True
        )
        assert r.deals == 600 and r.variant == variant and r.p_success.value > 0.3


def test_gt_odds_at_every_table_with_options():
    """gt-odds at Tientsin (6 cards before the call, §3) and Wu Wang (an opponent's hand, §4),
    under the §2.6 Option: the hand's seat sees the pattern as its first cards."""
    for variant, hand in (("tientsin", "Dr Ph A A K 9"), ("wuwang", "Dr Ph A A K 9 5 3")):
        r = gt_odds(
            hand, deals=600, seed=1, variant=variant, options={"phoenix_led_half": True}, check=True
        )
        assert r.deals == 600 and 0 < r.p_success.value < 1
    place = setup("tientsin")
    call, no_call = seat_strategies(variant="tientsin")
    exact, ranks = cards.parse_pattern("Dr Ph A A K 9", 6)
    pairs = paired_rounds(1, np.arange(200), call, no_call, fixed=(exact, ranks), place=place)
    me = pairs.call[1][:, 0]
    assert ((me["hand8"] & np.uint64(exact)) == np.uint64(exact)).all() and me["grand_tichu"].all()
    with pytest.raises(ValueError, match="variant"):
        gt_odds("Dr Ph A A K 9 5 3", deals=10, variant="grand-seigneur")
    with pytest.raises(ValueError):
        gt_odds("Dr Ph A A K 9 5 3", deals=10, options={"nope": 1})


def test_cli_json_and_text(estimates_json):
    res = CliRunner().invoke(
        main,
        ["tichu-odds", "--hand", STRONG, "--rounds", "500", "--json", "--received", "8j Qs Ph"],
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
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
        "decision",
    ):
        assert key in out, key
    assert out["received"] and out["ci_low"] <= out["p_success"] <= out["ci_high"]
    estimates_json(out, TichuOdds.ESTIMATES, {"p_success": ("ci_low", "ci_high")})
    res = CliRunner().invoke(
        main,
        [
            "tichu-odds",
            "--hand",
            STRONG,
            "--rounds",
            "300",
            "--quiet",
            "--variant",
            "wuwang",
            "--option",
            "phoenix_led_half=true",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "P(out first | call)" in res.output and "wuwang" in res.output
    res = CliRunner().invoke(
        main,
        [
            "gt-odds",
            "--hand",
            "Dr Ph A A K 9",
            "--rounds",
            "300",
            "--quiet",
            "--variant",
            "tientsin",
        ],
    )
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    "args",
    [
        ["--hand", "Dr Ph Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j"],  # 13 cards
        ["--hand", STRONG + " 2j"],  # 15 cards
        ["--hand", "Dr Dr Aj As Ap Kj Ks Kp Qj Qs Jj Tj 9j 8j"],  # duplicate
        ["--hand", "Dr Ph Zz As Ap Kj Ks Kp Qj Qs Jj Tj 9j 8j"],  # unknown card
        ["--hand", STRONG, "--received", "8j Qs"],  # two received at a 4-seat table
        ["--hand", STRONG, "--received", "8j Qs 2j"],  # a received card not in the hand
        ["--hand", STRONG, "--received", "8j 8j Qs"],  # twice
        ["--hand", STRONG, "--others", "lowest,random"],
        ["--hand", STRONG, "--variant", "grand-seigneur"],
        ["--hand", STRONG, "--option", "nope=1"],
        ["--hand", STRONG, "--played", "-1"],
        ["--hand", STRONG, "--rounds", "0"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    res = CliRunner().invoke(main, ["tichu-odds", *args])
    assert res.exit_code == 2, res.output
    lines = said_lines(res.output)
    assert len(lines) == 1 and lines[0].startswith("tichusim: error:"), res.output
