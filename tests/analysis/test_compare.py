"""compare: duplicate matches and round-robin leagues on the same deals; strategy arguments."""

import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from support.cli_output import said_lines

import tichusim
from tichusim import cards
from tichusim.analysis.duplicate import Interrupted, duplicate, league, markdown_report
from tichusim.cli import main
from tichusim.games.strategy_text import parse_strategy, parse_strategy_list
from tichusim.kernels.moves import has_bomb


def test_a_strategy_against_itself_differs_by_exactly_zero():
    """The two tables of a deal hold the same cards and the same random streams, so a
    strategy against itself scores the same from both sides, deal by deal."""
    r = duplicate("heuristic", "heuristic", 1000, seed=3)
    assert (r.margins == 0).all()
    assert r.diff.value == r.diff.low == r.diff.high == 0
    # a random strategy too: the streams belong to the seats' decisions, not to the strategy
    assert (duplicate("random", "random", 500, seed=3).margins == 0).all()


def test_margins_are_per_deal_and_match_the_points():
    r = duplicate("heuristic", "lowest", 1500, seed=4)
    assert r.margins.shape == (1500,)
    a, b = r.points
    np.testing.assert_allclose(r.margins, a - b)
    assert r.diff.value == pytest.approx(
        r.per_strategy.iloc[0].points_per_round.value
        - r.per_strategy.iloc[1].points_per_round.value
    )
    assert r.diff.low > 0  # heuristic beats lowest (results/ladder.md: +78 per round)


def test_league_is_antisymmetric_and_averages_the_pairs():
    specs = ["heuristic", "heuristic:pass=lowest,name=low-pass", "lowest"]
    lg = league([parse_strategy(s) for s in specs], 800, seed=5)
    names = lg.strategies
    assert len(lg.matches) == 3
    for a in names:
        for b in names:
            if a != b:
                assert lg.margin(a, b).value == -lg.margin(b, a).value
    rows = {r.strategy: r for r in lg.table.itertuples()}
    for a in names:
        expected = np.mean([lg.margin(a, b).value for b in names if b != a])
        assert rows[a].margin.value == pytest.approx(expected)
    assert sum(r.margin.value for r in rows.values()) == pytest.approx(0, abs=1e-9)
    assert list(lg.table["strategy"])[0] == "heuristic" and rows["lowest"].wdl == "0-0-2"
    assert "Pairwise margins" in lg.to_markdown()


def test_bomb_detection():
    hands = [
        cards.parse(t)
        for t in (
            "7j 7s 7p 7t 2j",
            "3s 4s 5s 6s 7s Dr",
            "3s 4s 5s 6s 7j Ph",
            "Aj As Ap Ph Dr Dog Ma 2j",
        )
    ]
    # four of a kind, a straight flush; the Phoenix completes neither (RULES.md §2.5)
    assert [has_bomb(np.uint64(h)) for h in hands] == [True, True, False, False]


def test_strategy_arguments():
    assert parse_strategy("lowest").name == "lowest"
    s = parse_strategy("heuristic:pass=keep-combos,bomb_points=20")
    assert s.pass_ == "keep-combos" and dict(s.params)["bomb_points"] == 20
    assert parse_strategy("pass=lowest").pass_ == "lowest"  # base heuristic by default
    assert [x.name for x in parse_strategy_list("heuristic:pass=lowest,bomb_points=20,random")] == [
        "heuristic[pass=lowest,bomb_points=20]",
        "random",
    ]
    for bad in (
        "nope",
        "heuristic:pass=nope",
        "heuristic:bomb_points=x",
        "heuristic:pass",
        "nobase:pass=lowest",
        "heuristic:wobble=1",
    ):
        with pytest.raises(ValueError):
            parse_strategy(bad)


def test_strategy_from_toml(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('base = "heuristic"\npass = "odd-even"\n[params]\nbomb_threat = 2\n')
    s = parse_strategy(str(f))
    assert s.name == str(f) and s.pass_ == "odd-even" and dict(s.params)["bomb_threat"] == 2
    (tmp_path / "bad.toml").write_text("base = \n")
    with pytest.raises(ValueError, match="bad.toml"):
        parse_strategy(str(tmp_path / "bad.toml"))


def test_cli_match_league_and_markdown(tmp_path):
    res = CliRunner().invoke(main, ["compare", "heuristic", "lowest", "--deals", "500"])
    assert res.exit_code == 0, res.output
    assert "heuristic - lowest:" in res.output and "Regenerate: `tichusim compare" in res.output
    out = tmp_path / "league.md"
    res = CliRunner().invoke(
        main,
        [
            "compare",
            "heuristic",
            "heuristic:pass=lowest",
            "lowest",
            "--deals",
            "300",
            "--quiet",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert text.startswith("# League of 3 strategies") and "| 1 | heuristic |" in text


@pytest.mark.parametrize(
    "args",
    [
        ["heuristic"],
        ["heuristic", "heuristic"],
        ["heuristic", "nope"],
        ["heuristic", "heuristic:pass=nope"],
        ["a.toml", "lowest"],
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(args):
    res = CliRunner().invoke(main, ["compare", *args, "--deals", "10"])
    assert res.exit_code == 2, res.output
    lines = said_lines(res.output)
    assert len(lines) == 1 and lines[0].startswith("tichusim: error:"), res.output


def test_tientsin_duplicate_swaps_teams_of_three():
    """RULES.md §3: two teams of three alternate; the match swaps them, so a strategy against
    itself differs by exactly 0 on every deal, and the stronger one wins by a clear margin."""
    same = duplicate("random", "random", 300, seed=6, variant="tientsin")
    assert (same.margins == 0).all()
    r = duplicate("heuristic", "lowest", 1500, seed=6, variant="tientsin")
    assert r.diff.low > 0
    a, b = r.points
    np.testing.assert_allclose(r.margins, a - b)
    text = r.to_markdown()
    assert "triple victories" in text and "double victories" not in text


def test_a_table_without_teams_is_refused():
    """Grand Seigneur has no teams (RULES.md §5): no seats to exchange."""
    with pytest.raises(ValueError, match="no teams"):
        duplicate("heuristic", "lowest", 10, variant="grand-seigneur")
    result = CliRunner().invoke(
        main, ["compare", "heuristic", "lowest", "--variant", "grand-seigneur"]
    )
    assert result.exit_code == 2 and "tientsin, wuwang" in result.output
    assert result.output.count("\n") == 1


def _wuwang_points_by_hand(a, b, deals, seed):
    """A's and B's points per deal at Wu Wang, from ``simulate`` alone: every mixed
    assignment of A and B to the three players (RULES.md §4), each strategy's players' mean
    round score (``score_player*``: the player's side's total), averaged over the six."""
    per = {a: [], b: []}
    for seating in [(0, 0, 1), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 0, 1), (1, 1, 0)]:
        names = [(a, b)[i] for i in seating]
        rounds, _ = tichusim.simulate(deals, seed=seed, variant="wuwang", strategies=names)
        scores = np.stack([rounds[f"score_player{p}"].to_numpy(float) for p in range(3)], 1)
        for side, name in enumerate((a, b)):
            per[name].append(scores[:, np.array(seating) == side].mean(axis=1))
    return np.mean(per[a], axis=0), np.mean(per[b], axis=0)


def test_wuwang_matches_play_every_mixed_seating_of_the_three_players():
    """Wu Wang's King changes sides each round (RULES.md §4): a deal is played with the two
    strategies in all six mixed assignments to the players, and a strategy's points are its
    players' mean score per player-round, averaged over them; A - B is paired per deal."""
    r = duplicate("heuristic", "lowest", 600, seed=8, variant="wuwang")
    a, b = _wuwang_points_by_hand("heuristic", "lowest", 600, seed=8)
    np.testing.assert_array_equal(r.points[0], a)
    np.testing.assert_array_equal(r.points[1], b)
    np.testing.assert_array_equal(r.margins, a - b)
    assert r.diff.low > 0  # heuristic beats lowest at every table
    swapped = duplicate("lowest", "heuristic", 600, seed=8, variant="wuwang")
    np.testing.assert_array_equal(swapped.margins, -r.margins)
    # a strategy against itself: the same cards, roles and streams at every seating
    assert (duplicate("random", "random", 300, seed=8, variant="wuwang").margins == 0).all()
    text = r.to_markdown()
    assert "points per player-round" in text and "every mixed assignment" in text
    # the rates count the seats each strategy played, the Minister's row with its King's
    rows = r.per_strategy.set_index("strategy")
    seat_rounds = 600 * 6 * 4  # four seat rows a round at each of the six seatings
    assert rows.loc["heuristic", "bombs_played"].n + rows.loc["lowest", "bombs_played"].n == (
        seat_rounds
    )


def test_compare_takes_wuwang_on_the_command_line():
    result = CliRunner().invoke(
        main, ["compare", "heuristic", "lowest", "--variant", "wuwang", "--deals", "60"]
    )
    assert result.exit_code == 0, result.output
    assert "points per player-round" in result.output and "--variant wuwang" in result.output


def test_compare_refuses_a_policy_the_variant_does_not_allow():
    result = CliRunner().invoke(
        main,
        [
            "compare",
            "heuristic",
            "heuristic:pass=odd-even",
            "--deals",
            "5",
            "--variant",
            "tientsin",
        ],
    )
    assert result.exit_code == 2
    assert "only partners receive cards" in result.output and "\n" == result.output[-1]
    assert result.output.count("\n") == 1


def test_bomb_column_is_bombs_played_and_options_apply():
    """The bomb column counts bombs the seats played (the engine's ``bombs_played``); a rules
    Option reaches the matches (RULES.md §2.6 Option)."""
    r = duplicate("heuristic", "random", 300, seed=1, options={"phoenix_led_half": True})
    for e in r.per_strategy["bombs_played"]:
        assert e.n == 2 * 300 * 2 and 0 < e.value < 1  # two seats of the side, two tables
    assert "plays a bomb" in r.to_markdown()
    res = CliRunner().invoke(
        main,
        [
            "compare",
            "heuristic",
            "random",
            "--deals",
            "200",
            "--option",
            "phoenix_led_half=true",
            "--quiet",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "--option phoenix_led_half=true" in res.output
    res = CliRunner().invoke(main, ["compare", "heuristic", "random", "--option", "nope=1"])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1, res.output


# -- a match's progress, workers and Ctrl-C ----------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
DOG_PASSER = {"agent": str(ROOT / "examples" / "dog_passer.py") + ":DogPasser"}


@pytest.mark.parametrize(
    ("a", "deals"), [("heuristic:pass=lowest", 3000), (DOG_PASSER, 60)], ids=["kernels", "agent"]
)
@pytest.mark.slow
def test_workers_give_the_same_figures(a, deals):
    """Blocks in two spawned processes, merged in deal order: the same per-deal margins and
    table as one process, for a scripted strategy and for a Python agent."""
    one = duplicate(parse_strategy(a) if isinstance(a, str) else a, "heuristic", deals, seed=7)
    two = duplicate(
        parse_strategy(a) if isinstance(a, str) else a, "heuristic", deals, seed=7, workers=2
    )
    assert one.deals == two.deals == deals and not two.partial
    np.testing.assert_array_equal(one.margins, two.margins)
    assert one.per_strategy.to_string() == two.per_strategy.to_string()


def test_progress_reports_the_running_margin_and_ctrl_c_keeps_the_deals_played():
    """``progress`` hears each block with the margin so far; a Ctrl-C in the middle raises
    ``Interrupted`` holding exactly the deals finished, the same figures as a match of that
    many deals."""
    heard = []

    def progress(done, total, margin):
        heard.append((done, margin))
        if len(heard) == 3:  # the compile notice, then two blocks
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        duplicate(DOG_PASSER, "heuristic", 100, seed=2, progress=progress)
    partial = stop.value.result
    assert heard[0][0] == 0 and heard[2][0] == partial.deals == 20 < partial.planned == 100
    assert partial.partial and "PARTIAL" in markdown_report(partial, "tichusim compare")
    whole = duplicate(DOG_PASSER, "heuristic", 20, seed=2)
    np.testing.assert_array_equal(partial.margins, whole.margins)
    assert heard[2][1].value == pytest.approx(whole.diff.value)


@pytest.mark.slow
def test_cli_ctrl_c_prints_the_partial_figures_and_exits_130(tmp_path):
    """A real SIGINT to ``tichusim compare`` with a Python agent, sent once the progress bar
    shows deals played: the deals played so far are printed, marked partial; ``--out`` is not
    written; the exit status is 130."""
    import threading

    duplicate(DOG_PASSER, "heuristic", 2)  # the kernels compiled and cached before it starts
    out = tmp_path / "match.md"
    deals = 10_000_000  # never finished before the signal, however fast the stepping
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tichusim.cli",
            "compare",
            f"agent:{DOG_PASSER['agent']}",
            "heuristic",
            "--deals",
            str(deals),
            "--workers",
            "1",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        # a shell's background job (`.ci/run &`) starts with SIGINT ignored, and a Python
        # started so installs no KeyboardInterrupt: the child gets the default a terminal has
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen: list[str] = []
    playing = threading.Event()

    def watch():  # the bar shows a running margin (a number) once a block is played
        for char in iter(lambda: proc.stderr.read(1), ""):
            seen.append(char)
            if char == "]" and re.search(r"DogPasser - heuristic [+-]\d", "".join(seen[-80:])):
                playing.set()

    reader = threading.Thread(target=watch, daemon=True)
    reader.start()
    try:
        assert playing.wait(timeout=600), "".join(seen)[-2000:]
        proc.send_signal(signal.SIGINT)
        stdout = proc.stdout.read()
        proc.wait(timeout=300)
    finally:
        proc.kill()  # never left running if the test fails (a no-op once it exited)
    reader.join(timeout=60)
    stderr = "".join(seen)
    assert proc.returncode == 130, stderr[-2000:]
    assert "interrupted: partial figures" in stderr and "Traceback" not in stderr
    assert "PARTIAL" in stdout and f"of {deals:,} deals" in stdout
    assert not out.exists()


FAILING = '''
from tichusim import Agent


class Failing(Agent):
    """First legal play; fails at about one play decision in 500 (drawn from view.random,
    so at the same decisions of the same deals whenever a deal is played)."""

    def play(self, view, legal):
        if view.random.random() < 0.002:
            raise ValueError("boom")
        return legal[0]
'''


@pytest.fixture
def failing(tmp_path):
    path = tmp_path / "failing.py"
    path.write_text(FAILING)
    return {"agent": f"{path}:Failing"}


def test_a_player_failing_costs_its_deal_not_the_match(failing):
    """A Python agent failing at a deal stops the match with the deals before it kept and
    the failing deal named; ``skip_failed`` plays on without the failing deals."""
    from tichusim.analysis.duplicate import Failed, duplicate

    with pytest.raises(Failed) as caught:
        duplicate(failing, "heuristic", 60, seed=2)
    stop = caught.value
    first = stop.result.deals
    assert 0 < first < 60 and f"round key {first}" in str(stop) and "boom" in str(stop)
    assert stop.result.partial and f"deal {first}" in stop.result.stopped
    skipped = duplicate(failing, "heuristic", 60, seed=2, skip_failed=True)
    failed = [deal for deal, _ in skipped.failed]
    assert failed[0] == first and skipped.deals + len(failed) == 60 and not skipped.partial
    before = duplicate(failing, "heuristic", first, seed=2)
    np.testing.assert_array_equal(before.margins, skipped.margins[:first])
    assert "left out" in markdown_report(skipped, "cmd")


def test_compare_reports_the_deals_before_a_failure(failing):
    agent = f"agent:{failing['agent']}"
    out = CliRunner().invoke(main, ["compare", agent, "heuristic", "--deals", "60", "--quiet"])
    assert out.exit_code == 1
    assert "PARTIAL" in out.stdout and "Stopped: a player failed at deal" in out.stdout
    assert "--skip-failed plays on" in out.stderr and "Traceback" not in out.output
    out = CliRunner().invoke(
        main, ["compare", agent, "heuristic", "--deals", "60", "--quiet", "--skip-failed"]
    )
    assert out.exit_code == 0 and "left out" in out.stdout
