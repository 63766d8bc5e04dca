"""tichusim's own games written as logs that review and import read back (issue: real games
in, our own too): ``played_game``, ``played_round`` and ``tichusim show --log``."""

import pytest
from click.testing import CliRunner

import tichusim
from tichusim.cli import main
from tichusim.games.steps import Round
from tichusim.logs import played_game, played_round, read_game, write_game


@pytest.mark.parametrize("variant", ["nanjing", "wuwang"])
def test_a_played_game_is_simulate_games_own(variant, tmp_path):
    """Each round of the record replays to ``simulate_games``' score for it (§2.15: the
    first drawers, or the Kings, chained as the game chained them)."""
    g = played_game(4, 1, strategies="expert", variant=variant)
    rounds, _ = tichusim.simulate_games(
        1, seed=4, strategies="expert", variant=variant, first_game=1
    )
    assert len(g.rounds) == len(rounds) and g.players[0] == "expert"
    for record, row in zip(g.rounds, rounds.itertuples(), strict=True):
        replayed, _ = Round.from_record(record).tables()
        assert int(replayed.score_team0[0]) == int(record.score[0])
        assert int(replayed.first_drawer[0]) == int(row.first_drawer)
    path = tmp_path / "game.json"
    write_game(g, path)
    assert read_game(path).game == g


@pytest.mark.parametrize("name", ["round.json", "round.tch"])
def test_show_writes_the_round_it_shows(tmp_path, name):
    """The JSON record is the round's whole; BSW's format keeps what its logs hold (no Tichu
    moments, no Dog's lead): both replay to the score ``show`` prints."""
    log = tmp_path / name
    args = ["show", "--seed", "3", "--round", "2", "--strategies", "expert", "--log", str(log)]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    read = read_game(log)
    assert read.problems == []
    (record,) = read.game.rounds
    if name.endswith(".json"):
        assert record == played_round(3, 2, strategies="expert").rounds[0]
    replayed, _ = Round.from_record(record).tables()
    a, b = int(replayed.score_team0[0]), int(replayed.score_team1[0])
    assert f"score team 0: {a}, team 1: {b}" in out.stdout.strip().splitlines()[-1]
