"""pass-advice: a 14-card hand dealt before the passing (RULES.md §2.2, §2.4), its passes forced
to named cards and reaching the sides the rule books name (§2.1), the other seats dealt the
same cards whatever it passes (paired), a pass that gives the Dragon away ranked below a
sensible one, one-line errors, the same answer for the same seed."""

import json

import numpy as np
import pytest
from click.testing import CliRunner
from support.cli_output import said_lines

from tichusim import cards
from tichusim.analysis import passadvice
from tichusim.analysis.gtodds import seat_strategies, setup
from tichusim.analysis.passadvice import (
    KEEP,
    _loose,
    _plan,
    check_hand,
    pass_advice,
    pass_candidates,
)
from tichusim.cli import main
from tichusim.kernels.tichu import records

HAND = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
DRAGON_AWAY = "Dr, Ks, 2j"  # the Dragon to the right opponent
SENSIBLE = "2j, Ks, Dog"  # low cards to the opponents, a King to the partner


def _ranks(spec: int) -> np.ndarray:
    r = np.zeros(15, np.int64)
    r[records.FIX_MODE] = records.FIX_BEFORE_PASSING
    r[records.FIX_RECEIVED] = spec
    return r


def _spec(*names: str) -> int:
    return sum(cards.parse(c).bit_length() << (6 * j) for j, c in enumerate(names))


def _rounds(spec: int, keys, strategies="heuristic", check=True):
    place = setup()
    table, _ = seat_strategies(
        strategies, strategies, grand=("never", "never"), suffix=("", ""), set_calls=()
    )
    exact = check_hand(HAND)
    rec = place.game.rounds(
        keys,
        seed=3,
        strategies=table,
        check=check,
        first_drawers=place.firsts(keys),
        fixed=(exact, _ranks(spec)),
        fixed_seat=0,
    )
    return exact, rec.rounds, rec.seats


def test_the_hand_is_dealt_and_the_passes_reach_their_sides():
    """§2.4 with §2.1's sides: seat 0 is dealt exactly the 14 cards (a random 8 of them seen
    first, §2.2), gives the named cards to the right opponent (seat 1), the partner (seat 2)
    and the left opponent (seat 3), which record them as received from their left opponent,
    partner and right opponent; played with the engine's §7 checks."""
    keys = np.arange(300)
    exact, rounds, seats = _rounds(_spec("2j", "Dr", "Dog"), keys)
    assert (rounds["error"] == 0).all()
    me = seats[:, 0]
    assert (me["hand14"] == np.uint64(exact)).all()
    h8 = me["hand8"]
    assert ((h8 & np.uint64(exact)) == h8).all()
    assert all(bin(int(x)).count("1") == 8 for x in h8) and len(set(h8.tolist())) > 100
    right, partner, left = (np.uint64(cards.parse(c)) for c in ("2j", "Dr", "Dog"))
    assert (me["given"][:, 0] == right).all()
    assert (me["given"][:, 1] == partner).all()
    assert (me["given"][:, 2] == left).all()
    # received[d - 1]: from the seat d places on; seat 0 is 3 places on from seat 1
    assert (seats[:, 1]["received"][:, 2] == right).all()
    assert (seats[:, 2]["received"][:, 1] == partner).all()
    assert (seats[:, 3]["received"][:, 0] == left).all()
    got = np.bitwise_or.reduce(me["received"][:, :3], axis=1)
    kept = np.uint64(exact) & ~(right | partner | left)
    assert (me["hand_passed"] == (kept | got)).all()
    assert not me["grand_tichu"].any()


def test_the_same_key_deals_the_others_the_same_cards_whatever_the_pass():
    """Paired: two passes (and the strategy's own, spec 0) on the same round keys give the
    other seats the same hands and the same first 8 cards (§2.2); only what seat 0 passes
    differs, so the hands after the passing differ."""
    keys = np.arange(200)
    _, _, a = _rounds(_spec("2j", "Ks", "Dog"), keys)
    _, _, b = _rounds(_spec("Dr", "Ks", "2j"), keys)
    _, _, c = _rounds(0, keys)
    for other in (b, c):
        assert (a["hand14"] == other["hand14"]).all()
        assert (a["hand8"] == other["hand8"]).all()
    assert (a[:, 1]["hand_passed"] != b[:, 1]["hand_passed"]).all()
    assert len(set(a[:, 1]["hand14"].tolist())) == len(keys)  # a fresh deal per key


def test_loose_cards_and_the_plan():
    """Loose cards break no pair or straight (§2.5): in HAND the run 7-8-9 is too short, so
    only the paired King is kept back; a straight 2-6 keeps its cards. Screening halves the
    field while doubling the deals from ``deals // SCREEN_SHARE`` until ``keep`` or fewer are
    left; with ``keep`` or fewer candidates there is no screening."""
    assert cards.format(sum(_loose(check_hand(HAND)))) == "Dog 2j 3s 5p 7t 8j 9s Jp Qt"
    run = check_hand("Ma 2j 3s 4p 5t 6j 8s 8p Tj Qs Kj Ks Ph Dr")
    assert cards.format(sum(_loose(run))) == "Tj Qs"
    assert _plan(40, 20_000, 4) == [(40, 800), (20, 1600), (10, 3200), (5, 6400)]
    assert _plan(40, 4_000, 4) == [(40, 160), (20, 320), (10, 640), (5, 1280)]
    assert _plan(6, 1000, 4) == [(6, 100)]  # MIN_SCREEN deals at least
    assert _plan(3, 1000, 4) == [] and _plan(4, 1000, 4) == []


def test_candidates_hold_the_policies_and_the_user_passes():
    found = dict(pass_candidates(HAND, candidates=[DRAGON_AWAY]))
    assert found[tuple(cards.parse(c) for c in ("Dr", "Ks", "2j"))] == ("user",)
    sources = {s for ss in found.values() for s in ss}
    # the seat's own strategy (the default, learned) probed under its name, then the policies
    assert {"learned", "keep-combos", "structured"} <= sources
    assert len(found) > 10
    expert = dict(pass_candidates(HAND, strategy="expert", others="expert"))
    assert "expert" in {s for ss in expert.values() for s in ss}
    for right, partner, left in found:
        assert (
            len({right, partner, left}) == 3 and (right | partner | left) & ~check_hand(HAND) == 0
        )


def test_giving_the_dragon_away_ranks_below_a_sensible_pass():
    """The Dragon, the highest single (§2.6), given to an opponent loses points on the same
    deals: the paired difference's interval lies below 0."""
    answer = pass_advice(
        HAND, deals=2000, seed=1, candidates=[DRAGON_AWAY, SENSIBLE], generated=False
    )
    best, worst = answer.candidates
    assert (best.right, best.partner, best.left) == ("2j", "Ks", "Dog")
    assert worst.right == "Dr" and worst.deals == best.deals == 2000
    assert worst.diff is not None and worst.diff.high < 0
    assert worst.points.high < best.points.value
    assert answer.stages == ((2, 2000),) and answer.screened == 0  # no screening: all final
    assert best.final and worst.final


def test_cli_json_is_the_same_for_the_same_seed(estimates_json):
    args = ["pass-advice", "--hand", HAND, "--rounds", "600", "--seed", "4", "--json"]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(main, args)
    a, b = json.loads(first.output), json.loads(again.output)
    a.pop("seconds"), b.pop("seconds")
    assert a == b
    other = json.loads(CliRunner().invoke(main, [*args[:-2], "5", "--json"]).output)
    assert other["candidates"] != a["candidates"]
    assert a["deals"] == 600 and len(a["candidates"]) > 10
    names = ("points", "diff", "first_out", "tichu", "tichu_success", "double_victory")
    for c in a["candidates"]:
        # tichu_success: none when a candidate never called Tichu (a rate of nothing)
        c["estimates"] = {k: e for k, e in c["estimates"].items() if e["n"] > 0}
        estimates_json(c, [k for k in names if k in c["estimates"]])
        assert c["estimates"]["points"]["n"] == c["deals"]
    zero = {"value": 0.0, "low": 0.0, "high": 0.0, "n": 600}
    assert a["candidates"][0]["estimates"]["diff"] == zero  # the best, against itself
    text = CliRunner().invoke(
        main,
        ["pass-advice", "--hand", HAND, "--rounds", "300", "--only-given"]
        + ["--candidate", SENSIBLE, "--candidate", DRAGON_AWAY, "--quiet"],
    )
    assert text.exit_code == 0, text.output
    assert "Pass advice for" in text.output and "user" in text.output


@pytest.mark.parametrize(
    "args",
    [
        ["--hand", "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph"],  # 13 cards
        ["--hand", HAND + " Aj"],  # 15 cards
        ["--hand", "Dog Dog 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"],  # duplicate
        ["--hand", "Dog Zz 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"],  # malformed card
        ["--hand", "Dog Ma 2 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"],  # a rank without its suit
        ["--hand", HAND, "--candidate", "Aj,Ks,2j"],  # not in the hand
        ["--hand", HAND, "--candidate", "Dr,Ks"],  # two cards
        ["--hand", HAND, "--candidate", "Dr,Dr,2j"],  # twice
        ["--hand", HAND, "--candidate", "Dr,K,2j"],  # not one card
        ["--hand", HAND, "--only-given"],  # nothing to rank
        ["--hand", HAND, "--others", "lowest,random"],
        ["--hand", HAND, "--rounds", "0"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    res = CliRunner().invoke(main, ["pass-advice", *args])
    assert res.exit_code == 2, res.output
    lines = said_lines(res.output)
    assert len(lines) == 1 and lines[0].startswith("tichusim: error:"), res.output


def test_defaults_are_learned_and_the_strategy_alias():
    params = {p.name: p for p in main.commands["pass-advice"].params}
    assert params["seat_strategy"].default == params["others"].default == "learned"
    assert params["deals"].default == passadvice.DEALS
    assert "--strategy" in params["seat_strategy"].opts
    assert "--deals" in params["deals"].opts


def test_the_finalists_are_judged_on_fresh_deals_only():
    """Screening picks the finalists; their figures are on the final's deals, round keys
    after every screening key, so the deals that selected them are not counted again. A
    candidate dropped in screening keeps its figures on the screening keys it played."""
    answer = pass_advice(HAND, deals=400, seed=2, strategy="expert", others="expert")
    *screening, final = answer.stages
    assert screening and final == (KEEP, 400)
    assert answer.screened == screening[-1][1]
    assert [c.final for c in answer.candidates] == [True] * KEEP + [False] * (
        len(answer.candidates) - KEEP
    )
    finalists = answer.candidates[:KEEP]
    assert all(c.deals == 400 for c in finalists)
    best = finalists[0]
    # the best's figures are those of its pass played alone on the final's keys
    exact = check_hand(HAND)
    place = setup()
    table, _ = seat_strategies("expert", "expert", grand=("never", "never"), suffix=("", ""))
    keys = np.arange(answer.screened, answer.screened + 400, dtype=np.int64)
    spec = _spec(best.right, best.partner, best.left)
    _, seats = passadvice._play(place, 2, keys, table, exact, spec, False)
    assert best.points.value == pytest.approx(seats[:, place.player]["points"].mean())
    dropped = answer.candidates[KEEP:]
    assert all(c.deals <= answer.screened for c in dropped)
    assert [c.deals for c in dropped] == sorted((c.deals for c in dropped), reverse=True)
    d = answer.to_dict()
    assert d["screened"] == answer.screened and d["stages"][-1]["final"]
    assert not any(s["final"] for s in d["stages"][:-1])
