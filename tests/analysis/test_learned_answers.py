"""The answers with the ``learned`` strategy at the table: ``gt-odds``, ``tichu-odds``,
``pass-advice``, ``gt-table`` and a batch run take it at every seat (the seat asked about and
each other seat, through the library and the command line), the fixed deals of the odds and
the pass advice included, and its network is what plays: other weights give other answers."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from support.learned_weights import write_weights

from tichusim.analysis import gttable
from tichusim.analysis.gtodds import gt_odds
from tichusim.analysis.passadvice import pass_advice
from tichusim.analysis.tichuodds import tichu_odds
from tichusim.cli import main

GT_HAND = "Dr Ph A A K 9 5 3"
TICHU_HAND = "Dr Ph Aj As K K Q J T 9 7 5 3 2"
PASS_HAND = "Dog Ma 2j 3s 5p 7t 8j 9s Jp Qt Kj Ks Ph Dr"
PASSES = ["2j, Ks, 5p", "3s, Dr, 2j", "5p, Ph, Dog"]
DEALS = 300


@pytest.fixture(scope="module")
def nets(tmp_path_factory) -> tuple[str, str]:
    """Two ``learned`` strategies of two tiny random networks."""
    tmp = tmp_path_factory.mktemp("weights")
    return tuple(
        f"learned[weights={write_weights(tmp / f'w{seed}.npz', 16, 8, seed=seed)}]"
        for seed in (1, 2)
    )


def _same(a, b) -> bool:
    """Two answers' figures equal (their timing left out)."""

    def figures(x):
        return {k: v for k, v in x.to_dict().items() if k != "seconds"}

    return figures(a) == figures(b)


def test_gt_odds_with_learned_at_every_seat_is_its_own_answer(nets):
    a, b = nets
    learned = gt_odds(GT_HAND, deals=DEALS, seed=3, seat_strategy=a, others=a)
    assert learned.deals == DEALS and 0 < learned.p_success.value < 1
    assert len(learned.strategies) == 4 and all("learned" in s for s in learned.strategies)
    # the same deals under expert, and under other weights, answer otherwise: the net plays
    expert = gt_odds(GT_HAND, deals=DEALS, seed=3)
    other = gt_odds(GT_HAND, deals=DEALS, seed=3, seat_strategy=b, others=b)
    assert not _same(learned, expert) and not _same(learned, other)
    assert _same(learned, gt_odds(GT_HAND, deals=DEALS, seed=3, seat_strategy=a, others=a))


def test_gt_odds_with_two_networks_and_expert_at_one_table(nets):
    a, b = nets
    mixed = gt_odds(GT_HAND, deals=DEALS, seed=3, seat_strategy=a, others=[b, "expert", b])
    assert mixed.deals == DEALS
    assert not _same(mixed, gt_odds(GT_HAND, deals=DEALS, seed=3, seat_strategy=a, others=a))


def test_tichu_odds_with_learned_at_every_seat(nets):
    a, _ = nets
    for played in (None, 6):
        learned = tichu_odds(
            TICHU_HAND, deals=DEALS, seed=1, seat_strategy=a, others=a, played=played
        )
        assert learned.deals == DEALS and 0 < learned.p_success.value <= 1
        expert = tichu_odds(TICHU_HAND, deals=DEALS, seed=1, played=played)
        assert not _same(learned, expert)


def test_pass_advice_with_learned_differs_from_experts_on_the_same_deals(nets):
    a, _ = nets
    given = {"candidates": PASSES, "generated": False, "deals": DEALS, "seed": 2}
    learned = pass_advice(PASS_HAND, strategy=a, others=a, **given)
    expert = pass_advice(PASS_HAND, **given)
    assert learned.rounds == expert.rounds == len(PASSES) * DEALS
    # the same passes on the same deals: each one's figures move with the players
    by_cards = {c.cards: c.points.value for c in expert.candidates}
    assert sorted(by_cards) == sorted(c.cards for c in learned.candidates)
    assert all(c.points.value != by_cards[c.cards] for c in learned.candidates)


def test_gt_table_experiment_with_learned_at_every_seat(nets):
    a, b = nets
    t = gttable.run_experiment(1000, seed=1, seat_strategy=a, others=[a, b, a])
    assert t.overall["deals"] == 1000
    assert "learned" in t.info["seat_strategy"] and "learned" in t.info["others"]
    classes = gttable.by_class(
        gttable.experiment(1000, seed=1, seat_strategy=a, others=a), ["aces"]
    )
    assert classes["deals"].sum() == 1000
    expert = gttable.by_class(gttable.experiment(1000, seed=1), ["aces"])
    assert not classes["ev_diff"].equals(expert["ev_diff"])


def _cli(args) -> str:
    res = CliRunner().invoke(main, [str(x) for x in args])
    assert res.exit_code == 0, res.output
    return res.output


def test_each_command_takes_learned_at_every_seat(nets, tmp_path):
    a, b = nets
    seats = ["--seat-strategy", a, "--others", f"{a},{b},{a}"]
    every = ["--seat-strategy", a, "--others", a]
    out = json.loads(_cli(["gt-odds", "--hand", GT_HAND, "--rounds", DEALS, "--json", *seats]))
    assert out["deals"] == DEALS
    out = json.loads(
        _cli(["tichu-odds", "--hand", TICHU_HAND, "--rounds", DEALS, "--json", *every])
    )
    assert out["deals"] == DEALS
    given = [x for p in PASSES for x in ("--candidate", p)]
    pass_args = ["--hand", PASS_HAND, "--deals", DEALS, "--only-given", "--json", *given]
    out = json.loads(_cli(["pass-advice", *pass_args, *seats]))
    assert len(out["candidates"]) == len(PASSES)
    _cli(["gt-table", "--deals", 1000, "--quiet", "--out", tmp_path / "gt", *every])
    assert "learned" in (tmp_path / "gt" / "table.md").read_text()


def test_a_run_config_seats_learned_at_every_seat(nets, tmp_path):
    a, b = nets
    config = tmp_path / "run.toml"
    config.write_text(
        f'rounds = 400\nseed = 1\nstrategies = ["{a}", "{b}", "{a}", "learned:weights='
        f'{a[len("learned[weights=") : -1]},pass=lowest"]\nout = "{tmp_path / "run"}"\n'
    )
    _cli(["run", config, "--quiet"])
    rounds = pd.read_parquet(tmp_path / "run" / "rounds")
    assert len(rounds) == 400 and rounds["strategy0"].str.startswith("learned").all()
    assert rounds["strategy3"].str.contains("pass=lowest").all()


@pytest.mark.slow
def test_answers_by_strength_writes_its_page(nets, tmp_path):
    """``scripts/answers_by_strength.py`` end to end, small: one column per strategy, every
    section, the command at the top."""
    a, _ = nets
    out = tmp_path / "answers.md"
    root = Path(__file__).resolve().parents[2]
    script = root / "scripts" / "answers_by_strength.py"
    args = ["--strategies", "expert", a, "--deals", "1000", "--search-deals", "0"]
    subprocess.run(
        [sys.executable, str(script), *args, "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=root,
    )
    text = out.read_text()
    assert text.startswith("# The answers by the strength")
    assert "Regenerate: `python scripts/answers_by_strength.py --strategies expert" in text
    for section in ("Grand Tichu by hand class", "Tichu after the passing", "The best pass"):
        assert f"## {section}" in text
    assert "| Tichu success (caller out first) |" in text
    table = [line for line in text.splitlines() if line.startswith("| all hands |")]
    assert len(table) == 2 and all(line.count("[") == 2 for line in table)  # two columns
