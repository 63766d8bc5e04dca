"""report: a Markdown summary and PNG plots written into a run directory, for every variant
(RULES.md §2-§5); the figures in report.md are checked against the tables themselves."""

import re

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tichusim.analysis.report import variant_of
from tichusim.analysis.seigneur_analysis import transitions
from tichusim.cli import main
from tichusim.runs.read import load
from tichusim.runs.runner import run
from tichusim.stats import mean_ci, wilson

FIGURES = ["bombs_when.png", "call_success.png", "finish.png", "scores.png"]
GT = {"base": "heuristic", "grand_tichu": "always", "name": "gt"}  # calls whenever allowed


def _check(run_dir, figures=FIGURES):
    res = CliRunner().invoke(main, ["report", str(run_dir)])
    assert res.exit_code == 0, res.output
    text = (run_dir / "report.md").read_text()
    assert sorted(p.name for p in (run_dir / "report").iterdir()) == sorted(figures)
    for name in figures:
        assert (run_dir / "report" / name).read_bytes()[:4] == b"\x89PNG"
        assert f"(report/{name})" in text
    return text


def _row(text, first, which=0):
    """The cells of the Markdown table row whose first cell is ``first`` (``which``: of the
    rows starting so, e.g. -1 for the finishing table, the last of a report)."""
    lines = [x for x in text.splitlines() if x.startswith(f"| {first} |")]
    return lines[which].strip("| ").split(" | ")[1:]


def _pct(e):
    return f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _pts(e):
    return f"{e.value:+.1f} [{e.low:+.1f}, {e.high:+.1f}]"


def _share(hits):
    hits = np.asarray(hits, bool)
    return wilson(int(hits.sum()), hits.size)


def _tables(run_dir):
    data = load(run_dir)
    return data.rounds, data.seats


def _play(tmp_path_factory, name, **config):
    out = tmp_path_factory.mktemp(name) / "run"
    run({"seed": 3, **config}, out=out, workers=1, progress=False)
    return out


# ---- Nanjing (§2) ------------------------------------------------------------------------------


def test_report_of_a_run_directory(tmp_path):
    cfg = {
        "rounds": 3000,
        "seed": 5,
        "shard_size": 1000,
        "strategies": [GT, "lowest", GT, "lowest"],
    }
    out = tmp_path / "run"
    run(cfg, out=out, workers=1, progress=False)
    text = _check(out)
    assert "Tichu Nanjing, 4 players (RULES.md §2)" in text
    assert "3 of 3 shards done" in text and "3,000 rounds" in text
    rounds = pd.read_parquet(out / "rounds")
    dv = rounds["double_victory"].mean()
    assert re.search(rf"\| double victories \| {100 * dv:.1f}% \[", text)
    assert "| Grand Tichu | " in text  # every round has two Grand Tichu calls
    # one strategy per team: its team's figures are the team's, per round (not per seat)
    t0 = rounds["score_team0"].mean()
    assert f"| gt | 6,000 | {t0:+.1f} [" in text
    won = rounds["double_victory"] & (rounds["first_out"] % 2 == 0)
    assert _row(text, "gt")[-1] == _pct(_share(won))  # double victory (its team)


def test_report_of_a_simulate_folder(tmp_path):
    out = tmp_path / "sim"
    assert (
        CliRunner()
        .invoke(
            main, ["simulate", "--rounds", "1500", "--strategies", "heuristic", "--out", str(out)]
        )
        .exit_code
        == 0
    )
    text = _check(out)
    seats = pd.read_parquet(out / "seats.parquet")
    # one strategy: finishing positions per seat, each share with its interval
    assert _row(text, "seat 0")[0] == _pct(_share(seats[seats.seat == 0].finish == 1))
    # what the seats did: when first bombs fall, points taken by finishing place
    assert "## What the seats did" in text and (out / "report" / "bombs_when.png").exists()
    bombed = seats["bombs_played"] > 0
    assert f"| seat-rounds with a bomb played | {_pct(_share(bombed))} |" in text
    first = seats[seats.finish == 1]["card_points_won"].mean()
    assert f"| 1st out | {len(seats[seats.finish == 1]):,} | {first:.3f} [" in text


def test_report_refuses_a_folder_without_a_run(tmp_path):
    res = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 2
    assert res.output.strip().count("\n") == 0 and "holds no run" in res.output
    assert list(tmp_path.iterdir()) == []


def test_variant_of_refuses_mixed_or_unknown_tables():
    assert variant_of(pd.DataFrame({"round": [0]})) == "nanjing"  # tables before variants
    with pytest.raises(ValueError, match="one of nanjing, tientsin"):
        variant_of(pd.DataFrame({"variant": ["nanjing", "tientsin"]}))
    with pytest.raises(ValueError, match="chess"):
        variant_of(pd.DataFrame({"variant": ["chess"]}))


# ---- Tientsin (§3) -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tientsin(tmp_path_factory):
    out = _play(
        tmp_path_factory, "tientsin", variant="tientsin", rounds=400, strategies=[GT, "lowest"] * 3
    )
    return out, _check(out), *_tables(out)


def test_tientsin_rounds_and_strategies(tientsin):
    _, text, rounds, seats = tientsin
    assert "Tichu Tientsin, 6 players in two teams of three (RULES.md §3)" in text
    assert _row(text, "team 0 points/round") == [_pts(mean_ci(rounds.score_team0))]
    assert _row(text, "triple victories") == [_pct(_share(rounds.triple_victory))]
    assert "double" not in text  # §3: no double victory
    # team 0 is all `gt`: its team-round figures are team 0's
    gt = _row(text, "gt")
    assert gt[:2] == ["1,200", _pts(mean_ci(rounds.score_team0))]
    mine = seats[seats.strategy == "gt"]
    called = mine[mine.grand_tichu]
    assert len(called) == len(mine)  # always, after 6 cards
    assert gt[5] == _pct(_share(called.finish == 1))  # Grand Tichu success
    assert gt[4] == "100.0% [99.7, 100.0]"  # Grand Tichu calls
    won = rounds.triple_victory & (rounds.first_out % 2 == 0)
    assert gt[-1] == _pct(_share(won))  # triple victory (its team)


def test_tientsin_calls_on_six_cards_and_six_places(tientsin):
    _, text, _, seats = tientsin
    assert "first 6 cards (Grand Tichu)" in text and "`hand8` column holds those 6" in text
    head = next(x for x in text.splitlines() if x.startswith("| strategy | 1st out"))
    assert head == "| strategy | 1st out | 2nd | 3rd | 4th | 5th | last | beaten 1-2-3 |"
    low = seats[seats.strategy == "lowest"]
    cells = _row(text, "lowest", -1)
    for cell, value in zip(cells, [1, 2, 3, 4, 5, 6, 0], strict=False):
        assert cell == _pct(_share(low.finish == value))


# ---- Wu Wang (§4) ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wuwang(tmp_path_factory):
    out = _play(
        tmp_path_factory,
        "wuwang",
        variant="wuwang",
        mode="games",
        games=40,
        strategies=[GT, "lowest", "random"],
    )
    text = _check(out, FIGURES + ["players.png", "winners.png"])
    return out, text, *_tables(out)


def test_wuwang_players_and_the_kings_side(wuwang):
    _, text, rounds, seats = wuwang
    assert "Wu Wang, 3 players and the Minister (RULES.md §4)" in text
    for p, name in enumerate(["gt", "lowest", "random"]):
        king, points, first = _row(text, f"player {p} ({name})")
        assert king == _pct(_share(rounds.king == p))
        assert points == _pts(mean_ci(rounds[f"score_player{p}"]))
        assert first == _pct(_share(seats[seats.seat == p].finish == 1))
    assert _row(text, "Minister")[1] == _pts(mean_ci(rounds.score_minister))
    outscores = rounds.score_team0 > rounds.score_team1  # team 0: the King's side
    assert _row(text, "King's side outscores the opponents") == [_pct(_share(outscores))]
    assert _row(text, "rounds per game") == ["9 (every game)"]


def test_wuwang_games_are_won_by_players_the_minister_or_tied(wuwang):
    _, text, rounds, _ = wuwang
    over = rounds[rounds.game_over]
    assert len(over) == 40
    shares = []
    for code, first in [
        (0, "player 0 (gt)"),
        (1, "player 1 (lowest)"),
        (2, "player 2 (random)"),
        (3, "Minister"),
        (-1, "tie"),
    ]:
        wins = _row(text, first, -1)  # the games table
        e = _share(over.winner == code)
        assert wins[0] == _pct(e)
        shares.append(e.value)
    assert sum(shares) == pytest.approx(1)
    total = over.total_minister.mean()
    assert _row(text, "Minister", -1)[-1].startswith(f"{total:+.1f} [")  # final total


def test_wuwang_roles_call_as_the_rules_allow(wuwang):
    _, text, rounds, seats = wuwang
    for role in ("king", "minister"):
        cells = _row(text, role)
        assert cells[4:6] == ["not allowed (§4)"] * 2  # Grand Tichu: opponents only
        assert not seats[seats.role == role].grand_tichu.any()
    opp = seats[seats.role == "opponent"]
    cells = _row(text, "opponent")
    assert cells[0] == f"{len(opp):,}" == f"{2 * len(rounds):,}"
    assert cells[4] == _pct(_share(opp.grand_tichu))
    assert cells[5] == _pct(_share(opp[opp.grand_tichu].finish == 1))
    assert cells[1] == _pts(mean_ci(rounds.score_team1))  # its side, once per round
    # finishing positions per role, in the role order of the rules
    lines = [x for x in text.splitlines() if x.startswith("| king |") or x.startswith("| role |")]
    assert lines[-1].startswith("| king |") and "| 1st out | 2nd | 3rd | last |" in lines[-2]
    minister = seats[seats.role == "minister"]
    assert _row(text, "minister", -1)[0] == _pct(_share(minister.finish == 1))


def test_wuwang_independent_rounds_have_no_games_section(tmp_path):
    out = tmp_path / "sim"
    res = CliRunner().invoke(
        main,
        [
            "simulate",
            "--variant",
            "wuwang",
            "--rounds",
            "300",
            "--strategies",
            "heuristic",
            "--out",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    text = _check(out, FIGURES + ["players.png"])
    assert "## Games" not in text and "rounds per game" not in text
    assert "## Roles" in text


# ---- Grand Seigneur (§5) -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def seigneur(tmp_path_factory):
    out = _play(
        tmp_path_factory,
        "seigneur",
        variant="grand-seigneur",
        players=6,
        mode="games",
        games=40,
        strategies="heuristic",
        options={"game_rounds": 6},
    )
    return out, _check(out, ["ranks.png", "transitions.png"]), *_tables(out)


def test_seigneur_ranks_per_player(seigneur):
    _, text, rounds, seats = seigneur
    assert "Grand Seigneur, 6 players (RULES.md §5)" in text
    assert "Tichu" not in text and "team" not in text  # §5: no calls, no teams
    for p in range(6):
        mine = seats[seats.player == p]
        cells = _row(text, f"player {p}")
        e = mean_ci(mine.rank_after)
        assert cells[:2] == ["240", f"{e.value:.3f} [{e.low:.3f}, {e.high:.3f}]"]
        assert cells[2] == _pct(_share(mine.rank_after == 1))
        assert cells[3] == _pct(_share(mine.rank_after == 6))
    assert _row(text, "rounds per game") == ["6 (every game)"]


def test_seigneur_transition_matrix_and_reigns(seigneur):
    _, text, rounds, seats = seigneur
    counts, shares = transitions(seats)
    assert np.allclose(shares.sum(axis=1), 1)
    for before in range(1, 7):
        cells = _row(text, str(before))  # the matrix row: 6 shares, rounds, widest half-width
        assert cells[:6] == [f"{100 * v:.0f}" for v in shares.loc[before]]
        assert cells[6] == f"{counts.loc[before].sum():,}" == "200"  # 40 games x 5 ranked rounds
    keep = _share(rounds.kept_title.dropna())
    assert keep.value == pytest.approx(shares.loc[1, 1])  # P(keep) = P(1 -> 1)
    assert _row(text, "Grand Seigneur keeps the title (first again)") == [_pct(keep)]
    assert "Ranks need games" not in text


def test_seigneur_independent_rounds_say_ranks_need_games(tmp_path_factory):
    out = _play(
        tmp_path_factory,
        "seigneur_rounds",
        variant="grand-seigneur",
        players=5,
        rounds=200,
        strategies=["heuristic", "random"] * 2 + ["lowest"],
    )
    text = _check(out, ["ranks.png"])
    _, seats = _tables(out)
    assert "Ranks need games" in text and "## Rank to rank" in text
    assert "rounds per game" not in text
    rnd = seats[seats.strategy == "random"]
    assert _row(text, "random")[0] == "400"
    assert _row(text, "random")[2] == _pct(_share(rnd.rank_after == 1))


def test_report_of_games_read_in(tmp_path):
    """A directory of real games read in (``tichusim import``) reports as a run's: the
    rounds, the players as ``human``, with no games won (a log's games are not played to
    their end here)."""
    from pathlib import Path

    from tichusim.runs.imports import import_games

    logs = sorted((Path(__file__).parents[1] / "data" / "bsw").glob("*.tch"))
    import_games(logs, tmp_path / "imported", workers=1, progress=False)
    text = _check(tmp_path / "imported")
    assert "Source: 30 rounds, import " in text and "3 games" in text
    assert _row(text, "human")[0] == "120"
    assert "games won" not in text
