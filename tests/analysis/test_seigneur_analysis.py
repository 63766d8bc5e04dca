"""The Grand Seigneur analysis (RULES.md §5: rank-to-rank transitions, how long a Grand
Seigneur keeps the title) on tables with known answers, and its script end to end."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tichusim.analysis.seigneur_analysis import reign_summary, reigns, transitions
from tichusim.games.seigneur import simulate_seigneur

ROOT = Path(__file__).resolve().parents[2]


def _rounds(winners_by_game):
    rows = []
    for game, winners in enumerate(winners_by_game):
        for r, w in enumerate(winners):
            kept = pd.NA if r == 0 else winners[r - 1] == w
            rows.append({"game": game, "round_in_game": r, "grand_seigneur": w, "kept_title": kept})
    out = pd.DataFrame(rows)
    out["kept_title"] = out["kept_title"].astype("boolean")
    return out


def test_reigns_are_runs_of_the_same_winner_censored_at_the_game_end():
    table = reigns(_rounds([[3, 3, 1, 1, 1, 2], [0, 0]]))
    assert table[["game", "player", "start", "length", "censored"]].values.tolist() == [
        [0, 3, 0, 2, False],
        [0, 1, 2, 3, False],
        [0, 2, 5, 1, True],
        [1, 0, 0, 2, True],
    ]
    s = reign_summary(_rounds([[3, 3, 1, 1, 1, 2], [0, 0]]))
    assert s["mean_reign"].value == 2.5 and s["reigns"] == 2 and s["censored"] == 2
    assert s["p_keep"].value == pytest.approx(4 / 6)  # kept in 3 of 5, then 1 of 1
    assert s["memoryless_mean"] == pytest.approx(3.0)


def test_transitions_count_rank_before_to_rank_after():
    seats = pd.DataFrame(
        {
            "rank_before": pd.array([pd.NA, pd.NA, 1, 2, 2, 1], dtype="Int64"),
            "rank_after": [1, 2, 2, 1, 2, 1],
        }
    )
    counts, shares = transitions(seats)
    assert counts.values.tolist() == [[1, 1], [1, 1]]
    assert shares.values.tolist() == [[0.5, 0.5], [0.5, 0.5]]
    with pytest.raises(ValueError, match="rounds_per_game > 1"):
        transitions(seats.iloc[:2])


def test_on_simulated_games_rows_sum_to_one_and_keeping_matches_the_matrix():
    rounds, seats = simulate_seigneur(
        50, players=6, seed=1, rounds_per_game=10, strategies="heuristic"
    )
    counts, shares = transitions(seats)
    assert (shares.sum(axis=1).round(12) == 1).all()
    assert counts.to_numpy().sum() == 50 * 9 * 6  # every ranked player-round
    s = reign_summary(rounds)
    assert s["p_keep"].value == pytest.approx(shares.loc[1, 1])  # P(keep) = P(1 -> 1)
    assert reigns(rounds)["length"].sum() == len(rounds)  # reigns partition the rounds


@pytest.mark.slow
def test_the_script_writes_table_csv_and_plot(tmp_path):
    out = tmp_path / "gs"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "seigneur_analysis.py"),
            "--games",
            "20",
            "--rounds-per-game",
            "6",
            "--players",
            "5,8",
            "--out",
            str(out),
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    text = (out / "table.md").read_text()
    assert "Regenerate: `python scripts/seigneur_analysis.py --games 20" in text
    assert "### 8 players" in text and "| heuristic | 5 |" in text and "| random | 8 |" in text
    assert "Completed reign lengths" in text
    for name in ("seigneur.png", "summary.csv", "transitions_p5.csv", "reign_lengths.csv"):
        assert (out / name).stat().st_size > 0
