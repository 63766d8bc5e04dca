"""The Option of RULES.md §2.6 (the French edition): a led Phoenix is worth ½ instead of 1½,
so the Mah Jong may be played on it. A rules switch ``phoenix_led_half`` (default false) of
the tables the team engine plays: Nanjing (§2), Tientsin (§3) and Wu Wang (§4)."""

import json
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from support import reference as ref
from support.cli_output import said_lines
from support.replay import check_round
from support.states import trick_states

import tichusim
from tichusim import cards, legal_plays, simulate, simulate_games
from tichusim.cli import main
from tichusim.games.transcript import play_with_log, transcript
from tichusim.kernels import combos, moves
from tichusim.kernels.tichu import learned, policies, records
from tichusim.kernels.tichu.view import PRIVATE, PUBLIC
from tichusim.strategies.tichu import STRATEGIES as NAMED

OPTION = {"phoenix_led_half": True}
VARIANTS = ("nanjing", "tientsin", "wuwang")
TOKENS = list(ref.ALL_CARDS)
LED = combos.make_code(combos.SINGLE, 1, combos.RANK2_PHOENIX_LED)  # 1½
LED_HALF = combos.make_code(combos.SINGLE, 1, combos.RANK2_PHOENIX_LED_HALF)  # ½
MAH_JONG = combos.make_code(combos.SINGLE, 1, combos.RANK2_MAH_JONG)


def fmt_all(masks):
    return sorted(cards.format(m) for m in masks)


def mask_of(tokens):
    return cards.parse(" ".join(tokens)) if tokens else 0


def tokens_of(mask):
    return frozenset(cards.format(mask).split())


# ---- the rule clause, on the kernels and the public face ----


def test_the_mah_jong_beats_a_phoenix_led_as_half_only_under_the_option():
    """RULES.md §2.6: led, the Phoenix is worth 1½ and only a 2 or higher beats it; under the
    Option it is worth ½ and the Mah Jong (1) beats it too."""
    assert fmt_all(legal_plays("Ma 2j Dr", "Ph", phoenix_led_half=True)[0]) == ["2j", "Dr", "Ma"]
    assert fmt_all(legal_plays("Ma 2j Dr", "Ph")[0]) == ["2j", "Dr"]
    assert tichusim.beats("Ma", "Ph", phoenix_led_half=True) and not tichusim.beats("Ma", "Ph")
    # played on a single it is not led: ½ above that single, under either rule
    assert fmt_all(legal_plays("2j 3j", "Ph", phoenix_on=2, phoenix_led_half=True)[0]) == ["3j"]
    # the Mah Jong answers no other single
    for top, on in (("2j", None), ("Ph", 2)):
        plays = legal_plays("Ma 3j", top, phoenix_on=on, phoenix_led_half=True)[0]
        assert fmt_all(plays) == ["3j"]
    with pytest.raises(ValueError, match="phoenix_led_half"):
        legal_plays("Ma", "Ph", phoenix_led_half="yes")


def test_kernel_codes_of_the_led_phoenix():
    """§2.6 in codes: ½ is half rank 1, below the Mah Jong's 2, so ``beats`` and the move
    generator let the Mah Jong on it; 1½ (3) stays above it."""
    assert combos.beats(MAH_JONG, LED_HALF) and not combos.beats(MAH_JONG, LED)
    assert combos.phoenix_single(0, combos.RANK2_PHOENIX_LED_HALF) == LED_HALF
    m = np.empty(64, np.uint64)
    c = np.empty(64, np.int64)
    hand = np.uint64(cards.parse("Ma 2j Dr"))
    for top, with_mah_jong in ((LED_HALF, True), (LED, False)):
        n, can_pass = moves.legal_moves(hand, top, 0, m, c)
        found = {(int(m[i]), int(c[i])) for i in range(n)}
        assert ((cards.MAH_JONG, MAH_JONG) in found) == with_mah_jong and can_pass
        assert len(found) == 2 + with_mah_jong
    # the lowest policy's fast path answers the ½ Phoenix with the Mah Jong, as its full list
    mask, code = policies.lowest_single(hand, LED_HALF, 0, combos.RANK2_PHOENIX_LED_HALF)
    assert (int(mask), int(code)) == (cards.MAH_JONG, MAH_JONG)


@njit
def _lead(params, hand, half):
    """Seat 0 leads ``hand`` at a table with or without the §2.6 Option: the play chosen, and
    the code its strategy saw for the lone Phoenix (0 when not listed)."""
    pub = np.zeros(1, PUBLIC)
    me = np.zeros(1, PRIVATE)
    pub[0].n_players = 4
    pub[0].rules.phoenix_led_half = half
    for s in range(4):
        pub[0].counts[s] = 8
    pub[0].top_seat = -1
    me[0].hand = hand
    m = np.empty(moves.MAX_MOVES, np.uint64)
    c = np.empty(moves.MAX_MOVES, np.int64)
    m[:] = 0
    models = np.zeros((1, learned.HEADER), np.float32)  # no learned play here
    learn = np.zeros(learned.LEARN_FLOATS, np.float32)
    j = policies.play(params, pub[0], me[0], m, c, models, learn)
    seen = 0
    for i in range(moves.MAX_MOVES):
        if m[i] == cards.PHOENIX:
            seen = c[i]
    return m[j], seen


@pytest.mark.parametrize("name", ["lowest", "heuristic", "expert"])
def test_strategies_value_a_led_phoenix_as_the_table_does(name):
    """Strategies take the Option into account: at a table playing it the lone
    Phoenix they may lead is listed at ½, below the Mah Jong, so ``lowest`` leads it before
    the Mah Jong; by default it is listed at 1½ and the Mah Jong goes first."""
    params = NAMED[name].param_row()
    hand = np.uint64(cards.parse("Ma Ph 5j 9s Jp Kt"))
    for half, code in ((True, LED_HALF), (False, LED)):
        chosen, seen = _lead(params, hand, half)
        assert seen == code or (name == "lowest" and seen == 0), (half, seen)
    if name == "lowest":
        assert cards.format(int(_lead(params, hand, True)[0])) == "Ph"
        assert cards.format(int(_lead(params, hand, False)[0])) == "Ma"


def test_expert_knows_a_half_phoenix_can_fall_to_the_mah_jong():
    """``expert``'s card tracking: with only the Mah Jong out, a Phoenix led as 1½ is a sure
    winner, one led as ½ is not (§2.6 Option)."""
    from tichusim.kernels.tichu import expert

    out = np.uint64(cards.MAH_JONG)
    assert expert.is_sure(out, LED) and not expert.is_sure(out, LED_HALF)


def test_lowest_fast_path_equals_the_lowest_legal_play_on_a_half_phoenix():
    """``lowest_single`` (bits only) picks what ``lowest_index`` picks from the full legal list
    on a Phoenix led as ½ (§2.6 Option), as on every other single."""
    rng = np.random.default_rng(26)
    deck = [1 << b for b in range(64) if (cards.DECK & ~cards.PHOENIX) >> b & 1]
    m = np.empty(moves.MAX_MOVES, np.uint64)
    c = np.empty(moves.MAX_MOVES, np.int64)
    checked = 0
    for _ in range(3000):
        hand = sum(int(x) for x in rng.choice(deck, int(rng.integers(1, 15)), replace=False))
        mask, code = policies.lowest_single(
            np.uint64(hand), LED_HALF, 0, combos.RANK2_PHOENIX_LED_HALF
        )
        if mask == 0:
            continue
        n, _ = moves.legal_moves(np.uint64(hand), LED_HALF, 0, m, c)
        j = policies.lowest_index(c, n)
        assert (int(m[j]), int(c[j])) == (int(mask), int(code)), cards.format(hand)
        checked += 1
    assert checked > 2000


def test_cli_legal_flag():
    """``tichusim legal --phoenix-led-half``: the Mah Jong answers the led Phoenix (§2.6
    Option), and a lone Phoenix is listed at its value on the top."""
    run = CliRunner().invoke
    res = run(main, ["legal", "Ma 2j", "--top", "Ph", "--phoenix-led-half"])
    assert res.exit_code == 0 and "2 plays; pass allowed" in res.output, res.output
    assert "single 1\n" in res.output
    assert "1 plays; pass allowed" in run(main, ["legal", "Ma 2j", "--top", "Ph"]).output
    led = run(main, ["legal", "Ph 3j", "--phoenix-led-half"]).output
    assert [line.split()[-1] for line in led.splitlines() if line.startswith("Ph ")] == ["0.5"]
    on = run(main, ["legal", "Ph 3j", "--top", "8s"]).output
    assert [line.split()[-1] for line in on.splitlines() if line.startswith("Ph ")] == ["8.5"]


# ---- the kernels against the reference (tests/support/reference.py) on random states ----


@st.composite
def led_phoenix_states(draw):
    """A hand (the Mah Jong in it half the time) facing a led Phoenix, and a wish."""
    deck = draw(st.permutations([t for t in TOKENS if t != "Ph"]))
    hand = frozenset(deck[: draw(st.integers(1, 13))])
    if draw(st.booleans()):
        hand |= {"Ma"}
    return hand, draw(st.one_of(st.none(), st.integers(2, 14)))


@settings(max_examples=150, deadline=None)
@given(led_phoenix_states())
def test_legal_plays_on_a_half_phoenix_match_the_reference(state):
    """§2.6 Option, §2.7-§2.11: the legal plays on a Phoenix led as ½ are the reference's."""
    hand, wish = state
    mine, mine_pass = legal_plays(mask_of(hand), "Ph", wish=wish, phoenix_led_half=True)
    theirs, their_pass = ref.legal_plays(hand, {"Ph"}, wish, None, phoenix_led_half=True)
    assert {tokens_of(p) for p in mine} == theirs and len(mine) == len(theirs)
    assert mine_pass == their_pass
    assert ({"Ma"} in theirs) == (
        "Ma" in hand and (wish is None or not any(ref.has_wished_rank(p, wish) for p in theirs))
    )


@settings(max_examples=100, deadline=None)
@given(trick_states())
def test_legal_plays_with_the_option_match_the_reference(state):
    """§2.5-§2.11 with the Option of §2.6 on any top: only a led Phoenix changes."""
    hand, top, wish, on = state
    mine, mine_pass = legal_plays(
        mask_of(hand),
        mask_of(top) if top else None,
        wish=wish,
        phoenix_on=on,
        phoenix_led_half=True,
    )
    theirs, their_pass = ref.legal_plays(hand, top, wish, on, phoenix_led_half=True)
    assert {tokens_of(p) for p in mine} == theirs and mine_pass == their_pass


# ---- the engine ----


def _mah_jong_on_led_phoenix(variant, strategies, keys, seed, options=OPTION):
    """Keys of the rounds in which the Mah Jong is played on a led Phoenix, read off the
    engine's logs; and how many Phoenixes were led."""
    found, led = [], 0
    for key in keys:
        _, _, log = play_with_log(
            seed, key, strategies=strategies, variant=variant, options=options
        )
        top, top_led = None, False
        for event, _, mask, _, _ in log.tolist():
            if event in (records.EV_PLAY, records.EV_BOMB):
                if mask == cards.MAH_JONG and top == cards.PHOENIX and top_led:
                    found.append(key)
                top_led, top = top is None, mask
                led += top_led and mask == cards.PHOENIX
            elif event in (records.EV_TRICK, records.EV_DOG):
                top = None
    return found, led


# a seat of the lowest policy leads the Phoenix when it holds neither the Dog nor the Mah Jong,
# and answers a Phoenix led as ½ with the Mah Jong
STRATEGIES = {
    "nanjing": ["lowest", "random"] * 2,
    "tientsin": ["lowest", "random"] * 3,
    "wuwang": ["lowest", "random", "lowest"],
}


def test_engine_plays_the_mah_jong_on_a_half_phoenix_only_under_the_option():
    """§2.6: in rounds played with the Option the Mah Jong lands on a led Phoenix (replayed
    against the reference); the same rounds by default never do although Phoenixes are led,
    and the transcripts show the led Phoenix as ½ (with the Option) or 1½."""
    strategies = STRATEGIES["nanjing"]
    found, _ = _mah_jong_on_led_phoenix("nanjing", strategies, range(3000), seed=3)
    assert len(found) >= 3, found
    none, led = _mah_jong_on_led_phoenix("nanjing", strategies, range(3000), seed=3, options=None)
    assert none == [] and led > 50
    for key in found[:3]:  # full legality against the reference on those rounds
        rnd, seats, log = play_with_log(3, key, strategies=strategies, options=OPTION)
        assert check_round(rnd, seats, log, phoenix_led_half=True)["mah_jong_on_led_phoenix"]
        text = transcript(3, key, strategies=strategies, options=OPTION).splitlines()
        assert text[2] == "Rules: a led Phoenix is worth ½ (RULES.md §2.6 Option)"
        i = next(
            i
            for i, line in enumerate(text)
            if line.endswith("plays Ph  [single 0.5]") and text[i - 1].startswith("-- trick")
        )
        j = next(j for j in range(i + 1, len(text)) if "plays Ma  [single Ma]" in text[j])
        between = text[i + 1 : j]  # passes and calls: the same trick, the Phoenix on top
        assert not any(w in line for line in between for w in ("plays", "BOMBS", "wins"))
        default = transcript(3, key, strategies=strategies)
        assert "[single 0.5]" not in default and "Rules:" not in default


# each plays 6,000 logged rounds one by one to find the rare play: Tientsin, the quickest, in
# the fast tier, the other games in the slow one
@pytest.mark.parametrize(
    "variant",
    [
        pytest.param("nanjing", marks=pytest.mark.slow),
        "tientsin",
        pytest.param("wuwang", marks=pytest.mark.slow),
    ],
)
def test_engine_with_the_option_at_every_table(variant):
    """§2.6 Option at Tientsin (§3) and Wu Wang (§4) too: the Mah Jong is played on a led
    Phoenix, and dozens of rounds replay against the reference with full legality checks
    (``tests/support/replay.py`` also checks the logged value of every Phoenix)."""
    strategies = STRATEGIES[variant]
    found, _ = _mah_jong_on_led_phoenix(variant, strategies, range(6000), seed=5)
    assert found, variant
    for key in list(dict.fromkeys(found[:3] + list(range(24)))):
        rnd, seats, log = play_with_log(
            5, key, strategies=strategies, variant=variant, options=OPTION
        )
        check_round(rnd, seats, log, variant=variant, phoenix_led_half=True)
    seen = sum(
        (
            check_round(
                *play_with_log(5, key, strategies=strategies, variant=variant, options=OPTION),
                legal_check=False,
                variant=variant,
                phoenix_led_half=True,
            )
            for key in found
        ),
        Counter(),
    )
    assert seen["mah_jong_on_led_phoenix"] >= len(found)


@pytest.mark.parametrize(
    "n", [pytest.param(50_000, marks=pytest.mark.slow, id="50k"), pytest.param(10_000, id="10k")]
)
@pytest.mark.parametrize("variant", VARIANTS)
def test_invariant_checker_with_the_option_over_random_rounds(variant, n):
    """RULES.md §7 checked in the kernel after every action (the checker re-deriving the led
    Phoenix's §2.6 value under the Option), over 50,000 random rounds per variant (the slow
    tier; 10,000 in the fast one); the Option changes some rounds and leaves most alone (a
    Phoenix is seldom led)."""
    with_option, _ = simulate(
        n, seed=2026, strategies="random", variant=variant, check=True, options=OPTION
    )
    plain, _ = simulate(n, seed=2026, strategies="random", variant=variant)
    assert len(with_option) == n
    same = (with_option["score_team0"] == plain["score_team0"]).mean()
    assert 0.9 < same < 1.0, same


@pytest.mark.parametrize("variant", VARIANTS)
def test_games_with_the_option(variant):
    """Whole games (§2.15, §3; §4's rounds) with the Option and the checker on."""
    target = {} if variant == "wuwang" else {"target": 500}
    strategies = STRATEGIES[variant]
    rounds, _ = simulate_games(
        60, seed=8, strategies=strategies, variant=variant, check=True, options=OPTION, **target
    )
    plain, _ = simulate_games(60, seed=8, strategies=strategies, variant=variant, **target)
    assert not rounds.equals(plain)


def test_default_is_unchanged():
    """The default is RULES.md §2.6's 1½: no option and the option off play the same rounds."""
    a, sa = simulate(3000, seed=12, strategies="lowest")
    b, sb = simulate(3000, seed=12, strategies="lowest", options={"phoenix_led_half": False})
    assert a.equals(b) and sa.equals(sb)


# ---- configuration ----


def test_option_values_are_checked_in_one_line():
    for bad in ("yes", 1, None):
        with pytest.raises(ValueError, match="phoenix_led_half: expected true or false") as err:
            simulate(1, options={"phoenix_led_half": bad})
        assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="unknown"):
        simulate(1, variant="grand-seigneur", players=6, options={"phoenix_led_half": True})
    res = CliRunner().invoke(
        main, ["simulate", "--rounds", "10", "--option", "phoenix_led_half=maybe"]
    )
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "phoenix_led_half" in res.output


def test_a_run_config_with_the_option(tmp_path):
    """``[options] phoenix_led_half = true`` runs (``tichusim.run`` and ``tichusim run``), is
    saved with the run's config and plays what ``simulate`` plays with it; a bad value is one
    line naming the key."""
    text = (
        'rounds = 2000\nseed = 4\nstrategies = ["lowest", "random", "lowest", "random"]\n'
        "[options]\nphoenix_led_half = true\n"
    )
    (tmp_path / "half.toml").write_text(text)
    summary = tichusim.run(
        tichusim.load_config(tmp_path / "half.toml"),
        out=tmp_path / "run",
        workers=1,
        progress=False,
    )
    assert summary.rounds == 2000
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["options"] == {"phoenix_led_half": True}
    import pandas as pd

    got = pd.read_parquet(tmp_path / "run" / "rounds")
    want, _ = simulate(2000, seed=4, strategies=STRATEGIES["nanjing"], options=OPTION)
    plain, _ = simulate(2000, seed=4, strategies=STRATEGIES["nanjing"])
    assert (got["score_team0"].to_numpy() == want["score_team0"].to_numpy()).all()
    assert not (got["score_team0"].to_numpy() == plain["score_team0"].to_numpy()).all()
    res = CliRunner().invoke(
        main, ["run", str(tmp_path / "half.toml"), "--out", str(tmp_path / "cli"), "--quiet"]
    )
    assert res.exit_code == 0, res.output
    (tmp_path / "bad.toml").write_text(text.replace("true", '"yes"'))
    res = CliRunner().invoke(
        main, ["run", str(tmp_path / "bad.toml"), "--out", str(tmp_path / "bad"), "--quiet"]
    )
    lines = said_lines(res.output)
    assert res.exit_code == 2 and len(lines) == 1, res.output
    assert "options" in lines[0] and "phoenix_led_half" in lines[0], lines[0]
    assert not (tmp_path / "bad").exists()
